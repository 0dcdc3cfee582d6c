/* run_launch.c — one run set from its parsed options to its end (see run_launch.h): what
 * needs two options together, the target, the age steps, the bisection, the sizing, the
 * outputs, the MPI ranks, the resumed plan and the pre-flight, then the set made and
 * reported. */
#include "run/run_launch.h"

#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/outfile.h"
#include "run/age_steps.h"
#include "run/run_checks.h"
#include "run/run_inputs.h"
#include "run/run_mpi.h"
#include "run/run_preflight.h"
#include "run/run_resume.h"
#include "run/sizing.h"

/* The checks of l that need two options together, the target set up and the options it
 * changes (age steps, bisection, sizing), the label and the outputs. 0, or the exit status
 * after error(). */
static int launch_check(struct run_launch *l, const struct run_launch_hook *hook)
{
    int trc = run_checks_together(l->ro, l->ta, l->phases, l->age_replay, l->max_runs);
    if (trc)
        return trc;
    l->ro->order_seed = l->seed;
    trc = run_mpi_check(l->mo, l->ro, l->ta->image || l->ta->spec.device, l->tree_arg);
    if (trc)
        return trc;
    trc = run_target_setup(l->ta, l->ro, hook && hook->dry_run);
    if (trc)
        return trc;
    if (l->age_steps) {
        char steps[512], kv[600];
        if ((trc = age_steps_apply(l->age_steps, l->ro, steps, sizeof steps)))
            return trc;
        /* the set says it is a series of steps: compare and report show it as one */
        snprintf(kv, sizeof kv, "age-steps=%s", steps);
        if (meta_add_arg(l->meta, l->nmeta, kv, "--age-steps") < 0)
            return EXIT_USAGE;
    }
    const struct run_bisect_ask *b = l->bisect;
    if (run_bisect_asked(b) || b->exit_status || b->phase || b->metric) {
        if ((trc = run_bisect_check(l->bisect, l->ro, l->ro->nconfigs, l->max_runs,
                                    l->set.label)))
            return trc;
    } else if (l->ro->until_verdict &&
               (trc = run_checks_until_verdict(l->ro, l->max_runs, hook && hook->ready))) {
        return trc;
    }
    if (l->size_arg) {
        if (l->scaled)
            return error("--size and --scale exclude each other"), EXIT_USAGE;
        if (!l->ro->tree.prof)
            return error("--size needs a tree profile, not an archive"), EXIT_USAGE;
        trc = sizing_apply(l->size_arg, &l->ro->tree, l->ro->phases, l->ro->nphases, l->ro->dir,
                           l->ta->spec.image_bytes);
        if (trc)
            return trc;
    }
    if (run_session_check_label(l->set.label))
        return EXIT_USAGE;
    /* where the results go, checked before anything runs (not after the last run) */
    if (l->set.json && outfile_check(l->set.json, "--json") < 0)
        return EXIT_USAGE;
    if (l->set.save && l->set.db && outfile_check_dir(l->set.db, "--db") < 0)
        return EXIT_USAGE;
    return 0;
}

int run_launch(struct run_launch *l, const struct run_launch_hook *hook)
{
    int trc = launch_check(l, hook);
    if (trc)
        return trc;
    l->ask = run_bisect_asked(l->bisect) ? l->bisect : NULL;
    bool mpi_first = hook && hook->mpi_first;
    if (mpi_first && run_mpi_setup(l->mo, l->ro, &l->set) < 0)
        return EXIT_RUN_FAILED;
    if (hook && hook->ready) {
        int h = hook->ready(hook->arg, l);
        if (h != RUN_LAUNCH_GO)
            return h;
    }
    /* --resume: the stored plan, checked before the pre-flight touches anything (a job
     * file's jobs are checked by its ready()) */
    if (!hook && run_resuming(NULL) &&
        run_resume_check_plan(run_resuming(NULL), l->ro, true) < 0)
        return EXIT_USAGE;
    /* a job file's jobs had their pre-flight before the first of them ran */
    if (!hook && (trc = run_preflight(l->ro, l->tree_arg, l->skip_bad)) != EXIT_OK)
        return trc;
    l->set.args_json = l->args_json ? l->args_json(l->set.argc, l->set.argv) : NULL;
    l->set.resume = run_resuming(&l->set.resume_id);
    if (!mpi_first && run_mpi_setup(l->mo, l->ro, &l->set) < 0)
        return EXIT_RUN_FAILED;
    if (run_inputs_open(l->ro, l->replay, l->age_replay, l->tree_arg, l->threads_given))
        return EXIT_RUN_FAILED;
    int rc = run_launch_make(l, l->ro);
    run_inputs_close(l->ro);
    return rc;
}

int run_launch_make(const struct run_launch *l, struct runner_opts *ro)
{
    struct run_session_opts so = l->set;
    so.meta = l->meta;
    so.nmeta = *l->nmeta;
    struct run_session_report rep = {0};
    l->report(l->report_arg, ro, &l->set, l->ask, &rep);
    return run_session_make(ro, &so, l->ask, &rep);
}
