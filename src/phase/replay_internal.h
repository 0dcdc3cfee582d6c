/* replay_internal.h — the replay phase's parts (replay.h), shared by its files:
 *   replay.c        the phase: threads, the dispatcher, the result and its note
 *   replay_deps.c   resource-oriented ordering: which earlier calls a call waits for
 *   replay_exec.c   one call made against the file system, and its result compared
 *   replay_state.c  the untimed initial state
 *
 * The dispatcher (the phase's own thread) decodes the trace and hands calls, in chunks, to
 * the replay threads. A call is identified by its replay thread and its position on it
 * (thread t's calls run in order, so "call p of t is done" is t->done > p); a call carries
 * the (thread, position) pairs it must wait for.
 */
#ifndef FSBENCH_REPLAY_INTERNAL_H
#define FSBENCH_REPLAY_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "phase/replay.h"
#include "trace/trace.h"
#include "trace/trace_read.h"

#define RP_CHUNK_CALLS 256
#define RP_CHUNK_DEPS 1024
#define RP_CHUNK_ARENA (64 * 1024)
/* Chunks in flight at most: bounds the calls decoded ahead (and so memory). */
#define RP_POOL_CHUNKS 64
#define RP_DIRCACHE 64
#define RP_INVAL_RING 64

/* A dependency: thread in the top 8 bits, position below. */
#define RP_DEP(t, pos) (((uint64_t)(t) << 56) | (pos))
#define RP_DEP_THREAD(d) ((unsigned)((d) >> 56))
#define RP_DEP_POS(d) ((d) & (((uint64_t)1 << 56) - 1))
#define RP_NO_DEP UINT64_MAX

/* A call as handed to a replay thread. */
struct rp_call {
    uint8_t kind;
    /* worked out by the dispatcher, so that the replay thread does not between its calls:
     * the op kind it is measured as (trace_op_kind) and how its result is compared
     * (trace_kind_result) */
    uint8_t opk, rk;
    uint32_t rthread;           /* the recorded thread */
    uint64_t seq;               /* its record number in the trace (1-based) */
    int64_t result;             /* the recorded result */
    uint32_t slot, slot2;
    uint64_t size, off, off2;
    int64_t soff;
    uint32_t flags, mode, aux;
    uint32_t path, path2;       /* offsets into the chunk's arena; UINT32_MAX: none */
    uint32_t path_len, path2_len;
    uint64_t think_ns;          /* original timing: wait this long after the thread's last */
    uint64_t start_ns;          /* original timing: the recorded start (spawn) */
    uint16_t ndeps;
    uint32_t dep;               /* first of its deps in the chunk's deps */
};

struct rp_chunk {
    struct rp_chunk *next;
    uint32_t n, ndeps, arena_used;
    uint64_t first_pos;         /* position of call[0] on its thread */
    struct rp_call call[RP_CHUNK_CALLS];
    uint64_t deps[RP_CHUNK_DEPS];
    char arena[RP_CHUNK_ARENA];
};

/* A divergence: a call whose result differs from the recorded one. */
struct rp_divergence {
    uint64_t seq;               /* 0: none */
    char text[320];             /* "unlink a/b: ENOENT, recorded 0" */
};

struct rp_dircache_ent {
    char *path;                 /* the directory, relative to the root */
    uint32_t len;
    uint64_t hash, used;
    int fd;
};

struct replay;

