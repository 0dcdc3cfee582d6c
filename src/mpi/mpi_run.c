/* mpi_run.c — the MPI job around one fsbench run: start, placement of the workspaces, the
 * set-level hooks (readiness, round order, shared decisions) and the end (see mpi_run.h). */
#include "mpi/mpi_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "base/err.h"
#include "phase/workspace.h"

/* Watches for a signal (mpirun sends SIGTERM to every rank when one dies): a rank waiting
 * in a collective for a dead peer never reaches its next check, so this thread says why
 * the job ends and aborts it. Finished runs are in the store already. */
static pthread_t watchdog;
static atomic_int watchdog_stop;

static void *watch_signals(void *arg)
{
    while (!atomic_load(&watchdog_stop)) {
        if (phase_interrupt)
            mpirun_abort("interrupted by a signal (a rank died, or the job was stopped): "
                         "ending every rank; finished runs are saved");
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

int mpirun_init(void)
{
    int provided;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
        return error("MPI_Init_thread failed");
    struct mpirun_state *s = &mpirun_st;
    MPI_Comm_dup(MPI_COMM_WORLD, &s->world);
    MPI_Comm_rank(s->world, &s->rank);
    MPI_Comm_size(s->world, &s->size);
    s->thread_level = provided;
    if (s->rank != 0) {
        /* Rank 0 speaks for all: the others' stdout is dropped and their messages kept
         * (s->msg) for rank 0 or for their last line before an abort. */
        int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (null >= 0) {
            fflush(stdout);
            dup2(null, STDOUT_FILENO);
            close(null);
        }
        err_capture_begin(s->msg, sizeof s->msg);
    }
    if (pthread_create(&watchdog, NULL, watch_signals, NULL) != 0)
        return error("cannot start the MPI signal watcher thread");
    return 0;
}

/* ---------------------------------------------------------------- agreement */

/* Every rank's local rc (0 or -1): 0 when all are 0. On failure rank 0 prints the
 * messages of the other ranks that failed (its own were printed already). */
static int agree(int rc)
{
    struct mpirun_state *s = &mpirun_st;
    int local = rc < 0 ? 1 : 0, any = 0;
    MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, s->world);
    if (!any)
        return 0;
    char *all = s->rank == 0 ? calloc((size_t)s->size, MPIRUN_MSG_MAX) : NULL;
    char mine[MPIRUN_MSG_MAX];
    snprintf(mine, sizeof mine, "%s", local ? s->msg : "");
    MPI_Gather(mine, MPIRUN_MSG_MAX, MPI_CHAR, all, MPIRUN_MSG_MAX, MPI_CHAR, 0, s->world);
    if (s->rank == 0 && all) {
        err_capture_end();
        for (int r = 1; r < s->size; r++)
            if (all[(size_t)r * MPIRUN_MSG_MAX])
                error("rank %d: %s", r, &all[(size_t)r * MPIRUN_MSG_MAX]);
    }
    free(all);
    s->agreed_stop = true;
    return -1;
}

static int set_ready(void *arg, struct run_set *rs, int rc)
{
    struct mpirun_state *s = &mpirun_st;
    if (agree(rc) < 0)
        return -1;
    /* the shifted rank's workspace exists now: every rank made its own before agreeing */
    if (s->opts.shift && s->opts.placement == MPIRUN_UNIQUE) {
        char path[PATH_MAX + 32];
        int peer = (int)((s->rank + s->opts.shift) % (unsigned long)s->size);
        snprintf(path, sizeof path, "%s/rank.%d", s->top, peer);
        s->shift_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (agree(s->shift_fd < 0 ? error_errno("--rank-shift: cannot open %s", path) : 0) < 0)
            return -1;
    }
    /* unique: the data set is every rank's tree (same scale, seed + rank) */
    if (s->opts.placement == MPIRUN_UNIQUE) {
        uint64_t mine[4] = {rs->tree.files, rs->tree.dirs, rs->tree.symlinks, rs->tree.bytes};
        uint64_t sum[4] = {0};
        MPI_Reduce(mine, sum, 4, MPI_UINT64_T, MPI_SUM, 0, s->world);
        if (s->rank == 0) {
            rs->tree.files = sum[0];
            rs->tree.dirs = sum[1];
            rs->tree.symlinks = sum[2];
            rs->tree.bytes = sum[3];
        }
    }
    if (s->rank == 0) /* the job's directory, not rank 0's part of it */
        snprintf(rs->target.path, sizeof rs->target.path, "%s", s->top);
    rs->ranks.count = (unsigned)s->size;
    rs->ranks.nodes = s->nodes;
    snprintf(rs->ranks.placement, sizeof rs->ranks.placement, "%s",
             s->opts.placement == MPIRUN_SHARED ? "shared" : "unique");
    rs->ranks.shift = (unsigned)s->opts.shift;
    rs->ranks.stonewall_s = s->opts.stonewall_s;
    return 0;
}

static void round_order(void *arg, size_t *order, size_t n)
{
    MPI_Bcast(order, (int)(n * sizeof *order), MPI_BYTE, 0, mpirun_st.world);
}

static bool decide(void *arg, bool local)
{
    int v = local;
    MPI_Bcast(&v, 1, MPI_INT, 0, mpirun_st.world);
    return v != 0;
}

static const struct phase_hooks hooks = {
    .set_ready = set_ready,
    .round_order = round_order,
    .decide = decide,
    .phase_start = mpirun_phase_start,
    .phase_stop = mpirun_phase_stop,
    .phase_end = mpirun_phase_end,
};

/* ---------------------------------------------------------------- placement */

/* Is entry `name` of dir a rank's workspace that a killed job left (rank.N, N below the
 * job's size, holding fsbench's marker)? Its rank's workspace cleans and reuses it. */
static bool leftover(const char *dir, const char *name)
{
    int n, len = 0;
    if (sscanf(name, "rank.%d%n", &n, &len) != 1 || name[len] || n < 0 ||
        n >= mpirun_st.size)
        return false;
    char marker[PATH_MAX + 300];
    snprintf(marker, sizeof marker, "%s/%s/%s", dir, name, WS_MARKER);
    return access(marker, F_OK) == 0;
}

/* Rank 0: the top directory: dir (must exist; empty for unique placement, where fsbench
 * writes rank.N into it), or a new temporary one. 0 or -1 after error(). */
static int make_top(const char *dir, bool unique)
{
    struct mpirun_state *s = &mpirun_st;
    if (!dir) {
        if (ws_make_temp_dir(s->top, sizeof s->top) < 0)
            return -1;
        s->made_top = true;
        return 0;
    }
    if (snprintf(s->top, sizeof s->top, "%s", dir) >= (int)sizeof s->top)
        return error("directory name too long: %s", dir);
    if (!unique)
        return 0; /* rank 0's workspace checks it */
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? error("directory %s does not exist", dir)
                               : error_errno("cannot open directory %s", dir);
    struct dirent *de;
    int other = 0;
    while ((de = readdir(d)))
        other |= strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
                 !leftover(dir, de->d_name);
    closedir(d);
    if (other)
        return error("directory %s is not empty (fsbench needs an empty directory)", dir);
    if (access(dir, W_OK | X_OK) < 0)
        return error("directory %s is not writable", dir);
    return 0;
}

int mpirun_setup(const struct mpirun_opts *mo, const char *dir, struct tree_spec *tree,
                 struct mpirun_setup_out *out)
{
    struct mpirun_state *s = &mpirun_st;
    bool unique = mo->placement == MPIRUN_UNIQUE;
    /* The jobs of a job file share the ranks' directories (interleaved, their runs
     * alternate in them): the second job on reuses what the first set up. */
    if (s->setup_done) {
        if (strcmp(s->asked, dir ? dir : "") || s->opts.placement != mo->placement)
            return error("the jobs of a job file run under MPI share one dir and one "
                         "ranks-dir: set them in [global]");
        s->opts = *mo;
        if (unique)
            tree->seed += (uint64_t)s->rank;
        else
            tree->scale *= s->size;
        out->dir = unique ? s->rank_dir : s->top;
        out->ws_join = !unique && s->rank != 0;
        out->hooks = &hooks;
        return 0;
    }
    s->setup_entered = true;
    s->opts = *mo;
    snprintf(s->asked, sizeof s->asked, "%s", dir ? dir : "");
    MPI_Comm_split_type(s->world, MPI_COMM_TYPE_SHARED, s->rank, MPI_INFO_NULL, &s->node);
    int nrank = 0, leader;
    MPI_Comm_rank(s->node, &nrank);
    s->node_leader = nrank == 0;
    leader = s->node_leader;
    int nodes = 0;
    MPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, s->world);
    s->nodes = (unsigned)nodes;

    int rc = 0; /* rank 0 speaks: every rank has the same MPI */
    if (s->rank == 0 && mo->stonewall_s > 0 && s->thread_level < MPI_THREAD_MULTIPLE)
        rc = error("--stonewall needs MPI_THREAD_MULTIPLE, which this MPI does not give");
    else if (s->rank == 0)
        rc = make_top(dir, unique);
    if (agree(rc) < 0)
        return -1;
    MPI_Bcast(s->top, (int)sizeof s->top, MPI_CHAR, 0, s->world);
    bool made = s->made_top;
    MPI_Bcast(&made, (int)sizeof made, MPI_BYTE, 0, s->world);
    rc = 0;
    /* A temporary directory on a node-local /tmp: other nodes make their own of that name. */
    if (s->rank != 0 && made && mkdir(s->top, 0700) == 0)
        s->made_top = true;
    else if (s->rank != 0 && access(s->top, W_OK | X_OK) < 0)
        rc = error_errno("directory %s", s->top);
    if (rc == 0 && unique) {
        snprintf(s->rank_dir, sizeof s->rank_dir, "%s/rank.%d", s->top, s->rank);
        /* EEXIST: a killed job's workspace, accepted by rank 0; ours to remove now */
        if (mkdir(s->rank_dir, 0755) < 0 && errno != EEXIST)
            rc = error_errno("cannot create %s", s->rank_dir);
        else
            s->made_rank_dir = true;
    }
    if (agree(rc) < 0)
        return -1;
    if (unique) {
        tree->seed += (uint64_t)s->rank; /* every rank its own tree, reproducibly */
        out->dir = s->rank_dir;
        out->ws_join = false;
    } else {
        tree->scale *= s->size; /* one tree, each rank a share of it */
        out->dir = s->top;
        out->ws_join = s->rank != 0;
    }
    out->hooks = &hooks;
    s->setup_done = true;
    return 0;
}

