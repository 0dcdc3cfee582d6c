/* cmd_run_main.c — the entry of `fsbench run`: consent taken from this process's argv
 * (run_consent.c), the signal handlers, MPI's ranks, and which way the arguments run:
 * --resume LABEL (cmd_run_resume.c), a job file or scenario (cmd_run_job.c), or options
 * alone (cmd_run.c). Kept apart so that none of those three calls back into another's
 * caller.
 */
#include "base/err.h"
#include "base/outfile.h"
#include "cli/cli.h"
#include "run/run_bisect.h"
#include "run/run_consent.h"
#include "cli/cli_mpi.h"
#include "cli/cmd_run.h"
#include "run/run_request.h"

/* A job file, or the options alone. */
static int run_main(int argc, char **argv)
{
    if (cmd_run_resume_wanted(argc, argv))
        return cmd_run_resume(argc, argv);
    if (cmd_run_job_wanted(argc, argv))
        return cmd_run_job(argc, argv);
    return cmd_run_with(argc, argv);
}

static int run_checked(int argc, char **argv)
{
    /* consent comes from here alone: the argv this process was given */
    if (run_consent_scan(argc, argv, run_options_short(), run_options_getopt()) < 0)
        return EXIT_USAGE;
    outfile_set_force(run_consent()->force); /* --force also lets --json replace a store */
    if (cli_signals_install() < 0)
        return EXIT_RUN_FAILED;
    return cli_mpi_main(argc, argv, run_main); /* under mpirun: on every rank */
}

int cmd_run(int argc, char **argv)
{
    /* --bisect-exit: as bisect verdict exits (an error is 128, never a verdict) */
    return run_bisect_exit(argc, argv, run_checked(argc, argv));
}
