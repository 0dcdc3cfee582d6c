/* uring_ring.c — the io_uring engine's ring and op-slot machinery (engine_uring.c has the
 * operations): per-worker ring set-up and tear-down, the op-slot and fixed-file-slot tables,
 * submission in batches, completion reaping, the kept failure, the ordering rules below and
 * the availability probe. Completion counts each queued operation as the Measurement
 * paragraph of engine_uring.c describes.
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
 * Invariants: at most qd operations are queued or in flight per worker (op slots), which
 * is also the submission queue size, so the completion queue (2 x qd) never overflows; a
 * fixed-file slot belongs to one chain from its openat until its close completes.
 */
#include "engine/uring_ring.h"
#include "os/rawsys.h"

#include <errno.h>
#include <liburing.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    {IORING_OP_OPENAT2, "IORING_OP_OPENAT2"},
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

int uring_name_set(struct uring_name *b, const char *s)
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

static void uring_name_free(struct uring_name *b)
{
    if (b->p && b->p != b->inl)
        free(b->p);
    b->p = NULL;
}

int uring_is_wild(const char *name)
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

static void keep_err(struct uring_worker *u, int res, const char *name)
{
    if (u->err == 0) {
        u->err = res;
        snprintf(u->err_name, sizeof u->err_name, "%s", name ? name : "");
    }
}

/* The kept failure, handed out once. */
int uring_take_err(struct uring_worker *u)
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
int uring_fd_ref(struct uring_worker *u, int fd)
{
    if (fd < 0)
        return 0;
    if ((size_t)fd >= u->nfd) {
        size_t n = u->nfd ? u->nfd : 64;
        while (n <= (size_t)fd)
            n *= 2;
        struct uring_fdst *p = realloc(u->fd, n * sizeof *p);
        if (!p)
            return -ENOMEM;
        memset(p + u->nfd, 0, (n - u->nfd) * sizeof *p);
        u->fd = p;
        u->nfd = n;
    }
    u->fd[fd].refs++;
    return 0;
}

uint32_t uring_fd_refs(const struct uring_worker *u, int fd)
{
    return fd >= 0 && (size_t)fd < u->nfd ? u->fd[fd].refs : 0;
}

/* Drops a reference; the last one performs a deferred close (rule 3). */
void uring_fd_unref(struct uring_worker *u, int fd)
{
    if (fd < 0)
        return;
    struct uring_fdst *s = &u->fd[fd];
    if (--s->refs == 0 && s->closing) {
        s->closing = 0;
        long r = raw_close(fd);
        int e = r < 0 ? -errno : 0;
        opstats_record(s->close_st ? s->close_st : u->w->st, OP_CLOSE, s->t_close,
                       meas_op_clock(), 0);
        s->close_st = NULL;
        if (e)
            keep_err(u, e, "");
    }
}

/* ---- op slots, submission and completion ---- */

void uring_op_free(struct uring_worker *u, unsigned i)
{
    struct uring_op *o = &u->op[i];
    uring_name_free(&o->name[0]);
    uring_name_free(&o->name[1]);
    o->state = URING_S_FREE;
    u->freeop[u->nfree++] = i;
}

void uring_fs_release(struct uring_worker *u, int f)
{
    u->fs[f].opened = 0;
    uring_name_free(&u->fs[f].name);
    u->freefs[u->nfreefs++] = (unsigned)f;
}

/* Closes a fixed slot whose chain was cut before its close ran. */
static void fs_unregister(struct uring_worker *u, struct opstats *st, int f, uint64_t t0)
{
    int minus1 = -1;
    int r = io_uring_register_files_update(&u->ring, (unsigned)f, &minus1, 1);
    opstats_record(st, OP_CLOSE, t0, meas_op_clock(), 0);
    if (r < 0)
        keep_err(u, r, u->fs[f].name.p);
    u->fs[f].opened = 0;
}

static void complete(struct uring_worker *u, unsigned i, int res, uint64_t now)
{
    struct uring_op *o = &u->op[i];
    struct opstats *st = o->st ? o->st : u->w->st;
    o->res = res;
    o->t_done = now;
    u->npending--;
    if (o->wild)
        u->nwild--;
    o->key[0] = o->key[1] = 0;
    uring_fd_unref(u, o->fdref[0]);
    uring_fd_unref(u, o->fdref[1]);
    o->fdref[0] = o->fdref[1] = -1;
    const char *fname = o->fs >= 0 ? u->fs[o->fs].name.p : o->name[0].p;

    switch (o->role) {
    case URING_R_WAITED:
        o->state = URING_S_DONE;
        return;
    case URING_R_SIMPLE:
        opstats_record(st, o->kind, o->t_submit, now, 0);
        if (res < 0)
            keep_err(u, res, fname);
        break;
    case URING_R_CH_OPEN:
        opstats_record(st, OP_CREATE, o->t_submit, now, 0);
        if (res < 0)
            keep_err(u, res, fname);
        else
            u->fs[o->fs].opened = 1;
        break;
    case URING_R_CH_DATA:
        if (res == -ECANCELED)
            break;
        opstats_record(st, o->kind, o->t_submit, now,
                       o->kind == OP_WRITE && res > 0 ? (uint64_t)res : 0);
        if (res < 0)
            keep_err(u, res, fname);
        else if (o->kind == OP_WRITE && (unsigned)res != o->expect)
            keep_err(u, -EIO, fname); /* a short write cut the chain */
        break;
    case URING_R_CH_CLOSE:
        if (res == -ECANCELED) {
            if (u->fs[o->fs].opened)
                fs_unregister(u, st, o->fs, o->t_submit);
        } else {
            opstats_record(st, OP_CLOSE, o->t_submit, now, 0);
            if (res < 0)
                keep_err(u, res, fname);
        }
        uring_fs_release(u, o->fs);
        break;
    }
    uring_op_free(u, i);
}

