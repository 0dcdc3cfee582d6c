/* store.c — the SQLite results store (see store.h).
 *
 * Invariants:
 * - The schema is PRAGMA user_version; migrations[] is ordered and each step runs in its
 *   own BEGIN IMMEDIATE transaction that re-reads the version, so two processes opening a
 *   new database at once apply each step once. A database newer than the code is refused.
 * - Every write is one BEGIN IMMEDIATE transaction (the write lock is taken up front, so
 *   a writer waits on the busy timeout instead of failing on a lock upgrade); a run and
 *   its phases commit together or not at all. WAL + synchronous=NORMAL survives kill -9.
 * - One codec: a phase's columns hold what listings and queries need, and detail_json
 *   holds the rest of resjson_from_phase()'s object (ops by kind, rusage, io, latency,
 *   timeline, longest stall). Machine, target and tree are kept as resjson objects too.
 * - The path given is data: it must be a regular file or absent, its side files (-wal,
 *   -shm, -journal) too, and a database with tables of its own that are not this schema is
 *   someone else's and is refused. Readers open it read-only and never create it.
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

struct store {
    sqlite3 *db;
    char *path;
    bool read_only;
    bool empty;        /* read-only and no schema yet: holds no runs */
    unsigned wait_ms;  /* how long a write waits for another process's lock */
    bool light;        /* loads leave detail_json out (store_set_light) */
    /* while light: one read transaction and the loads' statements, kept over many labels
     * (a series of 1,000 labels would otherwise begin, prepare and parse 1,000 times) */
    bool light_tx;
    sqlite3_stmt *light_sets, *light_runs, *light_phases;
};

static bool owner_alive(const char *owner);
/* SQLite's busy handler waits in steps of this; exec_retry tries again after each. */
#define STORE_BUSY_STEP_MS 10000

/* The files SQLite keeps beside a database, and what each is. */
static const char *const side_files[] = {"-wal", "-shm", "-journal", NULL};
static const char *const side_names[] = {"write-ahead log", "shared-memory index", "journal"};

/* ---------------------------------------------------------------- schema */

static const struct {
    int version;
    const char *sql;
} migrations[] = {
    {1, "CREATE TABLE run_sets ("
        " id INTEGER PRIMARY KEY,"
        " label TEXT NOT NULL,"
        " created REAL NOT NULL,"
        " scenario TEXT NOT NULL,"
        " engine TEXT NOT NULL,"
        " command_line TEXT NOT NULL,"
        " root INTEGER NOT NULL,"
        " warm_cache INTEGER NOT NULL,"
        " machine_json TEXT NOT NULL,"
        " target_json TEXT NOT NULL,"
        " tree_json TEXT NOT NULL,"
        /* copies of a few members, for listing and querying */
        " hostname TEXT NOT NULL,"
        " kernel TEXT NOT NULL,"
        " tree_profile TEXT NOT NULL,"
        " tree_scale REAL,"
        " tree_seed INTEGER NOT NULL,"
        " target_path TEXT NOT NULL,"
        " fstype TEXT NOT NULL,"
        " mount_opts TEXT NOT NULL,"
        " device TEXT NOT NULL);"
        "CREATE INDEX run_sets_label ON run_sets(label, created);"
        "CREATE TABLE runs ("
        " id INTEGER PRIMARY KEY,"
        " set_id INTEGER NOT NULL REFERENCES run_sets(id) ON DELETE CASCADE,"
        " idx INTEGER NOT NULL,"
        " round INTEGER NOT NULL,"
        " config TEXT NOT NULL,"
        " warmup INTEGER NOT NULL,"
        " started REAL);"
        "CREATE INDEX runs_set ON runs(set_id, idx);"
        "CREATE TABLE phases ("
        " id INTEGER PRIMARY KEY,"
        " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
        " ord INTEGER NOT NULL,"
        " name TEXT NOT NULL,"
        " status TEXT NOT NULL CHECK (status IN ('ok', 'skipped', 'failed')),"
        " note TEXT NOT NULL,"
        " wall_s REAL, user_s REAL, sys_s REAL,"
        " ops_total INTEGER NOT NULL,"
        " bytes_read INTEGER NOT NULL, bytes_written INTEGER NOT NULL,"
        " files INTEGER NOT NULL, dirs INTEGER NOT NULL, symlinks INTEGER NOT NULL,"
        " dev_valid INTEGER NOT NULL,"
        /* NULL when there is no block device (dev_valid = 0) */
        " dev_reads INTEGER, dev_writes INTEGER,"
        " dev_sectors_read INTEGER, dev_sectors_written INTEGER, dev_io_ticks_ms INTEGER,"
        " detail_json TEXT NOT NULL,"
        " UNIQUE (run_id, ord));"},
    /* the job file a set ran (expanded) and its SHA-256; '' for a command line alone */
    {2, "ALTER TABLE run_sets ADD COLUMN job_text TEXT NOT NULL DEFAULT '';"
        "ALTER TABLE run_sets ADD COLUMN job_hash TEXT NOT NULL DEFAULT '';"},
    /* what finishes an interrupted set (fsbench run --resume): the arguments that made it
     * (a JSON array), where they ran, the runs planned (0: unknown), its state and the
     * process running it; a run stopped by a signal, to be run again */
    {3, "ALTER TABLE run_sets ADD COLUMN args_json TEXT NOT NULL DEFAULT '';"
        "ALTER TABLE run_sets ADD COLUMN cwd TEXT NOT NULL DEFAULT '';"
        "ALTER TABLE run_sets ADD COLUMN planned INTEGER NOT NULL DEFAULT 0;"
        "ALTER TABLE run_sets ADD COLUMN state TEXT NOT NULL DEFAULT 'done'"
        " CHECK (state IN ('running', 'interrupted', 'stopped', 'done'));"
        "ALTER TABLE run_sets ADD COLUMN owner TEXT NOT NULL DEFAULT '';"
        "ALTER TABLE runs ADD COLUMN interrupted INTEGER NOT NULL DEFAULT 0;"},
    /* the set's --meta KEY=VALUE notes (a JSON object of strings) */
    {4, "ALTER TABLE run_sets ADD COLUMN meta_json TEXT NOT NULL DEFAULT '{}';"},
};

#define NMIGRATIONS (sizeof migrations / sizeof migrations[0])
_Static_assert(STORE_SCHEMA_VERSION == 4, "keep STORE_SCHEMA_VERSION and migrations[] in step");

