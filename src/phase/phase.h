/* phase.h — a phase is one timed step of a scenario (extract, sync, walk, ...): a name, a
 * description, flags and a run function. The runner measures around run(); the phase only
 * does its work through the engine and counts the entries it handled.
 *
 * Workspace layout (all relative to ctx->ws_fd): "tree" is the tree under test, "copy" the
 * copy made by the copy phase. Phases never touch anything else.
 */
#ifndef FSBENCH_PHASE_H
#define FSBENCH_PHASE_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "engine/engine.h"
#include "measure/results.h"
#include "tree/tree.h"

#define PHASE_TREE_DIR "tree"
#define PHASE_COPY_DIR "copy"

enum {
    PHASE_NEEDS_ROOT = 1u << 0,   /* skipped (with a note) when not root */
    PHASE_NEEDS_TARGET = 1u << 1, /* needs a managed target (--image or --device) */
    PHASE_KEEPS_TREE = 1u << 3,   /* with --keep-fs its tree stays between runs (age) */
    PHASE_ASYNC_GAINS = 1u << 2,  /* batched (io_uring) submission measured faster here on a
                                     block device: --engine auto uses it there (bench/run) */
    PHASE_READS_TREE = 1u << 4,   /* only reads the tree (copy: reads it, writes "copy"):
                                     --rank-shift gives it another rank's tree */
};

struct target;
struct workspace;
struct phase_par;
struct tarsrc;
struct trace_file;

/* Options of the workload phases (fsbench run sets them from its command line). */
struct phase_params {
    unsigned cb_initial;        /* compilebench: initial trees (-i), default 3 */
    unsigned cb_runs;           /* compilebench: random operations (-r), default 20 */
    const char *cb_dataset;     /* compilebench: directory of its four listings, or NULL */
    unsigned cb_buffer_size;    /* compilebench: bytes a write (0: 256 KiB) */
    bool cb_no_sync;            /* compilebench: no sync in the time, no caches dropped */
    uint32_t cb_cpu_file_ns;    /* compilebench: program time for each file written or read */
    uint32_t cb_cpu_entry_ns;   /* compilebench: and for each entry stat'ed or removed */
    unsigned fsync_rounds;      /* cvs: fsyncstorm passes, default 2 */
    bool fsync_dir;             /* fsyncstorm: also fsync the directory after each rename */
    double age_written;         /* age: stop after writing this multiple of the fs size */
    double age_fullness;        /* age: or when the fs is this full (0..1) */
    bool age_once;              /* age: a later run finding the aged files skips (--keep-fs) */
    const char *age_profile;    /* age: a built-in profile's name or a profile file, or NULL
                                   (then the plain churn of phase_age.c) */
    double age_converge;        /* age with a profile: stop within this share per bucket */
    bool age_progress;          /* age with a profile: progress lines on stderr */
    double age_free_share;      /* age: stop when this share of the free space (0: never) */
    uint64_t age_free_below;    /* ... is in free extents under this many bytes (0: 1 MiB) */
    struct trace_file *replay;  /* replay: the trace (--replay FILE), checked; NULL: none */
    unsigned replay_timing;     /* replay: enum replay_timing (phase/replay.h) */
    unsigned replay_threads;    /* replay: at most this many threads (0: the most) */
    uint64_t replay_limit;      /* replay: the first N calls only (0: all; record's use) */
    bool replay_sparse;         /* replay: the initial state's files sparse, not written */
    bool replay_keep_setid;     /* replay: keep setuid/setgid bits (default: dropped, said) */
    unsigned extract_calls;     /* extract: enum extract_calls (phase/tarcalls.h), 0 tar's */
    struct trace_file *age_replay; /* age: age by replaying this trace (--age-replay) */
    const char *age_replay_path;   /* its path (a dry run sizes by it; opened only to run) */
    unsigned age_replay_times;  /* age: that many times (0: once; with steps, until each
                                   step's written total) */
};

