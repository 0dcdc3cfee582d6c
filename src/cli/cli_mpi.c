/* cli_mpi.c — the MPI side of `fsbench run` (see cli_mpi.h). */
#include "cli/cli_mpi.h"

#include <stdio.h>

#include "base/err.h"

int cli_mpi_main(int argc, char **argv, int (*run)(int argc, char **argv))
{
#ifdef FSBENCH_MPI
    if (mpirun_launched()) {
        if (mpirun_init() < 0)
            return EXIT_RUN_FAILED;
        return mpirun_finish(run(argc, argv));
    }
#endif
    return run(argc, argv);
}
