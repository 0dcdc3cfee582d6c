/* run_preflight.h — the pre-flight (run/preflight.h) of a run set's configurations, said
 * one line per failure, and its verdict: run all, run those that can (--skip-bad), or
 * nothing (run_preflight.c).
 */
#ifndef FSBENCH_RUN_PREFLIGHT_H
#define FSBENCH_RUN_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/results.h"
#include "run/runner.h"

struct run_preflight_bad {                       /* the configurations that failed it */
    char job[RUNNER_MAX_CONFIGS][RES_NAME_MAX];  /* their job ("" outside a job file) */
    char name[RUNNER_MAX_CONFIGS][RES_NAME_MAX]; /* their names ("": the one unnamed) */
    size_t n;
    size_t total; /* configurations checked */
};
/* Checks ro's configurations (of job `job`, or NULL), one error line for each failure,
 * and adds them to *bad (zero it first): how many of ro's cannot run. */
size_t run_preflight_check(const struct runner_opts *ro, const char *tree_arg, const char *job,
                           struct run_preflight_bad *bad);
/* After every set was checked: EXIT_OK when all can run, or with skip_bad when some can
 * (a line says which are left out); else EXIT_RUN_FAILED after a line saying nothing ran. */
int run_preflight_verdict(const struct run_preflight_bad *bad, bool skip_bad);
/* Leaves job's configurations that are in bad out of ro: 0, or -1 when none is left. */
int run_preflight_drop(struct runner_opts *ro, const char *job,
                       const struct run_preflight_bad *bad);
/* The three for one set on the command line: EXIT_OK to run (ro without the bad ones). */
int run_preflight(struct runner_opts *ro, const char *tree_arg, bool skip_bad);

#endif
