/* store_write.c — writing to the results store (see store.h): a set begun, each run with
 * its phases in one transaction, the state and owner of a set, a set dropped when
 * interrupted.
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

/* ---------------------------------------------------------------- writing */

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
    sqlite3_stmt *st = store_prepare(
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
    bad |= store_bind_json(st, 8, resjson_from_machine(&rs->machine));
    bad |= store_bind_json(st, 9, target_json(rs));
    bad |= store_bind_json(st, 10, resjson_from_tree(&rs->tree));
    bad |= BIND_STR(st, 11, rs->machine.hostname);
    bad |= BIND_STR(st, 12, rs->machine.kernel);
    bad |= BIND_STR(st, 13, rs->tree.profile);
    bad |= store_bind_real(st, 14, rs->tree.scale);
    bad |= store_bind_u64(st, 15, rs->tree.seed);
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
    bad |= store_bind_json(st, 27, meta_store_json(rs));
    int64_t id = -1;
    if (bad)
        store_sqerr(s, "cannot record the run set");
    else if (sqlite3_step(st) != SQLITE_DONE)
        store_sqerr(s, "cannot record the run set");
    else
        id = sqlite3_last_insert_rowid(s->db);
    sqlite3_finalize(st);
    return id;
}

/* The phase object without the members that have columns. */
static json_t *phase_detail(const struct phase_result *pr)
{
    json_t *j = resjson_from_phase(pr);
    for (size_t i = 0; j && store_phase_columns[i]; i++)
        json_object_del(j, store_phase_columns[i]);
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
    bad |= store_bind_real(st, 6, pr->wall_s);
    bad |= store_bind_real(st, 7, pr->user_s);
    bad |= store_bind_real(st, 8, pr->sys_s);
    bad |= store_bind_u64(st, 9, pr->ops_total);
    bad |= store_bind_u64(st, 10, pr->bytes_read);
    bad |= store_bind_u64(st, 11, pr->bytes_written);
    bad |= store_bind_u64(st, 12, pr->files);
    bad |= store_bind_u64(st, 13, pr->dirs);
    bad |= store_bind_u64(st, 14, pr->symlinks);
    bad |= sqlite3_bind_int(st, 15, d->valid) != SQLITE_OK;
    if (d->valid) { /* the others stay NULL */
        bad |= store_bind_u64(st, 16, d->rd_ios);
        bad |= store_bind_u64(st, 17, d->wr_ios);
        bad |= store_bind_u64(st, 18, d->rd_sectors);
        bad |= store_bind_u64(st, 19, d->wr_sectors);
        bad |= store_bind_u64(st, 20, d->io_ticks_ms);
    }
    bad |= store_bind_json(st, 21, phase_detail(pr));
    if (bad || sqlite3_step(st) != SQLITE_DONE)
        return store_sqerr(s, "cannot record a phase");
    return 0;
}

/* Inserts a run and its phases; the caller holds the transaction. */
static int insert_run(struct store *s, int64_t set_id, const struct run_result *run)
{
    sqlite3_stmt *st = store_prepare(s, "INSERT INTO runs (set_id, idx, round, config, warmup, started,"
                                  " interrupted) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    if (!st)
        return -1;
    int bad = sqlite3_bind_int64(st, 1, set_id) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 2, run->index) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 3, run->round) != SQLITE_OK;
    bad |= BIND_STR(st, 4, run->config);
    bad |= sqlite3_bind_int(st, 5, run->warmup) != SQLITE_OK;
    bad |= store_bind_real(st, 6, run->started);
    bad |= sqlite3_bind_int(st, 7, run->interrupted) != SQLITE_OK;
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (bad || rc != SQLITE_DONE) {
        if (rc == SQLITE_CONSTRAINT)
            return error("%s: no run set %lld to add a run to", s->path, (long long)set_id);
        return store_sqerr(s, "cannot record a run");
    }
    int64_t run_id = sqlite3_last_insert_rowid(s->db);

    st = store_prepare(s, "INSERT INTO phases (run_id, ord, name, status, note, wall_s, user_s, sys_s,"
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
    sqlite3_stmt *st = store_prepare(s, "SELECT 1 FROM run_sets WHERE label = ?1 LIMIT 1");
    if (!st)
        return -1;
    int rc = sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT) != SQLITE_OK ? -1 : sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return store_sqerr(s, "cannot look up a label");
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
    if (store_tx_begin(s) < 0)
        return -1;
    int64_t id = label_free(s, rs->label) < 0
                     ? -1
                     : insert_set(s, rs, "running", store_owner(owner, sizeof owner));
    if (id < 0 || store_tx_commit(s) < 0) {
        store_tx_rollback(s);
        return -1;
    }
    return id;
}

/* Whether set_id already holds this run (inside the caller's transaction): one of the same
 * index, or of the same round, configuration and start time (the same run under another
 * index: a copy). 1, 0, or -1 after error(). */
