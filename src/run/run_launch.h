/* run_launch.h — one run set from its parsed options to its end, below the command line:
 * the options checked together, the target set up, the age steps, a bisection's and
 * until-verdict's checks, the sizing, the label and outputs checked, the MPI ranks set up,
 * a resumed plan and the pre-flight checked, the inputs opened, and the set made through
 * a run session (run_session_make), reported through the caller's run_session_report. A
 * job file's modes (check, plan, rounds) step in through a hook once everything is checked
 * and nothing is touched yet. Plain options only: the command line's types stay above.
 */
#ifndef FSBENCH_RUN_LAUNCH_H
#define FSBENCH_RUN_LAUNCH_H

#include <stdbool.h>

#include "mpi/mpi_run.h"
#include "results/meta.h"
#include "run/run_bisect.h"
#include "run/run_session.h"
#include "run/run_target.h"
#include "run/runner.h"

struct run_launch;

/* Fills rep (the report's callbacks) for the set that ro is about to make: set is its
 * options as they are then, ask the bisection asked (NULL: none). */
typedef void (*run_launch_report_fn)(void *arg, const struct runner_opts *ro,
                                     const struct run_session_opts *set,
                                     const struct run_bisect_ask *ask,
                                     struct run_session_report *rep);

/* What one set is, its options parsed and each checked alone. */
struct run_launch {
    struct runner_opts *ro;
    struct target_args *ta;
    struct mpirun_opts *mo;
    const char *tree_arg;   /* --tree as given: a profile, SHAPE.ini or tar:FILE */
    const char *replay;     /* --replay FILE, or NULL */
    const char *phases;     /* --phases as given, or NULL */
    const char *size_arg;   /* --size, or NULL */
    bool scaled;            /* --scale given (it excludes --size) */
    bool threads_given;     /* --threads given */
    const char *age_steps, *age_replay; /* --age-steps, --age-replay as given */
    unsigned long max_runs;
    unsigned long long seed;
    struct run_bisect_ask *bisect; /* the bisection's options, asked or not */
    struct run_meta *meta;  /* --meta (RES_META_MAX of room), and their count */
    unsigned *nmeta;
    bool quiet;             /* -q */
    bool skip_bad;          /* --skip-bad */
    /* the set: label, scenario, db, save, json, the command line stored with it */
    struct run_session_opts set;
    /* what resumes the set: the arguments of argv kept (a static buffer, or NULL) */
    const char *(*args_json)(int argc, char **argv);
    run_launch_report_fn report;
    void *report_arg;
    /* set by run_launch(): the bisection when one is asked, else NULL */
    const struct run_bisect_ask *ask;
};

/* ready()'s answer to go on with the run; anything else is the exit status. */
#define RUN_LAUNCH_GO (-1)

/* How a job file's mode steps in. */
struct run_launch_hook {
    bool dry_run;   /* --dry-run: a device without --destroy-data is shown, not refused */
    bool mpi_first; /* set up the MPI ranks (their directories and hooks) before ready(),
                       which keeps l to run later (interleaved jobs) */
    /* Called when every option is checked and nothing is touched yet, with what would run
     * (l->ro, l->tree_arg); it may change l->set. Returns RUN_LAUNCH_GO to run, else the
     * exit status to return. */
    int (*ready)(void *arg, struct run_launch *l);
    void *arg;
};

/* Checks l's options together, then (hook: NULL, or a job file's) runs and reports the
 * set. The process exit status. */
int run_launch(struct run_launch *l, const struct run_launch_hook *hook);

/* Makes the set that ro describes as l says (its set, meta, bisection and report): what
 * run_launch() ends with, and what a job file's interleaved rounds call with their own
 * runner. The process exit status. */
int run_launch_make(const struct run_launch *l, struct runner_opts *ro);

#endif