/* Members of a phase object that have their own columns, left out of detail_json. */
static const char *const phase_columns[] = {
    "name",     "status", "note",  "wall_s", "user_s",   "sys_s",   "ops_total", "ops_per_s",
    "bytes_read", "bytes_written", "mb_per_s", "files", "dirs", "symlinks", "device", NULL};

/* ---------------------------------------------------------------- SQLite helpers */

/* "DEVICE (FSTYPE on MOUNT)" for the file system holding path, into buf. */
static const char *device_of(const char *path, char *buf, size_t len)
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

static int sqerr(struct store *s, const char *what)
{
    int code = sqlite3_errcode(s->db), sys = sqlite3_system_errno(s->db);
    char dev[PATH_MAX + 160];
    /* SQLite says "disk I/O error" for a failed write to its shared-memory file on a full
     * file system, and "database or disk is full" for the database itself */
    if (code == SQLITE_FULL || sys == ENOSPC)
        return error("%s: %s: no space left on %s", s->path, what,
                     device_of(s->path, dev, sizeof dev));
    if ((code == SQLITE_CANTOPEN || code == SQLITE_IOERR) && sys)
        return error("%s: %s: %s (%s)", s->path, what, sqlite3_errmsg(s->db), strerror(sys));
    return error("%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

static int exec(struct store *s, const char *sql, const char *what)
{
    if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return sqerr(s, what);
    return 0;
}

/* Runs sql, retrying while the database stays busy beyond the busy timeout (a long
 * checkpoint or a slow writer) until s->wait_ms have passed. 0; STORE_BUSY without a
 * message when quiet_busy and it stayed locked; else -1 after error(). */
static int exec_wait(struct store *s, const char *sql, const char *what, bool quiet_busy)
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
    return sqerr(s, what);
}

static int exec_retry(struct store *s, const char *sql, const char *what)
{
    return exec_wait(s, sql, what, false);
}

static int tx_begin(struct store *s)
{
    return exec_retry(s, "BEGIN IMMEDIATE", "cannot start a transaction");
}

static int tx_commit(struct store *s)
{
    if (exec_retry(s, "COMMIT", "cannot commit") == 0)
        return 0;
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

static void tx_rollback(struct store *s)
{
    if (!sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

static sqlite3_stmt *prepare(struct store *s, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        sqerr(s, "cannot prepare a statement");
        return NULL;
    }
    return st;
}

/* Binders return 0 or non-zero, so a run of binds can be OR-ed and checked once. */
static int bind_str(sqlite3_stmt *st, int i, const char *v, size_t size)
{
    return sqlite3_bind_text(st, i, v, (int)strnlen(v, size), SQLITE_TRANSIENT) != SQLITE_OK;
}

#define BIND_STR(st, i, field) bind_str(st, i, field, sizeof(field))

static int bind_u64(sqlite3_stmt *st, int i, uint64_t v)
{
    return sqlite3_bind_int64(st, i, (sqlite3_int64)v) != SQLITE_OK; /* read back as-is */
}

static int bind_real(sqlite3_stmt *st, int i, double v)
{
    return (isfinite(v) ? sqlite3_bind_double(st, i, v) : sqlite3_bind_null(st, i)) !=
           SQLITE_OK;
}

static int bind_json(sqlite3_stmt *st, int i, json_t *j)
{
    if (!j)
        return 1;
    char *text = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(j);
    if (!text)
        return 1;
    return sqlite3_bind_text(st, i, text, -1, free) != SQLITE_OK;
}

static double col_real(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static uint64_t col_u64(sqlite3_stmt *st, int i)
{
    return (uint64_t)sqlite3_column_int64(st, i);
}

static void col_str(sqlite3_stmt *st, int i, char *buf, size_t size)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(buf, size, "%s", t ? (const char *)t : "");
}

#define COL_STR(st, i, field) col_str(st, i, field, sizeof(field))

/* Parses a JSON column; NULL after error() naming the row. */
static json_t *col_json(struct store *s, sqlite3_stmt *st, int i, const char *where)
{
    const char *t = (const char *)sqlite3_column_text(st, i);
    json_error_t je;
    json_t *j = json_loads(t ? t : "", 0, &je);
    if (!j)
        error("%s: damaged JSON: %s", where, je.text);
    return j;
}

/* ---------------------------------------------------------------- open and close */

int store_default_path(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/') /* the XDG spec says relative values are to be ignored */
        n = snprintf(buf, len, "%s/fsbench/results.db", xdg);
    else if (home && *home)
        n = snprintf(buf, len, "%s/.local/share/fsbench/results.db", home);
    else
        return -1;
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* mkdir -p of the directory holding `path`: the last directory gets mode 0700 (results
 * say what the machine runs), the ones above it 0755. 0 or -1 after error(). */
static int make_parents(const char *path)
{
    char *dir = strdup(path);
    if (!dir)
        return error("out of memory");
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) {
        free(dir);
        return 0;
    }
    *slash = '\0';
    for (char *p = dir + 1;; p++) {
        bool last = *p == '\0';
        if (*p != '/' && !last)
            continue;
        *p = '\0';
        if (mkdir(dir, last ? 0700 : 0755) != 0 && errno != EEXIST) {
            int rc = error_errno("cannot create directory %s", dir);
            free(dir);
            return rc;
        }
        if (last)
            break;
        *p = '/';
    }
    free(dir);
    return 0;
}

static int user_version(struct store *s, int *out)
{
    sqlite3_stmt *st = prepare(s, "PRAGMA user_version");
    if (!st)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : sqerr(s, "cannot read the schema version");
}

static int too_new(struct store *s, int v)
{
    return error("%s: database schema version %d is newer than this fsbench supports (%d); "
                 "upgrade fsbench or use another --db",
                 s->path, v, STORE_SCHEMA_VERSION);
}

/* Brings the schema up to STORE_SCHEMA_VERSION, one transaction per step. */
static int migrate(struct store *s)
{
    int v;
    if (user_version(s, &v) < 0)
        return -1;
    if (v > STORE_SCHEMA_VERSION)
        return too_new(s, v);
    for (size_t i = 0; i < NMIGRATIONS; i++) {
        if (migrations[i].version <= v)
            continue;
        if (tx_begin(s) < 0)
            return -1;
        if (user_version(s, &v) < 0) { /* another process may have got here first */
            tx_rollback(s);
            return -1;
        }
        if (migrations[i].version <= v) {
            tx_rollback(s);
            continue;
        }
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", migrations[i].version);
        if (exec(s, migrations[i].sql, "cannot migrate the schema") < 0 ||
            exec(s, pragma, "cannot set the schema version") < 0) {
            tx_rollback(s);
            return -1;
        }
        if (tx_commit(s) < 0)
            return -1;
        v = migrations[i].version;
    }
    return 0;
}

/* Switches a database to WAL (kept in the file, so usually already done). Changing the
 * journal mode needs an exclusive lock, and SQLite may answer SQLITE_BUSY at once rather
 * than call the busy handler (another process opening the new file at the same moment),
 * so retry here for as long as the busy timeout. WAL is impossible on some file systems
 * (network ones): SQLite then keeps its rollback journal, still safe, just slower. */
static int set_wal(struct store *s)
{
    sqlite3_stmt *st = prepare(s, "PRAGMA journal_mode = WAL");
    if (!st)
        return -1;
    int rc = SQLITE_BUSY;
    for (int waited_ms = 0; waited_ms <= 10000; waited_ms += 20) {
        rc = sqlite3_step(st);
        if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
            break;
        sqlite3_reset(st);
        usleep(20000);
    }
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        return sqerr(s, "cannot set WAL mode");
    }
    const char *mode = (const char *)sqlite3_column_text(st, 0);
    if (!mode || strcmp(mode, "wal") != 0)
        warning("%s: WAL mode not available, using journal mode %s", s->path,
                mode ? mode : "?");
    sqlite3_finalize(st);
    return 0;
}

/* The database and its side files must be regular files (or absent): 0 or -1. */
static int check_files(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return error("%s: not a regular file: the results database must be a regular file "
                     "(or absent, to be made)", path);
    for (size_t i = 0; side_files[i]; i++) {
        char side[4200];
        snprintf(side, sizeof side, "%s%s", path, side_files[i]);
        if (lstat(side, &st) == 0 && !S_ISREG(st.st_mode))
            return error("%s: not a regular file: refusing the results database %s beside it",
                         side, path);
    }
    return 0;
}

/* Whether the database holds fsbench's tables (or none at all, when v is 0): 0, or -1
 * after an error naming the tables it holds instead. */
static int check_schema(struct store *s, int v, bool *none)
{
    sqlite3_stmt *st = prepare(s, "SELECT name FROM sqlite_master WHERE type = 'table'"
                                  " AND name NOT LIKE 'sqlite_%' ORDER BY name");
    if (!st)
        return -1;
    char others[512] = "";
    size_t nothers = 0, ntables = 0, ours = 0, used = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        ntables++;
        if (name && (!strcmp(name, "run_sets") || !strcmp(name, "runs") ||
                     !strcmp(name, "phases"))) {
            ours++;
            continue;
        }
        if (nothers++ < 4 && name && used < sizeof others) {
            int n = snprintf(others + used, sizeof others - used, "%s%s", used ? ", " : "",
                             name);
            used += n > 0 ? (size_t)n : 0;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return sqerr(s, "cannot read the schema");
    *none = ntables == 0;
    if ((v == 0 && ntables == 0) || (v > 0 && ours == 3))
        return 0;
    return error("%s: not an fsbench results database (it holds %s%s%s): refusing to add "
                 "fsbench's tables to it; use another --db",
                 s->path, nothers ? "tables " : "a different schema", others,
                 nothers > 4 ? ", ..." : "");
}

/* Reads the schema version into *v and checks the tables against it, both from one
 * snapshot: another process creating the database at the same moment may commit its
 * tables and version between two separate reads, which would look like a foreign schema.
 * 0 or -1 after error(). */
static int identify(struct store *s, int *v, bool *none)
{
    if (exec_retry(s, "BEGIN", "cannot start a transaction") < 0)
        return -1;
    int rc = user_version(s, v);
    if (rc == 0 && *v > STORE_SCHEMA_VERSION)
        rc = too_new(s, *v);
    if (rc == 0)
        rc = check_schema(s, *v, none);
    if (rc < 0) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL); /* the error is said already */
        return -1;
    }
    return exec(s, "COMMIT", "cannot end a read transaction");
}

/* Opens s->db on name (a path, or a file: URI with SQLITE_OPEN_URI): 0 or -1 after error. */
static int connect(struct store *s, const char *name, int flags)
{
    if (sqlite3_open_v2(name, &s->db, flags, NULL) != SQLITE_OK) {
        int rc = s->db ? sqerr(s, "cannot open") : error("%s: cannot open: out of memory", s->path);
        sqlite3_close(s->db);
        s->db = NULL;
        return rc;
    }
    sqlite3_busy_timeout(s->db, 10000);
    sqlite3_extended_result_codes(s->db, 0);
    return 0;
}

/* Reads the schema version of a read-only connection into *v. A WAL database SQLite can
 * read only with a -shm file beside it, which a reader may not be able to make (a
 * colleague's results.db in a directory of theirs): when there is no -wal either, no
 * connection has it open and the file holds every committed run, so it is opened again as
 * immutable (no locks, no -shm). 0 or -1 after error(). */
static int readable_as_immutable(struct store *s, int *v)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        *v = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
        return 0;
    }
    sqlite3_finalize(st);
    char wal[4200];
    snprintf(wal, sizeof wal, "%s-wal", s->path);
    if ((rc != SQLITE_READONLY && rc != SQLITE_CANTOPEN) || access(wal, F_OK) == 0)
        return sqerr(s, "cannot read the schema version");
    /* file:PATH?immutable=1, the path percent-encoded */
    size_t n = strlen(s->path);
    char *uri = malloc(3 * n + 32);
    if (!uri)
        return error("out of memory");
    size_t o = (size_t)sprintf(uri, "file:");
    for (const unsigned char *p = (const unsigned char *)s->path; *p; p++)
        o += (size_t)((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                              (*p >= '0' && *p <= '9') || strchr("/-._~", *p)
                          ? sprintf(uri + o, "%c", *p)
                          : sprintf(uri + o, "%%%02X", *p));
    strcpy(uri + o, "?immutable=1");
    sqlite3_close(s->db);
    s->db = NULL;
    rc = connect(s, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    free(uri);
    return rc < 0 ? -1 : user_version(s, v);
}

static struct store *open_db(const char *path, bool read_only)
{
    char def[4096];
    if (!path) {
        if (store_default_path(def, sizeof def) < 0) {
            error("no default results database: HOME is not set; use --db FILE");
            return NULL;
        }
        path = def;
    }
    if (check_files(path) < 0 || (!read_only && make_parents(path) < 0))
        return NULL;
    struct store *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        error("out of memory");
        return NULL;
    }
    s->read_only = read_only;
    s->wait_ms = store_lock_wait_ms();
    int flags = read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (connect(s, path, flags) < 0) {
        store_close(s);
        return NULL;
    }
    int v;
    bool none = false;
    if ((read_only && readable_as_immutable(s, &v) < 0) || identify(s, &v, &none) < 0) {
        store_close(s);
        return NULL;
    }
    if (read_only) {
        if (v == STORE_SCHEMA_VERSION || (v == 0 && none)) {
            s->empty = v == 0;
            return s;
        }
        /* an older schema: migrated once by a writer, then read */
        store_close(s);
        s = open_db(path, false);
        if (s)
            s->read_only = true;
        return s;
    }
    if (set_wal(s) < 0) {
        store_close(s);
        return NULL;
    }
    if (exec(s, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL", "cannot configure") <
            0 ||
        migrate(s) < 0) {
        store_close(s);
        return NULL;
    }
    return s;
}

unsigned store_lock_wait_ms(void)
{
    const char *e = getenv("FSBENCH_LOCK_WAIT");
    char *end;
    double sec = e && *e ? strtod(e, &end) : -1;
    if (e && *e && *end == '\0' && sec >= 0 && sec <= 86400)
        return (unsigned)(sec * 1000);
    return 60000;
}

void store_set_lock_wait(struct store *s, unsigned ms)
{
    s->wait_ms = ms;
}

int store_has_set(struct store *s, int64_t id, const char *label, double created)
{
    sqlite3_stmt *st = prepare(s, "SELECT label, created FROM run_sets WHERE id = ?1");
    if (!st)
        return -1;
    int found = 0;
    if (sqlite3_bind_int64(st, 1, id) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *l = sqlite3_column_text(st, 0);
        found = l && !strcmp((const char *)l, label) &&
                fabs(sqlite3_column_double(st, 1) - created) < 1e-6;
    }
    sqlite3_finalize(st);
    return found;
}

struct store *store_open(const char *path)
{
    return open_db(path, false);
}

struct store *store_open_read(const char *path)
{
    return open_db(path, true);
}

int store_check_output(const char *db, const char *out, const char *what)
{
    char def[4096];
    if (!out || !strcmp(out, "-"))
        return 0;
    if (!db) {
        if (store_default_path(def, sizeof def) < 0)
            return 0;
        db = def;
    }
    for (size_t i = 0; i == 0 || side_files[i - 1]; i++) {
        char f[4200];
        snprintf(f, sizeof f, "%s%s", db, i ? side_files[i - 1] : "");
        if (outfile_same(out, f))
            return error("%s %s: that is the results database%s%s: writing it would lose "
                         "every stored run",
                         what, out, i ? "'s " : "", i ? side_names[i - 1] : "");
    }
    return 0;
}

void store_close(struct store *s)
{
    if (!s)
        return;
    store_set_light(s, false);
    if (s->db)
        sqlite3_close(s->db);
    free(s->path);
    free(s);
}

/* ---------------------------------------------------------------- writing */

const char *store_owner(char *buf, size_t len)
{
    if (os_process_identity((long)getpid(), buf, len) < 0)
        snprintf(buf, len, "%ld", (long)getpid());
    return buf;
}

/* The target's object; a run on several ranks keeps its "ranks" there, and a set that
 * stopped by looking its "stopping" rule (no new column). */
static json_t *target_json(const struct run_set *rs)
{
    json_t *t = resjson_from_target(&rs->target);
    if (t && rs->ranks.count) {
        json_t *r = resjson_from_ranks(&rs->ranks);
        if (!r || json_object_set_new(t, "ranks", r) != 0) {
            json_decref(t);
            return NULL;
        }
    }
    if (t && rs->stop.method[0]) {
        json_t *r = resjson_from_stop(&rs->stop);
        if (!r || json_object_set_new(t, "stopping", r) != 0) {
            json_decref(t);
            return NULL;
        }
    }
    return t;
}

static int64_t insert_set(struct store *s, const struct run_set *rs, const char *state,
                          const char *owner)
{
    sqlite3_stmt *st = prepare(
        s, "INSERT INTO run_sets (label, created, scenario, engine, command_line, root,"
           " warm_cache, machine_json, target_json, tree_json, hostname, kernel, tree_profile,"
           " tree_scale, tree_seed, target_path, fstype, mount_opts, device, job_text,"
           " job_hash, args_json, cwd, planned, state, owner, meta_json)"
           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,"
           " ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27)");
    if (!st)
        return -1;
    int bad = 0;
    bad |= BIND_STR(st, 1, rs->label);
    bad |= sqlite3_bind_double(st, 2, isfinite(rs->created) ? rs->created : 0) != SQLITE_OK;
    bad |= BIND_STR(st, 3, rs->scenario);
    bad |= BIND_STR(st, 4, rs->engine);
    bad |= BIND_STR(st, 5, rs->command_line);
    bad |= sqlite3_bind_int(st, 6, rs->root) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 7, rs->warm_cache) != SQLITE_OK;
    bad |= bind_json(st, 8, resjson_from_machine(&rs->machine));
    bad |= bind_json(st, 9, target_json(rs));
    bad |= bind_json(st, 10, resjson_from_tree(&rs->tree));
    bad |= BIND_STR(st, 11, rs->machine.hostname);
    bad |= BIND_STR(st, 12, rs->machine.kernel);
    bad |= BIND_STR(st, 13, rs->tree.profile);
    bad |= bind_real(st, 14, rs->tree.scale);
    bad |= bind_u64(st, 15, rs->tree.seed);
    bad |= BIND_STR(st, 16, rs->target.path);
    bad |= BIND_STR(st, 17, rs->target.fstype);
    bad |= BIND_STR(st, 18, rs->target.mount_opts);
    bad |= BIND_STR(st, 19, rs->target.device);
    bad |= BIND_STR(st, 20, rs->job_text);
    bad |= BIND_STR(st, 21, rs->job_hash);
    bad |= BIND_STR(st, 22, rs->args);
    bad |= BIND_STR(st, 23, rs->cwd);
    bad |= sqlite3_bind_int64(st, 24, rs->planned) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 25, state, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 26, owner, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= bind_json(st, 27, meta_store_json(rs));
    int64_t id = -1;
    if (bad)
        sqerr(s, "cannot record the run set");
    else if (sqlite3_step(st) != SQLITE_DONE)
        sqerr(s, "cannot record the run set");
    else
        id = sqlite3_last_insert_rowid(s->db);
    sqlite3_finalize(st);
    return id;
}

