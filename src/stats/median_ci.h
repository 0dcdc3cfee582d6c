/* median_ci.h — a distribution-free confidence interval for a median: the order
 * statistics x(k) and x(n+1-k) with k the largest rank whose binomial coverage
 * 1 - 2 P(Bin(n, 1/2) <= k - 1) still reaches the confidence (Conover, Practical
 * Nonparametric Statistics, 3.2). No assumption about the shape of the runs' spread.
 */
#ifndef FSBENCH_MEDIAN_CI_H
#define FSBENCH_MEDIAN_CI_H

#include <stdbool.h>
#include <stddef.h>

struct stats_median_ci {
    double median, lo, hi;
    double coverage; /* the interval's exact coverage */
    bool reached;    /* coverage >= the confidence asked; false: too few values, and
                        lo..hi is the whole range (coverage says how sure that is) */
};

/* Fills *out for x[0..n) (not modified). 0, or -1 when n == 0 or out of memory. */
int stats_median_ci(const double *x, size_t n, double confidence, struct stats_median_ci *out);

#endif
