/* cmd_run.h — `fsbench run` split for job files: the run of a parsed request
 * (run/run_request.h) with the hook of run/run_jobs.h (run/run_launch.h's) that checks a job
 * without running it, prints the plan, or runs it as one job of a file.
 */
#ifndef FSBENCH_CMD_RUN_H
#define FSBENCH_CMD_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/cli_run.h"
#include "run/run_request.h"
#include "run/run_launch.h"
#include "run/runner.h"

/* Runs what rq says (its options parsed, each checked alone), after checking them together;
 * with rq->options_only it stops there (EXIT_OK or EXIT_USAGE). hook: NULL, or a job file's.
 * The process exit status. */
int cmd_run_request(struct run_request *rq, const struct run_launch_hook *hook);
/* `fsbench run` from a command line alone (no job file). The process exit status. */
int cmd_run_with(int argc, char **argv);

/* cmd_run_job.c: does this command line name a job file (--job FILE, a *.ini or a path, a
 * shipped job, or none and no --phases: the default scenario, jobs/basic.ini) or ask for
 * --dry-run? */
bool cmd_run_job_wanted(int argc, char **argv);
/* Runs a job file (or prints the plan with --dry-run): the process exit status. */
int cmd_run_job(int argc, char **argv);
/* cmd_run_resume.c: `fsbench run --resume LABEL`. */
bool cmd_run_resume_wanted(int argc, char **argv);
int cmd_run_resume(int argc, char **argv);

#endif
