/* cli_mpi.h — `fsbench run` as one rank of many (mpirun -np N, the MPI build; see
 * src/mpi/mpi_run.h): run's main between MPI's start and end. The options --ranks-dir,
 * --rank-shift and --stonewall are rows of run's table (run/run_request_table.c); their
 * checks and the runner handed to the MPI layer are run/run_mpi.h's. In the plain build the
 * options parse and are refused with one line, and nothing else changes.
 */
#ifndef FSBENCH_CLI_MPI_H
#define FSBENCH_CLI_MPI_H

#include "mpi/mpi_run.h"

/* Runs run(argc, argv): under mpirun (MPI build) between MPI's start and end, which
 * turns a failure that only this rank saw into one line and MPI_Abort. Exit status. */
int cli_mpi_main(int argc, char **argv, int (*run)(int argc, char **argv));
#endif
