/* mpi_internal.h — the state the files of src/mpi/ share (one rank's view of the job);
 * nothing outside src/mpi/ includes it. */
#ifndef FSBENCH_MPI_INTERNAL_H
#define FSBENCH_MPI_INTERNAL_H

#include <mpi.h>
#include <limits.h>
#include <stdbool.h>

#include "mpi/mpi_run.h"

#define MPIRUN_MSG_MAX 1024

struct mpirun_stonewall;

struct mpirun_state {
    int rank, size;
    int thread_level;           /* what MPI_Init_thread provided */
    MPI_Comm world;             /* a duplicate of MPI_COMM_WORLD for fsbench's collectives */
    MPI_Comm node;              /* the ranks sharing this node's memory */
    bool node_leader;           /* rank 0 of node: drops the caches */
    unsigned nodes;
    struct mpirun_opts opts;
    char top[PATH_MAX];         /* DIR, or the temporary directory rank 0 made */
    bool made_top;              /* this rank created top: it removes it */
    char rank_dir[PATH_MAX];    /* unique: top/rank.N */
    bool made_rank_dir;
    int shift_fd;               /* unique with --rank-shift: the shifted rank's workspace */
    bool setup_entered;         /* mpirun_setup was called */
    bool setup_done;            /* ...and succeeded: top and rank_dir are this job's */
    char asked[PATH_MAX];       /* the dir it was given ("" for none) */
    bool agreed_stop;           /* every rank knows the run stopped (a failure was shared) */
    char msg[MPIRUN_MSG_MAX];   /* ranks other than 0: their last message, for rank 0 */
    double t0, t1;              /* the phase's common start and this rank's end */
    struct mpirun_stonewall *sw;/* --stonewall's watcher of the current phase, or NULL */
};

extern struct mpirun_state mpirun_st;

/* mpi_phase.c: the phase hooks. */
void mpirun_phase_start(void *arg, const struct phase_def *ph, struct phase_ctx *ctx);
void mpirun_phase_stop(void *arg, struct phase_ctx *ctx);
int mpirun_phase_end(void *arg, struct phase_ctx *ctx, int rc);

/* mpi_stonewall.c: a watcher thread per phase (see mpi_run.h). start before the barrier,
 * local_end when this rank's work is done, finish after: true when it stopped this rank. */
struct mpirun_stonewall *mpirun_stonewall_start(MPI_Comm comm, int size, double seconds);
void mpirun_stonewall_local_end(struct mpirun_stonewall *sw);
bool mpirun_stonewall_finish(struct mpirun_stonewall *sw);

/* Prints "fsbench: rank R: <msg>" (or this rank's own message) and MPI_Abort()s. */
_Noreturn void mpirun_abort(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