/* Handles every completion already posted; no system call. */
void uring_reap(struct uring_worker *u)
{
    struct io_uring_cqe *cqe;
    unsigned head, n = 0;
    uint64_t now = 0;
    io_uring_for_each_cqe(&u->ring, head, cqe)
    {
        if (!now)
            now = meas_op_clock();
        complete(u, (unsigned)cqe->user_data, cqe->res, now);
        n++;
    }
    if (n)
        io_uring_cq_advance(&u->ring, n);
}

static void stamp_submit(struct uring_worker *u)
{
    if (!u->nunsub)
        return;
    uint64_t now = meas_op_clock();
    for (unsigned k = 0; k < u->nunsub; k++)
        u->op[u->unsub[k]].t_submit = now;
    u->nunsub = 0;
}

/* Submits what is queued without waiting. 0 or -errno. */
static int submit(struct uring_worker *u)
{
    if (!u->nunsub)
        return 0;
    stamp_submit(u);
    for (;;) {
        int r = io_uring_submit(&u->ring);
        if (r >= 0 || (r != -EINTR && r != -EAGAIN && r != -EBUSY))
            return r < 0 ? r : 0;
        uring_reap(u);
    }
}

/* Submits what is queued and waits for at least one completion, then reaps. 0 or -errno. */
int uring_reap_wait(struct uring_worker *u)
{
    if (!u->npending)
        return 0;
    stamp_submit(u);
    int r = io_uring_submit_and_wait(&u->ring, 1);
    if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY && r != -ETIME)
        return r;
    uring_reap(u);
    return 0;
}

/* Waits for every queued operation (its failures stay kept). 0 or -errno of the ring. */
static int wait_all(struct uring_worker *u)
{
    while (u->npending) {
        int r = uring_reap_wait(u);
        if (r < 0)
            return r;
    }
    return 0;
}

static int wait_op(struct uring_worker *u, unsigned i)
{
    while (u->op[i].state == URING_S_PENDING) {
        int r = uring_reap_wait(u);
        if (r < 0)
            return r;
    }
    return 0;
}

static int key_pending(const struct uring_worker *u, uint64_t key)
{
    for (unsigned i = 0; i < u->qd; i++) {
        const struct uring_op *o = &u->op[i];
        if (o->state == URING_S_PENDING && (o->key[0] == key || o->key[1] == key))
            return 1;
    }
    return 0;
}

/* Rules 1 and 2 for an operation on (dirfd, name); *key gets its identity. 0 or -errno. */
static int order_name(struct uring_worker *u, int dirfd, const char *name, uint64_t *key)
{
    *key = name_key(dirfd, name);
    if (!u->npending)
        return 0;
    if (u->nwild || uring_is_wild(name))
        return wait_all(u);
    while (key_pending(u, *key)) {
        int r = uring_reap_wait(u);
        if (r < 0)
            return r;
    }
    return 0;
}

/* Reserves n op slots (n <= qd), waiting for completions while there are too few. Their
 * indices go to u->tmp[0..n). 0 or -errno. */
int uring_ops_get(struct uring_worker *u, unsigned n)
{
    while (u->nfree < n) {
        int r = u->npending ? uring_reap_wait(u) : -EAGAIN;
        if (r < 0)
            return r;
    }
    for (unsigned k = 0; k < n; k++) {
        unsigned i = u->freeop[--u->nfree];
        struct uring_op *o = &u->op[i];
        memset(o, 0, offsetof(struct uring_op, name));
        o->fs = -1;
        o->fdref[0] = o->fdref[1] = -1;
        o->name[0].p = o->name[1].p = NULL;
        o->state = URING_S_PENDING;
        u->tmp[k] = i;
    }
    return 0;
}

/* The SQE for op i, marked pending. The SQ always has room: it is as large as the number
 * of op slots, and every unsubmitted SQE holds one. */