/* The phase object without the members that have columns. */
static json_t *phase_detail(const struct phase_result *pr)
{
    json_t *j = resjson_from_phase(pr);
    for (size_t i = 0; j && phase_columns[i]; i++)
        json_object_del(j, phase_columns[i]);
    return j;
}

static const char *status_name(enum phase_status st)
{
    return st == PHASE_OK ? "ok" : st == PHASE_SKIPPED ? "skipped" : "failed";
}

static int insert_phase(struct store *s, sqlite3_stmt *st, int64_t run_id, int ord,
                        const struct phase_result *pr)
{
    const struct dev_io *d = &pr->dev;
    int bad = sqlite3_reset(st) != SQLITE_OK || sqlite3_clear_bindings(st) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 2, ord) != SQLITE_OK;
    bad |= BIND_STR(st, 3, pr->name);
    bad |= sqlite3_bind_text(st, 4, status_name(pr->status), -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= BIND_STR(st, 5, pr->note);
    bad |= bind_real(st, 6, pr->wall_s);
    bad |= bind_real(st, 7, pr->user_s);
    bad |= bind_real(st, 8, pr->sys_s);
    bad |= bind_u64(st, 9, pr->ops_total);
    bad |= bind_u64(st, 10, pr->bytes_read);
    bad |= bind_u64(st, 11, pr->bytes_written);
    bad |= bind_u64(st, 12, pr->files);
    bad |= bind_u64(st, 13, pr->dirs);
    bad |= bind_u64(st, 14, pr->symlinks);
    bad |= sqlite3_bind_int(st, 15, d->valid) != SQLITE_OK;
    if (d->valid) { /* the others stay NULL */
        bad |= bind_u64(st, 16, d->rd_ios);
        bad |= bind_u64(st, 17, d->wr_ios);
        bad |= bind_u64(st, 18, d->rd_sectors);
        bad |= bind_u64(st, 19, d->wr_sectors);
        bad |= bind_u64(st, 20, d->io_ticks_ms);
    }
    bad |= bind_json(st, 21, phase_detail(pr));
    if (bad || sqlite3_step(st) != SQLITE_DONE)
        return sqerr(s, "cannot record a phase");
    return 0;
}

