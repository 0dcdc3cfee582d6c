/* engine_uring.c — the io_uring engine: one ring per worker, operations the caller does not
 * wait for are queued and submitted in batches, completions are reaped as they arrive.
 *
 * What is queued (fire-and-forget) and what completes before the call returns:
 *  - queued: create_file (openat into a fixed-file slot, its writes, fsync when asked and
 *    close, as one IOSQE_IO_LINK chain: no descriptor reaches user space), mkdir, unlink,
 *    rmdir, rename, symlink, and close of a descriptor. A queued operation's failure is
 *    kept (the first one) and returned, once, by the next call other than close, or by
 *    drain(); that call then does nothing else. uring_error_name() names its entry.
 *  - completed before returning: opendir, open, stat (IORING_OP_STATX), read_file (openat
 *    + two reads linked with IOSQE_IO_HARDLINK, then more reads if the file is longer; only
 *    its close is queued), read, write, pwrite and fsync through the ring; getdents,
 *    readlink, link, set_times, ftruncate, fsetattr and syncfs with the plain system call
 *    (io_uring has no such operation, or none before 6.9); copy_file is the posix engine's.
 *  - a create whose chain does not fit the queue depth, or whose pattern is longer than
 *    URING_INLINE_MAX (the engine copies a queued create's pattern, so the caller's buffer
 *    may change after the call), runs step by step, each step waited for; its close is
 *    queued.
 *
 * Ordering rules (io_uring runs independent requests in any order, in parallel io-wq
 * workers, so the engine orders whatever depends on earlier queued work):
 *  1. Same entry: an operation on (dirfd, name) first waits for every queued operation on
 *     the same (dirfd, name) (a 64-bit hash of both; a collision only costs a wait). So
 *     mkdir d -> opendir d, unlink x -> create x, create x -> read_file x, symlink l ->
 *     readlink l or set_times l, rename a b -> anything on a or b are ordered.
 *  2. Names that reach elsewhere: a name holding '/' or equal to "." or "..", and any call
 *     while such an operation is queued, first waits for everything queued.
 *  3. Directory fds: each queued operation holds a reference on the dirfd it resolves a name
 *     against. getdents(fd) first waits until no queued operation holds fd (a listing
 *     shows what the caller created in it); close(fd) of a held fd is deferred until the
 *     last holder completes (then closed with close(2), counted as OP_CLOSE from the close
 *     call), so the kernel never resolves a name against a closed or reused fd.
 *  4. rmdir while anything is queued carries IOSQE_IO_DRAIN: the kernel starts it only
 *     after everything submitted before it (unlinks of its files through another fd) has
 *     completed, and starts nothing after it until it has. Its ENOTEMPTY is deferred like
 *     any queued failure (phases that rescan on ENOTEMPTY get it from the next call).
 *  5. fsync, syncfs and set_times first wait for everything queued (data before fsync;
 *     a directory's times set after what was queued inside it).
 *  Not detected: one directory reached through two different fds while operations on its
 *  entries are queued, and a stat of a directory whose contents are being changed through
 *  its own fd. Call drain() between them.
 *
 * Measurement: every operation is counted with opstats_record at completion. For queued
 * operations latency runs from the submission of their batch (io_uring_enter) to the reap
 * of their completion; within a linked chain each member is measured from the chain's
 * submission, so a write's latency includes its open. OP_CREATE, each OP_WRITE (with its
 * bytes), OP_FSYNC and OP_CLOSE of a chain are counted separately; chain members the kernel
 * cancelled after an earlier failure (-ECANCELED) are not counted, as posix would not
 * have made those calls. read_file links a second read after the first (it sees EOF of a
 * file shorter than the buffer in the same round trip); after an empty first read that
 * second read is not counted, so counts equal posix's for every file and queue depth.
 *
 * Invariants: at most qd operations are queued or in flight per worker (op slots), which
 * is also the submission queue size, so the completion queue (2 x qd) never overflows; a
 * fixed-file slot belongs to one chain from its openat until its close completes.
 */
#include "engine_uring.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Longest pattern a queued create copies; longer ones are written step by step. */
#define URING_INLINE_MAX (64u * 1024)
/* Largest single write (io_uring lengths are 32-bit). */
#define URING_CHUNK_MAX (1u << 30)
#define NAME_INLINE 48
#define QD_MAX 4096u

enum { S_FREE, S_PENDING, S_DONE };

/* What completion does with an op. */
enum role {
    R_SIMPLE,       /* queued: count, keep a failure, free */
    R_WAITED,       /* a call waits for it: keep the result; the call counts and frees */
    R_CH_OPEN,      /* create chain: openat into a fixed slot */
    R_CH_DATA,      /* create chain: a write (res must equal expect) or fsync */
    R_CH_CLOSE,     /* last of a chain, or the queued close of a fixed slot */
};

/* A path argument copied for the kernel, which reads it at submission. */
struct nbuf {
    char *p;
    char inl[NAME_INLINE];
};

struct uop {
    unsigned char state, role, kind, wild;
    int res;
    unsigned expect;
    int fs;                 /* fixed-file slot, -1 none */
    int fdref[2];           /* dirfds held until completion, -1 none */
    uint64_t key[2];        /* entries it changes (rule 1), 0 none */
    uint64_t t_submit, t_done;
    struct nbuf name[2];
};

/* A fixed-file slot and the pattern copy its chain writes from. */
struct fslot {
    unsigned char *buf;
    size_t cap;
    int opened;             /* its openat succeeded and no close has run */
    struct nbuf name;
};

struct fdst {
    uint32_t refs;
    uint32_t closing;
    uint64_t t_close;
};

struct uw {
    struct io_uring ring;
    struct eng_worker *w;
    unsigned qd;
    struct uop *op;
    unsigned *freeop, nfree;
    unsigned *unsub, nunsub; /* ops whose SQEs wait for the next io_uring_enter */
    unsigned npending, nwild;
    unsigned *tmp;          /* op indices of the chain being built */
    struct fslot *fs;
    unsigned *freefs, nfs, nfreefs;
    struct fdst *fd;
    size_t nfd;
    int err;
    char err_name[256];     /* entry of the kept failure */
    char ret_name[256];     /* entry of the failure last returned */
};

static atomic_uint uring_qd = URING_DEFAULT_QD;

void uring_set_queue_depth(unsigned qd)
{
    atomic_store(&uring_qd, qd < 1 ? 1 : qd > QD_MAX ? QD_MAX : qd);
}

