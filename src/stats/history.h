/* history.h — a series' statistics per phase: each label's median with its distribution-free
 * interval and runs, and the change points (stats/changepoint.h) named by label. What the
 * history text, JSON, CSV and HTML print; computed here, printed in report/.
 */
#ifndef FSBENCH_HISTORY_H
#define FSBENCH_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/series.h"
#include "stats/changepoint.h"

struct hist_row {
    size_t n;               /* runs with a value (0: the phase failed or was skipped) */
    double median, lo, hi;  /* NAN when n == 0 */
    bool reached;           /* the interval reaches the confidence (enough runs) */
    bool change;            /* the first label after a change point */
};

struct hist_change {
    size_t first;           /* label index: the first of the new level ("first bad") */
    size_t last;            /* label index: the last of the old level ("last good") */
    double p;
    double before, after;   /* the levels either side */
    double ratio, lo, hi;   /* after / before, interval */
    bool worse;             /* a slowdown for this metric (more time, fewer ops/s) */
};

struct hist_phase {
    char name[RES_NAME_MAX + 16];
    struct hist_row *rows;  /* one per label of the series */
    size_t nchanges;
    struct hist_change *changes;
    double p_first;         /* the whole series' test (NAN: too few labels) */
    size_t nused;           /* labels with values */
    double tau2, within2;
    /* no change found: the smallest step found HIST_POWER of the time mid-series at this
     * noise (a ratio > 1, stats/detectable.h); NAN when a change was found or none looked
     * for */
    double detectable;
};

#define HIST_POWER 0.8

struct hist_result {
    double confidence;
    double alpha;
    size_t min_seg;
    size_t nphases;
    struct hist_phase *phases;
};

/* Builds the statistics of sr, for every phase or only `phase` (NULL: all). *out is zeroed
 * first and freed with hist_free() whatever the return. 0; 1 when `phase` is not one of the
 * series (no message); -1 after error(). */
int hist_build(const struct series *sr, const struct cp_options *o, const char *phase,
               struct hist_result *out);
void hist_free(struct hist_result *h);

#endif
