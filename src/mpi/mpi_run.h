/* mpi_run.h — fsbench run as one rank of many: `mpirun -np N fsbench run ...` (Open MPI).
 *
 * Only the MPI build (make MPI=1: mpicc, FSBENCH_MPI defined) compiles the files of
 * src/mpi/; the plain build includes this header for struct mpirun_opts alone, so the
 * options parse the same way in both and the plain binary links no MPI.
 *
 * Stage: src/mpi/ sits between phase and run in the include order (it includes phase/ and
 * lower; run/ and cli/ may include it). It implements struct phase_hooks:
 *  - placement: unique (each rank its own workspace DIR/rank.N and its own tree, seed
 *    seed + rank) or shared (one workspace DIR and one tree of scale x N, seed as given,
 *    whose top-level entries are divided among ranks by phase_owns_top());
 *  - an MPI_Barrier before each phase; each rank's wall is MPI_Wtime() after the barrier to
 *    its own end; the phase's wall is their MPI_MAX (no clock is compared across nodes);
 *    counts are summed on rank 0, which keeps every rank's own figures (rank_result);
 *  - --rank-shift K: the phases that read the tree (PHASE_READS_TREE) work on rank
 *    (r+K) mod N's tree (unique) or share (shared);
 *  - dropcaches: one rank per node drops (MPI_Comm_split_type SHARED), the others sync;
 *  - --stonewall S: S seconds after the first rank ends a phase, the others stop
 *    (phase_stonewall) and their work so far counts (not for sync, dropcaches, delete);
 *  - rank 0 draws the round order and decides --runs auto, and alone prints, saves and
 *    writes JSON; the others' stdout goes to /dev/null and their messages are gathered;
 *  - a phase failing on any rank stops every rank at the phase's end, with rank 0 naming
 *    the rank; a failure outside that path (or a signal: a rank died) prints one line and
 *    MPI_Abort()s, so nothing hangs.
 */
#ifndef FSBENCH_MPI_RUN_H
#define FSBENCH_MPI_RUN_H

#include <stdbool.h>

#include "phase/phase_hooks.h"
#include "tree/tree.h"

enum mpirun_placement { MPIRUN_UNIQUE = 0, MPIRUN_SHARED };

/* The run options that only mean something on several ranks. */
struct mpirun_opts {
    enum mpirun_placement placement;    /* --ranks-dir unique|shared */
    unsigned long shift;                /* --rank-shift K (0: none) */
    double stonewall_s;                 /* --stonewall S (0: none) */
    bool given;                         /* any of them was on the command line */
};

#ifdef FSBENCH_MPI
/* True when mpirun (or another PMIx/PMI launcher) started this process. */
bool mpirun_launched(void);
/* MPI_Init_thread (MPI_THREAD_MULTIPLE); ranks other than 0 stop printing to stdout and
 * keep their messages for rank 0. 0, or -1 after error(). */
int mpirun_init(void);
int mpirun_rank(void);
int mpirun_size(void);

/* What mpirun_setup decided for this rank's runner. */
struct mpirun_setup_out {
    const char *dir;                    /* the runner's --dir */
    bool ws_join;                       /* join rank 0's workspace (shared placement) */
    const struct phase_hooks *hooks;
};

/* Collective: makes the directories of the placement under dir (NULL: a new temporary
 * directory, made by rank 0), adjusts this rank's tree (seed or scale) and fills *out.
 * 0, or -1 on every rank when any rank failed (rank 0 has said why). */
int mpirun_setup(const struct mpirun_opts *mo, const char *dir, struct tree_spec *tree,
                 struct mpirun_setup_out *out);

/* Ends the MPI part with the command's exit status: a failure every rank agreed on (or
 * the same usage error on every rank) finalizes normally, removing what mpirun_setup
 * made; any other failure prints this rank's one line and MPI_Abort()s. Returns status. */
int mpirun_finish(int status);
#endif

#endif