unsigned uring_queue_depth(void)
{
    return atomic_load(&uring_qd);
}

/* ---- availability ---- */

static const struct {
    int op;
    const char *name;
} needed_ops[] = {
    {IORING_OP_OPENAT, "IORING_OP_OPENAT"},   {IORING_OP_WRITE, "IORING_OP_WRITE"},
    {IORING_OP_READ, "IORING_OP_READ"},       {IORING_OP_CLOSE, "IORING_OP_CLOSE"},
    {IORING_OP_STATX, "IORING_OP_STATX"},     {IORING_OP_MKDIRAT, "IORING_OP_MKDIRAT"},
    {IORING_OP_UNLINKAT, "IORING_OP_UNLINKAT"}, {IORING_OP_RENAMEAT, "IORING_OP_RENAMEAT"},
    {IORING_OP_SYMLINKAT, "IORING_OP_SYMLINKAT"}, {IORING_OP_FSYNC, "IORING_OP_FSYNC"},
};

/* Value of /proc/sys/kernel/io_uring_disabled, 0 when absent. */
static int disabled_sysctl(void)
{
    FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
    int v = 0;
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = 0;
        fclose(f);
    }
    return v;
}

/* Probes everything the engine needs on a small ring. 0, or -1 with why filled. */
static int probe(char *why, size_t len)
{
    int dis = disabled_sysctl();
    if (dis == 2) {
        snprintf(why, len, "io_uring is disabled by /proc/sys/kernel/io_uring_disabled=2");
        return -1;
    }
    struct io_uring ring;
    int r = io_uring_queue_init(4, &ring, 0);
    if (r < 0) {
        if (r == -ENOSYS)
            snprintf(why, len, "kernel has no io_uring (io_uring_setup: ENOSYS)");
        else if (r == -EPERM && dis == 1)
            snprintf(why, len,
                     "io_uring is restricted by /proc/sys/kernel/io_uring_disabled=1 "
                     "(not in kernel.io_uring_group)");
        else if (r == -EPERM || r == -EACCES)
            snprintf(why, len, "io_uring blocked by seccomp or a security policy: %s",
                     r == -EPERM ? "EPERM" : "EACCES");
        else
            snprintf(why, len, "io_uring_queue_init: %s", strerror(-r));
        return -1;
    }
    int rc = 0;
    struct io_uring_probe *p = io_uring_get_probe_ring(&ring);
    if (!p) {
        snprintf(why, len, "kernel too old: no IORING_REGISTER_PROBE");
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < sizeof needed_ops / sizeof needed_ops[0]; i++)
        if (!io_uring_opcode_supported(p, needed_ops[i].op)) {
            snprintf(why, len, "kernel too old: no %s", needed_ops[i].name);
            rc = -1;
        }
    if (p)
        io_uring_free_probe(p);
    if (rc == 0 && (r = io_uring_register_files_sparse(&ring, 1)) < 0) {
        snprintf(why, len, "kernel too old: no sparse fixed-file tables (%s)", strerror(-r));
        rc = -1;
    }
    if (rc == 0) { /* a seccomp filter may allow setup and refuse io_uring_enter */
        struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
        struct io_uring_cqe *cqe;
        io_uring_prep_nop(sqe);
        r = io_uring_submit_and_wait(&ring, 1);
        if (r >= 0)
            r = io_uring_peek_cqe(&ring, &cqe);
        if (r < 0) {
            snprintf(why, len, "io_uring_enter fails: %s (seccomp?)", strerror(-r));
            rc = -1;
        }
    }
    io_uring_queue_exit(&ring);
    return rc;
}

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int probe_rc;
static char probe_why[160];

static void probe_run(void)
{
    probe_rc = probe(probe_why, sizeof probe_why);
}

int uring_available(char *why, size_t len)
{
    pthread_once(&probe_once, probe_run);
    if (probe_rc < 0 && why && len)
        snprintf(why, len, "%s", probe_why);
    return probe_rc;
}

/* ---- small helpers ---- */

static int nb_set(struct nbuf *b, const char *s)
{
    size_t n = strlen(s) + 1;
    if (n <= sizeof b->inl) {
        memcpy(b->inl, s, n);
        b->p = b->inl;
        return 0;
    }
    b->p = malloc(n);
    if (!b->p)
        return -ENOMEM;
    memcpy(b->p, s, n);
    return 0;
}

static void nb_free(struct nbuf *b)
{
    if (b->p && b->p != b->inl)
        free(b->p);
    b->p = NULL;
}

static int is_wild(const char *name)
{
    return strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

/* Identity of (dirfd, name) for rule 1: FNV-1a, never 0. */
static uint64_t name_key(int dirfd, const char *name)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(uint32_t)dirfd;
    h *= 1099511628211ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        h ^= *p;
        h *= 1099511628211ull;
    }
    return h ? h : 1;
}

static void keep_err(struct uw *u, int res, const char *name)
{
    if (u->err == 0) {
        u->err = res;
        snprintf(u->err_name, sizeof u->err_name, "%s", name ? name : "");
    }
}

/* The kept failure, handed out once. */
static int take_err(struct uw *u)
{
    if (u->err == 0) {
        u->ret_name[0] = '\0';
        return 0;
    }
    int e = u->err;
    u->err = 0;
    memcpy(u->ret_name, u->err_name, sizeof u->ret_name);
    return e;
}

/* Takes a reference on dirfd for a queued op. 0 or -ENOMEM. */
static int fd_ref(struct uw *u, int fd)
{
    if (fd < 0)
        return 0;
    if ((size_t)fd >= u->nfd) {
        size_t n = u->nfd ? u->nfd : 64;
        while (n <= (size_t)fd)
            n *= 2;
        struct fdst *p = realloc(u->fd, n * sizeof *p);
        if (!p)
            return -ENOMEM;
        memset(p + u->nfd, 0, (n - u->nfd) * sizeof *p);
        u->fd = p;
        u->nfd = n;
    }
    u->fd[fd].refs++;
    return 0;
}

static uint32_t fd_refs(const struct uw *u, int fd)
{
    return fd >= 0 && (size_t)fd < u->nfd ? u->fd[fd].refs : 0;
}

