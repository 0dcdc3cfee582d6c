/* mpi_phase.c — the hooks around each phase on several ranks: redirect the phase to this
 * rank's share, start it together, stop it by the stonewall, and make rank 0's result the
 * aggregate with every rank's own figures (see mpi_run.h). */
#include "mpi/mpi_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"

/* What each rank sends rank 0 after a phase. */
struct rank_msg {
    struct rank_result r;
    char note[RES_NOTE_MAX];
};

/* Counts summed over ranks, in one array. */
enum {
    SUM_OPS_TOTAL = OP_KINDS, SUM_BYTES_READ, SUM_BYTES_WRITTEN, SUM_FILES, SUM_DIRS,
    SUM_SYMLINKS, SUM_IO_READ, SUM_IO_WRITE, SUM_NVCSW, SUM_NIVCSW, SUM_MAJFLT, SUM_MINFLT,
    SUM_INBLOCK, SUM_OUBLOCK, SUM_N
};

/* The stonewall stops phases that make or read the tree; never the ones that must finish
 * for the next run to start clean (delete) or that have nothing to cut short. */
static bool stonewall_applies(const struct phase_def *ph)
{
    return strcmp(ph->name, "delete") && strcmp(ph->name, "sync") &&
           strcmp(ph->name, "dropcaches");
}

void mpirun_phase_start(void *arg, const struct phase_def *ph, struct phase_ctx *ctx)
{
    struct mpirun_state *s = &mpirun_st;
    bool reads = (ph->flags & PHASE_READS_TREE) != 0;
    unsigned shift = reads ? (unsigned)(s->opts.shift % (unsigned long)s->size) : 0;
    if (s->opts.placement == MPIRUN_SHARED) {
        ctx->nparts = (unsigned)s->size;
        ctx->part = ((unsigned)s->rank + shift) % (unsigned)s->size;
    } else if (shift && s->shift_fd >= 0) {
        ctx->ws_fd = s->shift_fd;
    }
    ctx->drop_elsewhere = !s->node_leader;
    atomic_store(&phase_stonewall, 0);
    s->sw = s->opts.stonewall_s > 0 && stonewall_applies(ph)
                ? mpirun_stonewall_start(s->world, s->size, s->opts.stonewall_s)
                : NULL;
    MPI_Barrier(s->world);
    s->t0 = MPI_Wtime();
}

void mpirun_phase_stop(void *arg, struct phase_ctx *ctx)
{
    struct mpirun_state *s = &mpirun_st;
    s->t1 = MPI_Wtime();
    if (s->sw)
        mpirun_stonewall_local_end(s->sw);
}

static void sums_of(const struct phase_result *r, uint64_t *v, double *d)
{
    for (int k = 0; k < OP_KINDS; k++)
        v[k] = r->ops[k];
    v[SUM_OPS_TOTAL] = r->ops_total;
    v[SUM_BYTES_READ] = r->bytes_read;
    v[SUM_BYTES_WRITTEN] = r->bytes_written;
    v[SUM_FILES] = r->files;
    v[SUM_DIRS] = r->dirs;
    v[SUM_SYMLINKS] = r->symlinks;
    v[SUM_IO_READ] = r->io_read_bytes;
    v[SUM_IO_WRITE] = r->io_write_bytes;
    v[SUM_NVCSW] = (uint64_t)r->nvcsw;
    v[SUM_NIVCSW] = (uint64_t)r->nivcsw;
    v[SUM_MAJFLT] = (uint64_t)r->majflt;
    v[SUM_MINFLT] = (uint64_t)r->minflt;
    v[SUM_INBLOCK] = (uint64_t)r->inblock;
    v[SUM_OUBLOCK] = (uint64_t)r->oublock;
    d[0] = r->user_s;
    d[1] = r->sys_s;
}

