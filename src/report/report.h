/* report.h — text reports of a run set: the per-phase table (median, min, max over the runs)
 * and the seeds' compact form ("extract: 245.98 real 4.45 user 34.55 sys").
 * Computes nothing it does not print; numbers come from results and stats.
 */
#ifndef FSBENCH_REPORT_H
#define FSBENCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "measure/results.h"

enum report_format { REPORT_TABLE, REPORT_SEEDS };

/* How a table is laid out: width, the columns it may fill (80 when not a terminal); wide:
 * every column whatever the width, and for a matrix seed 000's Mode blocks and the grid of
 * median wall times (-v, --wide). */
struct report_layout {
    unsigned width;
    bool wide;
};

/* Looks a format up by name ("table", "seeds"); -1 if unknown. */
int report_format_find(const char *name);
/* The set in full: every column, Mode blocks and grid for a matrix (report_run_set_fit with
 * wide set). */
void report_run_set(FILE *out, const struct run_set *rs, enum report_format f);
/* The set as the layout allows: one table (a matrix's configurations as its groups, in
 * their declared order), the columns that fit lo->width, never a row wrapped. */
void report_run_set_fit(FILE *out, const struct run_set *rs, enum report_format f,
                        const struct report_layout *lo);
/* Which configurations failed during the set, in which round and phase, and a run stopped
 * by a signal (report_failures.c); nothing when every run finished. */
void report_failures(FILE *out, const struct run_set *rs);
/* Runs on several MPI ranks (rs->ranks.count): placement, and per phase the aggregate
 * beside the slowest and fastest rank (report_ranks.c). */
void report_ranks(FILE *out, const struct run_set *rs, const char *config);
/* Per run, aging by replay's repetitions (bytes and distance each) and profile aging's
 * figures (ops, stop, distance per dimension, free space before and after) (report_aging.c). */
void report_aging(FILE *out, const struct run_set *rs, const char *config);
/* A set of --age-steps aged by replay or by a profile: per step (configuration) its
 * repetitions (profile: its ops), the bytes written in all so far, the free space after it
 * and the distance (report_aging.c). Nothing when no run holds aging's figures. */
void report_aging_steps(FILE *out, const struct run_set *rs);
/* The same as an HTML table (id age-replay-steps, or age-profile-steps), for the steps' history page. */
void report_aging_steps_html(FILE *out, const struct run_set *rs);

#endif
