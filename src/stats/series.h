/* series.h — a series: labels of the same work chosen from the store by glob pattern or
 * list, put in order (creation time, a --meta key, version order for kernels, or the order
 * given), with each label's values per phase of one metric. What `fsbench history`, `report
 * --history` and `bisect verdict` read.
 *
 * Memory stays small with many labels: each label's set is loaded light (store_set_light),
 * its values copied out, and the set freed before the next; only the first set read is kept,
 * to check every other label's work against it (compare's rule, stats/workdiff.h).
 */
#ifndef FSBENCH_SERIES_H
#define FSBENCH_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/results.h"
#include "results/store.h"
#include "stats/compare.h"

struct series_label {
    char label[RES_NAME_MAX];
    double created;           /* of its first set */
    char key[RES_META_VALUE_MAX]; /* the --by value ("" when ordered otherwise) */
    struct run_meta *meta;    /* its set's --meta notes (owned; NULL when none) */
    unsigned nmeta;
    double **vals;            /* per phase of the series: the values of its measured runs */
    size_t *nvals;
};

struct series {
    enum cmp_metric metric;
    size_t nlabels;
    struct series_label *labels;
    size_t nphases;
    char (*phases)[RES_NAME_MAX + 16]; /* "sync", "sync (2)" */
};

/* How a series is ordered: creation time of each label's first set (default), the order the
 * labels were given, or a --meta key's value in version order. */
enum series_order { SERIES_BY_CREATED, SERIES_BY_GIVEN, SERIES_BY_KEY };

struct series_request {
    const char *const *args;  /* labels or glob patterns ('k-*'), in order */
    size_t nargs;
    enum series_order order;
    const char *key;          /* SERIES_BY_KEY: the meta key; "kernel" falls back to the
                               * kernel recorded with the set */
    enum cmp_metric metric;
    bool allow_different;     /* --allow-different-work */
};

/* Loads the series from s into *out (zeroed first; series_free() whatever the return).
 * cmd names the command in messages. 0; 1 after error() for what the user asked wrongly
 * (no label matches, a label without the --by key, different work); -1 after error(). */
int series_load(struct store *s, const struct series_request *req, const char *cmd,
                struct series *out);
void series_free(struct series *sr);

/* The configurations of one set as a series (age steps: each step a configuration), in
 * their declared order, each with its runs' values per phase; at most RUNNER_SERIES_MAX.
 * *out is zeroed first; series_free() whatever the return. 0, or -1 after error(). */
#define RUNNER_SERIES_MAX 64
int series_from_configs(const struct run_set *rs, enum cmp_metric metric, struct series *out);

/* Adds the measured runs of rs (warm-up and interrupted runs left out) as one more label of
 * sr, called label, each phase's values matched by name to sr's phases (a phase sr lacks is
 * not taken): a set being run, judged against stored labels. series_drop_last() takes it
 * off again. 0, or -1 after error(). */
int series_add_set(struct series *sr, const struct run_set *rs, const char *label);
void series_drop_last(struct series *sr);

/* Version order: runs of digits compare as numbers, other text bytewise, and a pre-release
 * ("-rc1", "-pre2", "~beta") sorts before the release it leads to: 6.9 < 6.10 < 6.19-rc1 <
 * 6.19-rc2 < 6.19 < 6.19.1. Dates (2026-12-01) sort as dates. <0, 0, >0. */
int series_version_cmp(const char *a, const char *b);

/* Whether two sets did different work, by compare's rule (stats/workdiff.h: the tree, its
 * scale, seed and file count, an archive or replayed trace, the threads, the measured phases
 * and their file counts; not the file system, options, kernel or machine). 0 when the same;
 * 1 with what differs in why when why is not NULL ("tree pkgsrc vs tiny; scale 0.3 vs
 * 0.1"). */
int series_work_differs(const struct run_set *a, const struct run_set *b, char *why,
                        size_t len);

#endif
