/* store_list.c — listing the results store (see store.h): one line of facts a set, the
 * last set of a label, the newest sets, and forgetting a label.
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

#define SET_INFO_COLUMNS                                                                           \
    "SELECT id, label, created, scenario, tree_profile, tree_scale, tree_seed,"                    \
    " fstype, device, target_path, mount_opts,"                                                    \
    " (SELECT count(*) FROM runs WHERE set_id = run_sets.id AND interrupted = 0),"                 \
    " planned, state, owner, args_json != '',"                                                     \
    " (SELECT count(*) FROM runs WHERE set_id = run_sets.id AND interrupted = 1)"                  \
    " FROM run_sets"

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
    double scale = store_col_real(st, 5);
    uint64_t seed = store_col_u64(st, 6);
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
    info->running = !strcmp(info->state, "running") && store_owner_alive(owner);
    if (!strcmp(info->state, "running") && !info->running)
        snprintf(info->state, sizeof info->state, "interrupted"); /* killed, or a power cut */
    info->resumable = sqlite3_column_int(st, 15) != 0;
    info->ninterrupted = (unsigned)sqlite3_column_int64(st, 16);
}

int store_last_set(struct store *s, const char *label, struct store_set_info *info)
{
    if (s->empty)
        return 1;
    sqlite3_stmt *st = store_prepare(s, SET_INFO_COLUMNS " WHERE label = ?1 ORDER BY created DESC,"
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
    return rc == SQLITE_DONE ? 1 : store_sqerr(s, "cannot find the run set");
}

int store_list(struct store *s, store_list_cb cb, void *arg)
{
    if (s->empty)
        return 0;
    sqlite3_stmt *st = store_prepare(s, SET_INFO_COLUMNS " ORDER BY created, id");
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
    return rc == SQLITE_DONE ? 0 : store_sqerr(s, "cannot list run sets");
}

int store_newest_sets(struct store *s, int64_t *ids, size_t max)
{
    if (s->empty)
        return 0;
    sqlite3_stmt *st = store_prepare(s, "SELECT id FROM run_sets ORDER BY created DESC, id DESC");
    if (!st)
        return -1;
    int rc = SQLITE_ROW;
    size_t n = 0;
    while (rc == SQLITE_ROW && n < max && (rc = sqlite3_step(st)) == SQLITE_ROW)
        ids[n++] = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return store_sqerr(s, "cannot list run sets");
    return (int)n;
}

int store_forget(struct store *s, const char *label)
{
    if (store_tx_begin(s) < 0)
        return -1;
    sqlite3_stmt *st = store_prepare(s, "DELETE FROM run_sets WHERE label = ?1");
    int n = -1;
    if (st && sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_DONE)
        n = sqlite3_changes(s->db);
    else if (st)
        store_sqerr(s, "cannot delete");
    sqlite3_finalize(st);
    if (n < 0 || store_tx_commit(s) < 0) {
        store_tx_rollback(s);
        return -1;
    }
    return n;
}