/* One replay thread. */
struct rp_thread {
    struct replay *rp;
    unsigned idx;
    _Alignas(64) _Atomic uint64_t done; /* its calls completed */
    _Atomic unsigned waiters;
    /* the lowest done count a waiter asked to be woken at (UINT64_MAX: none): a call's
     * completion wakes the waiters only when it reaches it, not at every call */
    _Atomic uint64_t wake_at;
    _Atomic unsigned queued;    /* chunks in its queue */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct rp_chunk *head, *tail;
    /* the dispatcher's side */
    uint64_t dispatched;        /* calls handed to it */
    struct rp_chunk *partial;   /* being filled, not handed over yet */
    unsigned live;              /* recorded threads mapped to it, alive */
    /* the thread's own side */
    pthread_t tid;
    bool started;
    struct phase_ctx t;         /* its copy of the phase context (its worker, buffer) */
    struct rp_dircache_ent cache[RP_DIRCACHE];
    uint64_t cache_clock, gen_seen;
    unsigned mru;               /* the cache entry used last */
    char *rbuf;                 /* reads land here */
    size_t rbuf_len;
    uint64_t issued[TK_CALL_KINDS], diverged[TK_CALL_KINDS];
    /* original timing: think time owed and not spent yet (below RP_THINK_BATCH_NS, spent
     * with a later call's), less what the last spin overshot (then below 0) */
    int64_t think_owed;
    struct rp_divergence first;
    double user_s, sys_s;
    int err;                    /* a failure of its own (-errno), with why */
    char why[RES_NOTE_MAX];
};

/* A pipe or socket pair's bytes (replay_deps.c): the writes not read yet, each as the
 * count of bytes written when it ended and the call that made it. */
#define RP_CHAN_WRITES 64
#define RP_CHANS 1024
struct rp_chan {
    uint64_t key;               /* 0: free */
    uint64_t written, read;
    uint64_t wend[RP_CHAN_WRITES], wdep[RP_CHAN_WRITES];
    unsigned head, len;
};

/* The resource table of the dispatcher (replay_deps.c). */
/* Shared users a resource keeps, one per replay thread up to this many: a replay thread's
 * calls run in order, so its latest use stands for its earlier ones; a reader beyond them
 * (more threads than this, all using it at once) is made exclusive. */
#define RP_READERS_MAX 16
struct rp_res {
    uint64_t hash;              /* 0: free */
    uint64_t writer;            /* RP_NO_DEP: none */
    uint64_t reader[];          /* rp_deps.readers of them */
};
struct rp_deps {
    struct rp_res *tab;         /* nbuckets x 4 ways, each entry res_size bytes */
    size_t nbuckets;
    unsigned readers;           /* per entry: the replay threads, at most RP_READERS_MAX */
    size_t res_size;
    uint64_t *slot_last;        /* per slot: its last call */
    uint64_t *slot_path;        /* per slot: the hash of the path it was opened as */
    uint64_t *rthread_last;     /* per recorded thread: its last call */
    /* descriptors renamed (several threads): each new descriptor gets a replay slot of its
     * own, one whose last user has completed where there is one, so that a process
     * opening the number another process just closed does not wait for that close */
    uint32_t *rec2rep;          /* recorded slot -> replay slot (UINT32_MAX: none) */
    uint32_t *fifo;             /* replay slots given back, oldest first (a ring) */
    uint32_t fifo_head, fifo_len, fresh;
    /* pipes and socket pairs (format 3): a read waits for the write of its last byte */
    struct rp_chan *chans;
    unsigned nchans, chan_next;
};