struct phase_ctx {
    const struct engine *eng;
    struct eng_worker *w;
    int ws_fd;                      /* workspace directory (a real fd) */
    const struct tree_spec *tree;   /* the tree extract makes ... */
    struct tarsrc *tar;             /* ... or, when set, the archive it extracts */
    struct phase_result *res;       /* counts and the first failure go here */
    bool root;                      /* running as root */
    void *buf;                      /* I/O buffer for reads and copies */
    size_t buflen;
    /* Managed targets only (NULL for a plain directory): the mount phases use these. */
    struct target *tgt;
    struct workspace *ws;
    const char *mount_opts;
    const struct phase_params *params; /* never NULL when run by the runner */
    const char *command;        /* the cmd phase's shell command (the configuration's) */
    unsigned create_flags;      /* more ENG_CREATE_* flags for every file extract creates */
    uint64_t seed;              /* run seed for phases that make random choices */
    /* Threads (-j N). workers[0..nworkers) each have their own op counters and engine
     * state, and bufs[i] is worker i's I/O buffer (buflen bytes); workers[0] is *w and
     * bufs[0] is buf. NULL / 0: w alone. Phases without a parallel version use w only. */
    struct eng_worker *workers;
    void *const *bufs;
    unsigned nworkers;
    /* Set by phase_par_run in each thread's copy (NULL outside it): stop is raised when a
     * peer failed or was interrupted, so phase_check_interrupt() stops this thread too;
     * par is where phase_fail publishes this thread's first failure (phase_stop.c). */
    const _Atomic int *stop;
    struct phase_par *par;
    /* CPU time of the helper threads phase_par_run started (RUSAGE_THREAD), added here
     * after they are joined; the runner adds the calling thread's own. */
    double helper_user_s, helper_sys_s;
    /* Shared placement on several ranks (MPI): this process handles only the tree's
     * top-level entries that phase_owns_top() gives to share `part` of `nparts`; the tree
     * and copy roots may already exist or be removed by another rank. nparts 0: all. */
    unsigned part, nparts;
    /* dropcaches: another process on this node drops the caches; this one only syncs. */
    bool drop_elsewhere;
    /* age steps (--age-steps): age on from where the last aging of this process left off
     * until this many file-system sizes are written in all (phase_age_further); 0: the age
     * phase's own rules. */
    double age_until_x;
    bool age_step; /* this run is a step of --age-steps (age_until_x 0: the fresh point) */
    /* replay: its root below the workspace, made by the caller (NULL: "tree", made here) */
    const char *replay_root;
    /* replay: what its untimed setup made ready for the timed phase (its memory, the
     * trace's stream, its threads waiting), taken by phase_replay; NULL: none */
    struct replay *replay_armed;
};

struct phase_def {
    const char *name;
    const char *desc;
    unsigned flags;
    /* 0 done (or skipped: res->status set), -1 failed (res->status/note set). */
    int (*run)(struct phase_ctx *ctx);
};

/* Records the phase's first failure as "<op> <path>: <strerror>" and returns -1. Errors that
 * can only mean the tree was changed under the phase say so instead, naming the path:
 * ELOOP "<path>: changed during the run (a symlink where fsbench made a file)", EISDIR
 * "(a directory where fsbench made a file)", and EXDEV "<path>: a mount point (another file
 * system); fsbench does not cross it". */
int phase_fail(struct phase_ctx *ctx, const char *op, const char *path, int neg_errno);
/* The same where path is a directory fsbench made or found (an opendir, a reopen, an rmdir):
 * ELOOP "(a symlink where fsbench made a directory)", ENOTDIR "(a file where fsbench made
 * a directory)", ESTALE "(moved while fsbench worked in it)", ENOTEMPTY (an rmdir of a directory fsbench
 * emptied) "(entries added while fsbench removed it)", EXDEV the mount point. */
int phase_fail_dir(struct phase_ctx *ctx, const char *op, const char *path, int neg_errno);
/* phase_fail_dir for a path rel of several names opened below dirfd (shown: how messages
 * name dirfd, "" for none): when ELOOP, ENOTDIR or EXDEV came from the resolution, the
 * component that caused it is found (opened one by one) and named instead of all of rel. */
int phase_fail_dir_at(struct phase_ctx *ctx, const char *op, const char *shown, int dirfd,
                      const char *rel, int neg_errno);
/* phase_fail and phase_fail_dir for entry name of the directory a scan (engine/dirscan.h)
 * is in, named by its path from the scan's root. */
struct dirscan_stack;
int phase_fail_scan(struct phase_ctx *ctx, const struct dirscan_stack *s, const char *op,
                    const char *name, int neg_errno);
int phase_fail_scan_dir(struct phase_ctx *ctx, const struct dirscan_stack *s, const char *op,
                        const char *name, int neg_errno);
