/* runner.h — runs the phases of a scenario over runs x configurations and measures each phase.
 *
 * Targets: a plain directory (one configuration), or a file system fsbench manages (an image
 * or a device) with a matrix of configurations (file system x mount options). Runs are made
 * in rounds: each round runs every configuration once, in a seeded random order, so drift
 * over time biases no configuration and compare can pair configurations by round.
 *
 * Threads (-j N): the runner starts N engine workers (each its own op counters, engine
 * state and I/O buffer) and hands all of them to every phase; the phases with a parallel
 * version (extract of a synthetic tree, walk, statwalk, read, copy, delete) run one thread
 * per worker, the others (sync, dropcaches, mount phases, cmd, layout, the workloads,
 * extract of an archive) run on worker 0 alone. The time line samples every worker and
 * the phase's op counts merge every worker's.
 *
 * CPU time: user_s and sys_s are the sum of the phase's threads' own times (RUSAGE_THREAD
 * of the calling thread plus the threads the phase started), plus waited-for children (the
 * cmd phase), so the sampler thread is not counted. Exception: with an asynchronous engine
 * (io_uring) the kernel's io-wq worker threads belong to the process and do the work, so
 * those phases report the process's RUSAGE_SELF (which includes the sampler, ~0).
 *
 * Every run starts from an empty workspace (a fresh mkfs by default on managed targets).
 * Around each phase the runner takes whole-process snapshots (wall, rusage, /proc/self/io,
 * device counters), resets the engine's op counters and samples progress for the time line.
 * A failed run (a phase failed, or the managed target could not be made ready for it) is
 * handed to run_done and said in one error line; its configuration is left out of the rest
 * of the set, and the set goes on with the others (runner_run then returns 1). An
 * interrupt, an error around the runs (cleaning the directory, unmounting, saving) or, with
 * fail_fast, the first failed run ends the set: everything mounted or attached is released
 * and runner_run returns -1 after one error line. A run stopped by a signal is marked
 * interrupted: a resumed set runs it again.
 */
#ifndef FSBENCH_RUNNER_H
#define FSBENCH_RUNNER_H

#include <stdbool.h>

#include "engine/engine.h"
#include "measure/results.h"
#include "phase/phase_hooks.h"
#include "run/scenario.h"
#include "target/target.h"
#include "tree/tree.h"

#define RUNNER_MAX_CONFIGS 64
#define RUNNER_MAX_THREADS 64
/* the buffer each worker reads and writes through */
#define RUNNER_IO_BUF_SIZE (128 * 1024)

struct runner_config {
    char name[RES_NAME_MAX];        /* "ext4:data=journal"; "" for a plain directory */
    const char *fstype;
    const char *mount_opts;         /* NULL or "defaults": none */
    const char *command;            /* the cmd phase's command in this configuration */
    /* age steps: this configuration is the file system aged until this many of its sizes
     * are written in all (phase_ctx.age_until_x); 0: not a step */
    double age_until_x;
    bool age_step;
};

struct runner_opts {
    const char *dir;                /* plain directory; NULL: a new temporary one */
    const struct target_spec *tspec;/* managed target, or NULL */
    struct runner_config configs[RUNNER_MAX_CONFIGS];
    size_t nconfigs;                /* 0: one unnamed configuration */
    bool keep_fs;                   /* managed: mkfs once per file system type, not per run */
    /* Keep the last run's file system after the set (--keep-image): the image (moved beside
     * where it was made, target_keep()), or the tree on a directory target; where it is goes
     * to rs->kept_path and rs->kept_kind. */
    bool keep_image;
    bool no_interleave;             /* all runs of a configuration, then the next */
    bool probe_dir;                 /* age steps: the phases after age work in probe/, removed
                                       after each run (run/probe_dir.h) */
    uint64_t order_seed;            /* seeds the order of configurations in each round */