static int has_run(struct store *s, int64_t set_id, const struct run_result *run)
{
    sqlite3_stmt *st = store_prepare(s, "SELECT 1 FROM runs WHERE set_id = ?1 AND (idx = ?2 OR"
                                  " (round = ?3 AND config = ?4 AND started = ?5))");
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, set_id) != SQLITE_OK ||
                     sqlite3_bind_int64(st, 2, run->index) != SQLITE_OK ||
                     sqlite3_bind_int64(st, 3, run->round) != SQLITE_OK ||
                     BIND_STR(st, 4, run->config) || store_bind_real(st, 5, run->started)
                 ? -1
                 : sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return store_sqerr(s, "cannot look up a run");
}

int store_add_run_once(struct store *s, int64_t set_id, const struct run_result *run)
{
    int b = store_exec_wait(s, "BEGIN IMMEDIATE", "cannot start a transaction", true);
    if (b < 0)
        return b;
    int has = has_run(s, set_id, run);
    if (has != 0) {
        store_tx_rollback(s);
        return has;
    }
    if (insert_run(s, set_id, run) < 0 || store_tx_commit(s) < 0) {
        store_tx_rollback(s);
        return -1;
    }
    return 0;
}

int store_add_run(struct store *s, int64_t set_id, const struct run_result *run)
{
    int b = store_exec_wait(s, "BEGIN IMMEDIATE", "cannot start a transaction", true);
    if (b < 0)
        return b; /* STORE_BUSY: the caller keeps the run (spool.h) */
    if (insert_run(s, set_id, run) < 0 || store_tx_commit(s) < 0) {
        store_tx_rollback(s);
        return -1;
    }
    return 0;
}

int store_set_state(struct store *s, int64_t set_id, const char *state)
{
    char owner[STORE_OWNER_MAX] = "";
    if (!strcmp(state, "running"))
        store_owner(owner, sizeof owner);
    if (store_tx_begin(s) < 0)
        return -1;
    sqlite3_stmt *st = store_prepare(s, "UPDATE run_sets SET state = ?1, owner = ?2 WHERE id = ?3");
    int rc = -1;
    if (st && sqlite3_bind_text(st, 1, state, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
        sqlite3_bind_text(st, 2, owner, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
        sqlite3_bind_int64(st, 3, set_id) == SQLITE_OK && sqlite3_step(st) == SQLITE_DONE)
        rc = 0;
    else if (st)
        store_sqerr(s, "cannot record the run set's state");
    sqlite3_finalize(st);
    if (rc < 0 || store_tx_commit(s) < 0) {
        store_tx_rollback(s);
        return -1;
    }
    return 0;
}

int store_claim_set(struct store *s, int64_t set_id)
{
    char me[STORE_OWNER_MAX];
    store_owner(me, sizeof me);
    if (store_tx_begin(s) < 0) /* the write lock: no other process claims it in between */
        return -1;
    sqlite3_stmt *st = store_prepare(s, "SELECT state, owner FROM run_sets WHERE id = ?1");
    int rc = -1;
    if (st && sqlite3_bind_int64(st, 1, set_id) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        char state[16], owner[STORE_OWNER_MAX];
        COL_STR(st, 0, state);
        COL_STR(st, 1, owner);
        rc = !strcmp(state, "running") && strcmp(owner, me) && store_owner_alive(owner) ? 1 : 0;
    } else if (st) {
        store_sqerr(s, "cannot read the run set's state");
    }
    sqlite3_finalize(st);
    if (rc == 0) {
        st = store_prepare(s, "UPDATE run_sets SET state = 'running', owner = ?1 WHERE id = ?2");
        if (!st || sqlite3_bind_text(st, 1, me, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
            sqlite3_bind_int64(st, 2, set_id) != SQLITE_OK || sqlite3_step(st) != SQLITE_DONE)
            rc = st ? store_sqerr(s, "cannot record the run set's state") : -1;
        sqlite3_finalize(st);
    }
    if (rc < 0 || store_tx_commit(s) < 0) {
        store_tx_rollback(s);
        return -1;
    }
    return rc;
}

int store_drop_interrupted(struct store *s, int64_t set_id)
{
    if (store_tx_begin(s) < 0)
        return -1;
    sqlite3_stmt *st = store_prepare(s, "DELETE FROM runs WHERE set_id = ?1 AND interrupted = 1");
    int n = -1;
    if (st && sqlite3_bind_int64(st, 1, set_id) == SQLITE_OK && sqlite3_step(st) == SQLITE_DONE)
        n = sqlite3_changes(s->db);
    else if (st)
        store_sqerr(s, "cannot drop the interrupted run");
    sqlite3_finalize(st);
    if (n < 0 || store_tx_commit(s) < 0) {
        store_tx_rollback(s);
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
    if (store_tx_begin(s) < 0)
        return -1;
    int64_t id = label_free(s, rs->label) < 0 ? -1 : insert_set(s, rs, "done", "");
    for (size_t i = 0; id > 0 && i < rs->nruns; i++) {
        int has = has_run(s, id, &rs->runs[i]);
        if (has > 0 && dropped)
            (*dropped)++;
        if (has < 0 || (has == 0 && insert_run(s, id, &rs->runs[i]) < 0))
            id = -1;
    }
    if (id < 0 || store_tx_commit(s) < 0) {
        store_tx_rollback(s);
        return -1;
    }
    return id;
}