/* Inserts a run and its phases; the caller holds the transaction. */
static int insert_run(struct store *s, int64_t set_id, const struct run_result *run)
{
    sqlite3_stmt *st = prepare(s, "INSERT INTO runs (set_id, idx, round, config, warmup, started,"
                                  " interrupted) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    if (!st)
        return -1;
    int bad = sqlite3_bind_int64(st, 1, set_id) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 2, run->index) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 3, run->round) != SQLITE_OK;
    bad |= BIND_STR(st, 4, run->config);
    bad |= sqlite3_bind_int(st, 5, run->warmup) != SQLITE_OK;
    bad |= bind_real(st, 6, run->started);
    bad |= sqlite3_bind_int(st, 7, run->interrupted) != SQLITE_OK;
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (bad || rc != SQLITE_DONE) {
        if (rc == SQLITE_CONSTRAINT)
            return error("%s: no run set %lld to add a run to", s->path, (long long)set_id);
        return sqerr(s, "cannot record a run");
    }
    int64_t run_id = sqlite3_last_insert_rowid(s->db);

    st = prepare(s, "INSERT INTO phases (run_id, ord, name, status, note, wall_s, user_s, sys_s,"
                    " ops_total, bytes_read, bytes_written, files, dirs, symlinks, dev_valid,"
                    " dev_reads, dev_writes, dev_sectors_read, dev_sectors_written,"
                    " dev_io_ticks_ms, detail_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
                    " ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)");
    if (!st)
        return -1;
    int ret = 0;
    for (size_t i = 0; i < run->nphases && ret == 0; i++)
        ret = insert_phase(s, st, run_id, (int)i, &run->phases[i]);
    sqlite3_finalize(st);
    return ret;
}