    struct tree_spec tree;
    struct tarsrc *tar;             /* a real archive as the tree (then tree.prof is NULL) */
    const struct phase_def *phases[SCENARIO_MAX_PHASES];
    size_t nphases;
    const struct engine *eng;
    /* auto: eng for every phase, but async_eng (io_uring) for the phases it is measured to
     * speed up (PHASE_ASYNC_GAINS), when it can start; NULL: eng everywhere. */
    const struct engine *async_eng;
    unsigned runs;                  /* rounds (runs_auto, until_verdict: the most, warm-up
                                     * included) */
    bool runs_auto;                 /* repeat until precise enough, at most `runs` rounds */
    double precision;               /* runs_auto: relative CI half-width wanted (0.05) */
    double confidence;              /* runs_auto, until_verdict: the intervals' (0.95) */
    /* Repeat until every phase of every configuration has a sequential verdict against
     * the first configuration (stats/seqstop.h), at most `runs` rounds; needs two or more
     * configurations in interleaved rounds. The set's stop rule says so (rs->stop). */
    bool until_verdict;
    double min_effect;              /* until_verdict: the effect of interest (0.10) */
    double negligible_s;            /* until_verdict: floor of a phase's median (0.001) */
    unsigned warmup;                /* first rounds marked warm-up: not in statistics */
    unsigned interval_ms;           /* time-line sampling interval */
    double stall_s;                 /* shortest stall listed (--stall); 0: STALL_DEFAULT_S */
    /* The live progress line (run/progress.h) on stderr; the caller sets it when stderr
     * is a terminal and --quiet was not given. */
    bool progress;
    unsigned threads;               /* -j: 1..RUNNER_MAX_THREADS; 0 means 1 */
    const char *prepare;            /* shell command run before each run, untimed */
    struct phase_params params;     /* options of the workload phases */
    /* Called once the set's description is filled, before the first run (may be NULL). */
    int (*set_ready)(void *arg, struct run_set *rs);
    /* Called after each run, finished or failed (may be NULL); -1 stops the set. */
    int (*run_done)(void *arg, const struct run_set *rs, const struct run_result *run);
    void *arg;
    /* Called after each counted round (the warm-up's left out): true ends the set there,
     * as planned, what it looked for being known (a bisect candidate classified). NULL:
     * none. */
    bool (*round_stop)(void *arg, const struct run_set *rs);
    void *round_stop_arg;
    /* Failures and resuming (see runner_plan_from()): */
    bool fail_fast; /* the first failed run ends the set */
    /* Whether run (config, round) is made: RUNNER_RUN, RUNNER_DONE (made before: skipped),
     * RUNNER_FAILED (its configuration failed before: it and its later rounds skipped).
     * NULL: every run. */
    int (*plan)(void *arg, const char *config, unsigned round);
    void *plan_arg;
    /* One rank of many (MPI, src/mpi/): called around the set, rounds and phases (NULL:
     * one process). */
    const struct phase_hooks *hooks;
    bool ws_join;                   /* dir is another rank's workspace: ws_join, not ws_open */
};

/* What --runs auto decided. */
struct runner_auto {
    unsigned rounds;                /* rounds made, warm-up included */
    bool precise;                   /* every phase reached the precision */
    char limiting[RES_NAME_MAX * 2];/* the phase (and configuration) that needed most runs */
    double half_width;              /* its relative CI half-width at the end */
};

enum { RUNNER_RUN, RUNNER_DONE, RUNNER_FAILED };

/* Fills rs (label, scenario and command_line set by the caller; runs it already holds are
 * kept, and new ones added after them) with the description and every run; with runs_auto
 * also *ra (may be NULL). 0 when every planned run was made, 1 when the set went to its end
 * but configurations failed (each said in its error line), -1 when it stopped (after
 * error()). */
int runner_run(const struct runner_opts *o, struct run_set *rs, struct runner_auto *ra);

/* What o's runs run on, as target_info.kind says it: "image", "device" or "directory". */
const char *runner_target_kind(const struct runner_opts *o);

/* What rs already holds of run (config, round), as runner_opts.plan answers it: a run of
 * that round (finished or failed) gives RUNNER_DONE, else a failed run of the
 * configuration in another round RUNNER_FAILED, else RUNNER_RUN (runs marked interrupted
 * count as not made). */
int runner_plan_from(const struct run_set *rs, const char *config, unsigned round);

/* Relative half-width of the confidence interval of a phase's wall time over the counted
 * runs of configuration cfg (the geometric mean), or of its ratio to configuration base
 * paired by round when base != NULL. -1 when fewer than 2 values. Exposed for tests. */
double runner_half_width(const struct run_set *rs, const char *base, const char *cfg,
                         size_t phase, double confidence);

/* What changes the work o's runs do, as the set keeps it (results.h, struct run_work), for
 * the configurations `config` names ("" every one). */
void runner_work(const struct runner_opts *o, const char *config, struct run_work *w);

/* The stop rule of a set that looked at its results after every round, rule
 * "until-verdict" or "auto" (the sequential method's design, stored with the set so that
 * compare analyses it the same way). */
void runner_stop_rule(struct stop_rule *st, const char *rule, double confidence, double min_effect,
                      double negligible_s, unsigned max_rounds);

/* --runs until-verdict: has every phase of every configuration of rs its verdict (or can it
 * get none, its configuration failed)? On several ranks rank 0's answer is every rank's
 * (o->hooks->decide). runner_stop.c; job_rounds.c asks it for interleaved jobs too. */
bool runner_verdicts_reached(const struct runner_opts *o, const struct run_set *rs);

/* The order of configurations in round `round`: a seeded permutation of 0..n-1 into order.
 * Exposed for tests: every round is a permutation, and rounds differ. */
void runner_round_order(uint64_t seed, unsigned round, size_t n, size_t *order);

#endif
