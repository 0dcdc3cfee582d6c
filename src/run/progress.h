/* progress.h — the live progress line of a run set on a terminal:
 *
 *   ext4:sync run 2/6 (round 1) extract ~31200/52000 entries 12.3k ops/s 4.1s ETA 2.3s | set 1:02 ETA 5:10
 *
 * The runner tells it when phases begin and end (on its own thread, while no sampler
 * runs); the time-line sampler calls progress_tick() after each sample, on the sampler
 * thread, so the timed work never sees it: the only cost in the hot path is the relaxed
 * atomic the sampler already reads. Estimates come from the runs already made: the
 * expected operations of a phase are those of the same phase in the last finished run
 * (of the same configuration when there is one); the first run shows operations only.
 *
 * The line is written to a file descriptor (stderr) with one write(2), rewritten in place
 * with "\r" and erase-to-end-of-line, cut to the terminal's width, and erased when a
 * phase ends so other messages never land inside it.
 */
#ifndef FSBENCH_PROGRESS_H
#define FSBENCH_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "measure/results.h"

struct progress;

/* A progress line on fd for `runs` runs (every configuration and round) of `nphases`
 * phases over a tree of `entries` entries (0: unknown). NULL after error(). */
struct progress *progress_new(int fd, unsigned runs, size_t nphases, uint64_t entries);
/* Erases the line and frees p (NULL is ignored). */
void progress_free(struct progress *p);

/* Phase slot `phase` named `name` of run `run` (0-based) of configuration `config`
 * (may be "") in round `round` begins at now_ns (meas_now_ns()). */
void progress_phase_begin(struct progress *p, const char *config, unsigned run, unsigned round,
                          size_t phase, const char *name, uint64_t now_ns);
/* The phase ended with result r: its operations and wall time feed the estimates. */
void progress_phase_end(struct progress *p, const struct phase_result *r);
/* Redraws the line for the sample pt (a meas_sampler tick: void *arg is the progress). */
void progress_tick(void *arg, const struct timeline_point *pt);

/* The line for sample pt into buf (at most width columns; no "\r"): what progress_tick
 * writes. Exposed for tests. */
void progress_format(const struct progress *p, const struct timeline_point *pt, char *buf,
                     size_t len, size_t width);

#endif