int store_label_exists(struct store *s, const char *label)
{
    if (s->empty)
        return 0;
    sqlite3_stmt *st = prepare(s, "SELECT 1 FROM run_sets WHERE label = ?1 LIMIT 1");
    if (!st)
        return -1;
    int rc = sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT) != SQLITE_OK ? -1 : sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return sqerr(s, "cannot look up a label");
}

/* Refuses a new set under a label that names one already (inside the caller's
 * transaction): 0, or -1 after error(). */
static int label_free(struct store *s, const char *label)
{
    int has = store_label_exists(s, label);
    if (has > 0)
        return error("%s: a run set labelled '%s' exists already (a label names one set)",
                     s->path, label);
    return has;
}

int64_t store_begin_set(struct store *s, const struct run_set *rs)
{
    char owner[STORE_OWNER_MAX];
    if (tx_begin(s) < 0)
        return -1;
    int64_t id = label_free(s, rs->label) < 0
                     ? -1
                     : insert_set(s, rs, "running", store_owner(owner, sizeof owner));
    if (id < 0 || tx_commit(s) < 0) {
        tx_rollback(s);
        return -1;
    }
    return id;
}

/* Whether set_id already holds this run (inside the caller's transaction): one of the same
 * index, or of the same round, configuration and start time (the same run under another
 * index: a copy). 1, 0, or -1 after error(). */
static int has_run(struct store *s, int64_t set_id, const struct run_result *run)
{
    sqlite3_stmt *st = prepare(s, "SELECT 1 FROM runs WHERE set_id = ?1 AND (idx = ?2 OR"
                                  " (round = ?3 AND config = ?4 AND started = ?5))");
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, set_id) != SQLITE_OK ||
                     sqlite3_bind_int64(st, 2, run->index) != SQLITE_OK ||
                     sqlite3_bind_int64(st, 3, run->round) != SQLITE_OK ||
                     BIND_STR(st, 4, run->config) || bind_real(st, 5, run->started)
                 ? -1
                 : sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return sqerr(s, "cannot look up a run");
}

int store_add_run_once(struct store *s, int64_t set_id, const struct run_result *run)
{
    int b = exec_wait(s, "BEGIN IMMEDIATE", "cannot start a transaction", true);
    if (b < 0)
        return b;
    int has = has_run(s, set_id, run);
    if (has != 0) {
        tx_rollback(s);
        return has;
    }
    if (insert_run(s, set_id, run) < 0 || tx_commit(s) < 0) {
        tx_rollback(s);
        return -1;
    }
    return 0;
}