/* Drops a reference; the last one performs a deferred close (rule 3). */
static void fd_unref(struct uw *u, int fd)
{
    if (fd < 0)
        return;
    struct fdst *s = &u->fd[fd];
    if (--s->refs == 0 && s->closing) {
        s->closing = 0;
        long r = close(fd);
        int e = r < 0 ? -errno : 0;
        opstats_record(u->w->st, OP_CLOSE, s->t_close, meas_now_ns(), 0);
        if (e)
            keep_err(u, e, "");
    }
}

/* ---- op slots, submission and completion ---- */

static void op_free(struct uw *u, unsigned i)
{
    struct uop *o = &u->op[i];
    nb_free(&o->name[0]);
    nb_free(&o->name[1]);
    o->state = S_FREE;
    u->freeop[u->nfree++] = i;
}

static void fs_release(struct uw *u, int f)
{
    u->fs[f].opened = 0;
    nb_free(&u->fs[f].name);
    u->freefs[u->nfreefs++] = (unsigned)f;
}

/* Closes a fixed slot whose chain was cut before its close ran. */
static void fs_unregister(struct uw *u, int f, uint64_t t0)
{
    int minus1 = -1;
    int r = io_uring_register_files_update(&u->ring, (unsigned)f, &minus1, 1);
    opstats_record(u->w->st, OP_CLOSE, t0, meas_now_ns(), 0);
    if (r < 0)
        keep_err(u, r, u->fs[f].name.p);
    u->fs[f].opened = 0;
}

static void complete(struct uw *u, unsigned i, int res, uint64_t now)
{
    struct uop *o = &u->op[i];
    struct opstats *st = u->w->st;
    o->res = res;
    o->t_done = now;
    u->npending--;
    if (o->wild)
        u->nwild--;
    o->key[0] = o->key[1] = 0;
    fd_unref(u, o->fdref[0]);
    fd_unref(u, o->fdref[1]);
    o->fdref[0] = o->fdref[1] = -1;
    const char *fname = o->fs >= 0 ? u->fs[o->fs].name.p : o->name[0].p;

    switch (o->role) {
    case R_WAITED:
        o->state = S_DONE;
        return;
    case R_SIMPLE:
        opstats_record(st, o->kind, o->t_submit, now, 0);
        if (res < 0)
            keep_err(u, res, fname);
        break;
    case R_CH_OPEN:
        opstats_record(st, OP_CREATE, o->t_submit, now, 0);
        if (res < 0)
            keep_err(u, res, fname);
        else
            u->fs[o->fs].opened = 1;
        break;
    case R_CH_DATA:
        if (res == -ECANCELED)
            break;
        opstats_record(st, o->kind, o->t_submit, now,
                       o->kind == OP_WRITE && res > 0 ? (uint64_t)res : 0);
        if (res < 0)
            keep_err(u, res, fname);
        else if (o->kind == OP_WRITE && (unsigned)res != o->expect)
            keep_err(u, -EIO, fname); /* a short write cut the chain */
        break;
    case R_CH_CLOSE:
        if (res == -ECANCELED) {
            if (u->fs[o->fs].opened)
                fs_unregister(u, o->fs, o->t_submit);
        } else {
            opstats_record(st, OP_CLOSE, o->t_submit, now, 0);
            if (res < 0)
                keep_err(u, res, fname);
        }
        fs_release(u, o->fs);
        break;
    }
    op_free(u, i);
}

/* Handles every completion already posted; no system call. */
static void reap(struct uw *u)
{
    struct io_uring_cqe *cqe;
    unsigned head, n = 0;
    uint64_t now = 0;
    io_uring_for_each_cqe(&u->ring, head, cqe)
    {
        if (!now)
            now = meas_now_ns();
        complete(u, (unsigned)cqe->user_data, cqe->res, now);
        n++;
    }
    if (n)
        io_uring_cq_advance(&u->ring, n);
}

static void stamp_submit(struct uw *u)
{
    if (!u->nunsub)
        return;
    uint64_t now = meas_now_ns();
    for (unsigned k = 0; k < u->nunsub; k++)
        u->op[u->unsub[k]].t_submit = now;
    u->nunsub = 0;
}

/* Submits what is queued without waiting. 0 or -errno. */
static int submit(struct uw *u)
{
    if (!u->nunsub)
        return 0;
    stamp_submit(u);
    for (;;) {
        int r = io_uring_submit(&u->ring);
        if (r >= 0 || (r != -EINTR && r != -EAGAIN && r != -EBUSY))
            return r < 0 ? r : 0;
        reap(u);
    }
}

/* Submits what is queued and waits for at least one completion, then reaps. 0 or -errno. */
static int reap_wait(struct uw *u)
{
    if (!u->npending)
        return 0;
    stamp_submit(u);
    int r = io_uring_submit_and_wait(&u->ring, 1);
    if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY && r != -ETIME)
        return r;
    reap(u);
    return 0;
}

/* Waits for every queued operation (its failures stay kept). 0 or -errno of the ring. */
static int wait_all(struct uw *u)
{
    while (u->npending) {
        int r = reap_wait(u);
        if (r < 0)
            return r;
    }
    return 0;
}

static int wait_op(struct uw *u, unsigned i)
{
    while (u->op[i].state == S_PENDING) {
        int r = reap_wait(u);
        if (r < 0)
            return r;
    }
    return 0;
}

static int key_pending(const struct uw *u, uint64_t key)
{
    for (unsigned i = 0; i < u->qd; i++) {
        const struct uop *o = &u->op[i];
        if (o->state == S_PENDING && (o->key[0] == key || o->key[1] == key))
            return 1;
    }
    return 0;
}

/* Rules 1 and 2 for an operation on (dirfd, name); *key gets its identity. 0 or -errno. */
static int order_name(struct uw *u, int dirfd, const char *name, uint64_t *key)
{
    *key = name_key(dirfd, name);
    if (!u->npending)
        return 0;
    if (u->nwild || is_wild(name))
        return wait_all(u);
    while (key_pending(u, *key)) {
        int r = reap_wait(u);
        if (r < 0)
            return r;
    }
    return 0;
}

/* Common start of a call on (dirfd, name): reap, hand out a kept failure, order the call
 * after queued work on the same entry (rules 1, 2), then hand out a failure that work left. */
static int prologue(struct uw *u, int dirfd, const char *name, uint64_t *key);

/* Reserves n op slots (n <= qd), waiting for completions while there are too few. Their
 * indices go to u->tmp[0..n). 0 or -errno. */
