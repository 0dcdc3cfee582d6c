/* age_steps.h — `fsbench run --age-steps N|LIST`: performance along the way. The age
 * phase ages in steps on one file system (mkfs once, the aged files kept between runs), and
 * after each step the job's other phases (the probe) are measured --runs times. Each step is
 * a configuration of the set ("aged-0.5x", "aged-1x", ...: the file system after that many
 * of its sizes were written in all), so compare gives each step against the first with
 * intervals, and the run ends with the series view (stats/history.h) over the steps.
 */
#ifndef FSBENCH_AGE_STEPS_H
#define FSBENCH_AGE_STEPS_H

#include <stddef.h>
#include <stdio.h>

#include "run/runner.h"

#define AGE_STEPS_MAX 32

/* Parses ARG: a whole number N (1 to AGE_STEPS_MAX: N equal steps up to age_written, the
 * written limit in file-system sizes) or a list of written multiples in rising order
 * ("0,0.5,1,2,4"; 0 is the fresh file system; each at most 50). The multiples go to x[],
 * their count to *n. 0, or -1 after error() naming the option and what would do. */
int age_steps_parse(const char *arg, double age_written, double *x, size_t *n);

/* Turns ro's one configuration into one per step (see above), after checks: a managed
 * target (--image or --device), one configuration, an age phase first, and probe phases
 * that leave the tree alone (no extract, copy, delete, createsync, fsyncstorm, cb_*,
 * replay: the next round would find or lose what they did). Sets keep_fs and
 * no_interleave. The list, as given in words, goes to list (len bytes) for the set's meta
 * "age-steps". 0, or EXIT_USAGE after error(). */
int age_steps_apply(const char *arg, struct runner_opts *ro, char *list, size_t len);

/* The name of step x's configuration: "aged-0.5x". */
void age_steps_name(double x, char *buf, size_t len);

/* One line on f after each run of a step: "step aged-1x, round 1: 114.5 MiB written in
 * all; probe: sync 0.373 s, read 1.654 s" (each probe phase's wall, or its status). */
void age_steps_say(FILE *f, const struct run_result *run);

/* The set's meta "age-steps" (the multiples, "0,0.5,1"), or NULL: not a set of steps. */
const char *age_steps_of(const struct run_set *rs);
/* The steps of rs as a series and its statistics (the wall of each phase). 0; 1 when there
 * are fewer than two steps; -1 after error(). Free both whatever the return. */
struct series;
struct hist_result;
int age_steps_series(const struct run_set *rs, struct series *sr, struct hist_result *h);

#endif
