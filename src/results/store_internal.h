/* store_internal.h — what the files of the results store share (store.c: open, schema
 * and close; store_db.c: the SQLite helpers; store_write.c; store_read.c; store_list.c)
 * and nothing else includes: the handle and the helpers' calls.
 */
#ifndef FSBENCH_STORE_INTERNAL_H
#define FSBENCH_STORE_INTERNAL_H

#include <jansson.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/store.h"

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

/* SQLite's busy handler waits in steps of this; store_exec_retry tries again after each. */
#define STORE_BUSY_STEP_MS 10000

/* Members of a phase object that have their own columns, left out of detail_json. */
extern const char *const store_phase_columns[];

/* ---- store_db.c ---- */
/* "DEVICE (FSTYPE on MOUNT)" for the file system holding path, into buf. */
const char *store_device_of(const char *path, char *buf, size_t len);
/* error() with SQLite's message for what failed; -1. */
int store_sqerr(struct store *s, const char *what);
int store_exec(struct store *s, const char *sql, const char *what);
int store_exec_wait(struct store *s, const char *sql, const char *what, bool quiet_busy);
/* store_exec, waiting out another process's lock for up to the store's wait. */
int store_exec_retry(struct store *s, const char *sql, const char *what);
int store_tx_begin(struct store *s);
int store_tx_commit(struct store *s);
void store_tx_rollback(struct store *s);
sqlite3_stmt *store_prepare(struct store *s, const char *sql);
int store_bind_str(sqlite3_stmt *st, int i, const char *v, size_t size);
#define BIND_STR(st, i, field) store_bind_str(st, i, field, sizeof(field))
int store_bind_u64(sqlite3_stmt *st, int i, uint64_t v);
int store_bind_real(sqlite3_stmt *st, int i, double v);
int store_bind_json(sqlite3_stmt *st, int i, json_t *j);
double store_col_real(sqlite3_stmt *st, int i);
uint64_t store_col_u64(sqlite3_stmt *st, int i);
void store_col_str(sqlite3_stmt *st, int i, char *buf, size_t size);
#define COL_STR(st, i, field) store_col_str(st, i, field, sizeof(field))
json_t *store_col_json(struct store *s, sqlite3_stmt *st, int i, const char *where);
/* Whether the process owner names (store_owner()'s text) still runs. */
bool store_owner_alive(const char *owner);

#endif
