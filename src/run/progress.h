/* progress.h — where a run set is, while it runs:
 *
 *   ext4:sync run 3/12 extract 45% 25,323/55,662 ops 2,353 ops/s ETA 13s | set 24% ETA 4m10s
 *
 * On a terminal the line is rewritten in place on stderr while phases run; elsewhere (a
 * file, a pipe) one plain line is written when a run ends:
 *
 *   fsbench: ext4:sync run 3/12 (round 2) done in 1m02s | set 25% ETA 4m10s
 *
 * The phase's part: its operations done of those it will make, with a percentage and the
 * time left at its rate so far, from the first run on where the total is known (the
 * runner's expected operations, run/work_expect.h; after a run, that run's own count of
 * the same phase, of the same configuration when there is one); a phase whose work is not
 * in operations (sync, umount) shows the time it took before, or its elapsed time. The
 * set's part: runs done (made, or kept from before by a resumed set) and the part of this
 * one, and the time left: the rest of this run and the remaining runs at the walls the
 * runs so far took, phase by phase ("?" until every phase has been timed once).
 *
 * The runner tells it when runs and phases begin and end (on its own thread, while no
 * sampler runs); the time-line sampler calls progress_tick() after each sample, on the
 * sampler thread, so the timed work never sees it: the only cost in the hot path is the
 * relaxed atomic the sampler already reads. The line is written with one write(2),
 * rewritten with "\r" and erase-to-end-of-line, cut to the terminal's width, and erased
 * when a phase ends so that other messages never land inside it.
 */
#ifndef FSBENCH_PROGRESS_H
#define FSBENCH_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/results.h"

struct progress;

/* Progress on fd for `runs` runs (every configuration and round) of `nphases` phases;
 * expect[nphases] the operations each phase slot will make (0: not known; NULL: none
 * known). tty: rewrite a line while phases run (else a plain line per run). NULL after
 * error(). */
struct progress *progress_new(int fd, bool tty, unsigned runs, size_t nphases,
                              const uint64_t *expect);
/* Erases the line and frees p (NULL is ignored). */
void progress_free(struct progress *p);

/* A run made before (a resumed set): it counts as done and its phases feed the estimates. */
void progress_run_known(struct progress *p, const struct run_result *r);
/* n runs that will not be made (their configuration failed): the set holds fewer. */
void progress_runs_dropped(struct progress *p, unsigned n);
/* Phase slot `phase` named `name` of configuration `config` (may be "") in round `round`
 * begins at now_ns (meas_now_ns()). */
void progress_phase_begin(struct progress *p, const char *config, unsigned round, size_t phase,
                          const char *name, uint64_t now_ns);
/* The phase ended with result r: its operations and wall time feed the estimates. */
void progress_phase_end(struct progress *p, const struct phase_result *r);
/* Run r (finished or failed) ended at now_ns: one more done; the plain line when not on a
 * terminal and r finished (a failed run has its error line). */
void progress_run_end(struct progress *p, const struct run_result *r, uint64_t now_ns);
/* Redraws the line for the sample pt (a meas_sampler tick: void *arg is the progress). */
void progress_tick(void *arg, const struct timeline_point *pt);

/* The line for sample pt into buf (at most width columns, 0: no limit; no "\r"): what
 * progress_tick writes. Exposed for tests. */
void progress_format(const struct progress *p, const struct timeline_point *pt, char *buf,
                     size_t len, size_t width);
/* The plain line of run r, which ended after wall_s seconds (and is counted done), into buf
 * (no prefix, no newline): what progress_run_end writes. Exposed for tests. */
void progress_format_run(const struct progress *p, const struct run_result *r, double wall_s,
                         char *buf, size_t len);

#endif
