/* preflight.h — before the first timed run of a set, every configuration checked for real,
 * so that a matrix never stops at its fifth hour on a mount option one file system refuses:
 *
 *  - what --dry-run reports: root where it is needed, and the free space the runs need
 *    where they go (job_plan.h); a failure there is every configuration's;
 *  - a plain directory (--dir, or the temporary directory's parent): a file can be made
 *    and removed in it;
 *  - a managed target (--image, --device): the mkfs program of each file system, the mkfs
 *    and mount options against its allow-list, then for real: the target made once, each
 *    file system made with its mkfs options, each configuration mounted with its mount
 *    options, a file made and removed in it, and unmounted; the kernel's own line about a
 *    refused mount is added where its log can be read (os/kmsg.h).
 *
 * Every failure is collected (nothing stops at the first), each naming its configuration,
 * so that all of them are said at once. Nothing of the check is kept: the target is
 * destroyed, the probe files removed. What to do with the failures is the caller's.
 */
#ifndef FSBENCH_PREFLIGHT_H
#define FSBENCH_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>

#include "run/runner.h"

#define PREFLIGHT_WHY 1024
#define PREFLIGHT_ALL ((size_t)-1) /* a failure of every configuration */

struct preflight_fail {
    size_t config; /* index into the options' configs, or PREFLIGHT_ALL */
    char why[PREFLIGHT_WHY];
};

struct preflight {
    struct preflight_fail fail[RUNNER_MAX_CONFIGS + 4];
    size_t nfail;
    bool bad[RUNNER_MAX_CONFIGS]; /* configuration i cannot run */
    size_t nbad;                  /* how many cannot (all of them after a PREFLIGHT_ALL) */
};

/* Checks every configuration of o (tree_arg: the --tree value, for an archive's size) into
 * *pf. Touches only what it makes and removes again. Needs what the run needs (root for a
 * managed target). Returns the number of configurations that cannot run. */
size_t preflight_run(const struct runner_opts *o, const char *tree_arg, struct preflight *pf);

#endif
