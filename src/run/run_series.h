/* run_series.h — what history, report --history and bisect share: a series loaded from the
 * store as the command line asks (--db, --by, --metric, --allow-different-work), with the
 * exit status the user should get when it cannot be.
 */
#ifndef FSBENCH_RUN_SERIES_H
#define FSBENCH_RUN_SERIES_H

#include <stdbool.h>

#include "stats/series.h"

struct run_series_args {
    const char *db;        /* NULL: the default store */
    const char *by;        /* NULL or "created", "given", or a --meta key ("kernel") */
    const char *metric;    /* NULL: wall */
    bool allow_different;
};

/* Parses metric into *m: 0, or EXIT_USAGE after error() naming cmd. */
int run_series_metric(const char *cmd, const char *metric, enum cmp_metric *m);
/* Loads labels[0..n) (labels or glob patterns) into *sr: EXIT_OK, EXIT_USAGE (what the user
 * asked wrongly: no such label, different work, a label without the --by key) or
 * EXIT_RUN_FAILED (the store), after error(). *sr is freed by the caller either way. */
int run_series_load(const char *cmd, const struct run_series_args *a, char **labels, size_t n,
                    struct series *sr);
/* The order in words, for the report: "created", "given", "kernel". */
const char *run_series_order(const struct run_series_args *a);

#endif
