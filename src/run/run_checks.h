/* run_checks.h — a run's options checked together, once each is parsed and before anything
 * is touched: what the phases need of the options and of the target (an age replay, a
 * file system of their own), the engines available here, the rounds --runs gives, and
 * what --runs until-verdict needs. The request they come from is the command line's
 * (run/run_request.h); these checks need only what it made: the runner's options.
 */
#ifndef FSBENCH_RUN_CHECKS_H
#define FSBENCH_RUN_CHECKS_H

#include <stdbool.h>

#include "run/run_target.h"
#include "run/runner.h"

/* The checks of ro (its phases resolved, ta the managed target's options as given) that
 * come first: --age-replay (its file: age_replay, NULL when none) and --age-replay-times
 * need an age phase; a phase that keeps its tree (age) needs a file system of its own or
 * --age-host-fs on the command line (run_consent.h); the engine must be available here
 * (--engine auto's second one falls back to posix with a warning); the rounds: --runs
 * auto and until-verdict run up to max_runs counted ones, a number must leave one after
 * --warmup. phases: the --phases text for messages (NULL: the default's). 0, or the exit
 * status after error(). */
int run_checks_together(struct runner_opts *ro, const struct target_args *ta,
                        const char *phases, const char *age_replay, unsigned long max_runs);

/* --runs until-verdict: looks need pairs of the same round, and something to compare.
 * by_caller: a job file's caller checks the configurations (interleaved jobs are each
 * other's). 0, or EXIT_USAGE after error(). */
int run_checks_until_verdict(const struct runner_opts *ro, unsigned long max_runs,
                             bool by_caller);

#endif