int store_add_run(struct store *s, int64_t set_id, const struct run_result *run)
{
    int b = exec_wait(s, "BEGIN IMMEDIATE", "cannot start a transaction", true);
    if (b < 0)
        return b; /* STORE_BUSY: the caller keeps the run (spool.h) */
    if (insert_run(s, set_id, run) < 0 || tx_commit(s) < 0) {
        tx_rollback(s);
        return -1;
    }
    return 0;
}

int store_set_state(struct store *s, int64_t set_id, const char *state)
{
    char owner[STORE_OWNER_MAX] = "";
    if (!strcmp(state, "running"))
        store_owner(owner, sizeof owner);
    if (tx_begin(s) < 0)
        return -1;
    sqlite3_stmt *st = prepare(s, "UPDATE run_sets SET state = ?1, owner = ?2 WHERE id = ?3");
    int rc = -1;
    if (st && sqlite3_bind_text(st, 1, state, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
        sqlite3_bind_text(st, 2, owner, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
        sqlite3_bind_int64(st, 3, set_id) == SQLITE_OK && sqlite3_step(st) == SQLITE_DONE)
        rc = 0;
    else if (st)
        sqerr(s, "cannot record the run set's state");
    sqlite3_finalize(st);
    if (rc < 0 || tx_commit(s) < 0) {
        tx_rollback(s);
        return -1;
    }
    return 0;
}

int store_claim_set(struct store *s, int64_t set_id)
{
    char me[STORE_OWNER_MAX];
    store_owner(me, sizeof me);
    if (tx_begin(s) < 0) /* the write lock: no other process claims it in between */
        return -1;
    sqlite3_stmt *st = prepare(s, "SELECT state, owner FROM run_sets WHERE id = ?1");
    int rc = -1;
    if (st && sqlite3_bind_int64(st, 1, set_id) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        char state[16], owner[STORE_OWNER_MAX];
        COL_STR(st, 0, state);
        COL_STR(st, 1, owner);
        rc = !strcmp(state, "running") && strcmp(owner, me) && owner_alive(owner) ? 1 : 0;
    } else if (st) {
        sqerr(s, "cannot read the run set's state");
    }
    sqlite3_finalize(st);
    if (rc == 0) {
        st = prepare(s, "UPDATE run_sets SET state = 'running', owner = ?1 WHERE id = ?2");
        if (!st || sqlite3_bind_text(st, 1, me, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
            sqlite3_bind_int64(st, 2, set_id) != SQLITE_OK || sqlite3_step(st) != SQLITE_DONE)
            rc = st ? sqerr(s, "cannot record the run set's state") : -1;
        sqlite3_finalize(st);
    }
    if (rc < 0 || tx_commit(s) < 0) {
        tx_rollback(s);
        return -1;
    }
    return rc;
}

int store_drop_interrupted(struct store *s, int64_t set_id)
{
    if (tx_begin(s) < 0)
        return -1;
    sqlite3_stmt *st = prepare(s, "DELETE FROM runs WHERE set_id = ?1 AND interrupted = 1");
    int n = -1;
    if (st && sqlite3_bind_int64(st, 1, set_id) == SQLITE_OK && sqlite3_step(st) == SQLITE_DONE)
        n = sqlite3_changes(s->db);
    else if (st)
        sqerr(s, "cannot drop the interrupted run");
    sqlite3_finalize(st);
    if (n < 0 || tx_commit(s) < 0) {
        tx_rollback(s);
        return -1;
    }
    return n;
}

/* One transaction for the whole set: an import is all or nothing. A run the set holds
 * twice (the same round, configuration and start time) is kept once. */
int64_t store_save_set(struct store *s, const struct run_set *rs, size_t *dropped)
{
    if (dropped)
        *dropped = 0;
    if (tx_begin(s) < 0)
        return -1;
    int64_t id = label_free(s, rs->label) < 0 ? -1 : insert_set(s, rs, "done", "");
    for (size_t i = 0; id > 0 && i < rs->nruns; i++) {
        int has = has_run(s, id, &rs->runs[i]);
        if (has > 0 && dropped)
            (*dropped)++;
        if (has < 0 || (has == 0 && insert_run(s, id, &rs->runs[i]) < 0))
            id = -1;
    }
    if (id < 0 || tx_commit(s) < 0) {
        tx_rollback(s);
        return -1;
    }
    return id;
}

/* ---------------------------------------------------------------- reading */

/* Fills the description of *out from a run_sets row (columns as in load_sets). */
static int load_description(struct store *s, sqlite3_stmt *st, struct run_set *out)
{
    char where[4][4200];
    const char *col[4] = {"", "machine_json", "target_json", "tree_json"};
    for (int i = 0; i < 4; i++)
        if (snprintf(where[i], sizeof where[i], "%s: run set %lld%s%s", s->path,
                     (long long)sqlite3_column_int64(st, 0), *col[i] ? " " : "", col[i]) < 0)
            where[i][0] = '\0';
    out->schema_version = RESULTS_SCHEMA_VERSION;
    COL_STR(st, 1, out->label);
    out->created = sqlite3_column_double(st, 2);
    COL_STR(st, 3, out->scenario);
    COL_STR(st, 4, out->engine);
    COL_STR(st, 5, out->command_line);
    out->root = sqlite3_column_int(st, 6) != 0;
    out->warm_cache = sqlite3_column_int(st, 7) != 0;
    COL_STR(st, 11, out->job_text);
    COL_STR(st, 12, out->job_hash);
    COL_STR(st, 13, out->args);
    COL_STR(st, 14, out->cwd);
    out->planned = (unsigned)sqlite3_column_int64(st, 15);
    json_t *meta = col_json(s, st, 16, where[0]);
    int mrc = meta ? meta_from_json(meta, out, where[0]) : -1;
    json_decref(meta);
    if (mrc < 0)
        return -1;
    json_t *m = col_json(s, st, 8, where[1]), *t = col_json(s, st, 9, where[2]),
           *tr = col_json(s, st, 10, where[3]);
    int rc = m && t && tr && resjson_to_machine(m, &out->machine, where[1]) == 0 &&
                     resjson_to_target(t, &out->target, where[2]) == 0 &&
                     resjson_to_tree(tr, &out->tree, where[3]) == 0 &&
                     (!json_object_get(t, "ranks") ||
                      resjson_to_ranks(json_object_get(t, "ranks"), &out->ranks, where[2]) == 0) &&
                     (!json_object_get(t, "stopping") ||
                      resjson_to_stop(json_object_get(t, "stopping"), &out->stop, where[2]) == 0)
                 ? 0
                 : -1;
    json_decref(m);
    json_decref(t);
    json_decref(tr);
    return rc;
}

static int load_phase(struct store *s, sqlite3_stmt *st, struct phase_result *pr,
                      const char *where)
{
    if (!s->light) { /* light: the detail stays as run_set_add_run() zeroed it */
        json_t *detail = col_json(s, st, 19, where);
        if (!detail || resjson_to_phase(detail, pr, where) < 0) {
            json_decref(detail);
            return -1;
        }
        json_decref(detail);
    }
    COL_STR(st, 1, pr->name);
    const char *status = (const char *)sqlite3_column_text(st, 2);
    pr->status = !status || !strcmp(status, "ok") ? PHASE_OK
                 : !strcmp(status, "skipped")     ? PHASE_SKIPPED
                                                  : PHASE_FAILED;
    COL_STR(st, 3, pr->note);
    pr->wall_s = col_real(st, 4);
    pr->user_s = col_real(st, 5);
    pr->sys_s = col_real(st, 6);
    pr->ops_total = col_u64(st, 7);
    pr->bytes_read = col_u64(st, 8);
    pr->bytes_written = col_u64(st, 9);
    pr->files = col_u64(st, 10);
    pr->dirs = col_u64(st, 11);
    pr->symlinks = col_u64(st, 12);
    pr->dev.valid = sqlite3_column_int(st, 13) != 0;
    if (pr->dev.valid) {
        pr->dev.rd_ios = col_u64(st, 14);
        pr->dev.wr_ios = col_u64(st, 15);
        pr->dev.rd_sectors = col_u64(st, 16);
        pr->dev.wr_sectors = col_u64(st, 17);
        pr->dev.io_ticks_ms = col_u64(st, 18);
    }
    return 0;
}

/* Appends the runs of set `set_id` to *out, renumbering them. */
static int load_runs(struct store *s, int64_t set_id, struct run_set *out)
{
    sqlite3_stmt *runs = s->light_runs, *ph = s->light_phases;
    if (runs)
        sqlite3_reset(runs), sqlite3_clear_bindings(runs);
    else
        runs = prepare(s, "SELECT id, round, config, warmup, started,"
                          " (SELECT count(*) FROM phases WHERE run_id = runs.id),"
                          " interrupted FROM runs WHERE set_id = ?1 ORDER BY idx, id");
    if (!ph)
        ph = prepare(
        s, "SELECT ord, name, status, note, wall_s, user_s, sys_s, ops_total, bytes_read,"
           " bytes_written, files, dirs, symlinks, dev_valid, dev_reads, dev_writes,"
           " dev_sectors_read, dev_sectors_written, dev_io_ticks_ms,"
           " CASE WHEN ?2 THEN '{}' ELSE detail_json END"
           " FROM phases WHERE run_id = ?1 ORDER BY ord");
    int ret = runs && ph ? 0 : -1;
    if (ret == 0 && sqlite3_bind_int64(runs, 1, set_id) != SQLITE_OK)
        ret = sqerr(s, "cannot load runs");
    int rc;
    while (ret == 0 && (rc = sqlite3_step(runs)) == SQLITE_ROW) {
        int64_t run_id = sqlite3_column_int64(runs, 0);
        int64_t nph = sqlite3_column_int64(runs, 5);
        struct run_result *r = run_set_add_run(out, (size_t)nph);
        if (!r) {
            ret = -1;
            break;
        }
        r->round = (unsigned)sqlite3_column_int64(runs, 1);
        COL_STR(runs, 2, r->config);
        r->warmup = sqlite3_column_int(runs, 3) != 0;
        r->started = col_real(runs, 4);
        r->interrupted = sqlite3_column_int(runs, 6) != 0;
        sqlite3_reset(ph);
        if (sqlite3_bind_int64(ph, 1, run_id) != SQLITE_OK ||
            sqlite3_bind_int(ph, 2, s->light) != SQLITE_OK) {
            ret = sqerr(s, "cannot load phases");
            break;
        }
        size_t i = 0;
        while (ret == 0 && i < r->nphases && (rc = sqlite3_step(ph)) == SQLITE_ROW) {
            char where[4200] = ""; /* named only where the detail is read */
            if (!s->light &&
                snprintf(where, sizeof where, "%s: run set %lld run %lld phase %zu detail_json",
                         s->path, (long long)set_id, (long long)run_id, i) < 0)
                where[0] = '\0';
            ret = load_phase(s, ph, &r->phases[i++], where);
        }
        if (ret == 0 && i < r->nphases)
            ret = sqerr(s, "cannot load phases");
    }
    if (ret == 0 && rc != SQLITE_DONE)
        ret = sqerr(s, "cannot load runs");
    if (s->light && runs && ph && !s->light_runs) /* kept for the next set */
        s->light_runs = runs, s->light_phases = ph;
    else if (!s->light_runs) {
        sqlite3_finalize(runs);
        sqlite3_finalize(ph);
    } else {
        sqlite3_reset(runs);
        sqlite3_reset(ph);
    }
    return ret;
}

/* Loads the sets of label (or the one set set_id when label is NULL), merged. */
static int load_sets(struct store *s, const char *label, int64_t set_id, struct run_set *out)
{
    if (s->empty)
        return 1;
    bool keep = s->light && label; /* a series: the transaction and statement stay */
    if (!s->light_tx && exec_retry(s, "BEGIN", "cannot start a transaction") < 0)
        return -1; /* one snapshot */
    s->light_tx = keep;
    sqlite3_stmt *st = keep && s->light_sets
                           ? s->light_sets
                           : prepare(s, label ? "SELECT id, label, created, scenario, engine,"
                                                " command_line, root, warm_cache, machine_json,"
                                                " target_json, tree_json, job_text, job_hash,"
                                                " args_json, cwd, planned, meta_json FROM"
                                                " run_sets WHERE label = ?1 ORDER BY created, id"
                                              : "SELECT id, label, created, scenario, engine,"
                                                " command_line, root, warm_cache, machine_json,"
                                                " target_json, tree_json, job_text, job_hash,"
                                                " args_json, cwd, planned, meta_json FROM"
                                                " run_sets WHERE id = ?2");
    int ret = st ? 0 : -1, nsets = 0, rc = SQLITE_DONE;
    if (ret == 0 && (label ? sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT)
                           : sqlite3_bind_int64(st, 2, set_id)) != SQLITE_OK)
        ret = sqerr(s, "cannot load");
    while (ret == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (nsets++ == 0)
            ret = load_description(s, st, out);
        if (ret == 0)
            ret = load_runs(s, sqlite3_column_int64(st, 0), out);
    }
    if (ret == 0 && rc != SQLITE_DONE)
        ret = sqerr(s, "cannot load");
    if (keep && st) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        s->light_sets = st;
    } else {
        sqlite3_finalize(st);
        tx_rollback(s); /* read-only: nothing to commit */
        s->light_tx = false;
    }
    if (ret < 0) {
        run_set_free(out);
        return -1;
    }
    return nsets ? 0 : 1;
}

void store_set_light(struct store *s, bool light)
{
    if (!light) { /* the series is read: its statements and snapshot go */
        sqlite3_finalize(s->light_sets);
        sqlite3_finalize(s->light_runs);
        sqlite3_finalize(s->light_phases);
        s->light_sets = s->light_runs = s->light_phases = NULL;
        if (s->light_tx)
            tx_rollback(s);
        s->light_tx = false;
    }
    /* a series reads most of the store: its first 32 MiB mapped are read without a system
     * call a page (and count at most 32 MiB in the resident size) */
    if (light != s->light && s->db)
        sqlite3_exec(s->db, light ? "PRAGMA mmap_size = 33554432" : "PRAGMA mmap_size = 0", NULL,
                     NULL, NULL);
    s->light = light;
}

int store_load_label(struct store *s, const char *label, struct run_set *out)
{
    return load_sets(s, label, 0, out);
}

int store_load_set(struct store *s, int64_t set_id, struct run_set *out)
{
    return load_sets(s, NULL, set_id, out);
}

/* The columns set_info() reads, from run_sets. */
#define SET_INFO_COLUMNS                                                                           \
    "SELECT id, label, created, scenario, tree_profile, tree_scale, tree_seed,"                    \
    " fstype, device, target_path, mount_opts,"                                                    \
    " (SELECT count(*) FROM runs WHERE set_id = run_sets.id AND interrupted = 0),"                 \
    " planned, state, owner, args_json != '',"                                                     \
    " (SELECT count(*) FROM runs WHERE set_id = run_sets.id AND interrupted = 1)"                  \
    " FROM run_sets"

/* Whether the process owner names (store_owner()'s text) still runs. */
static bool owner_alive(const char *owner)
{
    char *end, now[STORE_OWNER_MAX];
    long pid = strtol(owner, &end, 10);
    return *owner && end != owner && pid > 0 && os_process_identity(pid, now, sizeof now) == 0 &&
           !strcmp(now, owner);
}

/* *info from a row of SET_INFO_COLUMNS. */
static void set_info(sqlite3_stmt *st, struct store_set_info *info)
{
    memset(info, 0, sizeof *info);
    info->id = sqlite3_column_int64(st, 0);
    COL_STR(st, 1, info->label);
    info->created = sqlite3_column_double(st, 2);
    COL_STR(st, 3, info->scenario);
    char profile[RES_NAME_MAX], fstype[64], device[256], path[256], opts[256];
    COL_STR(st, 4, profile);
    double scale = col_real(st, 5);
    uint64_t seed = col_u64(st, 6);
    COL_STR(st, 7, fstype);
    COL_STR(st, 8, device);
    COL_STR(st, 9, path);
    COL_STR(st, 10, opts);
    if (*profile) /* fsbench cmd makes no tree */
        snprintf(info->tree, sizeof info->tree, "%s x%g seed %llu", profile, scale,
                 (unsigned long long)seed);
    else
        snprintf(info->tree, sizeof info->tree, "-");
    int n = snprintf(info->target, sizeof info->target, "%s %s%s%s%s", *fstype ? fstype : "?",
                     *device ? device : path, *opts ? " (" : "", opts, *opts ? ")" : "");
    if (n < 0)
        info->target[0] = '\0';
    info->nruns = (unsigned)sqlite3_column_int64(st, 11);
    info->planned = (unsigned)sqlite3_column_int64(st, 12);
    COL_STR(st, 13, info->state);
    char owner[STORE_OWNER_MAX];
    COL_STR(st, 14, owner);
    info->running = !strcmp(info->state, "running") && owner_alive(owner);
    if (!strcmp(info->state, "running") && !info->running)
        snprintf(info->state, sizeof info->state, "interrupted"); /* killed, or a power cut */
    info->resumable = sqlite3_column_int(st, 15) != 0;
    info->ninterrupted = (unsigned)sqlite3_column_int64(st, 16);
}

int store_last_set(struct store *s, const char *label, struct store_set_info *info)
{
    if (s->empty)
        return 1;
    sqlite3_stmt *st = prepare(s, SET_INFO_COLUMNS " WHERE label = ?1 ORDER BY created DESC,"
                                                   " id DESC LIMIT 1");
    if (!st)
        return -1;
    int rc = sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT) == SQLITE_OK ? sqlite3_step(st)
                                                                                : SQLITE_ERROR;
    if (rc == SQLITE_ROW)
        set_info(st, info);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 0;
    return rc == SQLITE_DONE ? 1 : sqerr(s, "cannot find the run set");
}

