/* run_inputs.h — the files a run reads, opened once before its first run and outside every
 * timed phase: --replay's trace and --age-replay's (each read whole and checked, so a
 * damaged trace stops the run before it starts) and a tar:FILE tree (decompressed once).
 * They hang on the runner's options (ro->params.replay, ro->params.age_replay, ro->tar).
 */
#ifndef FSBENCH_RUN_INPUTS_H
#define FSBENCH_RUN_INPUTS_H

#include <stdbool.h>

#include "run/runner.h"

/* Opens what ro reads: the trace at replay (NULL: none), whose threads become ro's unless
 * threads_given (-j); the trace at age_replay (NULL: none); the archive of tree_arg
 * ("tar:FILE") when ro has no tree profile. 0, or EXIT_RUN_FAILED after error() with
 * nothing left open. */
int run_inputs_open(struct runner_opts *ro, const char *replay, const char *age_replay,
                    const char *tree_arg, bool threads_given);
/* Closes what run_inputs_open() opened (each may be NULL). */
void run_inputs_close(struct runner_opts *ro);

#endif
