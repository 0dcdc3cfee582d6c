/* store_db.c — the SQLite helpers of the results store (store_internal.h): errors that
 * name the device when the disk is full, statements run with the lock wait, transactions,
 * binding and reading columns; and who owns a set being written (store_owner).
 */
#include "results/store.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/outfile.h"
#include "os/machine.h"
#include "os/mounts.h"
#include "results/resjson.h"
#include "results/meta.h"
#include "results/store_internal.h"

/* "DEVICE (FSTYPE on MOUNT)" for the file system holding path, into buf. */
const char *store_device_of(const char *path, char *buf, size_t len)
{
    char dir[PATH_MAX], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    struct os_mount m;
    if (realpath(slash ? dir : ".", real) && os_mount_find(real, false, 0, &m) == 0)
        snprintf(buf, len, "%s (%s on %s)", m.source, m.fstype, m.mount_point);
    else
        snprintf(buf, len, "the device holding %s", path);
    return buf;
}

int store_sqerr(struct store *s, const char *what)
{
    int code = sqlite3_errcode(s->db), sys = sqlite3_system_errno(s->db);
    char dev[PATH_MAX + 160];
    /* SQLite says "disk I/O error" for a failed write to its shared-memory file on a full
     * file system, and "database or disk is full" for the database itself */
    if (code == SQLITE_FULL || sys == ENOSPC)
        return error("%s: %s: no space left on %s", s->path, what,
                     store_device_of(s->path, dev, sizeof dev));
    if ((code == SQLITE_CANTOPEN || code == SQLITE_IOERR) && sys)
        return error("%s: %s: %s (%s)", s->path, what, sqlite3_errmsg(s->db), strerror(sys));
    return error("%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

int store_exec(struct store *s, const char *sql, const char *what)
{
    if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return store_sqerr(s, what);
    return 0;
}

/* Runs sql, retrying while the database stays busy beyond the busy timeout (a long
 * checkpoint or a slow writer) until s->wait_ms have passed. 0; STORE_BUSY without a
 * message when quiet_busy and it stayed locked; else -1 after error(). */
int store_exec_wait(struct store *s, const char *sql, const char *what, bool quiet_busy)
{
    int rc = SQLITE_OK;
    unsigned attempts = s->wait_ms / STORE_BUSY_STEP_MS;
    sqlite3_busy_timeout(s->db, (int)(s->wait_ms < STORE_BUSY_STEP_MS ? s->wait_ms
                                                                      : STORE_BUSY_STEP_MS));
    for (unsigned attempt = 0; attempt < (attempts ? attempts : 1); attempt++) {
        rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
        if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
            break;
        usleep(100000);
    }
    if (rc == SQLITE_OK)
        return 0;
    if (quiet_busy && (rc == SQLITE_BUSY || rc == SQLITE_LOCKED))
        return STORE_BUSY;
    return store_sqerr(s, what);
}

int store_exec_retry(struct store *s, const char *sql, const char *what)
{
    return store_exec_wait(s, sql, what, false);
}

int store_tx_begin(struct store *s)
{
    return store_exec_retry(s, "BEGIN IMMEDIATE", "cannot start a transaction");
}

int store_tx_commit(struct store *s)
{
    if (store_exec_retry(s, "COMMIT", "cannot commit") == 0)
        return 0;
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

void store_tx_rollback(struct store *s)
{
    if (!sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

sqlite3_stmt *store_prepare(struct store *s, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        store_sqerr(s, "cannot prepare a statement");
        return NULL;
    }
    return st;
}

/* Binders return 0 or non-zero, so a run of binds can be OR-ed and checked once. */
int store_bind_str(sqlite3_stmt *st, int i, const char *v, size_t size)
{
    return sqlite3_bind_text(st, i, v, (int)strnlen(v, size), SQLITE_TRANSIENT) != SQLITE_OK;
}

#define BIND_STR(st, i, field) store_bind_str(st, i, field, sizeof(field))

int store_bind_u64(sqlite3_stmt *st, int i, uint64_t v)
{
    return sqlite3_bind_int64(st, i, (sqlite3_int64)v) != SQLITE_OK; /* read back as-is */
}

int store_bind_real(sqlite3_stmt *st, int i, double v)
{
    return (isfinite(v) ? sqlite3_bind_double(st, i, v) : sqlite3_bind_null(st, i)) !=
           SQLITE_OK;
}

int store_bind_json(sqlite3_stmt *st, int i, json_t *j)
{
    if (!j)
        return 1;
    char *text = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(j);
    if (!text)
        return 1;
    return sqlite3_bind_text(st, i, text, -1, free) != SQLITE_OK;
}

double store_col_real(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

uint64_t store_col_u64(sqlite3_stmt *st, int i)
{
    return (uint64_t)sqlite3_column_int64(st, i);
}

void store_col_str(sqlite3_stmt *st, int i, char *buf, size_t size)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(buf, size, "%s", t ? (const char *)t : "");
}

#define COL_STR(st, i, field) store_col_str(st, i, field, sizeof(field))

/* Parses a JSON column; NULL after error() naming the row. */
json_t *store_col_json(struct store *s, sqlite3_stmt *st, int i, const char *where)
{
    const char *t = (const char *)sqlite3_column_text(st, i);
    json_error_t je;
    json_t *j = json_loads(t ? t : "", 0, &je);
    if (!j)
        error("%s: damaged JSON: %s", where, je.text);
    return j;
}


const char *store_owner(char *buf, size_t len)
{
    if (os_process_identity((long)getpid(), buf, len) < 0)
        snprintf(buf, len, "%ld", (long)getpid());
    return buf;
}


/* Whether the process owner names (store_owner()'s text) still runs. */
bool store_owner_alive(const char *owner)
{
    char *end, now[STORE_OWNER_MAX];
    long pid = strtol(owner, &end, 10);
    return *owner && end != owner && pid > 0 && os_process_identity(pid, now, sizeof now) == 0 &&
           !strcmp(now, owner);
}
