/* run_mpi.h — what a run does differently as one rank of many (mpirun -np N, the MPI build;
 * see src/mpi/mpi_run.h): its options checked against the ranks, and the runner handed to
 * the MPI layer. In the plain build a run with MPI options is refused with one line. The
 * options themselves are rows of run_request_table.c.
 */
#ifndef FSBENCH_RUN_MPI_H
#define FSBENCH_RUN_MPI_H

#include <stdbool.h>

#include "mpi/mpi_run.h"
#include "run/run_session.h"
#include "run/runner.h"

/* Checks the options against the ranks there are (managed targets are refused under MPI;
 * shared placement needs a synthetic tree and phases that divide it). 0, or EXIT_USAGE
 * after error(). */
int run_mpi_check(const struct mpirun_opts *mo, const struct runner_opts *ro, bool managed,
                  const char *profile);
/* Under mpirun: places this rank's workspace and tree, sets the runner's hooks, and leaves
 * reporting, saving and JSON to rank 0 (the other ranks' set saves nothing and writes no
 * JSON). 0 (also without mpirun), or -1 after rank 0 said why. */
int run_mpi_setup(const struct mpirun_opts *mo, struct runner_opts *ro,
                  struct run_session_opts *set);

#endif
