/* cmd_run.c — `fsbench run [OPTIONS]`: the options parsed into a request (run/run_request.h:
 * the one table of run's options), checked together (run/run_request_check.c: the tree and
 * the phases resolved), then handed to run/ as plain options (run/run_launch.h: checked
 * with the system, the target set up, the files it reads opened, the phases run, every
 * finished run saved) with the callbacks that print the report and write JSON (cli_run.h).
 * A scenario (`fsbench run basic`, or none) is a shipped job file and goes through
 * cmd_run_job.c and run/run_job_request.c, which parse the job's keys into the same request
 * and call cmd_run_request().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "cli/cli.h"
#include "run/run_resume.h"
#include "cli/cli_run.h"
#include "cli/cmd_run.h"
#include "cli/run_usage.h"
#include "run/run_request.h"
#include "run/run_launch.h"
#include "report/report.h"
#include "run/runner.h"

/* How a run's set is reported: its report's options (cli_output) and the state of their
 * callbacks, filled when run/ makes the set. */
struct run_report {
    struct cli_output out;
    struct report_run c;
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
    int trc = run_request_check(rq);
    if (trc || rq->options_only)
        return trc;
    struct run_report r = {
        .out = {.format = rq->format == RUN_FORMAT_SEEDS ? REPORT_SEEDS : REPORT_TABLE,
                .compilebench = rq->cb_format, .quiet = rq->quiet, .wide = rq->wide, .skip_bad = rq->skip_bad},
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
