/* runner_internal.h — what runner.c (the measured loop) asks of runner_describe.c (the
 * set's record before its first run) and runner_stop.c (when a set has seen enough).
 * Neither of those two calls back into runner.c.
 */
#ifndef FSBENCH_RUNNER_INTERNAL_H
#define FSBENCH_RUNNER_INTERNAL_H

#include <stdbool.h>

#include "os/blockdev.h"
#include "run/runner.h"

/* runner_describe.c */
/* Fills what rs says about o's runs before the first one (its created time is the
 * caller's): machine, target at path (tgt: the managed one, or NULL for a directory; dev:
 * its block device, valid or not), configurations, tree or trace, work and stop rule. */
void runner_describe_set(const struct runner_opts *o, struct run_set *rs, struct target *tgt,
                         const struct os_blockdev *dev, const char *path);

/* runner_stop.c */
/* --runs auto: is every phase of every configuration (those failed, in this set or before
 * it was resumed, left out: failed[], failed_before[], RUNNER_MAX_CONFIGS each) precise
 * enough? Fills *ra. On several ranks rank 0's answer is every rank's (hooks->decide). */
bool runner_precise_enough(const struct runner_opts *o, const struct run_set *rs,
                           const bool *failed, const bool *failed_before, struct runner_auto *ra);
/* --runs auto with --no-interleave: are configuration cfg's own medians precise enough? */
bool runner_config_precise(const struct runner_opts *o, const struct run_set *rs,
                           const char *cfg);

#endif
