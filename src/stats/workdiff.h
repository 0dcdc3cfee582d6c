/* workdiff.h — what differs between two groups of runs (two run sets, or two configurations
 * of one), and whether the difference changes the work done.
 *
 * A verdict is about one change: "xfs is 1.84x slower than ext4 at extract" holds only when
 * both did the same extract. What changes the work (the tree: profile, scale, seed, archive,
 * its file count; the phases and their file counts; threads; the replayed trace, by its
 * identity; extract's calls: tar's, create only, or those before extract made tar's) makes a
 * ratio say nothing about the file system; what a user compares on purpose (file system,
 * mount and mkfs options, engine, target kind, kernel, machine, configuration) is listed,
 * never refused. compare withholds its mark between separate sets that did different work;
 * a series of labels uses the same rule to refuse different work.
 *
 * Computes only: no printing. workdiff_format() words the items for every report.
 */
#ifndef FSBENCH_WORKDIFF_H
#define FSBENCH_WORKDIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/results.h"

/* One side: a run set, and the configuration its runs are taken from (NULL: every run). */
struct workdiff_side {
    const struct run_set *rs;
    const char *config;
};

#define WORKDIFF_MAX_ITEMS 24
#define WORKDIFF_VALUE_MAX 96

/* Names and values are stored with their control characters escaped (text_escape()). */
struct workdiff_item {
    char what[RES_NAME_MAX + 16]; /* "tree", "scale", "extract files", "file system" ... */
    char a[WORKDIFF_VALUE_MAX], b[WORKDIFF_VALUE_MAX];
    bool work; /* changes the work done */
};

struct workdiff {
    size_t n;
    struct workdiff_item item[WORKDIFF_MAX_ITEMS];
    bool work; /* some item changes the work done */
};

/* Fills *out with every difference between a and b. same_set: both sides are configurations
 * of one run set (the set's description is the same; only their runs are compared). */
void workdiff_compare(const struct workdiff_side *a, const struct workdiff_side *b, bool same_set,
                      struct workdiff *out);
/* "tree pkgsrc vs tiny; scale 0.3 vs 0.1; file system ext4 vs xfs" (items marked with
 * only_work: those that change the work alone). "" when none. */
void workdiff_format(char *buf, size_t len, const struct workdiff *d, bool only_work);

#endif
