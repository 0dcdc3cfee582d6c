/* cli_mpi.c — the MPI side of `fsbench run` (see cli_mpi.h). */
#include "cli/cli_mpi.h"

#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "cli/cli.h"

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

int cli_mpi_option(const char *name, const char *arg, struct mpirun_opts *mo)
{
    double d;
    mo->given = true;
    if (!strcmp(name, "ranks-dir")) {
        if (!strcmp(arg, "unique"))
            mo->placement = MPIRUN_UNIQUE;
        else if (!strcmp(arg, "shared"))
            mo->placement = MPIRUN_SHARED;
        else
            return error("--ranks-dir: '%s' is not unique or shared", arg);
        return 0;
    }
    if (!strcmp(name, "rank-shift")) {
        static const struct num_range shift = {1, 1000000, NUM_WHOLE, NULL, NULL};
        if (num_option("--rank-shift", arg, &shift, &d) < 0)
            return -1;
        mo->shift = (unsigned long)d;
        return 0;
    }
    static const struct num_range stonewall = {0, 86400, NUM_LO_OPEN, "seconds", NULL};
    if (num_option("--stonewall", arg, &stonewall, &d) < 0)
        return -1;
    mo->stonewall_s = d;
    return 0;
}
