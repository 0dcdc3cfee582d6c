/* run_jobs.h — the jobs of a job file, below the command line: every job checked in full
 * before any runs, the pre-flight of every configuration of every job, then the jobs run
 * one after the other in file order, or (`interleave = jobs`) as the configurations of one
 * run set in rounds (run/job_rounds.h), or the plan printed (--dry-run, with --check the
 * pre-flight too). Each job's request is made and launched by the caller (its options are
 * the command line's business) through run_launch() with this module's hook.
 *
 * A job file is someone else's data: a device it names is shown by --dry-run and announced
 * by the run, and the outputs it names (json, db) are listed by --dry-run and never replace
 * an existing file unless the command line says so (--json there, or --force).
 */
#ifndef FSBENCH_RUN_JOBS_H
#define FSBENCH_RUN_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "run/job.h"
#include "run/run_launch.h"

/* The job file and what the command line says about it. */
struct run_jobs_opts {
    const struct job_file *jf;
    bool from_file; /* a job file (or a shipped job), not the command line's options alone */
    bool builtin;   /* a shipped job run by name: its errors are the command line's */
    bool dry;       /* --dry-run: the plan printed, nothing run */
    bool check;     /* --check: with --dry-run, the pre-flight too */
    bool cl_json;   /* the command line gave --json */
    bool cl_db;     /* ... --db */
    int argc;       /* the command line, stored with the results */
    char **argv;
    /* each job's keys, [global]'s it does not set first: where job_error() finds a key's
     * file and line */
    struct job_arg *const *ja;
    const int *nja;
    /* Makes job i's request and runs it through run_launch() with hook h: the exit status
     * (its error lines captured while the jobs are checked). */
    int (*launch)(void *arg, size_t job, const struct run_launch_hook *h);
    void *arg;
};

/* --resume of a set a job file made: the file must be the one it ran (its hash stored with
 * the set). 0, or -1 after error() (none resumed, or no hash stored: 0). */
int run_jobs_check_resume(const struct job_file *jf);

/* Checks, plans or runs the jobs of o->jf as o says: the process exit status. */
int run_jobs(const struct run_jobs_opts *o);

#endif
