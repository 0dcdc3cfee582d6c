/* run_job_request.h — a job file's jobs turned into the requests of run (run_request.h)
 * and run: below the command line, which only reads argv (cli/cmd_run_job.c) and hands
 * over what it read. Job keys are parsed here, through the same table as the command
 * line's options, into the same struct run_request.
 */
#ifndef FSBENCH_RUN_JOB_REQUEST_H
#define FSBENCH_RUN_JOB_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "run/run_launch.h"
#include "run/run_request.h"

/* The most options and positionals a command line may give with a job file. */
#define RUN_JOB_MAX_ARGS 256

/* What the command line said for a job file, read from argv by cli/. */
struct run_job_cmdline {
    const char *file; /* a job file, or a shipped job's name; NULL: the options alone */
    bool dry;         /* --dry-run */
    bool check;       /* --check: with --dry-run, the pre-flight too */
    /* its options but job, dry-run and check, in order: names (NULL-ended), values (NULL
     * for a flag) and rows */
    const char *const *names;
    const char *const *vals;
    const struct run_option *const *opt;
    size_t n;
    const char *const *pos; /* its positionals but the job file */
    int npos;
    int argc; /* the command line, stored with the results */
    char **argv;
    /* Runs one job's request with hook h (the report is the caller's): the exit status. */
    int (*run)(struct run_request *rq, const struct run_launch_hook *h);
};

/* Whether a positional names a job file: a path, a *.ini, or a shipped job (a scenario). */
bool run_job_named(const char *s);
/* Loads cl->file, checks every key, and checks, plans or runs its jobs (run_jobs.h), each
 * job's request made from its keys and then cl's options: the process exit status. */
int run_job_file(const struct run_job_cmdline *cl);

#endif
