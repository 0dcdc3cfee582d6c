/* run_series.c — loading a series for history, report --history and bisect (see
 * run_series.h). */
#include "run/run_series.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/text.h"
#include "results/store.h"

int run_series_metric(const char *cmd, const char *metric, enum cmp_metric *m)
{
    *m = CMP_WALL;
    if (!metric)
        return EXIT_OK;
    int f = cmp_metric_find(metric);
    if (f < 0)
        return error("%s: --metric: unknown metric '%s' (wall, user, sys, cpu, ops, mbps, "
                     "dev-writes, dev-reads, dev-write-mb)",
                     cmd, text_shown(metric)),
               EXIT_USAGE;
    *m = (enum cmp_metric)f;
    return EXIT_OK;
}

const char *run_series_order(const struct run_series_args *a)
{
    return a->by ? a->by : "created";
}

int run_series_load(const char *cmd, const struct run_series_args *a, char **labels, size_t n,
                    struct series *sr)
{
    memset(sr, 0, sizeof *sr);
    struct series_request req = {(const char *const *)labels, n, SERIES_BY_CREATED, NULL,
                                 CMP_WALL, a->allow_different};
    int rc = run_series_metric(cmd, a->metric, &req.metric);
    if (rc != EXIT_OK)
        return rc;
    if (a->by && !strcmp(a->by, "given")) {
        req.order = SERIES_BY_GIVEN;
    } else if (a->by && strcmp(a->by, "created")) {
        req.order = SERIES_BY_KEY;
        req.key = a->by;
    }
    char path[4096];
    const char *db = a->db;
    if (!db) {
        if (store_default_path(path, sizeof path) < 0)
            return error("%s: cannot find the results store (set HOME, or use --db FILE)", cmd),
                   EXIT_RUN_FAILED;
        db = path;
    }
    if (access(db, F_OK) != 0)
        return error("%s: no results store at %s (nothing was saved yet?)", cmd, text_shown(db)),
               EXIT_USAGE;
    struct store *s = store_open_read(db);
    if (!s)
        return EXIT_RUN_FAILED;
    int lr = series_load(s, &req, cmd, sr);
    store_close(s);
    return lr == 0 ? EXIT_OK : lr > 0 ? EXIT_USAGE : EXIT_RUN_FAILED;
}