struct io_uring_sqe *uring_sqe_for(struct uring_worker *u, unsigned i, int role, int kind)
{
    struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
    if (!sqe) { /* cannot happen (see above); keep going anyway */
        submit(u);
        sqe = io_uring_get_sqe(&u->ring);
    }
    struct uring_op *o = &u->op[i];
    o->role = (unsigned char)role;
    o->kind = (unsigned char)kind;
    o->st = u->w->st; /* counted where it was queued (uring_op.st) */
    u->npending++;
    u->unsub[u->nunsub++] = i;
    return sqe;
}

void uring_sqe_done(struct io_uring_sqe *sqe, unsigned i, unsigned flags)
{
    io_uring_sqe_set_data64(sqe, i);
    io_uring_sqe_set_flags(sqe, flags);
}

/* After queuing: submit once every op slot is taken (the batch is full). */
int uring_batch_maybe_submit(struct uring_worker *u)
{
    return u->nfree == 0 ? submit(u) : 0;
}

/* Runs op i (already prepared) to completion; returns its result and frees it. */
int uring_run_waited(struct uring_worker *u, unsigned i, uint64_t *t0, uint64_t *t1)
{
    int r = wait_op(u, i);
    struct uring_op *o = &u->op[i];
    if (r < 0) /* the ring failed: the op may still be in flight, never free it */
        return r;
    *t0 = o->t_submit;
    *t1 = o->t_done;
    r = o->res;
    uring_op_free(u, i);
    return r;
}

/* Common entry of every call but close: reap what has completed, hand out a kept failure. */
int uring_enter(struct uring_worker *u)
{
    uring_reap(u);
    return uring_take_err(u);
}

/* Common start of a call on (dirfd, name): reap, hand out a kept failure, order the call
 * after queued work on the same entry (rules 1, 2), then hand out a failure that work left. */
int uring_prologue(struct uring_worker *u, int dirfd, const char *name, uint64_t *key)
{
    int r = uring_enter(u);
    if (r == 0)
        r = order_name(u, dirfd, name, key);
    if (r == 0)
        r = uring_take_err(u);
    return r;
}

/* ---- worker ---- */

static void uw_free(struct uring_worker *u)
{
    if (u->fs)
        for (unsigned f = 0; f < u->nfs; f++) {
            free(u->fs[f].buf);
            uring_name_free(&u->fs[f].name);
        }
    if (u->op)
        for (unsigned i = 0; i < u->qd; i++) {
            uring_name_free(&u->op[i].name[0]);
            uring_name_free(&u->op[i].name[1]);
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

int uring_worker_init(struct eng_worker *w)
{
    w->priv = NULL;
    if (uring_available(NULL, 0) < 0)
        return -1;
    struct uring_worker *u = calloc(1, sizeof *u);
    if (!u)
        return -1;
    u->w = w;
    u->qd = eng_queue_depth();
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

void uring_worker_fini(struct eng_worker *w)
{
    struct uring_worker *u = w->priv;
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
    const struct uring_worker *u = w->priv;
    return u ? u->ret_name : "";
}

/* ---- fixed-file slots and barriers, for the operations ---- */

/* Reserves a fixed-file slot (there is always one: see nfs) holding a copy of name. */
int uring_fs_get(struct uring_worker *u, const char *name)
{
    int f = (int)u->freefs[--u->nfreefs];
    if (uring_name_set(&u->fs[f].name, name) < 0) {
        u->freefs[u->nfreefs++] = (unsigned)f;
        return -ENOMEM;
    }
    u->fs[f].opened = 0;
    return f;
}

/* Queues the close of fixed slot f; key (may be 0) marks the entry as still being made. */
int uring_queue_close_direct(struct uring_worker *u, int f, uint64_t key)
{
    int r = uring_ops_get(u, 1);
    if (r < 0) { /* the ring failed: drop the file from the table instead */
        fs_unregister(u, u->w->st, f, meas_op_clock());
        uring_fs_release(u, f);
        return r;
    }
    unsigned i = u->tmp[0];
    u->op[i].fs = f;
    u->op[i].key[0] = key;
    struct io_uring_sqe *sqe = uring_sqe_for(u, i, URING_R_CH_CLOSE, OP_CLOSE);
    io_uring_prep_close_direct(sqe, (unsigned)f);
    uring_sqe_done(sqe, i, 0);
    return uring_batch_maybe_submit(u);
}

/* Runs one waited op on fixed slot f: the SQE is prepared by the caller through *sqe. */
unsigned uring_waited_op(struct uring_worker *u, int kind, struct io_uring_sqe **sqe)
{
    unsigned i = u->tmp[0];
    *sqe = uring_sqe_for(u, i, URING_R_WAITED, kind);
    return i;
}

/* Rule 5: waits for everything queued, then hands out a failure it left. */
int uring_barrier(struct uring_worker *u)
{
    int r = uring_enter(u);
    if (r == 0)
        r = wait_all(u);
    return r < 0 ? r : uring_take_err(u);
}
