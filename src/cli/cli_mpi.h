/* cli_mpi.h — what `fsbench run` does differently as one rank of many (mpirun -np N, the
 * MPI build; see src/mpi/mpi_run.h): the options --ranks-dir, --rank-shift and
 * --stonewall, their checks, and handing the runner to the MPI layer. In the plain build
 * the options parse and are refused with one line, and nothing else changes.
 */
#ifndef FSBENCH_CLI_MPI_H
#define FSBENCH_CLI_MPI_H

#include <stdbool.h>

#include "cli/cli_run.h"
#include "mpi/mpi_run.h"
#include "run/runner.h"

/* Runs run(argc, argv): under mpirun (MPI build) between MPI's start and end, which
 * turns a failure that only this rank saw into one line and MPI_Abort. Exit status. */
int cli_mpi_main(int argc, char **argv, int (*run)(int argc, char **argv));
/* Parses option `name` (ranks-dir, rank-shift, stonewall) into *mo. 0, or -1 after
 * error(). */
int cli_mpi_option(const char *name, const char *arg, struct mpirun_opts *mo);
/* Checks the options against the ranks there are (managed targets are refused under MPI;
 * shared placement needs a synthetic tree and phases that divide it). 0, or EXIT_USAGE
 * after error(). */
int cli_mpi_check(const struct mpirun_opts *mo, const struct runner_opts *ro, bool managed,
                  const char *profile);
/* Under mpirun: places this rank's workspace and tree, sets the runner's hooks, and leaves
 * reporting, saving and JSON to rank 0. 0 (also without mpirun), or -1 after rank 0 said
 * why. */
int cli_mpi_setup(const struct mpirun_opts *mo, struct runner_opts *ro, struct cli_output *out);

#endif
