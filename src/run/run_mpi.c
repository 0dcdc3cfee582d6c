/* run_mpi.c — a run as one rank of many (mpirun -np N, the MPI build): its options checked
 * against the ranks there are, and the runner handed to the MPI layer (see run_mpi.h). */
#include "run/run_mpi.h"

#include <string.h>

#include "base/err.h"

/* Phases a shared tree supports: the ones that divide it by top-level entry. */
static const char *const shared_phases[] = {"extract", "sync", "dropcaches", "walk",
                                            "statwalk", "read", "copy", "delete", NULL};

int run_mpi_check(const struct mpirun_opts *mo, const struct runner_opts *ro, bool managed,
                  const char *profile)
{
#ifdef FSBENCH_MPI
    bool ranks = mpirun_launched();
    int size = ranks ? mpirun_size() : 1;
#else
    bool ranks = false;
    int size = 1;
#endif
    if (!ranks)
        return mo->given ? error("--ranks-dir, --rank-shift and --stonewall need several "
                                 "ranks: mpirun -np N fsbench run ... with the MPI build "
                                 "(make MPI=1)"), EXIT_USAGE : 0;
    if (managed)
        return error("--image and --device are refused under MPI: every rank would mkfs and "
                     "mount its own target; run on a mounted file system with --dir"),
               EXIT_USAGE;
    if (mo->shift && size < 2)
        return error("--rank-shift needs at least 2 ranks"), EXIT_USAGE;
    if (mo->shift && mo->shift % (unsigned long)size == 0)
        return error("--rank-shift %lu with %d ranks: every rank would read its own tree "
                     "(give 1 to %d)", mo->shift, size, size - 1), EXIT_USAGE;
    if (mo->placement != MPIRUN_SHARED)
        return 0;
    if (!strncmp(profile, "tar:", 4))
        return error("--ranks-dir shared needs a synthetic tree, not an archive (use "
                     "--ranks-dir unique)"), EXIT_USAGE;
    for (size_t i = 0; i < ro->nphases; i++) {
        size_t k = 0;
        while (shared_phases[k] && strcmp(shared_phases[k], ro->phases[i]->name))
            k++;
        if (!shared_phases[k])
            return error("phase %s cannot divide a shared tree among ranks: use --ranks-dir "
                         "unique (shared supports extract, sync, dropcaches, walk, statwalk, "
                         "read, copy and delete)", ro->phases[i]->name), EXIT_USAGE;
    }
    return 0;
}

int run_mpi_setup(const struct mpirun_opts *mo, struct runner_opts *ro,
                  struct run_session_opts *set)
{
#ifdef FSBENCH_MPI
    if (!mpirun_launched())
        return 0;
    struct mpirun_setup_out mso;
    if (mpirun_setup(mo, ro->dir, &ro->tree, &mso) < 0)
        return -1;
    ro->dir = mso.dir;
    ro->ws_join = mso.ws_join;
    ro->hooks = mso.hooks;
    if (mpirun_rank() != 0) { /* rank 0 reports, saves and writes JSON for all */
        set->save = false;
        set->json = NULL;
    }
#endif
    return 0;
}