static int ops_get(struct uw *u, unsigned n)
{
    while (u->nfree < n) {
        int r = u->npending ? reap_wait(u) : -EAGAIN;
        if (r < 0)
            return r;
    }
    for (unsigned k = 0; k < n; k++) {
        unsigned i = u->freeop[--u->nfree];
        struct uop *o = &u->op[i];
        memset(o, 0, offsetof(struct uop, name));
        o->fs = -1;
        o->fdref[0] = o->fdref[1] = -1;
        o->name[0].p = o->name[1].p = NULL;
        o->state = S_PENDING;
        u->tmp[k] = i;
    }
    return 0;
}

/* The SQE for op i, marked pending. The SQ always has room: it is as large as the number
 * of op slots, and every unsubmitted SQE holds one. */
static struct io_uring_sqe *sqe_for(struct uw *u, unsigned i, int role, int kind)
{
    struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
    if (!sqe) { /* cannot happen (see above); keep going anyway */
        submit(u);
        sqe = io_uring_get_sqe(&u->ring);
    }
    struct uop *o = &u->op[i];
    o->role = (unsigned char)role;
    o->kind = (unsigned char)kind;
    u->npending++;
    u->unsub[u->nunsub++] = i;
    return sqe;
}

static void sqe_done(struct io_uring_sqe *sqe, unsigned i, unsigned flags)
{
    io_uring_sqe_set_data64(sqe, i);
    io_uring_sqe_set_flags(sqe, flags);
}

/* After queuing: submit once every op slot is taken (the batch is full). */
static int batch_maybe_submit(struct uw *u)
{
    return u->nfree == 0 ? submit(u) : 0;
}

/* Runs op i (already prepared) to completion; returns its result and frees it. */
static int run_waited(struct uw *u, unsigned i, uint64_t *t0, uint64_t *t1)
{
    int r = wait_op(u, i);
    struct uop *o = &u->op[i];
    if (r < 0) /* the ring failed: the op may still be in flight, never free it */
        return r;
    *t0 = o->t_submit;
    *t1 = o->t_done;
    r = o->res;
    op_free(u, i);
    return r;
}

/* Common entry of every call but close: reap what has completed, hand out a kept failure. */
static int enter(struct uw *u)
{
    reap(u);
    return take_err(u);
}

static int prologue(struct uw *u, int dirfd, const char *name, uint64_t *key)
{
    int r = enter(u);
    if (r == 0)
        r = order_name(u, dirfd, name, key);
    if (r == 0)
        r = take_err(u);
    return r;
}

/* ---- worker ---- */

static void uw_free(struct uw *u)
{
    if (u->fs)
        for (unsigned f = 0; f < u->nfs; f++) {
            free(u->fs[f].buf);
            nb_free(&u->fs[f].name);
        }
    if (u->op)
        for (unsigned i = 0; i < u->qd; i++) {
            nb_free(&u->op[i].name[0]);
            nb_free(&u->op[i].name[1]);
        }
    free(u->op);
    free(u->freeop);
    free(u->unsub);
    free(u->tmp);
    free(u->fs);
    free(u->freefs);
    free(u->fd);
    free(u);
}

static int ur_worker_init(struct eng_worker *w)
{
    w->priv = NULL;
    if (uring_available(NULL, 0) < 0)
        return -1;
    struct uw *u = calloc(1, sizeof *u);
    if (!u)
        return -1;
    u->w = w;
    u->qd = uring_queue_depth();
    u->nfs = u->qd + 1;
    u->op = calloc(u->qd, sizeof *u->op);
    u->freeop = calloc(u->qd, sizeof *u->freeop);
    u->unsub = calloc(u->qd, sizeof *u->unsub);
    u->tmp = calloc(u->qd, sizeof *u->tmp);
    u->fs = calloc(u->nfs, sizeof *u->fs);
    u->freefs = calloc(u->nfs, sizeof *u->freefs);
    if (!u->op || !u->freeop || !u->unsub || !u->tmp || !u->fs || !u->freefs) {
        uw_free(u);
        return -1;
    }
    if (io_uring_queue_init(u->qd, &u->ring, 0) < 0) {
        uw_free(u);
        return -1;
    }
    if (io_uring_register_files_sparse(&u->ring, u->nfs) < 0) {
        io_uring_queue_exit(&u->ring);
        uw_free(u);
        return -1;
    }
    for (unsigned i = 0; i < u->qd; i++)
        u->freeop[u->nfree++] = u->qd - 1 - i;
    for (unsigned f = 0; f < u->nfs; f++)
        u->freefs[u->nfreefs++] = u->nfs - 1 - f;
    w->priv = u;
    return 0;
}

static void ur_worker_fini(struct eng_worker *w)
{
    struct uw *u = w->priv;
    if (!u)
        return;
    wait_all(u);
    /* Deferred closes whose holders never completed (only if the ring failed). */
    for (size_t fd = 0; fd < u->nfd; fd++)
        if (u->fd[fd].closing)
            close((int)fd);
    io_uring_queue_exit(&u->ring);
    uw_free(u);
    w->priv = NULL;
}

const char *uring_error_name(const struct eng_worker *w)
{
    const struct uw *u = w->priv;
    return u ? u->ret_name : "";
}

/* ---- operations ---- */

