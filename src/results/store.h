/* store.h — every run kept in SQLite, across reboots and kernels.
 *
 * One database file (default $XDG_DATA_HOME/fsbench/results.db, else
 * ~/.local/share/fsbench/results.db). Schema versioned with migrations, WAL mode and a busy
 * timeout so two fsbench processes can save at once. A run set is begun once, then each
 * finished run is added in its own transaction: a kill -9 loses at most the run under way.
 *
 * A label names one run set (run and import refuse one in use); a store made before that
 * rule may hold several sets under one label: loading it merges their runs in time order.
 */
#ifndef FSBENCH_STORE_H
#define FSBENCH_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/results.h"

struct store;

/* The schema version this code writes (PRAGMA user_version); newer databases are refused. */
#define STORE_SCHEMA_VERSION 4

/* Default database path into buf; 0 or -1 (no HOME; no message). */
int store_default_path(char *buf, size_t len);
/* Opens (creating directories, schema and migrations as needed); path NULL means the
 * default path. NULL after error().
 * The database must be a regular file or absent (never /dev/null: SQLite would make
 * /dev/null-journal), and its -wal, -shm and -journal beside it regular files or absent;
 * a database holding tables that are not fsbench's schema is refused, never added to; a
 * full file system is named ("no space left on /dev/sdb1 (ext4 on /data)"). */
struct store *store_open(const char *path);
/* Opens for reading only (runs, show, export, compare, report): a database the user may
 * not write (a colleague's results.db) is read; nothing is created or changed (an older
 * schema is migrated first, which needs write access once). NULL after error(). */
struct store *store_open_read(const char *path);

/* Refuses an output file `out` (what: the option naming it, "-o") that is the database at
 * db (NULL: the default) or its -wal, -shm or -journal: writing there would lose every
 * stored run. "-" (standard output) is fine. 0, or -1 after error(). */
int store_check_output(const char *db, const char *out, const char *what);
void store_close(struct store *s);

/* Records the set's description (label, machine, target, tree, scenario, command line,
 * what resumes it), in state "running" owned by this process; returns its id (> 0) or -1
 * after error(). A label names one set: one some set carries already is refused. */
int64_t store_begin_set(struct store *s, const struct run_set *rs);
/* A set's state: "running" (this process runs it: owner recorded), "interrupted" (by a
 * signal, or an error that stopped the set), "stopped" (--fail-fast), "done" (every planned
 * run made, or its configuration failed). A set left "running" by a process that is gone
 * (kill -9, a power cut) reads as "interrupted". 0 or -1 after error(). */
int store_set_state(struct store *s, int64_t set_id, const char *state);
/* Marks set_id "running" by this process unless another live process runs it (a second
 * resume of the same set): 0 when claimed, 1 when another has it (no message), -1 after
 * error(). One transaction: two processes cannot both claim it. */
int store_claim_set(struct store *s, int64_t set_id);
/* Deletes the runs of set_id stopped by a signal (a resume runs them again): how many, or
 * -1 after error(). */
int store_drop_interrupted(struct store *s, int64_t set_id);
/* This process's identity as a running set's owner, into buf (STORE_OWNER_MAX). */
#define STORE_OWNER_MAX 160
const char *store_owner(char *buf, size_t len);
/* What store_add_run returns, without a message, when another process held the database
 * locked for longer than the lock wait: the run is not stored (spool.h keeps it). */
#define STORE_BUSY (-2)
/* Adds one finished run of set `set_id`, in one transaction. 0, STORE_BUSY, or -1 after
 * error(). */
int store_add_run(struct store *s, int64_t set_id, const struct run_result *run);
/* store_add_run unless set_id already holds the run: one of run->index, or of the same
 * round, configuration and start time (a spooled run added twice): 0 added, 1 already
 * there, STORE_BUSY, or -1 after error(). */
int store_add_run_once(struct store *s, int64_t set_id, const struct run_result *run);
/* How long a write waits for a lock another process holds: FSBENCH_LOCK_WAIT seconds from
 * the environment, else 60 s (in ms). */
unsigned store_lock_wait_ms(void);
/* Changes it for s (a retry between runs waits less). */
void store_set_lock_wait(struct store *s, unsigned ms);
/* Whether run set `id` exists with this label and creation time: 1, 0, or -1 after
 * error(). */
int store_has_set(struct store *s, int64_t id, const char *label, double created);
/* begin + every run: for import. A run the set holds twice (same round, configuration and
 * start time) is stored once; how many were left out into *dropped (may be NULL). Refused,
 * like store_begin_set, when a set carries the label already. Returns the set id or -1. */
int64_t store_save_set(struct store *s, const struct run_set *rs, size_t *dropped);
/* Whether some run set carries label: 1, 0, or -1 after error(). */
int store_label_exists(struct store *s, const char *label);

/* Loads every set carrying `label`, merged, into *out (zeroed by the caller).
 * 0, 1 when no such label (no message), or -1 after error(). */
int store_load_label(struct store *s, const char *label, struct run_set *out);
/* Light loads: the phases' detail (ops by kind, latency, time line, rusage, stalls) is left
 * out, their columns (times, counts, device I/O) kept: for a series of many labels. */
void store_set_light(struct store *s, bool light);
/* Loads the one set set_id, as store_load_label(). */
int store_load_set(struct store *s, int64_t set_id, struct run_set *out);

struct store_set_info {
    int64_t id;
    char label[RES_NAME_MAX];
    double created;
    char scenario[RES_NAME_MAX];
    char tree[RES_NAME_MAX * 2];    /* "pkgsrc x1 seed 1" */
    char target[256];               /* "ext4 /dev/loop0 (rw,relatime)" */
    unsigned nruns;                 /* runs kept (a run stopped by a signal is not one) */
    unsigned planned;               /* runs the set plans; 0: unknown (made before) */
    char state[16];                 /* store_set_state()'s */
    bool running;                   /* state "running" and its process is alive */
    bool resumable;                 /* it keeps the arguments that made it */
    unsigned ninterrupted;          /* runs stopped by a signal */
};
/* The newest set carrying label into *info: 0, 1 when none (no message), -1 after error(). */
int store_last_set(struct store *s, const char *label, struct store_set_info *info);
typedef int (*store_list_cb)(const struct store_set_info *info, void *arg);
/* Calls cb for every set, oldest first; stops early if cb returns non-zero. 0 or -1. */
int store_list(struct store *s, store_list_cb cb, void *arg);

/* The ids of the newest sets, newest first, at most max into ids: how many, or -1 after
 * error(). */
int store_newest_sets(struct store *s, int64_t *ids, size_t max);

/* Deletes every set carrying label; number of sets deleted, or -1. */
int store_forget(struct store *s, const char *label);

#endif
