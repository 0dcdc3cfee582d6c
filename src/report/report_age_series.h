/* report_age_series.h — the series view of an --age-steps set (run/age_steps.h), printed at
 * the end of `fsbench run` and by `fsbench compare` on such a set.
 */
#ifndef FSBENCH_REPORT_AGE_SERIES_H
#define FSBENCH_REPORT_AGE_SERIES_H

#include <stdio.h>

#include "measure/results.h"

/* The set's steps as a series (stats/history.h: each step's median with its interval, the
 * change points) printed on f under a heading; nothing when the set has no steps (no meta
 * "age-steps"). 0, or -1 after error(). */
int report_age_series(FILE *f, const struct run_set *rs);

#endif