int store_list(struct store *s, store_list_cb cb, void *arg)
{
    if (s->empty)
        return 0;
    sqlite3_stmt *st = prepare(s, SET_INFO_COLUMNS " ORDER BY created, id");
    if (!st)
        return -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_set_info info;
        set_info(st, &info);
        if (cb(&info, arg) != 0) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : sqerr(s, "cannot list run sets");
}

int store_newest_sets(struct store *s, int64_t *ids, size_t max)
{
    if (s->empty)
        return 0;
    sqlite3_stmt *st = prepare(s, "SELECT id FROM run_sets ORDER BY created DESC, id DESC");
    if (!st)
        return -1;
    int rc = SQLITE_ROW;
    size_t n = 0;
    while (rc == SQLITE_ROW && n < max && (rc = sqlite3_step(st)) == SQLITE_ROW)
        ids[n++] = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqerr(s, "cannot list run sets");
    return (int)n;
}

int store_forget(struct store *s, const char *label)
{
    if (tx_begin(s) < 0)
        return -1;
    sqlite3_stmt *st = prepare(s, "DELETE FROM run_sets WHERE label = ?1");
    int n = -1;
    if (st && sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_DONE)
        n = sqlite3_changes(s->db);
    else if (st)
        sqerr(s, "cannot delete");
    sqlite3_finalize(st);
    if (n < 0 || tx_commit(s) < 0) {
        tx_rollback(s);
        return -1;
    }
    return n;
}
