/* detectable.h — when history finds no change point: the smallest step it would have found
 * at the series' noise, so a user knows whether more runs (or labels) are needed to see a
 * change of the size that matters.
 *
 * The model is the detector's (stats/changepoint.h) in its simplest form: n label centres,
 * independent, each of variance v on the log scale (tau^2 + the within-label variance of a
 * centre), tested by the largest standardised single-split difference. The critical value
 * is the null 1 - alpha quantile of that largest value, simulated once per (n, min_seg,
 * alpha) from Gaussian centres (seeded: the same answer every time); a step mid-series
 * shows with probability `power` when its size is (critical value + the power's normal
 * quantile) standard errors of the mid split, times the detector's measured loss against
 * that plain test (trimmed centres, noise estimated from the series itself, the inner-run
 * search: 1.3 on the log scale, detectable.c). An approximation, best case: mid-series (a
 * step near either end needs more), found within one label.
 */
#ifndef FSBENCH_DETECTABLE_H
#define FSBENCH_DETECTABLE_H

#include <stddef.h>

/* The ratio (> 1) of the smallest step found with probability power (0.5..0.99) mid-series,
 * for n labels, min_seg, alpha (0 < alpha < 0.5) and v. NAN when n < 2 min_seg or v is
 * not a finite number >= 0 (v = 0: 1). */
double detectable_step(size_t n, size_t min_seg, double alpha, double v, double power);

/* The null 1 - alpha quantile of the largest standardised single-split difference over n
 * independent standard normal centres, each part at least min_seg long (cached). NAN when
 * n < 2 min_seg. Exposed for tests. */
double detectable_critical(size_t n, size_t min_seg, double alpha);

#endif
