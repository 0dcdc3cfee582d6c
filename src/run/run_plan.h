/* run_plan.h — `fsbench run --dry-run`: what one job would do and how long it would take,
 * printed, touching nothing (run_plan.c).
 */
#ifndef FSBENCH_RUN_PLAN_H
#define FSBENCH_RUN_PLAN_H

#include <stdio.h>

#include "run/runner.h"

/* Prints what ro would do (--dry-run), touching nothing. */
int run_plan_print(FILE *f, const char *job, const struct runner_opts *ro, const char *tree_arg);
/* The job's estimated duration (--dry-run), from earlier runs of the same job (tree,
 * engine, phases, configuration) in the store at db (NULL: the default), else from the
 * work model; its seconds into *total_s (-1: unknown). 0. */
int run_plan_estimate(FILE *f, const char *job, const struct runner_opts *ro, const char *db,
                      double *total_s);

#endif