static int ur_opendir(struct eng_worker *w, int dirfd, const char *name)
{
    struct uw *u = w->priv;
    uint64_t key, t0, t1;
    int r = prologue(u, dirfd, name, &key);
    if (r == 0)
        r = ops_get(u, 1);
    if (r < 0)
        return r;
    unsigned i = u->tmp[0];
    struct io_uring_sqe *sqe = sqe_for(u, i, R_WAITED, OP_OPEN);
    io_uring_prep_openat(sqe, dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
    sqe_done(sqe, i, 0);
    r = run_waited(u, i, &t0, &t1);
    opstats_record(w->st, OP_OPEN, t0, t1, 0);
    return r;
}

static int ur_close(struct eng_worker *w, int fd)
{
    struct uw *u = w->priv;
    reap(u);
    if (fd_refs(u, fd)) { /* rule 3 */
        if (u->fd[fd].closing)
            return -EBADF;
        u->fd[fd].closing = 1;
        u->fd[fd].t_close = meas_now_ns();
        return 0;
    }
    int r = ops_get(u, 1);
    if (r < 0)
        return r;
    unsigned i = u->tmp[0];
    struct io_uring_sqe *sqe = sqe_for(u, i, R_SIMPLE, OP_CLOSE);
    io_uring_prep_close(sqe, fd);
    sqe_done(sqe, i, 0);
    return batch_maybe_submit(u);
}

/* Queues one name operation of `kind` on (dirfd, name), with a second name for rename and
 * the target for symlink; prep fills the SQE from the copied strings. */
struct nameop {
    int kind;
    int dirfd, dirfd2;
    const char *name, *name2, *target;
    int flags;
    mode_t mode;
};

static int queue_nameop(struct uw *u, const struct nameop *a)
{
    uint64_t k1, k2 = 0;
    int r = prologue(u, a->dirfd, a->name, &k1);
    if (r == 0 && a->name2)
        r = prologue(u, a->dirfd2, a->name2, &k2);
    if (r == 0)
        r = ops_get(u, 1);
    if (r < 0)
        return r;
    unsigned i = u->tmp[0];
    struct uop *o = &u->op[i];
    const char *s2 = a->name2 ? a->name2 : a->target;
    if (nb_set(&o->name[0], a->name) < 0 || (s2 && nb_set(&o->name[1], s2) < 0) ||
        fd_ref(u, a->dirfd) < 0) {
        op_free(u, i);
        return -ENOMEM;
    }
    o->fdref[0] = a->dirfd;
    if (a->name2) {
        if (fd_ref(u, a->dirfd2) < 0) {
            fd_unref(u, a->dirfd);
            op_free(u, i);
            return -ENOMEM;
        }
        o->fdref[1] = a->dirfd2;
    }
    o->key[0] = k1;
    o->key[1] = k2;
    o->wild = is_wild(a->name) || (a->name2 && is_wild(a->name2));
    unsigned flags = 0;
    if (a->kind == OP_RMDIR && u->npending) /* rule 4 */
        flags |= IOSQE_IO_DRAIN;
    struct io_uring_sqe *sqe = sqe_for(u, i, R_SIMPLE, a->kind);
    if (o->wild)
        u->nwild++;
    switch (a->kind) {
    case OP_MKDIR:
        io_uring_prep_mkdirat(sqe, a->dirfd, o->name[0].p, a->mode);
        break;
    case OP_UNLINK:
    case OP_RMDIR:
        io_uring_prep_unlinkat(sqe, a->dirfd, o->name[0].p, a->flags);
        break;
    case OP_RENAME:
        io_uring_prep_renameat(sqe, a->dirfd, o->name[0].p, a->dirfd2, o->name[1].p, 0);
        break;
    case OP_SYMLINK:
        io_uring_prep_symlinkat(sqe, o->name[1].p, a->dirfd, o->name[0].p);
        break;
    }
    sqe_done(sqe, i, flags);
    return batch_maybe_submit(u);
}

static int ur_mkdir(struct eng_worker *w, int dirfd, const char *name, mode_t mode)
{
    struct nameop a = {.kind = OP_MKDIR, .dirfd = dirfd, .name = name, .mode = mode};
    return queue_nameop(w->priv, &a);
}

static int ur_unlink(struct eng_worker *w, int dirfd, const char *name, int flags)
{
    struct nameop a = {.kind = (flags & AT_REMOVEDIR) ? OP_RMDIR : OP_UNLINK,
                       .dirfd = dirfd, .name = name, .flags = flags};
    return queue_nameop(w->priv, &a);
}

static int ur_rename(struct eng_worker *w, int odir, const char *oname, int ndir,
                     const char *nname)
{
    struct nameop a = {.kind = OP_RENAME, .dirfd = odir, .name = oname, .dirfd2 = ndir,
                       .name2 = nname};
    return queue_nameop(w->priv, &a);
}

static int ur_symlink(struct eng_worker *w, const char *target, int dirfd, const char *name)
{
    struct nameop a = {.kind = OP_SYMLINK, .dirfd = dirfd, .name = name, .target = target};
    return queue_nameop(w->priv, &a);
}

/* Reserves a fixed-file slot (there is always one: see nfs) holding a copy of name. */
static int fs_get(struct uw *u, const char *name)
{
    int f = (int)u->freefs[--u->nfreefs];
    if (nb_set(&u->fs[f].name, name) < 0) {
        u->freefs[u->nfreefs++] = (unsigned)f;
        return -ENOMEM;
    }
    u->fs[f].opened = 0;
    return f;
}

/* Queues the close of fixed slot f; key (may be 0) marks the entry as still being made. */
static int queue_close_direct(struct uw *u, int f, uint64_t key)
{
    int r = ops_get(u, 1);
    if (r < 0) { /* the ring failed: drop the file from the table instead */
        fs_unregister(u, f, meas_now_ns());
        fs_release(u, f);
        return r;
    }
    unsigned i = u->tmp[0];
    u->op[i].fs = f;
    u->op[i].key[0] = key;
    struct io_uring_sqe *sqe = sqe_for(u, i, R_CH_CLOSE, OP_CLOSE);
    io_uring_prep_close_direct(sqe, (unsigned)f);
    sqe_done(sqe, i, 0);
    return batch_maybe_submit(u);
}

/* Runs one waited op on fixed slot f: the SQE is prepared by the caller through *sqe. */
static unsigned waited_op(struct uw *u, int kind, struct io_uring_sqe **sqe)
{
    unsigned i = u->tmp[0];
    *sqe = sqe_for(u, i, R_WAITED, kind);
    return i;
}

/* create_file step by step: openat waited, each write waited, close queued. */
static int create_steps(struct uw *u, int dirfd, const char *name, int oflags, mode_t mode,
                        const unsigned char *data, size_t len, uint64_t size, unsigned flags,
                        uint64_t key)
{
    struct opstats *st = u->w->st;
    struct io_uring_sqe *sqe;
    uint64_t t0, t1;
    int f = fs_get(u, name);
    if (f < 0)
        return f;
    int r = ops_get(u, 1);
    if (r < 0) {
        fs_release(u, f);
        return r;
    }
    unsigned i = waited_op(u, OP_CREATE, &sqe);
    io_uring_prep_openat_direct(sqe, dirfd, name, oflags, mode, (unsigned)f);
    sqe_done(sqe, i, 0);
    r = run_waited(u, i, &t0, &t1);
    opstats_record(st, OP_CREATE, t0, t1, 0);
    if (r < 0) {
        fs_release(u, f);
        return r;
    }
    u->fs[f].opened = 1;
    uint64_t off = 0;
    int rc = 0;
    while (rc == 0 && off < size) {
        size_t at = (size_t)(off % len);
        uint64_t n = len - at;
        if (n > size - off)
            n = size - off;
        if (n > URING_CHUNK_MAX)
            n = URING_CHUNK_MAX;
        if ((rc = ops_get(u, 1)) < 0)
            break;
        i = waited_op(u, OP_WRITE, &sqe);
        io_uring_prep_write(sqe, f, data + at, (unsigned)n, off);
        sqe_done(sqe, i, IOSQE_FIXED_FILE);
        long wr = run_waited(u, i, &t0, &t1);
        opstats_record(st, OP_WRITE, t0, t1, wr > 0 ? (uint64_t)wr : 0);
        if (wr < 0)
            rc = (int)wr;
        else if (wr == 0)
            rc = -EIO;
        else
            off += (uint64_t)wr;
    }
    if (rc == 0 && (flags & ENG_CREATE_FSYNC) && (rc = ops_get(u, 1)) == 0) {
        i = waited_op(u, OP_FSYNC, &sqe);
        io_uring_prep_fsync(sqe, f, 0);
        sqe_done(sqe, i, IOSQE_FIXED_FILE);
        rc = run_waited(u, i, &t0, &t1);
        opstats_record(st, OP_FSYNC, t0, t1, 0);
    }
    int rc2 = queue_close_direct(u, f, key);
    return rc ? rc : rc2;
}

static int ur_create_file(struct eng_worker *w, int dirfd, const char *name, mode_t mode,
                          const void *data, size_t len, uint64_t size, unsigned flags)
{
    struct uw *u = w->priv;
    uint64_t key;
    if (size > 0 && len == 0)
        return -EINVAL;
    int r = prologue(u, dirfd, name, &key);
    if (r < 0)
        return r;
    int oflags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW; /* no O_CLOEXEC: direct */
    if (flags & ENG_CREATE_EXCL)
        oflags |= O_EXCL;
    size_t chunk = len < URING_CHUNK_MAX ? len : URING_CHUNK_MAX;
    uint64_t nw = size ? (size + chunk - 1) / chunk : 0;
    uint64_t need = nw + 2 + ((flags & ENG_CREATE_FSYNC) ? 1 : 0);
    if (len > URING_INLINE_MAX || need > u->qd)
        return create_steps(u, dirfd, name, oflags, mode, data, len, size, flags, key);

    int f = fs_get(u, name);
    if (f < 0)
        return f;
    struct fslot *fs = &u->fs[f];
    if (len > fs->cap) {
        unsigned char *p = realloc(fs->buf, len);
        if (!p) {
            fs_release(u, f);
            return -ENOMEM;
        }
        fs->buf = p;
        fs->cap = len;
    }
    if ((r = ops_get(u, (unsigned)need)) < 0) {
        fs_release(u, f);
        return r;
    }
    if ((r = fd_ref(u, dirfd)) < 0) {
        for (unsigned k = 0; k < need; k++)
            op_free(u, u->tmp[k]);
        fs_release(u, f);
        return r;
    }
    if (len)
        memcpy(fs->buf, data, len);
    const unsigned link = IOSQE_IO_LINK, fixed = IOSQE_FIXED_FILE | IOSQE_IO_LINK;
    unsigned k = 0, i = u->tmp[k++];
    u->op[i].fs = f;
    u->op[i].fdref[0] = dirfd;
    struct io_uring_sqe *sqe = sqe_for(u, i, R_CH_OPEN, OP_CREATE);
    io_uring_prep_openat_direct(sqe, dirfd, fs->name.p, oflags, mode, (unsigned)f);
    sqe_done(sqe, i, link);
    for (uint64_t off = 0; off < size; off += chunk) {
        uint64_t n = size - off < chunk ? size - off : chunk;
        i = u->tmp[k++];
        u->op[i].fs = f;
        u->op[i].expect = (unsigned)n;
        sqe = sqe_for(u, i, R_CH_DATA, OP_WRITE);
        io_uring_prep_write(sqe, f, fs->buf, (unsigned)n, off);
        sqe_done(sqe, i, fixed);
    }
    if (flags & ENG_CREATE_FSYNC) {
        i = u->tmp[k++];
        u->op[i].fs = f;
        sqe = sqe_for(u, i, R_CH_DATA, OP_FSYNC);
        io_uring_prep_fsync(sqe, f, 0);
        sqe_done(sqe, i, fixed);
    }
    i = u->tmp[k++];
    u->op[i].fs = f;
    u->op[i].key[0] = key;
    sqe = sqe_for(u, i, R_CH_CLOSE, OP_CLOSE);
    io_uring_prep_close_direct(sqe, (unsigned)f);
    sqe_done(sqe, i, 0);
    return batch_maybe_submit(u);
}

static int ur_read_file(struct eng_worker *w, int dirfd, const char *name, void *buf,
                        size_t buflen, uint64_t *bytes)
{
    struct uw *u = w->priv;
    struct opstats *st = w->st;
    struct io_uring_sqe *sqe;
    uint64_t key, t0, t1;
    unsigned n = buflen < URING_CHUNK_MAX ? (unsigned)buflen : URING_CHUNK_MAX;
    *bytes = 0;
    int r = prologue(u, dirfd, name, &key);
    if (r < 0)
        return r;
    int f = fs_get(u, name);
    if (f < 0)
        return f;
    const int oflags = O_RDONLY | O_NOFOLLOW;
    unsigned nchain = u->qd >= 3 ? 3 : 1;
    if ((r = ops_get(u, nchain)) < 0) {
        fs_release(u, f);
        return r;
    }
    unsigned io = u->tmp[0];
    sqe = sqe_for(u, io, R_WAITED, OP_OPEN);
    io_uring_prep_openat_direct(sqe, dirfd, name, oflags, 0, (unsigned)f);
    sqe_done(sqe, io, nchain > 1 ? IOSQE_IO_HARDLINK : 0);
    unsigned ir[2];
    for (unsigned k = 1; k < nchain; k++) {
        ir[k - 1] = u->tmp[k];
        sqe = sqe_for(u, ir[k - 1], R_WAITED, OP_READ);
        io_uring_prep_read(sqe, f, buf, n, (uint64_t)-1);
        sqe_done(sqe, ir[k - 1], IOSQE_FIXED_FILE | (k == 1 ? IOSQE_IO_HARDLINK : 0));
    }
    r = run_waited(u, io, &t0, &t1);
    opstats_record(st, OP_OPEN, t0, t1, 0);
    /* The reads were linked after the open: wait for them even when it failed. */
    int rd[2] = {0, 0}, rc = r < 0 ? r : 0;
    uint64_t rt0[2] = {0, 0}, rt1[2] = {0, 0};
    for (unsigned k = 1; k < nchain; k++)
        rd[k - 1] = run_waited(u, ir[k - 1], &rt0[k - 1], &rt1[k - 1]);
    if (r < 0) {
        fs_release(u, f);
        return r;
    }
    u->fs[f].opened = 1;
    int more = nchain == 1; /* no speculative reads were made */
    if (nchain > 1) {
        /* Both reads ran (hard links); the second counts when the first got data. */
        opstats_record(st, OP_READ, rt0[0], rt1[0], rd[0] > 0 ? (uint64_t)rd[0] : 0);
        if (rd[0] < 0) {
            rc = rd[0];
        } else if (rd[0] == 0) {
            /* empty: the second read was speculation posix would not have made */
        } else {
            opstats_record(st, OP_READ, rt0[1], rt1[1], rd[1] > 0 ? (uint64_t)rd[1] : 0);
            if (rd[1] < 0)
                rc = rd[1];
            else
                *bytes += (uint64_t)rd[0] + (uint64_t)rd[1];
            more = rd[1] > 0;
        }
    }
    while (rc == 0 && more) {
        if ((rc = ops_get(u, 1)) < 0)
            break;
        unsigned i = waited_op(u, OP_READ, &sqe);
        io_uring_prep_read(sqe, f, buf, n, (uint64_t)-1);
        sqe_done(sqe, i, IOSQE_FIXED_FILE);
        int got = run_waited(u, i, &t0, &t1);
        opstats_record(st, OP_READ, t0, t1, got > 0 ? (uint64_t)got : 0);
        if (got <= 0)
            rc = got;
        else
            *bytes += (uint64_t)got;
        more = got > 0;
    }
    int rc2 = queue_close_direct(u, f, 0);
    return rc ? rc : rc2;
}

static void statx_to_stat(const struct statx *x, struct stat *st)
{
    memset(st, 0, sizeof *st);
    st->st_dev = makedev(x->stx_dev_major, x->stx_dev_minor);
    st->st_ino = x->stx_ino;
    st->st_mode = x->stx_mode;
    st->st_nlink = x->stx_nlink;
    st->st_uid = x->stx_uid;
    st->st_gid = x->stx_gid;
    st->st_rdev = makedev(x->stx_rdev_major, x->stx_rdev_minor);
    st->st_size = (off_t)x->stx_size;
    st->st_blksize = (blksize_t)x->stx_blksize;
    st->st_blocks = (blkcnt_t)x->stx_blocks;
    st->st_atim.tv_sec = x->stx_atime.tv_sec;
    st->st_atim.tv_nsec = x->stx_atime.tv_nsec;
    st->st_mtim.tv_sec = x->stx_mtime.tv_sec;
    st->st_mtim.tv_nsec = x->stx_mtime.tv_nsec;
    st->st_ctim.tv_sec = x->stx_ctime.tv_sec;
    st->st_ctim.tv_nsec = x->stx_ctime.tv_nsec;
}

static int ur_stat(struct eng_worker *w, int dirfd, const char *name, struct stat *st)
{
    struct uw *u = w->priv;
    uint64_t key, t0, t1;
    struct statx x;
    int r = prologue(u, dirfd, name, &key);
    if (r == 0)
        r = ops_get(u, 1);
    if (r < 0)
        return r;
    unsigned i = u->tmp[0];
    struct io_uring_sqe *sqe = sqe_for(u, i, R_WAITED, OP_STAT);
    io_uring_prep_statx(sqe, dirfd, name, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &x);
    sqe_done(sqe, i, 0);
    r = run_waited(u, i, &t0, &t1);
    opstats_record(w->st, OP_STAT, t0, t1, 0);
    if (r == 0)
        statx_to_stat(&x, st);
    return r;
}

static int ur_getdents(struct eng_worker *w, int dirfd, void *buf, size_t len)
{
    struct uw *u = w->priv;
    int r = enter(u);
    while (r == 0 && fd_refs(u, dirfd)) /* rule 3 */
        r = reap_wait(u);
    if (r == 0)
        r = take_err(u);
    if (r < 0)
        return r;
    uint64_t t0 = meas_now_ns();
    long n = syscall(SYS_getdents64, dirfd, buf, len);
    int e = n < 0 ? -errno : 0;
    opstats_record(w->st, OP_READDIR, t0, meas_now_ns(), 0);
    return n < 0 ? e : (int)n;
}

static int ur_readlink(struct eng_worker *w, int dirfd, const char *name, char *buf, size_t len)
{
    struct uw *u = w->priv;
    uint64_t key;
    if (len < 2)
        return -EINVAL;
    int r = prologue(u, dirfd, name, &key);
    if (r < 0)
        return r;
    uint64_t t0 = meas_now_ns();
    long n = readlinkat(dirfd, name, buf, len - 1);
    int e = n < 0 ? -errno : 0;
    opstats_record(w->st, OP_READLINK, t0, meas_now_ns(), 0);
    if (n < 0)
        return e;
    if ((size_t)n >= len - 1)
        return -ENAMETOOLONG;
    buf[n] = '\0';
    return (int)n;
}

static int ur_link(struct eng_worker *w, int odir, const char *oname, int ndir, const char *nname)
{
    struct uw *u = w->priv;
    uint64_t k;
    int r = prologue(u, odir, oname, &k);
    if (r == 0)
        r = prologue(u, ndir, nname, &k);
    if (r < 0)
        return r;
    uint64_t t0 = meas_now_ns();
    long l = linkat(odir, oname, ndir, nname, 0);
    int e = l < 0 ? -errno : 0;
    opstats_record(w->st, OP_LINK, t0, meas_now_ns(), 0);
    return e;
}

static int ur_copy_file(struct eng_worker *w, int sdirfd, const char *sname, int ddirfd,
                        const char *dname, mode_t mode, const struct timespec times[2],
                        void *buf, size_t buflen, uint64_t *bytes)
{
    struct uw *u = w->priv;
    uint64_t k;
    *bytes = 0;
    int r = prologue(u, sdirfd, sname, &k);
    if (r == 0)
        r = prologue(u, ddirfd, dname, &k);
    if (r < 0)
        return r;
    return engine_posix.copy_file(w, sdirfd, sname, ddirfd, dname, mode, times, buf, buflen,
                                  bytes);
}

/* Rule 5: waits for everything queued, then hands out a failure it left. */
static int barrier(struct uw *u)
{
    int r = enter(u);
    if (r == 0)
        r = wait_all(u);
    return r < 0 ? r : take_err(u);
}

static int ur_set_times(struct eng_worker *w, int dirfd, const char *name,
                        const struct timespec times[2])
{
    int r = barrier(w->priv);
    if (r < 0)
        return r;
    uint64_t t0 = meas_now_ns();
    long s = utimensat(dirfd, name, times, AT_SYMLINK_NOFOLLOW);
    int e = s < 0 ? -errno : 0;
    opstats_record(w->st, OP_SETATTR, t0, meas_now_ns(), 0);
    return e;
}

static int ur_fsync(struct eng_worker *w, int fd)
{
    struct uw *u = w->priv;
    uint64_t t0, t1;
    int r = barrier(u);
    if (r == 0)
        r = ops_get(u, 1);
    if (r < 0)
        return r;
    unsigned i = u->tmp[0];
    struct io_uring_sqe *sqe = sqe_for(u, i, R_WAITED, OP_FSYNC);
    io_uring_prep_fsync(sqe, fd, 0);
    sqe_done(sqe, i, 0);
    r = run_waited(u, i, &t0, &t1);
    opstats_record(w->st, OP_FSYNC, t0, t1, 0);
    return r;
}

static int ur_syncfs(struct eng_worker *w, int fd)
{
    int r = barrier(w->priv);
    if (r < 0)
        return r;
    uint64_t t0 = meas_now_ns();
    long s = syncfs(fd);
    int e = s < 0 ? -errno : 0;
    opstats_record(w->st, OP_SYNCFS, t0, meas_now_ns(), 0);
    return e;
}

static int ur_open(struct eng_worker *w, int dirfd, const char *name, int flags, mode_t mode)
{
    struct uw *u = w->priv;
    uint64_t key, t0, t1;
    int r = prologue(u, dirfd, name, &key);
    if (r == 0)
        r = ops_get(u, 1);
    if (r < 0)
        return r;
    int kind = (flags & O_CREAT) ? OP_CREATE : OP_OPEN;
    unsigned i = u->tmp[0];
    struct io_uring_sqe *sqe = sqe_for(u, i, R_WAITED, kind);
    io_uring_prep_openat(sqe, dirfd, name, flags | O_CLOEXEC, mode);
    sqe_done(sqe, i, 0);
    r = run_waited(u, i, &t0, &t1);
    opstats_record(w->st, kind, t0, t1, 0);
    return r;
}

/* One read or write of a user fd through the ring, waited for. */
static long rw_waited(struct eng_worker *w, int kind, int fd, void *buf, size_t len,
                      uint64_t off)
{
    struct uw *u = w->priv;
    uint64_t t0, t1;
    int r = enter(u);
    if (r == 0)
        r = ops_get(u, 1);
    if (r < 0)
        return r;
    unsigned n = len < URING_CHUNK_MAX ? (unsigned)len : URING_CHUNK_MAX;
    unsigned i = u->tmp[0];
    struct io_uring_sqe *sqe = sqe_for(u, i, R_WAITED, kind);
    if (kind == OP_READ)
        io_uring_prep_read(sqe, fd, buf, n, off);
    else
        io_uring_prep_write(sqe, fd, buf, n, off);
    sqe_done(sqe, i, 0);
    r = run_waited(u, i, &t0, &t1);
    opstats_record(w->st, kind, t0, t1, r > 0 ? (uint64_t)r : 0);
    return r;
}

static long ur_write(struct eng_worker *w, int fd, const void *buf, size_t len)
{
    return rw_waited(w, OP_WRITE, fd, (void *)buf, len, (uint64_t)-1);
}

static long ur_pwrite(struct eng_worker *w, int fd, const void *buf, size_t len, uint64_t off)
{
    return rw_waited(w, OP_WRITE, fd, (void *)buf, len, off);
}

static long ur_read(struct eng_worker *w, int fd, void *buf, size_t len)
{
    return rw_waited(w, OP_READ, fd, buf, len, (uint64_t)-1);
}

static int ur_ftruncate(struct eng_worker *w, int fd, uint64_t len)
{
    int r = enter(w->priv);
    if (r < 0)
        return r;
    uint64_t t0 = meas_now_ns();
    long s = ftruncate(fd, (off_t)len);
    int e = s < 0 ? -errno : 0;
    opstats_record(w->st, OP_SETATTR, t0, meas_now_ns(), 0);
    return e;
}

static int ur_fsetattr(struct eng_worker *w, int fd, mode_t mode, const struct timespec times[2])
{
    int r = enter(w->priv);
    if (r < 0)
        return r;
    if (mode != (mode_t)-1) {
        uint64_t t0 = meas_now_ns();
        long s = fchmod(fd, mode);
        int e = s < 0 ? -errno : 0;
        opstats_record(w->st, OP_SETATTR, t0, meas_now_ns(), 0);
        if (e)
            return e;
    }
    if (times) {
        uint64_t t0 = meas_now_ns();
        long s = futimens(fd, times);
        int e = s < 0 ? -errno : 0;
        opstats_record(w->st, OP_SETATTR, t0, meas_now_ns(), 0);
        return e;
    }
    return 0;
}

static int ur_drain(struct eng_worker *w)
{
    return barrier(w->priv);
}

const struct engine engine_uring = {
    .name = "uring",
    .desc = "io_uring: queued operations submitted in batches, linked create chains",
    .caps = ENG_CAP_REAL | ENG_CAP_ASYNC,
    .worker_init = ur_worker_init,
    .worker_fini = ur_worker_fini,
    .opendir = ur_opendir,
    .close = ur_close,
    .mkdir = ur_mkdir,
    .create_file = ur_create_file,
    .read_file = ur_read_file,
    .stat = ur_stat,
    .getdents = ur_getdents,
    .unlink = ur_unlink,
    .rename = ur_rename,
    .symlink = ur_symlink,
    .readlink = ur_readlink,
    .link = ur_link,
    .copy_file = ur_copy_file,
    .set_times = ur_set_times,
    .fsync = ur_fsync,
    .syncfs = ur_syncfs,
    .open = ur_open,
    .write = ur_write,
    .pwrite = ur_pwrite,
    .read = ur_read,
    .ftruncate = ur_ftruncate,
    .fsetattr = ur_fsetattr,
    .drain = ur_drain,
};
