/* run_request_check.c — the checks of a run's request that need each other but no other
 * system than the file system (see run_request.h): one scenario at most, the tree profile
 * resolved (a built-in, a captured shape, tar:FILE) and its scale checked, the phases
 * resolved (the default scenario's, jobs/basic.ini, when none are given), and what the
 * phases need of the options (a trace for replay, compilebench's phases for its format).
 * A job file's keys are checked through it too, one key at a time (run_job_request.c).
 */
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "run/job.h"
#include "run/job_builtin.h"
#include "run/run_request.h"
#include "run/scenario.h"
#include "tree/profile.h"
#include "tree/shape.h"
#include "tree/tree.h"

const char *run_request_default_phases(void)
{
    static char phases[1024];
    if (phases[0])
        return phases;
    const struct job_builtin *b = job_builtin_find(RUN_DEFAULT_JOB);
    struct job_file jf;
    if (!b || job_parse(b->path, b->text, run_options_job_keys(), &jf) < 0) {
        error("the default scenario's job, jobs/%s.ini, is not built in", RUN_DEFAULT_JOB);
        return NULL;
    }
    for (size_t i = 0; i < jf.sec[0].n; i++)
        if (!strcmp(jf.sec[0].e[i].key, "phases"))
            snprintf(phases, sizeof phases, "%s", jf.sec[0].e[i].value);
    job_free(&jf);
    if (!phases[0])
        error("jobs/%s.ini has no phases in [global]", RUN_DEFAULT_JOB);
    return phases[0] ? phases : NULL;
}

int run_request_check(struct run_request *rq)
{
    if (rq->npos > 1)
        return error("run: one scenario at most, got '%s' and '%s'", rq->pos[0], rq->pos[1]),
               EXIT_USAGE;
    /* every scenario is a shipped job (run_job_request.c): a name left here is none */
    if (rq->npos)
        return error("unknown scenario '%s' (see 'fsbench list')", rq->pos[0]), EXIT_USAGE;
    rq->ro.progress = !rq->quiet; /* a line rewritten on a terminal, else a line a run */
    rq->ro.params.age_progress = !rq->quiet;
    const char *profile = rq->profile ? rq->profile : "tiny", *replay = rq->replay;
    rq->profile = profile;
    if (!strncmp(profile, "tar:", 4)) {
        if (!profile[4])
            return error("--tree: tar: needs a file name (tar:FILE)"), EXIT_USAGE;
    } else if (shape_is_path(profile)) {
        /* a shape captured from a real tree; it must outlive the run */
        static struct shape_model shape_model;
        if (shape_model_load(profile, &shape_model) < 0)
            return EXIT_USAGE;
        rq->ro.tree.prof = &shape_model.prof;
    } else if (!(rq->ro.tree.prof = profile_find(profile))) {
        return error("--tree: unknown profile '%s' (see 'fsbench list')", profile), EXIT_USAGE;
    }
    if (run_request_given(rq, "scale") && rq->ro.tree.prof &&
        tree_check_scale(rq->scale_arg, rq->ro.tree.prof, rq->scale) < 0)
        return EXIT_USAGE;
    rq->ro.tree.scale = rq->scale;
    rq->ro.tree.seed = rq->seed;
    /* no phases (a job file without them): the default scenario's, jobs/basic.ini; a
     * replay alone with --replay FILE */
    const char *list = rq->phases ? rq->phases : replay ? "replay" : run_request_default_phases();
    if (!list)
        return EXIT_USAGE;
    int n = scenario_resolve(list, rq->ro.phases, SCENARIO_MAX_PHASES);
    /* --fsync-rounds N: each run of fsyncstorm phases is N long (cvs.ini's two) */
    if (n > 0 && run_request_given(rq, "fsync-rounds"))
        n = scenario_repeat(rq->ro.phases, (size_t)n, SCENARIO_MAX_PHASES, "fsyncstorm",
                            rq->ro.params.fsync_rounds);
    if (n < 0)
        return EXIT_USAGE;
    rq->ro.nphases = (size_t)n;
    bool replays = false;
    for (size_t i = 0; i < rq->ro.nphases; i++)
        replays |= !strcmp(rq->ro.phases[i]->name, "replay");
    if (replays && !replay)
        return error("phase replay needs a trace: --replay FILE (made by fsbench record)"),
               EXIT_USAGE;
    if (replay && !replays)
        return error("--replay %s: the phases (%s) hold no replay", text_shown(replay), list),
               EXIT_USAGE;
    bool cb_phases = false; /* compilebench's own output comes from its phases (cb_*) */
    for (size_t i = 0; i < rq->ro.nphases; i++)
        cb_phases |= !strncmp(rq->ro.phases[i]->name, "cb_", 3);
    if (rq->cb_format && !cb_phases)
        return error("--format compilebench: the phases (%s) hold none of compilebench's "
                     "(cb_initial, cb_random, ...), so nothing would fill it; use --format "
                     "table or seeds", list), EXIT_USAGE;
    return 0;
}
