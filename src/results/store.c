/* store.c — the SQLite results store (see store.h): opening, the schema and its
 * migrations, closing. Writing is in store_write.c, loading in store_read.c, listing and
 * forgetting in store_list.c, the SQLite helpers they share in store_db.c.
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
#include "results/store_internal.h"

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
const char *const store_phase_columns[] = {
    "name",     "status", "note",  "wall_s", "user_s",   "sys_s",   "ops_total", "ops_per_s",
    "bytes_read", "bytes_written", "mb_per_s", "files", "dirs", "symlinks", "device", NULL};

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
    sqlite3_stmt *st = store_prepare(s, "PRAGMA user_version");
    if (!st)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : store_sqerr(s, "cannot read the schema version");
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
        if (store_tx_begin(s) < 0)
            return -1;
        if (user_version(s, &v) < 0) { /* another process may have got here first */
            store_tx_rollback(s);
            return -1;
        }
        if (migrations[i].version <= v) {
            store_tx_rollback(s);
            continue;
        }
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", migrations[i].version);
        if (store_exec(s, migrations[i].sql, "cannot migrate the schema") < 0 ||
            store_exec(s, pragma, "cannot set the schema version") < 0) {
            store_tx_rollback(s);
            return -1;
        }
        if (store_tx_commit(s) < 0)
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
    sqlite3_stmt *st = store_prepare(s, "PRAGMA journal_mode = WAL");
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
        return store_sqerr(s, "cannot set WAL mode");
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
    sqlite3_stmt *st = store_prepare(s, "SELECT name FROM sqlite_master WHERE type = 'table'"
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
        return store_sqerr(s, "cannot read the schema");
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
    if (store_exec_retry(s, "BEGIN", "cannot start a transaction") < 0)
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
    return store_exec(s, "COMMIT", "cannot end a read transaction");
}

/* Opens s->db on name (a path, or a file: URI with SQLITE_OPEN_URI): 0 or -1 after error. */
static int connect(struct store *s, const char *name, int flags)
{
    if (sqlite3_open_v2(name, &s->db, flags, NULL) != SQLITE_OK) {
        int rc = s->db ? store_sqerr(s, "cannot open") : error("%s: cannot open: out of memory", s->path);
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
        return store_sqerr(s, "cannot read the schema version");
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
    if (store_exec(s, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL", "cannot configure") <
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
    sqlite3_stmt *st = store_prepare(s, "SELECT label, created FROM run_sets WHERE id = ?1");
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
