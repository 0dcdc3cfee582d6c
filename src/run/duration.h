/* duration.h — how long a run set would take, said before it runs (`run --dry-run`).
 *
 * Two sources, the better first: the walls of earlier runs of the same job (the caller
 * finds them in the store and gives their median), else the work model the progress line
 * uses for a set's first run (run/work_expect.h): each phase's expected operations at a
 * rate. Before anything has run no rate is seen, so the model takes an assumed one
 * (DURATION_OPS_PER_S, a modest local disk's metadata rate) and a fixed cost for what it
 * cannot count (a sync, a mount cycle, a mkfs): a rough figure, said to be one.
 */
#ifndef FSBENCH_DURATION_H
#define FSBENCH_DURATION_H

#include <stdbool.h>
#include <stddef.h>

#include "run/runner.h"

/* The rate the model assumes when no run has been timed: operations a second. */
#define DURATION_OPS_PER_S 20000.0
/* and the seconds it takes a mkfs (and mount) before a run on a file system it makes */
#define DURATION_MKFS_S 2.0

/* The seconds one run of o would take by the work model (per configuration: the model
 * does not tell file systems apart), or -1 when the tree's work cannot be known before it
 * is read (an archive). */
double duration_model_run(const struct runner_opts *o);

/* "about 4 min 10 s", "about 12 s", "about 2 h 5 min" into buf: buf. */
char *duration_text(char *buf, size_t len, double s);

#endif
