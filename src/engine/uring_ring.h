/* uring_ring.h — internal to the io_uring engine: the per-worker ring, its op slots and
 * fixed-file slots, shared by uring_ring.c (the machinery, with the ordering rules) and
 * engine_uring.c (the operations), and by the engine's unit test. The rest of fsbench
 * reaches the engine only through engine.h (engine_uring, its available() hook and the
 * shared queue depth). Linux only: not built with FSBENCH_OS_POSIX_ONLY.
 *
 * Every function returns 0 or a -errno of the ring unless it says otherwise; none prints.
 */
#ifndef FSBENCH_URING_RING_H
#define FSBENCH_URING_RING_H

#include <liburing.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

/* 0 when io_uring can run this engine here: rings can be set up and submit, and the kernel
 * has every opcode it needs; else -1 with a one-line reason in why (no "fsbench:" prefix),
 * such as "io_uring is disabled by /proc/sys/kernel/io_uring_disabled=2". The answer is
 * probed once per process and cached. engine_uring's available() hook. */
int uring_available(char *why, size_t len);

/* Name of the entry whose queued operation failed with the error the engine last returned
 * from a later call or drain() ("" when that was the call's own failure): lets a phase name
 * the right path in its message. Valid until the worker's next call. */
const char *uring_error_name(const struct eng_worker *w);

#define URING_NAME_INLINE 48

/* State of an op slot. */
enum { URING_S_FREE, URING_S_PENDING, URING_S_DONE };

/* What completion does with an op. */
enum uring_role {
    URING_R_SIMPLE,   /* queued: count, keep a failure, free */
    URING_R_WAITED,   /* a call waits for it: keep the result; the call counts and frees */
    URING_R_CH_OPEN,  /* create chain: openat into a fixed slot */
    URING_R_CH_DATA,  /* create chain: a write (res must equal expect) or fsync */
    URING_R_CH_CLOSE, /* last of a chain, or the queued close of a fixed slot */
};

/* A path argument copied for the kernel, which reads it at submission. */
struct uring_name {
    char *p;
    char inl[URING_NAME_INLINE];
};

struct uring_op {
    unsigned char state, role, kind, wild;
    int res;
    unsigned expect;
    int fs;                 /* fixed-file slot, -1 none */
    int fdref[2];           /* dirfds held until completion, -1 none */
    uint64_t key[2];        /* entries it changes (rule 1), 0 none */
    uint64_t t_submit, t_done;
    struct uring_name name[2];
    /* where its completion is counted: the worker's opstats when it was queued (an
     * operation queued in an uncounted window, dirscan's bookkeeping, stays uncounted
     * however late it completes) */
    struct opstats *st;
};

/* A fixed-file slot and the pattern copy its chain writes from. */
struct uring_fslot {
    unsigned char *buf;
    size_t cap;
    int opened;             /* its openat succeeded and no close has run */
    struct uring_name name;
};

struct uring_fdst {
    uint32_t refs;
    uint32_t closing;
    uint64_t t_close;
    struct opstats *close_st; /* a deferred close is counted where close() was called */
};

/* One worker's ring (eng_worker.priv). */
struct uring_worker {
    struct io_uring ring;
    struct eng_worker *w;
    unsigned qd;
    struct uring_op *op;
    unsigned *freeop, nfree;
    unsigned *unsub, nunsub; /* ops whose SQEs wait for the next io_uring_enter */
    unsigned npending, nwild;
    unsigned *tmp;          /* op indices of the chain being built */
    struct uring_fslot *fs;
    unsigned *freefs, nfs, nfreefs;
    struct uring_fdst *fd;
    size_t nfd;
    int err;
    char err_name[256];     /* entry of the kept failure */
    char ret_name[256];     /* entry of the failure last returned */
};

/* ---- worker: the engine's worker_init / worker_fini ---- */
/* Sets up w's ring at the current queue depth: 0, or -1 (no message). */
int uring_worker_init(struct eng_worker *w);
/* Waits for what is queued, then releases the ring; NULL priv is fine. */
void uring_worker_fini(struct eng_worker *w);

/* ---- names ---- */
/* Copies s into b (inline when short). 0 or -ENOMEM. */
int uring_name_set(struct uring_name *b, const char *s);
/* True for a name that reaches elsewhere (rule 2): holds '/' or is "." or "..". */
int uring_is_wild(const char *name);

/* ---- the kept failure and directory-fd references (rule 3) ---- */
/* The kept failure, handed out once (its entry goes to ret_name); 0 if none. */
int uring_take_err(struct uring_worker *u);
/* Takes a reference on dirfd (< 0: none) for a queued op. 0 or -ENOMEM. */
int uring_fd_ref(struct uring_worker *u, int fd);
/* How many queued ops hold fd. */
uint32_t uring_fd_refs(const struct uring_worker *u, int fd);
/* Drops a reference; the last one performs a deferred close. */
void uring_fd_unref(struct uring_worker *u, int fd);

/* ---- op slots, submission and completion ---- */
/* Returns op slot i to the free list. */
void uring_op_free(struct uring_worker *u, unsigned i);
/* Reserves n op slots (n <= qd), waiting for completions while there are too few; their
 * indices go to u->tmp[0..n). */
int uring_ops_get(struct uring_worker *u, unsigned n);
/* The SQE for op i, marked pending with its role and op kind. */
struct io_uring_sqe *uring_sqe_for(struct uring_worker *u, unsigned i, int role, int kind);
/* Tags sqe with op i and sets its IOSQE_* flags. */
void uring_sqe_done(struct io_uring_sqe *sqe, unsigned i, unsigned flags);
/* After queuing: submits once every op slot is taken (the batch is full). */
int uring_batch_maybe_submit(struct uring_worker *u);
/* Handles every completion already posted; no system call. */
void uring_reap(struct uring_worker *u);
/* Submits what is queued and waits for at least one completion, then reaps. */
int uring_reap_wait(struct uring_worker *u);
/* Runs op i (already prepared) to completion: returns its result and submission and
 * completion times, and frees it (not when the ring failed: it may still be in flight). */
int uring_run_waited(struct uring_worker *u, unsigned i, uint64_t *t0, uint64_t *t1);
/* Reserved slot u->tmp[0] as a waited op of kind; its SQE, for the caller to prepare, goes
 * to *sqe. Returns the slot. */
unsigned uring_waited_op(struct uring_worker *u, int kind, struct io_uring_sqe **sqe);

/* ---- ordering: the start of every call ---- */
/* Entry of every call but close: reaps what has completed, hands out a kept failure. */
int uring_enter(struct uring_worker *u);
/* Start of a call on (dirfd, name): uring_enter, then rules 1 and 2 (waits for queued work
 * on the same entry, or for everything), then hands out a failure that work left; *key gets
 * the entry's identity. */
int uring_prologue(struct uring_worker *u, int dirfd, const char *name, uint64_t *key);
/* Rule 5: waits for everything queued, then hands out a failure it left. */
int uring_barrier(struct uring_worker *u);

/* ---- fixed-file slots ---- */
/* Reserves a fixed-file slot (there is always one) holding a copy of name: the slot, or
 * -ENOMEM. */
int uring_fs_get(struct uring_worker *u, const char *name);
/* Returns fixed-file slot f to the free list. */
void uring_fs_release(struct uring_worker *u, int f);
/* Queues the close of fixed slot f; key (may be 0) marks the entry as still being made.
 * When no op slot can be had, drops the file from the table instead and fails. */
int uring_queue_close_direct(struct uring_worker *u, int f, uint64_t key);

#endif
