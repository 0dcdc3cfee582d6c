/* cmd_run_job.c — `fsbench run FILE.ini`, `fsbench run --job FILE`, a shipped job by name
 * (every scenario is one: `fsbench run basic`, and `fsbench run` with neither a job nor
 * --phases runs jobs/basic.ini), and `--dry-run`: the command line read and split (the job
 * file, --dry-run, --check, the options through the table of run's options, the
 * positionals), its errors said, and what it said handed to run/run_job_request.h, which
 * loads the job file, turns each job's keys and these options into its request and runs
 * them with cmd_run_request() (this command's report).
 */
#include <string.h>

#include "base/err.h"
#include "cli/cli.h"
#include "cli/cmd_run.h"
#include "run/run_job_request.h"
#include "run/run_resume.h"
#include "run/job_builtin.h"

#define MAX_ARGS RUN_JOB_MAX_ARGS

/* The command line, split. */
struct cmdline {
    const char *file; /* --job FILE, a *.ini or path, or a shipped job */
    bool dry;
    const char *pos[MAX_ARGS]; /* its positionals but the job file, in order */
    const char *names[MAX_ARGS + 1]; /* its options (but job, dry-run, check), NULL-ended */
    const char *vals[MAX_ARGS];      /* their values (NULL for a flag) */
    const struct run_option *opt[MAX_ARGS]; /* their rows */
    size_t nnames;
    bool help;
    bool check;  /* --check: with --dry-run, the pre-flight too */
    bool phases; /* --phases given */
    int npos;    /* positionals other than the job file (in pos, MAX_ARGS at most) */
    int bad_c, bad_opt;  /* the first option getopt refused ('?' or ':'), its optopt, */
    const char *bad_arg; /* and the argument it was in; NULL: none */
};

static void add_positional(struct cmdline *cl, char *p)
{
    if (!cl->file && run_job_named(p)) {
        cl->file = p;
        return;
    }
    if (cl->npos < MAX_ARGS)
        cl->pos[cl->npos] = p;
    cl->npos++;
}

/* Splits argv without permuting it ('+': stop at each positional, take it, go on). */
static void scan(int argc, char **argv, struct cmdline *cl)
{
    memset(cl, 0, sizeof *cl);
    struct run_args it;
    struct run_arg a;
    run_args_begin(&it, argc, argv);
    while (run_args_next(&it, &a)) {
        if (a.c == -1) {
            add_positional(cl, argv[a.from]);
            continue;
        }
        if ((a.c == '?' || a.c == ':') && !cl->bad_arg) {
            cl->bad_c = a.c;
            cl->bad_opt = a.bad_opt;
            cl->bad_arg = argv[a.to - 1];
        }
        const struct run_option *o = a.opt;
        const char *name = o ? o->name : NULL;
        if (name && !strcmp(name, "job")) {
            cl->file = a.value;
            continue;
        }
        if (name && !strcmp(name, "dry-run")) {
            cl->dry = true;
            continue;
        }
        if (name && !strcmp(name, "check")) {
            cl->check = true;
            continue;
        }
        if (name && !strcmp(name, "help"))
            cl->help = true;
        if (name && (!strcmp(name, "phases") || !strcmp(name, "replay")))
            cl->phases = true; /* --replay alone runs the phase replay, not the default job */
        if (name && cl->nnames < MAX_ARGS) {
            cl->vals[cl->nnames] = a.value;
            cl->opt[cl->nnames] = o;
            cl->names[cl->nnames++] = name;
        }
    }
    run_args_end(&it);
    cl->names[cl->nnames] = NULL;
    /* no job, no scenario, no phases: the default scenario's job */
    if (!cl->file && !cl->npos && !cl->phases && !cl->help)
        cl->file = RUN_DEFAULT_JOB;
}

bool cmd_run_job_wanted(int argc, char **argv)
{
    struct cmdline cl;
    scan(argc, argv, &cl);
    return cl.file || cl.dry;
}

int cmd_run_job(int argc, char **argv)
{
    struct cmdline cl;
    scan(argc, argv, &cl);
    if (cl.help)
        return cmd_run_with(argc, argv);
    /* an unknown option first: its value would read as a scenario ("-l NAME") */
    if (cl.bad_arg)
        return cli_bad_option_was("run", cl.bad_c, cl.bad_opt, cl.bad_arg);
    if (cl.file && cl.npos)
        return error("run: a job file and a scenario: put the scenario's phases in the job "
                     "(phases = ...)"),
               EXIT_USAGE;
    struct run_job_cmdline rc = {
        .file = cl.file, .dry = cl.dry, .check = cl.check,
        .names = cl.names, .vals = cl.vals, .opt = cl.opt, .n = cl.nnames,
        .pos = cl.pos, .npos = cl.npos < MAX_ARGS ? cl.npos : MAX_ARGS,
        .argc = argc, .argv = argv, .run = cmd_run_request, /* with its report */
    };
    return run_job_file(&rc);
}
