/* cmd_run.c — `fsbench run [OPTIONS]`: the options parsed into a request (run/run_request.h:
 * the one table of run's options), the tree and the phases resolved and checked, then the
 * request handed to run/ as plain options (run/run_launch.h: checked together, the target
 * set up, the files it reads opened, the phases run, every finished run saved) with the
 * callbacks that print the report and write JSON (cli_run.h). A scenario (`fsbench run
 * basic`, or none) is a shipped job file and goes through cmd_run_job.c, which parses the
 * job's keys into the same request and calls cmd_run_request().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "cli/cli.h"
#include "run/run_resume.h"
#include "cli/cli_run.h"
#include "cli/cmd_run.h"
#include "cli/run_usage.h"
#include "run/run_request.h"
#include "run/job_builtin.h"
#include "run/run_launch.h"
#include "report/report.h"
#include "run/runner.h"
#include "run/scenario.h"
#include "tree/shape.h"

const char *cmd_run_default_phases(void)
{
    static char phases[1024];
    if (phases[0])
        return phases;
    const struct job_builtin *b = job_builtin_find(CMD_RUN_DEFAULT_JOB);
    struct job_file jf;
    if (!b || job_parse(b->path, b->text, run_options_job_keys(), &jf) < 0) {
        error("the default scenario's job, jobs/%s.ini, is not built in", CMD_RUN_DEFAULT_JOB);
        return NULL;
    }
    for (size_t i = 0; i < jf.sec[0].n; i++)
        if (!strcmp(jf.sec[0].e[i].key, "phases"))
            snprintf(phases, sizeof phases, "%s", jf.sec[0].e[i].value);
    job_free(&jf);
    if (!phases[0])
        error("jobs/%s.ini has no phases in [global]", CMD_RUN_DEFAULT_JOB);
    return phases[0] ? phases : NULL;
}

/* The checks of rq that need no other system than the file system: one scenario at most,
 * the tree, the phases and what they need of the options. 0, or EXIT_USAGE after error(). */
static int request_check_alone(struct run_request *rq)
{
    if (rq->npos > 1)
        return error("run: one scenario at most, got '%s' and '%s'", rq->pos[0], rq->pos[1]),
               EXIT_USAGE;
    /* every scenario is a shipped job (cmd_run_job.c): a name left here is none */
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
    const char *list = rq->phases ? rq->phases : replay ? "replay" : cmd_run_default_phases();
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

/* How a run's set is reported: its report's options (cli_output) and the state of their
 * callbacks, filled when run/ makes the set. */
struct run_report {
    struct cli_output out;
    struct cli_reporter c;
};

static void report_for(void *arg, const struct runner_opts *ro,
                       const struct run_session_opts *set, const struct run_bisect_ask *ask,
                       struct run_session_report *rep)
{
    struct run_report *r = arg;
    r->out.set = *set;
    r->out.bisect = ask;
    cli_run_reporter(&r->c, &r->out, ro, rep);
}

int cmd_run_request(struct run_request *rq, const struct run_launch_hook *hook)
{
    int trc = request_check_alone(rq);
    if (trc || rq->options_only)
        return trc;
    struct run_report r = {
        .out = {.format = rq->format == RUN_FORMAT_SEEDS ? REPORT_SEEDS : REPORT_TABLE, .compilebench = rq->cb_format,
                .quiet = rq->quiet, .wide = rq->wide, .skip_bad = rq->skip_bad},
    };
    struct run_launch l = {
        .ro = &rq->ro, .ta = &rq->ta, .mo = &rq->mo,
        .tree_arg = rq->profile, .replay = rq->replay, .phases = rq->phases,
        .size_arg = rq->size_arg, .scaled = run_request_given(rq, "scale"),
        .threads_given = run_request_given(rq, "threads"),
        .age_steps = rq->age_steps, .age_replay = rq->age_replay,
        .max_runs = rq->max_runs, .seed = rq->seed, .bisect = &rq->bisect,
        .meta = rq->meta, .nmeta = &rq->nmeta, .quiet = rq->quiet, .skip_bad = rq->skip_bad,
        .set = {.label = rq->label, .scenario = "custom", .db = rq->db, .save = rq->save,
                .json = rq->json, .argc = rq->argc, .argv = rq->argv},
        .args_json = run_options_args_json, .report = report_for, .report_arg = &r,
    };
    return run_launch(&l, hook);
}


/* `fsbench run` from a command line alone (no job file): the process exit status. */
int cmd_run_with(int argc, char **argv)
{
    struct run_request rq;
    if (run_request_init(&rq, argc, argv))
        return EXIT_USAGE;
    /* a stored set's arguments (--resume) are data: they cannot consent */
    int rc = run_request_argv(&rq, argc, argv,
                              run_resuming(NULL) ? RUN_FROM_STORED : RUN_FROM_ARGV);
    if (rc == RUN_ARGV_HELP) {
        run_options_usage(stdout);
        return EXIT_OK;
    }
    if (rc == RUN_ARGV_BAD) {
        run_options_usage(stderr);
        return EXIT_USAGE;
    }
    if (rc)
        return rc;
    return cmd_run_request(&rq, NULL);
}
