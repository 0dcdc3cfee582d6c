/* cmd_run_resume.c — `fsbench run --resume LABEL`: finishes a run set that a signal, a
 * kill -9 or a power cut stopped. The set keeps the arguments that made it (the options
 * that say what runs, and the job file, whose text and hash are stored with the set) and
 * the directory they ran in; --resume runs them again there, with the stored runs moved
 * into the new run set, so the runner makes only the runs the set lacks: the same plan,
 * seed and round order, every run once. The run a signal stopped is run again; a
 * configuration that failed stays out. Only where results go (--db, --json, --format,
 * --quiet) and consent (--device DEV, --destroy-data, --force, --age-host-fs) may be given
 * with it, and --fail-fast.
 *
 * The stored arguments are data that anyone who can write the store may have changed: the
 * consent words are taken out of them (consent is read from this process's argv alone,
 * run_consent.h), a set that runs on a device needs that device named and consented to on
 * this command line again, and the plan they make must be the one the set stored
 * (run_resume_check_plan).
 *
 * This file parses --resume's own options; the set is loaded, the consent words taken out
 * of its arguments and those run again by run/run_resume_finish.c, through this file's
 * run_stored (run's entry points, which report in cli/).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "cli/cli.h"
#include "run/run_resume.h"
#include "cli/cmd_run.h"
#include "run/run_request.h"
#include "results/store.h"

/* What --resume may be given with, but consent (any option of kind consent). */
static const char *const resume_allowed[] = {"resume", "db",        "json", "format", "quiet",
                                             "device", "fail-fast", "help", NULL};

static bool listed(const char *name, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (!strcmp(name, list[i]))
            return true;
    return false;
}

bool cmd_run_resume_wanted(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--resume") || !strncmp(argv[i], "--resume=", 9))
            return true;
    return false;
}

static void usage(void)
{
    printf("usage: fsbench run --resume LABEL [--db FILE] [--json FILE] [--format F] [-q]\n"
           "                   [--device DEV --destroy-data [--force]] [--age-host-fs]\n"
           "                   [--fail-fast]\n"
           "finishes the interrupted run set LABEL: the same plan, seed and round order,\n"
           "the runs it lacks (the interrupted one again), each once; a set on a device\n"
           "needs the device and the consent on this command line again\n");
}

/* The stored arguments run again: a job file's through cmd_run_job, else cmd_run_with. */
static int run_stored(int argc, char **argv)
{
    return cmd_run_job_wanted(argc, argv) ? cmd_run_job(argc, argv) : cmd_run_with(argc, argv);
}

int cmd_run_resume(int argc, char **argv)
{
    const char *label = NULL, *db = NULL, *extra[24];
    size_t nx = 0;
    char dbabs[4096], jsonabs[4096];
    int saved = opterr;
    opterr = 0;
    optind = 0;
    int c, idx = -1;
    char shortopts[64];
    snprintf(shortopts, sizeof shortopts, ":%s", run_options_short());
    while ((idx = -1, c = getopt_long(argc, argv, shortopts, run_options_getopt(), &idx)) != -1) {
        const struct run_option *o = run_option_of(c, idx);
        const char *name = o ? o->name : NULL;
        if (!name) {
            opterr = saved;
            return cli_bad_option("run", c, argv);
        }
        bool consent = o->kind == RUN_KIND_CONSENT;
        if (!consent && !listed(name, resume_allowed)) {
            opterr = saved;
            return error("--resume: --%s cannot be given with it: a resumed set runs the plan "
                         "stored with it (its job file and options)",
                         name),
                   EXIT_USAGE;
        }
        if (!strcmp(name, "help")) {
            usage();
            return EXIT_OK;
        }
        if (!strcmp(name, "resume")) {
            if (label && strcmp(label, optarg))
                return error("--resume given twice, as '%s' and as '%s'", label, optarg),
                       EXIT_USAGE;
            label = optarg;
        } else if (!strcmp(name, "db")) {
            db = run_resume_absolute(optarg, dbabs, sizeof dbabs);
        } else if (consent || !strcmp(name, "device")) {
            continue; /* run_consent() has it, from this argv */
        } else if (nx + 2 + 5 < sizeof extra / sizeof extra[0]) { /* 5: label, db, end */
            /* kept for the stored arguments' run: --json, --format, -q and consent */
            static char opt[24][64];
            snprintf(opt[nx], sizeof opt[nx], "--%s", name);
            extra[nx] = opt[nx];
            nx++;
            if (optarg)
                extra[nx++] =
                    !strcmp(name, "json") ? run_resume_absolute(optarg, jsonabs, sizeof jsonabs) : optarg;
        }
    }
    opterr = saved;
    if (optind < argc)
        return error("--resume: '%s': a resumed set runs the plan stored with it (its job file "
                     "and options)",
                     argv[optind]),
               EXIT_USAGE;
    if (run_session_check_label(label))
        return EXIT_USAGE;
    extra[nx++] = "--label";
    extra[nx++] = label;
    if (db) {
        extra[nx++] = "--db";
        extra[nx++] = db;
    }
    extra[nx] = NULL;
    struct run_resume_args how = {run_stored};
    return run_resume_finish(label, db, extra, &how);
}