struct replay {
    struct phase_ctx *ctx;
    const struct trace_info *info;
    unsigned nthreads;
    struct rp_thread *th;
    enum replay_timing timing;
    bool real;                  /* the engine touches the file system */
    int root;                   /* "tree" */
    _Atomic int *slots;         /* replay slot -> descriptor (-1: none) */
    uint32_t nslots;            /* replay slots: the trace's, more with several threads */
    /* the chunk pool */
    pthread_mutex_t pool_mu;
    pthread_cond_t pool_cv;
    struct rp_chunk *free;
    unsigned nfree;
    _Atomic int stop;           /* a failure or an interrupt: every thread stops */
    _Atomic int eof;            /* every call is handed out */
    /* directories renamed or removed: the threads' directory caches drop them */
    pthread_mutex_t inval_mu;
    _Atomic uint64_t gen;
    char *inval[RP_INVAL_RING];
    /* the pattern written, and its length (shared, read-only) */
    unsigned char *wbuf;
    size_t wbuf_len;
    /* original timing: per recorded thread, the recorded end of its last call (the
     * dispatcher's) and when its last replayed call ended (its replay thread's; 0: none
     * yet, so no think time before its first) */
    uint64_t *rec_end;
    uint64_t *rep_end;
    /* and the TK_AWAY record before its next call (format 3): the part of the gap it
     * waited (not think time), and the tracer's other stops in it (one gap each) */
    uint64_t *away_ns;
    uint64_t *away_stops;
    /* and (format 5) the recorded start of its last record, and the part of its process's
     * tail worked so far (trace_tail_think_ns) */
    uint64_t *tail_prev;
    uint64_t *tail_spent;
    /* recorded thread -> replay thread (UINT32_MAX: not seen yet) */
    uint32_t *map;
    struct rp_deps deps;
    uint64_t handed;            /* calls handed out (with a limit) */
    uint64_t capped;            /* think times cut to TRACE_THINK_MAX_NS */
    uint64_t unsetid;           /* modes whose setuid/setgid bits were dropped (calls) */
    bool keep_setid;
    /* made ready before the phase's clocks start (phase_replay_arm): the chunks' memory,
     * the trace's calls stream, the threads started */
    struct rp_chunk *chunks;
    struct trace_stream *calls;
    unsigned started;
};

/* replay_deps.c */
int rp_deps_init(struct replay *rp);
void rp_deps_free(struct replay *rp);
/* The dependencies of call c (paths in its chunk's arena at base) about to be call `pos` of
 * replay thread `t`, into out (at most max; returns how many, or -1 when more would be
 * needed: the caller then starts a new chunk). Records c as the resources' last user. */
int rp_deps_of(struct replay *rp, const struct rp_call *c, const char *base, unsigned t,
               uint64_t pos, uint64_t *out, int max);
/* Renames the recorded slots of a call of kind `kind` to replay slots (several threads):
 * *slot, *slot2 and a new descriptor's *result; a close or drop gives its slot back. */
void rp_slots_rename(struct replay *rp, unsigned kind, uint32_t *slot, uint32_t *slot2,
                     int64_t *result);
/* Whether dependency d is complete. */
static inline bool rp_dep_done(const struct replay *rp, uint64_t d)
{
    return d == RP_NO_DEP ||
           atomic_load_explicit(&rp->th[RP_DEP_THREAD(d)].done, memory_order_acquire) >
               RP_DEP_POS(d);
}

/* Free chunks the dispatcher waits for before it goes on: it then fills a quarter of the
 * pool in one go, and the threads wake it once per so many chunks, not once a chunk. */
#define RP_POOL_REFILL (RP_POOL_CHUNKS / 4)

/* Waits on cv (mu held) for at most 20 ms: a stop or an interrupt is seen that soon even
 * where nobody signals. */
static inline void rp_cond_wait_briefly(pthread_cond_t *cv, pthread_mutex_t *mu)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 20 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(cv, mu, &ts);
}

/* replay_thread.c */
/* A replay thread: runs the chunks handed to it until the end of the calls or a stop. */
void *rp_thread_main(void *arg);
/* Wakes thread t (a chunk handed to it, a call it waits for done, a stop). */
void rp_wake(struct rp_thread *t);
/* Stops the replay: every thread and the dispatcher woken to see it. */
void rp_stop_all(struct replay *rp);
/* Chunk c back into the pool (the dispatcher woken once RP_POOL_REFILL are free). */
void rp_chunk_put(struct replay *rp, struct rp_chunk *c);

/* replay_exec.c */
/* Runs call c of thread me (its paths at base). */
void rp_exec(struct rp_thread *me, const struct rp_call *c, const char *base);
/* Closes thread me's cached directories. */
void rp_exec_done(struct rp_thread *me);

/* replay_state.c: the initial state below root; *dropped: the files whose setuid/setgid
 * bits were dropped. 0, or -1 with why. */
int rp_state_lay(struct phase_ctx *ctx, struct trace_file *t, int root, uint64_t *dropped,
                 char *why, size_t len);

#endif