int mpirun_finish(int status)
{
    struct mpirun_state *s = &mpirun_st;
    bool agreed = status == EXIT_OK || s->agreed_stop ||
                  (status == EXIT_USAGE && !s->setup_entered);
    if (!agreed) {
        /* This rank stopped alone: the others wait in a collective for it. */
        if (s->rank != 0 && s->msg[0])
            mpirun_abort("%s", s->msg);
        mpirun_abort("stopped alone (exit status %d): ending every rank", status);
    }
    atomic_store(&watchdog_stop, 1);
    pthread_join(watchdog, NULL);
    err_capture_end();
    if (s->shift_fd >= 0)
        close(s->shift_fd);
    if (s->setup_entered) {
        MPI_Barrier(s->world); /* every workspace is closed */
        if (s->made_rank_dir && rmdir(s->rank_dir) < 0 && errno != ENOENT)
            error_errno("rank %d: cannot remove %s", s->rank, s->rank_dir);
        MPI_Barrier(s->world);
        if (s->made_top && rmdir(s->top) < 0 && errno != ENOENT)
            error_errno("rank %d: cannot remove %s", s->rank, s->top);
        MPI_Comm_free(&s->node);
    }
    MPI_Comm_free(&s->world);
    MPI_Finalize();
    return status;
}
