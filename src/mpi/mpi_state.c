/* mpi_state.c — the MPI job's shared state and the calls every part of src/mpi uses:
 * whether mpirun started this process, its rank and size, and the abort that ends every
 * rank with one line saying why (mpi_internal.h).
 */
#include "mpi/mpi_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/err.h"

struct mpirun_state mpirun_st = {.shift_fd = -1};

bool mpirun_launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

int mpirun_rank(void)
{
    return mpirun_st.rank;
}

int mpirun_size(void)
{
    return mpirun_st.size;
}

void mpirun_abort(const char *fmt, ...)
{
    char line[MPIRUN_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    err_capture_end();
    fprintf(stderr, "fsbench: rank %d: %s\n", mpirun_st.rank, line);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, EXIT_RUN_FAILED);
    _exit(EXIT_RUN_FAILED); /* MPI_Abort does not return */
}
