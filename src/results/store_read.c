/* store_read.c — loading sets from the results store (see store.h): a set by label or
 * id, its runs and phases, whole or light (without detail_json).
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
    json_t *meta = store_col_json(s, st, 16, where[0]);
    int mrc = meta ? meta_from_json(meta, out, where[0]) : -1;
    json_decref(meta);
    if (mrc < 0)
        return -1;
    json_t *m = store_col_json(s, st, 8, where[1]), *t = store_col_json(s, st, 9, where[2]),
           *tr = store_col_json(s, st, 10, where[3]);
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
        json_t *detail = store_col_json(s, st, 19, where);
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
    pr->wall_s = store_col_real(st, 4);
    pr->user_s = store_col_real(st, 5);
    pr->sys_s = store_col_real(st, 6);
    pr->ops_total = store_col_u64(st, 7);
    pr->bytes_read = store_col_u64(st, 8);
    pr->bytes_written = store_col_u64(st, 9);
    pr->files = store_col_u64(st, 10);
    pr->dirs = store_col_u64(st, 11);
    pr->symlinks = store_col_u64(st, 12);
    pr->dev.valid = sqlite3_column_int(st, 13) != 0;
    if (pr->dev.valid) {
        pr->dev.rd_ios = store_col_u64(st, 14);
        pr->dev.wr_ios = store_col_u64(st, 15);
        pr->dev.rd_sectors = store_col_u64(st, 16);
        pr->dev.wr_sectors = store_col_u64(st, 17);
        pr->dev.io_ticks_ms = store_col_u64(st, 18);
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
        runs = store_prepare(s, "SELECT id, round, config, warmup, started,"
                          " (SELECT count(*) FROM phases WHERE run_id = runs.id),"
                          " interrupted FROM runs WHERE set_id = ?1 ORDER BY idx, id");
    if (!ph)
        ph = store_prepare(
        s, "SELECT ord, name, status, note, wall_s, user_s, sys_s, ops_total, bytes_read,"
           " bytes_written, files, dirs, symlinks, dev_valid, dev_reads, dev_writes,"
           " dev_sectors_read, dev_sectors_written, dev_io_ticks_ms,"
           " CASE WHEN ?2 THEN '{}' ELSE detail_json END"
           " FROM phases WHERE run_id = ?1 ORDER BY ord");
    int ret = runs && ph ? 0 : -1;
    if (ret == 0 && sqlite3_bind_int64(runs, 1, set_id) != SQLITE_OK)
        ret = store_sqerr(s, "cannot load runs");
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
        r->started = store_col_real(runs, 4);
        r->interrupted = sqlite3_column_int(runs, 6) != 0;
        sqlite3_reset(ph);
        if (sqlite3_bind_int64(ph, 1, run_id) != SQLITE_OK ||
            sqlite3_bind_int(ph, 2, s->light) != SQLITE_OK) {
            ret = store_sqerr(s, "cannot load phases");
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
            ret = store_sqerr(s, "cannot load phases");
    }
    if (ret == 0 && rc != SQLITE_DONE)
        ret = store_sqerr(s, "cannot load runs");
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
    if (!s->light_tx && store_exec_retry(s, "BEGIN", "cannot start a transaction") < 0)
        return -1; /* one snapshot */
    s->light_tx = keep;
    sqlite3_stmt *st = keep && s->light_sets
                           ? s->light_sets
                           : store_prepare(s, label ? "SELECT id, label, created, scenario, engine,"
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
        ret = store_sqerr(s, "cannot load");
    while (ret == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (nsets++ == 0)
            ret = load_description(s, st, out);
        if (ret == 0)
            ret = load_runs(s, sqlite3_column_int64(st, 0), out);
    }
    if (ret == 0 && rc != SQLITE_DONE)
        ret = store_sqerr(s, "cannot load");
    if (keep && st) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        s->light_sets = st;
    } else {
        sqlite3_finalize(st);
        store_tx_rollback(s); /* read-only: nothing to commit */
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
            store_tx_rollback(s);
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
