/* cli_mpi.h — what `fsbench run` does differently as one rank of many (mpirun -np N, the
 * MPI build; see src/mpi/mpi_run.h): the options --ranks-dir, --rank-shift and
 * --stonewall parsed, and run's main under MPI (its checks and the runner handed to the MPI
 * layer: run/run_mpi.h). In the plain build the options parse and are refused with one
 * line, and nothing else changes.
 */
#ifndef FSBENCH_CLI_MPI_H
#define FSBENCH_CLI_MPI_H

#include "mpi/mpi_run.h"

/* Runs run(argc, argv): under mpirun (MPI build) between MPI's start and end, which
 * turns a failure that only this rank saw into one line and MPI_Abort. Exit status. */
int cli_mpi_main(int argc, char **argv, int (*run)(int argc, char **argv));
/* Parses option `name` (ranks-dir, rank-shift, stonewall) into *mo. 0, or -1 after
 * error(). */
int cli_mpi_option(const char *name, const char *arg, struct mpirun_opts *mo);

#endif