/* ctx->params->extract_calls, EXTRACT_CALLS_TAR (0) without params. */
static inline unsigned phase_extract_calls(const struct phase_ctx *ctx)
{
    return ctx->params ? ctx->params->extract_calls : 0;
}
/* Marks the phase skipped with a reason; returns 0. */
int phase_skip(struct phase_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Set by SIGINT/SIGTERM; phases stop at the next entry when it is set. */
/* A lock-free atomic (so async-signal-safe, like sig_atomic_t) because threads read it. */
extern volatile atomic_int phase_interrupt;
int phase_check_interrupt(struct phase_ctx *ctx);
/* Raised by --stonewall (src/mpi/): phases stop at the next entry as if interrupted, and
 * the MPI layer counts the work done as the phase's (res->stonewalled). Cleared per phase. */
extern atomic_int phase_stonewall;

/* Shared placement: does share ctx->part of ctx->nparts own the tree's top-level entry
 * `name`? (A hash of the name, so every phase and rank agrees without talking.) Always
 * true when ctx->nparts <= 1. */
bool phase_owns_top(const struct phase_ctx *ctx, const char *name);
/* For walkers: true when entry `name` of directory `dir` at walk level `level` is a
 * top-level entry of the tree or its copy that belongs to another share (skip it). */
bool phase_skips_entry(const struct phase_ctx *ctx, const char *dir, size_t level,
                       const char *name);

/* ---- threads (phase_par.c) ----
 * phase_par_run runs fn on every worker of ctx at once: worker 0 on the calling thread,
 * the others on threads started for the call and joined before it returns. Each call of fn
 * gets its own copy of ctx (w, buf and res its own; res starts zeroed) and must count into
 * that. Afterwards the copies' files, dirs and symlinks are added to ctx->res, and the
 * first failure of any thread becomes ctx->res's status and note: phase_fail (and an
 * interrupt seen by phase_check_interrupt) in a thread's copy publishes it at once, under a
 * lock, and raises the stop flag every copy's phase_check_interrupt() sees, then calls
 * on_stop(arg) once (wake threads waiting for work; may be NULL). A thread stopped that way
 * publishes nothing. Every worker's queued operations are drained before its thread ends.
 * 0, or -1 when some thread failed. */
int phase_par_run(struct phase_ctx *ctx, int (*fn)(struct phase_ctx *t, unsigned idx, void *arg),
                  void (*on_stop)(void *arg), void *arg);
/* Called by phase_fail and phase_check_interrupt for a thread's copy (t->par set). */
void phase_par_publish(struct phase_ctx *t);
/* Threads a phase may use: nworkers, at least 1. */
unsigned phase_threads(const struct phase_ctx *ctx);

/* Phase run functions, one file per family. */
int phase_extract(struct phase_ctx *ctx);
/* Creates ctx->tree's (or ctx->tar's) entries below directory fd root (an fd of
 * ctx->eng's) on phase_threads(ctx) threads. 0 or -1. */
int phase_extract_tree(struct phase_ctx *ctx, int root);
/* The same on one thread, whatever ctx's workers (for phases that make a tree as a step). */
int phase_extract_into(struct phase_ctx *ctx, int root);
int phase_sync(struct phase_ctx *ctx);
int phase_dropcaches(struct phase_ctx *ctx);
int phase_walk(struct phase_ctx *ctx);
int phase_statwalk(struct phase_ctx *ctx);
int phase_read(struct phase_ctx *ctx);
int phase_copy(struct phase_ctx *ctx);
int phase_delete(struct phase_ctx *ctx);
/* Removes everything below directory dirfd (an fd of ctx->eng's, named `name` in messages)
 * the way delete does, by names relative to each directory's fd, never following a symlink
 * or crossing a mount point; dirfd itself stays. Runs to the end whatever phase_interrupt
 * says (cleanup). 0 or -1 after phase_fail. */
int phase_delete_below(struct phase_ctx *ctx, int dirfd, const char *name);
int phase_mount(struct phase_ctx *ctx);
int phase_umount(struct phase_ctx *ctx);
int phase_remount(struct phase_ctx *ctx);
int phase_cmd(struct phase_ctx *ctx);

/* Runs `command` with /bin/sh -c and waits for it; on failure (exit status, signal, or no
 * shell) writes the reason and the tail of its stderr into why. 0 or -1. Used by the cmd
 * phase and for --prepare. */
int phase_run_command(const char *command, char *why, size_t len);

#endif
