/* job_rounds.h — `interleave = jobs`: the jobs of a file as configurations of one run set,
 * run in rounds (every job once per round, in a seeded random order), so that comparing
 * them pairs runs of the same round as configurations of one run are paired.
 *
 * Each job keeps all its own settings (tree, phases, threads, target, ...): a round runs
 * each job through runner_run with one run, and its run is added to the one set under the
 * job's name (or "job/config" when a job has a configuration matrix), with the round's
 * number. The set's description (machine, target, tree) is the first job's; its declared
 * configurations are every job's, in file order (the first job is compare's baseline).
 */
#ifndef FSBENCH_JOB_ROUNDS_H
#define FSBENCH_JOB_ROUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/job.h"
#include "run/runner.h"

struct job_rounds {
    const struct runner_opts *ro[JOB_MAX_JOBS];
    const char *name[JOB_MAX_JOBS];
    size_t n;
    unsigned runs;   /* rounds (until_verdict: the most, warm-up included) */
    unsigned warmup; /* first rounds marked warm-up */
    uint64_t seed;   /* order of the jobs in each round */
    /* --runs until-verdict: stop once every phase of every job has its sequential verdict
     * against the first job (stats/seqstop.h) */
    bool until_verdict;
    double confidence, min_effect, negligible_s;
};

/* What jobs interleaved in rounds share (the set has one of each): the first job's. */
struct job_rounds_common {
    unsigned runs;        /* rounds (until_verdict: the most, warm-up included) */
    bool until_verdict;
    double min_effect;    /* until_verdict's --min-effect and --negligible */
    double negligible_s;
};

/* The first job's options ro as what the others must share. */
void job_rounds_common_of(struct job_rounds_common *jc, const struct runner_opts *ro);

/* A job of jobs interleaved in rounds, checked against the first one's jc: runs = auto
 * cannot be interleaved, and runs, max-runs, min-effect and negligible must be the first
 * job's. 0, or -1 after error(). */
int job_rounds_check(const struct job_rounds_common *jc, const struct runner_opts *ro);

/* The n jobs ro[i] named name[i] (those left_out[i]: none of their configurations can run,
 * left out) as jr, to run in jc->runs rounds with the first job's warm-up, order seed and
 * stop rule; and outer, a copy of the first job's options whose configurations are every
 * job's ("job" or "job/config", file order): what the set declares and runs through. */
void job_rounds_setup(struct job_rounds *jr, struct runner_opts *outer,
                      const struct job_rounds_common *jc, struct runner_opts *const *ro,
                      const char *const *name, const bool *left_out, size_t n);

/* The configuration name of job j's configuration c ("" for a plain directory) into buf. */
void job_rounds_config_name(const char *job, const char *config, char *buf, size_t len);

/* Runs the rounds into rs, calling outer's set_ready once and run_done after every run
 * (outer's fail_fast is every job's; its other members are not used). A run rs already
 * holds is not made again, and a job's configuration that failed is left out of the later
 * rounds (runner_plan_from()). 0, 1 when configurations failed (the set went to its end),
 * or -1 after error() (finished runs kept). */
int job_rounds_run(const struct job_rounds *jr, const struct runner_opts *outer,
                   struct run_set *rs);

#endif
