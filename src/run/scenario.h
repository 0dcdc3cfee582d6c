/* scenario.h — phase lists: resolving "extract,sync,..." into phases, and the rule that
 * repeats a phase (--fsync-rounds). The scenarios themselves are the job files shipped in
 * jobs/ (run/job_builtin.h): `fsbench run basic` runs jobs/basic.ini.
 */
#ifndef FSBENCH_SCENARIO_H
#define FSBENCH_SCENARIO_H

#include <stddef.h>

#include "phase/phase.h"

#define SCENARIO_MAX_PHASES 32

/* Resolves a comma-separated list of phase names into out[] (at most max).
 * Returns the count, or -1 after error() naming the unknown phase. */
int scenario_resolve(const char *list, const struct phase_def **out, size_t max);

/* Makes every run of consecutive phases named name in ph[0..n) exactly times long (so
 * "extract,sync,fsyncstorm,fsyncstorm,delete" with 3 has three fsyncstorms); other phases
 * keep their order. ph has room for max. Returns the new count (n if name is absent), or
 * -1 after error() when the list would pass max or times is 0. */
int scenario_repeat(const struct phase_def **ph, size_t n, size_t max, const char *name,
                    unsigned times);

#endif
