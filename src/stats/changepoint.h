/* changepoint.h — change points in a series of labels, each label holding several runs
 * (fsbench history; bisect leans on the same noise model).
 *
 * Method: circular binary segmentation on the labels' centres (log scale) with a
 * permutation test.
 *   - Each label i gives y_i, the mean of the logs of its runs (the lowest and highest left
 *     out from 5 runs on), and s_i^2, the variance of that centre from its own runs (var / n,
 *     1.2 var / n when trimmed: the within-label part).
 *     s_i^2 rests on n - 1 runs, so it is shrunk towards the series' pooled within variance
 *     (empirical Bayes, the pool worth 20 degrees of freedom) before it weighs the label.
 *   - The label-level noise is a random effect: Var(y_i) = tau^2 + s_i^2. The total is
 *     estimated robustly from successive differences of the y_i (a step moves one difference
 *     only), and tau^2 = max(0, total - mean s_i^2): a night when the machine was busy makes
 *     a whole label slower, and that spread is tau^2, not a change.
 *   - A segment [a, b) is split where the weighted difference of the means on either side,
 *     standardised by its random-effects variance (weights 1 / (tau^2 + s_i^2)), is largest
 *     (at least min_seg labels on each side); or around an inner run of labels unlike the
 *     rest (up, then back: its statistic halved against the many runs there are). For the
 *     test the centres are pulled in to 2.5 robust sd of the median (a busy night's whole
 *     set is a large value, not a step). Its p-value is the share of permutations of the
 *     segment's labels (each label's centre and weight moved together) whose largest
 *     statistic reaches it: exact for exchangeable labels whatever the noise's shape, so the
 *     between-label variation is in the null distribution, not only the within-label one.
 *   - Segments are split while p <= alpha. Under no change the first test is the only one
 *     made, so the chance of any false change point in a series is alpha (per series, not per
 *     look); each further split is tested at alpha on its own segment.
 *   - Each change is then measured between its neighbouring segments: after / before as a
 *     ratio of weighted geometric means, with a Student-t interval of nL + nR - 2 degrees of
 *     freedom on the random-effects standard error. A change whose interval holds 1 is
 *     dropped (the least certain first) and its neighbours measured again: every change
 *     reported is clear of "no change" at the stated confidence.
 *   - Everything works on logs, each tested segment centred on its own mean: times in other
 *     units or of another size (x c) give the same change points and p-values.
 * Assumptions: labels are independent given the segment they are in (no drift between
 * labels, which would read as changes); runs are positive; a change is a step.
 * Pure computation: nothing here prints.
 */
#ifndef FSBENCH_CHANGEPOINT_H
#define FSBENCH_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

/* One label's values (runs), all > 0, in any order. */
struct cp_label {
    const double *x;
    size_t n;
};

struct cp_options {
    double alpha;          /* false-alarm rate per series (0.05) */
    double confidence;     /* of each change's interval (0.95) */
    size_t min_seg;        /* fewest labels in a segment (>= 2; 3 by default) */
    unsigned permutations; /* per test (999 by default) */
    uint64_t seed;         /* of the permutations: the same input gives the same answer */
    size_t max_changes;    /* 0: as many as the data show */
};

/* Defaults: alpha 0.05, confidence 0.95, min_seg 3, 999 permutations, seed 1. */
void cp_options_default(struct cp_options *o);

struct cp_change {
    size_t at;            /* index of the first label of the new segment (the first bad) */
    double p;             /* permutation p-value of the test that found it */
    double before, after; /* weighted geometric means of the label centres either side */
    double ratio, lo, hi; /* after / before and its interval */
};

struct cp_result {
    size_t nchanges;
    struct cp_change *changes; /* owned, in label order */
    double p_first;            /* p-value of the first test (the whole series); NAN: none made */
    double tau2;               /* between-label variance (log scale) */
    double within2;            /* mean within-label variance of a label's median */
    double *median;            /* owned: each label's median (in the values' units) */
};

/* Finds the change points of labels[0..n). *out is filled (zeroed first) and must be
 * released with cp_result_free() whatever the return. 0, or -1 (a label with no value or
 * a value <= 0 or not finite; out of memory). Fewer than 2 * min_seg labels: no change. */
int cp_detect(const struct cp_label *labels, size_t n, const struct cp_options *opt,
              struct cp_result *out);
void cp_result_free(struct cp_result *r);

#endif
