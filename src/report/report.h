/* report.h — text reports of a run set: the per-phase table (median, min, max over the runs)
 * and the seeds' compact form ("extract: 245.98 real 4.45 user 34.55 sys").
 * Computes nothing it does not print; numbers come from results and stats.
 */
#ifndef FSBENCH_REPORT_H
#define FSBENCH_REPORT_H

#include <stdio.h>

#include "measure/results.h"

enum report_format { REPORT_TABLE, REPORT_SEEDS };

/* Looks a format up by name ("table", "seeds"); -1 if unknown. */
int report_format_find(const char *name);
void report_run_set(FILE *out, const struct run_set *rs, enum report_format f);
/* Which configurations failed during the set, in which round and phase, and a run stopped
 * by a signal (report_failures.c); nothing when every run finished. */
void report_failures(FILE *out, const struct run_set *rs);
/* Runs on several MPI ranks (rs->ranks.count): placement, and per phase the aggregate
 * beside the slowest and fastest rank (report_ranks.c). */
void report_ranks(FILE *out, const struct run_set *rs, const char *config);

#endif