static void put_sums(struct phase_result *r, const uint64_t *v, const double *d)
{
    for (int k = 0; k < OP_KINDS; k++)
        r->ops[k] = v[k];
    r->ops_total = v[SUM_OPS_TOTAL];
    r->bytes_read = v[SUM_BYTES_READ];
    r->bytes_written = v[SUM_BYTES_WRITTEN];
    r->files = v[SUM_FILES];
    r->dirs = v[SUM_DIRS];
    r->symlinks = v[SUM_SYMLINKS];
    r->io_read_bytes = v[SUM_IO_READ];
    r->io_write_bytes = v[SUM_IO_WRITE];
    r->nvcsw = (long)v[SUM_NVCSW];
    r->nivcsw = (long)v[SUM_NIVCSW];
    r->majflt = (long)v[SUM_MAJFLT];
    r->minflt = (long)v[SUM_MINFLT];
    r->inblock = (long)v[SUM_INBLOCK];
    r->oublock = (long)v[SUM_OUBLOCK];
    r->user_s = d[0];
    r->sys_s = d[1];
}

/* Rank 0: the aggregate of the gathered figures into res; the first failing rank (or -1). */
static int aggregate(struct phase_result *res, const struct rank_msg *all, int n, int walled)
{
    int failed = -1;
    double wall = 0;
    res->ranks = calloc((size_t)n, sizeof *res->ranks);
    res->nranks = res->ranks ? (size_t)n : 0;
    for (int r = 0; r < n; r++) {
        if (res->ranks)
            res->ranks[r] = all[r].r;
        if (all[r].r.wall_s > wall)
            wall = all[r].r.wall_s;
        if (all[r].r.status == PHASE_FAILED && failed < 0)
            failed = r;
    }
    res->wall_s = wall; /* common start to the last rank's end */
    res->stonewalled = walled != 0;
    if (failed >= 0) {
        res->status = PHASE_FAILED;
        snprintf(res->note, sizeof res->note, "rank %d: %s", failed, all[failed].note);
    } else if (walled && !res->note[0]) {
        snprintf(res->note, sizeof res->note,
                 "stonewall: ranks stopped %g s after the first one finished",
                 mpirun_st.opts.stonewall_s);
    }
    return failed;
}

int mpirun_phase_end(void *arg, struct phase_ctx *ctx, int rc)
{
    struct mpirun_state *s = &mpirun_st;
    struct phase_result *res = ctx->res;
    int walled = 0;
    if (s->sw) {
        walled = mpirun_stonewall_finish(s->sw);
        s->sw = NULL;
        if (walled && res->status == PHASE_FAILED &&
            !strcmp(res->note, "stopped by the stonewall")) {
            res->status = PHASE_OK; /* the work done until the stonewall counts */
            res->note[0] = '\0';
            rc = 0;
        }
    }
    atomic_store(&phase_stonewall, 0);
    /* A signal here means the job is ending (mpirun forwards it; a rank may be dead): a
     * collective could wait forever, so end every rank now. */
    if (phase_interrupt)
        mpirun_abort("interrupted by a signal in phase %s (a rank died, or the job was "
                     "stopped): ending every rank; finished runs are saved", res->name);

    struct rank_msg mine = {.r = {.wall_s = s->t1 - s->t0, .ops_total = res->ops_total,
                                  .bytes = res->bytes_read + res->bytes_written,
                                  .entries = res->files + res->dirs + res->symlinks,
                                  .status = rc < 0 ? PHASE_FAILED : res->status}};
    snprintf(mine.note, sizeof mine.note, "%s", res->note);
    struct rank_msg *all = NULL;
    if (s->rank == 0 && !(all = calloc((size_t)s->size, sizeof *all)))
        mpirun_abort("out of memory");
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, s->world);
    uint64_t v[SUM_N], vsum[SUM_N];
    double d[2], dsum[2];
    int walled_any = 0;
    sums_of(res, v, d);
    MPI_Reduce(v, vsum, SUM_N, MPI_UINT64_T, MPI_SUM, 0, s->world);
    MPI_Reduce(d, dsum, 2, MPI_DOUBLE, MPI_SUM, 0, s->world);
    MPI_Reduce(&walled, &walled_any, 1, MPI_INT, MPI_MAX, 0, s->world);
    int failed = -1;
    if (s->rank == 0) {
        put_sums(res, vsum, dsum);
        failed = aggregate(res, all, s->size, walled_any);
        free(all);
    }
    MPI_Bcast(&failed, 1, MPI_INT, 0, s->world);
    if (failed < 0)
        return 0;
    s->agreed_stop = true;
    if (s->rank != 0 && res->status != PHASE_FAILED) {
        res->status = PHASE_FAILED;
        snprintf(res->note, sizeof res->note, "stopped: rank %d failed", failed);
    }
    return -1;
}
