/* engine_uring.c — the io_uring engine: one ring per worker, operations the caller does not
 * wait for are queued and submitted in batches, completions are reaped as they arrive.
 *
 * What is queued (fire-and-forget) and what completes before the call returns:
 *  - queued: create_file (openat into a fixed-file slot, its writes, fsync when asked and
 *    close, as one IOSQE_IO_LINK chain: no descriptor reaches user space), mkdir, unlink,
 *    rmdir, rename, symlink, and close of a descriptor. A queued operation's failure is
 *    kept (the first one) and returned, once, by the next call other than close, or by
 *    drain(); that call then does nothing else. uring_error_name() names its entry.
 *  - completed before returning: opendir (IORING_OP_OPENAT2, resolved beneath its directory
 *    as os/beneath.h says), open, stat (IORING_OP_STATX), read_file (openat
 *    + two reads linked with IOSQE_IO_HARDLINK, then more reads if the file is longer; only
 *    its close is queued), read, write, pwrite and fsync through the ring; getdents,
 *    readlink, link, set_times, ftruncate, fsetattr and syncfs with the plain system call
 *    (io_uring has no such operation, or none before 6.9); copy_file is the posix engine's.
 *  - a create whose chain does not fit the queue depth, or whose pattern is longer than
 *    URING_INLINE_MAX (the engine copies a queued create's pattern, so the caller's buffer
 *    may change after the call), runs step by step, each step waited for; its close is
 *    queued.
 *
 * Ordering rules: io_uring runs independent requests in any order, so the engine orders
 * whatever depends on earlier queued work by rules 1-5, documented and implemented in
 * uring_ring.c with the rings, op slots, submission and completion this file builds on.
 * Here: rule 3 in ur_getdents and ur_close, rule 4 in queue_nameop, rule 5 through
 * uring_barrier().
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
 */

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine/uring_ring.h"
#include "os/beneath.h"

/* Longest pattern a queued create copies; longer ones are written step by step. */
#define URING_INLINE_MAX (64u * 1024)
/* Largest single write (io_uring lengths are 32-bit). */
#define URING_CHUNK_MAX (1u << 30)

/* ---- operations ---- */

static int ur_open(struct eng_worker *w, int dirfd, const char *name, int flags, mode_t mode);
static int open_waited(struct eng_worker *w, int dirfd, const char *name, int flags, mode_t mode,
                       const struct open_how *how);

/* Beneath dirfd as os/beneath.h says, by IORING_OP_OPENAT2 with the same resolve flags as
 * os_open_beneath; ".." alone as a plain openat (the caller checks it). */
static int ur_opendir(struct eng_worker *w, int dirfd, const char *name)
{
    const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
    if (name[0] == '.' && name[1] == '.' && !name[2])
        return ur_open(w, dirfd, name, flags, 0);
    int kind = os_beneath_kind(name);
    if (kind < 0)
        return kind;
    struct open_how how = {
        .flags = (uint64_t)(flags | O_CLOEXEC),
        .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV |
                   (kind == OS_BENEATH_PATH ? RESOLVE_BENEATH : 0),
    };
    int r = open_waited(w, dirfd, name, flags, 0, &how);
    return r == -ENOTDIR ? -os_beneath_errno(dirfd, name, flags, ENOTDIR) : r;
}

static int ur_close(struct eng_worker *w, int fd)
{
    struct uring_worker *u = w->priv;
    uring_reap(u);
    if (uring_fd_refs(u, fd)) { /* rule 3 */
        if (u->fd[fd].closing)
            return -EBADF;
        u->fd[fd].closing = 1;
        u->fd[fd].t_close = meas_op_clock();
        u->fd[fd].close_st = w->st; /* counted where closed, not where it completes */
        return 0;
    }
    int r = uring_ops_get(u, 1);
    if (r < 0)
        return r;
    unsigned i = u->tmp[0];
    struct io_uring_sqe *sqe = uring_sqe_for(u, i, URING_R_SIMPLE, OP_CLOSE);
    io_uring_prep_close(sqe, fd);
    uring_sqe_done(sqe, i, 0);
    return uring_batch_maybe_submit(u);
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

static int queue_nameop(struct uring_worker *u, const struct nameop *a)
{
    uint64_t k1, k2 = 0;
    int r = uring_prologue(u, a->dirfd, a->name, &k1);
    if (r == 0 && a->name2)
        r = uring_prologue(u, a->dirfd2, a->name2, &k2);
    if (r == 0)
        r = uring_ops_get(u, 1);
    if (r < 0)
        return r;
    unsigned i = u->tmp[0];
    struct uring_op *o = &u->op[i];
    const char *s2 = a->name2 ? a->name2 : a->target;
    if (uring_name_set(&o->name[0], a->name) < 0 || (s2 && uring_name_set(&o->name[1], s2) < 0) ||
        uring_fd_ref(u, a->dirfd) < 0) {
        uring_op_free(u, i);
        return -ENOMEM;
    }
    o->fdref[0] = a->dirfd;
    if (a->name2) {
        if (uring_fd_ref(u, a->dirfd2) < 0) {
            uring_fd_unref(u, a->dirfd);
            uring_op_free(u, i);
            return -ENOMEM;
        }
        o->fdref[1] = a->dirfd2;
    }
    o->key[0] = k1;
    o->key[1] = k2;
    o->wild = uring_is_wild(a->name) || (a->name2 && uring_is_wild(a->name2));
    unsigned flags = 0;
    if (a->kind == OP_RMDIR && u->npending) /* rule 4 */
        flags |= IOSQE_IO_DRAIN;
    struct io_uring_sqe *sqe = uring_sqe_for(u, i, URING_R_SIMPLE, a->kind);
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
    uring_sqe_done(sqe, i, flags);
    return uring_batch_maybe_submit(u);
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

/* create_file step by step: openat waited, each write waited, close queued. */
static int create_steps(struct uring_worker *u, int dirfd, const char *name, int oflags,
                        mode_t mode, const unsigned char *data, size_t len, uint64_t size,
                        unsigned flags, uint64_t key)
{
    struct opstats *st = u->w->st;
    struct io_uring_sqe *sqe;
    uint64_t t0, t1;
    int f = uring_fs_get(u, name);
    if (f < 0)
        return f;
    int r = uring_ops_get(u, 1);
    if (r < 0) {
        uring_fs_release(u, f);
        return r;
    }
    unsigned i = uring_waited_op(u, OP_CREATE, &sqe);
    io_uring_prep_openat_direct(sqe, dirfd, name, oflags, mode, (unsigned)f);
    uring_sqe_done(sqe, i, 0);
    r = uring_run_waited(u, i, &t0, &t1);
    opstats_record(st, OP_CREATE, t0, t1, 0);
    if (r < 0) {
        uring_fs_release(u, f);
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
        if ((rc = uring_ops_get(u, 1)) < 0)
            break;
        i = uring_waited_op(u, OP_WRITE, &sqe);
        io_uring_prep_write(sqe, f, data + at, (unsigned)n, off);
        uring_sqe_done(sqe, i, IOSQE_FIXED_FILE);
        long wr = uring_run_waited(u, i, &t0, &t1);
        opstats_record(st, OP_WRITE, t0, t1, wr > 0 ? (uint64_t)wr : 0);
        if (wr < 0)
            rc = (int)wr;
        else if (wr == 0)
            rc = -EIO;
        else
            off += (uint64_t)wr;
    }
    if (rc == 0 && (flags & ENG_CREATE_FSYNC) && (rc = uring_ops_get(u, 1)) == 0) {
        i = uring_waited_op(u, OP_FSYNC, &sqe);
        io_uring_prep_fsync(sqe, f, 0);
        uring_sqe_done(sqe, i, IOSQE_FIXED_FILE);
        rc = uring_run_waited(u, i, &t0, &t1);
        opstats_record(st, OP_FSYNC, t0, t1, 0);
    }
    int rc2 = uring_queue_close_direct(u, f, key);
    return rc ? rc : rc2;
}

static int ur_create_file(struct eng_worker *w, int dirfd, const char *name, mode_t mode,
                          const void *data, size_t len, uint64_t size, unsigned flags)
{
    struct uring_worker *u = w->priv;
    uint64_t key;
    if (size > 0 && len == 0)
        return -EINVAL;
    int r = uring_prologue(u, dirfd, name, &key);
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

    int f = uring_fs_get(u, name);
    if (f < 0)
        return f;
    struct uring_fslot *fs = &u->fs[f];
    if (len > fs->cap) {
        unsigned char *p = realloc(fs->buf, len);
        if (!p) {
            uring_fs_release(u, f);
            return -ENOMEM;
        }
        fs->buf = p;
        fs->cap = len;
    }
    if ((r = uring_ops_get(u, (unsigned)need)) < 0) {
        uring_fs_release(u, f);
        return r;
    }
    if ((r = uring_fd_ref(u, dirfd)) < 0) {
        for (unsigned k = 0; k < need; k++)
            uring_op_free(u, u->tmp[k]);
        uring_fs_release(u, f);
        return r;
    }
    if (len)
        memcpy(fs->buf, data, len);
    const unsigned link = IOSQE_IO_LINK, fixed = IOSQE_FIXED_FILE | IOSQE_IO_LINK;
    unsigned k = 0, i = u->tmp[k++];
    u->op[i].fs = f;
    u->op[i].fdref[0] = dirfd;
    struct io_uring_sqe *sqe = uring_sqe_for(u, i, URING_R_CH_OPEN, OP_CREATE);
    io_uring_prep_openat_direct(sqe, dirfd, fs->name.p, oflags, mode, (unsigned)f);
    uring_sqe_done(sqe, i, link);
    for (uint64_t off = 0; off < size; off += chunk) {
        uint64_t n = size - off < chunk ? size - off : chunk;
        i = u->tmp[k++];
        u->op[i].fs = f;
        u->op[i].expect = (unsigned)n;
        sqe = uring_sqe_for(u, i, URING_R_CH_DATA, OP_WRITE);
        io_uring_prep_write(sqe, f, fs->buf, (unsigned)n, off);
        uring_sqe_done(sqe, i, fixed);
    }
    if (flags & ENG_CREATE_FSYNC) {
        i = u->tmp[k++];
        u->op[i].fs = f;
        sqe = uring_sqe_for(u, i, URING_R_CH_DATA, OP_FSYNC);
        io_uring_prep_fsync(sqe, f, 0);
        uring_sqe_done(sqe, i, fixed);
    }
    i = u->tmp[k++];
    u->op[i].fs = f;
    u->op[i].key[0] = key;
    sqe = uring_sqe_for(u, i, URING_R_CH_CLOSE, OP_CLOSE);
    io_uring_prep_close_direct(sqe, (unsigned)f);
    uring_sqe_done(sqe, i, 0);
    return uring_batch_maybe_submit(u);
}

static int ur_read_file(struct eng_worker *w, int dirfd, const char *name, void *buf,
                        size_t buflen, uint64_t *bytes)
{
    struct uring_worker *u = w->priv;
    struct opstats *st = w->st;
    struct io_uring_sqe *sqe;
    uint64_t key, t0, t1;
    unsigned n = buflen < URING_CHUNK_MAX ? (unsigned)buflen : URING_CHUNK_MAX;
    *bytes = 0;
    int r = uring_prologue(u, dirfd, name, &key);
    if (r < 0)
        return r;
    int f = uring_fs_get(u, name);
    if (f < 0)
        return f;
    const int oflags = O_RDONLY | O_NOFOLLOW;
    unsigned nchain = u->qd >= 3 ? 3 : 1;
    if ((r = uring_ops_get(u, nchain)) < 0) {
        uring_fs_release(u, f);
        return r;
    }
    unsigned io = u->tmp[0];
    sqe = uring_sqe_for(u, io, URING_R_WAITED, OP_OPEN);
    io_uring_prep_openat_direct(sqe, dirfd, name, oflags, 0, (unsigned)f);
    uring_sqe_done(sqe, io, nchain > 1 ? IOSQE_IO_HARDLINK : 0);
    unsigned ir[2];
    for (unsigned k = 1; k < nchain; k++) {
        ir[k - 1] = u->tmp[k];
        sqe = uring_sqe_for(u, ir[k - 1], URING_R_WAITED, OP_READ);
        io_uring_prep_read(sqe, f, buf, n, (uint64_t)-1);
        uring_sqe_done(sqe, ir[k - 1], IOSQE_FIXED_FILE | (k == 1 ? IOSQE_IO_HARDLINK : 0));
    }
    r = uring_run_waited(u, io, &t0, &t1);
    opstats_record(st, OP_OPEN, t0, t1, 0);
    /* The reads were linked after the open: wait for them even when it failed. */
    int rd[2] = {0, 0}, rc = r < 0 ? r : 0;
    uint64_t rt0[2] = {0, 0}, rt1[2] = {0, 0};
    for (unsigned k = 1; k < nchain; k++)
        rd[k - 1] = uring_run_waited(u, ir[k - 1], &rt0[k - 1], &rt1[k - 1]);
    if (r < 0) {
        uring_fs_release(u, f);
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
        if ((rc = uring_ops_get(u, 1)) < 0)
            break;
        unsigned i = uring_waited_op(u, OP_READ, &sqe);
        io_uring_prep_read(sqe, f, buf, n, (uint64_t)-1);
        uring_sqe_done(sqe, i, IOSQE_FIXED_FILE);
        int got = uring_run_waited(u, i, &t0, &t1);
        opstats_record(st, OP_READ, t0, t1, got > 0 ? (uint64_t)got : 0);
        if (got <= 0)
            rc = got;
        else
            *bytes += (uint64_t)got;
        more = got > 0;
    }
    int rc2 = uring_queue_close_direct(u, f, 0);
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
    struct uring_worker *u = w->priv;
    uint64_t key, t0, t1;
    struct statx x;
    int r = uring_prologue(u, dirfd, name, &key);
    if (r == 0)
        r = uring_ops_get(u, 1);
    if (r < 0)
        return r;
    unsigned i = u->tmp[0];
    struct io_uring_sqe *sqe = uring_sqe_for(u, i, URING_R_WAITED, OP_STAT);
    io_uring_prep_statx(sqe, dirfd, name, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &x);
    uring_sqe_done(sqe, i, 0);
    r = uring_run_waited(u, i, &t0, &t1);
    opstats_record(w->st, OP_STAT, t0, t1, 0);
    if (r == 0)
        statx_to_stat(&x, st);
    return r;
}

static int ur_getdents(struct eng_worker *w, int dirfd, void *buf, size_t len)
{
    struct uring_worker *u = w->priv;
    int r = uring_enter(u);
    while (r == 0 && uring_fd_refs(u, dirfd)) /* rule 3 */
        r = uring_reap_wait(u);
    if (r == 0)
        r = uring_take_err(u);
    if (r < 0)
        return r;
    uint64_t t0 = meas_op_clock();
    long n = syscall(SYS_getdents64, dirfd, buf, len);
    int e = n < 0 ? -errno : 0;
    opstats_record(w->st, OP_READDIR, t0, meas_op_clock(), 0);
    return n < 0 ? e : (int)n;
}

static int ur_readlink(struct eng_worker *w, int dirfd, const char *name, char *buf, size_t len)
{
    struct uring_worker *u = w->priv;
    uint64_t key;
    if (len < 2)
        return -EINVAL;
    int r = uring_prologue(u, dirfd, name, &key);
    if (r < 0)
        return r;
    uint64_t t0 = meas_op_clock();
    long n = readlinkat(dirfd, name, buf, len - 1);
    int e = n < 0 ? -errno : 0;
    opstats_record(w->st, OP_READLINK, t0, meas_op_clock(), 0);
    if (n < 0)
        return e;
    if ((size_t)n >= len - 1)
        return -ENAMETOOLONG;
    buf[n] = '\0';
    return (int)n;
}

static int ur_link(struct eng_worker *w, int odir, const char *oname, int ndir, const char *nname)
{
    struct uring_worker *u = w->priv;
    uint64_t k;
    int r = uring_prologue(u, odir, oname, &k);
    if (r == 0)
        r = uring_prologue(u, ndir, nname, &k);
    if (r < 0)
        return r;
    uint64_t t0 = meas_op_clock();
    long l = linkat(odir, oname, ndir, nname, 0);
    int e = l < 0 ? -errno : 0;
    opstats_record(w->st, OP_LINK, t0, meas_op_clock(), 0);
    return e;
}

static int ur_copy_file(struct eng_worker *w, int sdirfd, const char *sname, int ddirfd,
                        const char *dname, mode_t mode, const struct timespec times[2],
                        void *buf, size_t buflen, uint64_t *bytes)
{
    struct uring_worker *u = w->priv;
    uint64_t k;
    *bytes = 0;
    int r = uring_prologue(u, sdirfd, sname, &k);
    if (r == 0)
        r = uring_prologue(u, ddirfd, dname, &k);
    if (r < 0)
        return r;
    return engine_posix.copy_file(w, sdirfd, sname, ddirfd, dname, mode, times, buf, buflen,
                                  bytes);
}

static int ur_set_times(struct eng_worker *w, int dirfd, const char *name,
                        const struct timespec times[2])
{
    int r = uring_barrier(w->priv);
    if (r < 0)
        return r;
    uint64_t t0 = meas_op_clock();
    long s = utimensat(dirfd, name, times, AT_SYMLINK_NOFOLLOW);
    int e = s < 0 ? -errno : 0;
    opstats_record(w->st, OP_SETATTR, t0, meas_op_clock(), 0);
    return e;
}

static int ur_fsync(struct eng_worker *w, int fd)
{
    struct uring_worker *u = w->priv;
    uint64_t t0, t1;
    int r = uring_barrier(u);
    if (r == 0)
        r = uring_ops_get(u, 1);
    if (r < 0)
        return r;
    unsigned i = u->tmp[0];
    struct io_uring_sqe *sqe = uring_sqe_for(u, i, URING_R_WAITED, OP_FSYNC);
    io_uring_prep_fsync(sqe, fd, 0);
    uring_sqe_done(sqe, i, 0);
    r = uring_run_waited(u, i, &t0, &t1);
    opstats_record(w->st, OP_FSYNC, t0, t1, 0);
    return r;
}

static int ur_syncfs(struct eng_worker *w, int fd)
{
    int r = uring_barrier(w->priv);
    if (r < 0)
        return r;
    uint64_t t0 = meas_op_clock();
    long s = syncfs(fd);
    int e = s < 0 ? -errno : 0;
    opstats_record(w->st, OP_SYNCFS, t0, meas_op_clock(), 0);
    return e;
}

static int ur_open(struct eng_worker *w, int dirfd, const char *name, int flags, mode_t mode)
{
    return open_waited(w, dirfd, name, flags, mode, NULL);
}

/* openat (how NULL) or openat2 through the ring, waited for. */
static int open_waited(struct eng_worker *w, int dirfd, const char *name, int flags, mode_t mode,
                       const struct open_how *how)
{
    struct uring_worker *u = w->priv;
    uint64_t key, t0, t1;
    int r = uring_prologue(u, dirfd, name, &key);
    if (r == 0)
        r = uring_ops_get(u, 1);
    if (r < 0)
        return r;
    int kind = (flags & O_CREAT) ? OP_CREATE : OP_OPEN;
    unsigned i = u->tmp[0];
    struct io_uring_sqe *sqe = uring_sqe_for(u, i, URING_R_WAITED, kind);
    if (how)
        io_uring_prep_openat2(sqe, dirfd, name, (struct open_how *)how);
    else
        io_uring_prep_openat(sqe, dirfd, name, flags | O_CLOEXEC, mode);
    uring_sqe_done(sqe, i, 0);
    r = uring_run_waited(u, i, &t0, &t1);
    opstats_record(w->st, kind, t0, t1, 0);
    return r;
}

/* One read or write of a user fd through the ring, waited for. */
static long rw_waited(struct eng_worker *w, int kind, int fd, void *buf, size_t len,
                      uint64_t off)
{
    struct uring_worker *u = w->priv;
    uint64_t t0, t1;
    int r = uring_enter(u);
    if (r == 0)
        r = uring_ops_get(u, 1);
    if (r < 0)
        return r;
    unsigned n = len < URING_CHUNK_MAX ? (unsigned)len : URING_CHUNK_MAX;
    unsigned i = u->tmp[0];
    struct io_uring_sqe *sqe = uring_sqe_for(u, i, URING_R_WAITED, kind);
    if (kind == OP_READ)
        io_uring_prep_read(sqe, fd, buf, n, off);
    else
        io_uring_prep_write(sqe, fd, buf, n, off);
    uring_sqe_done(sqe, i, 0);
    r = uring_run_waited(u, i, &t0, &t1);
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
    int r = uring_enter(w->priv);
    if (r < 0)
        return r;
    uint64_t t0 = meas_op_clock();
    long s = ftruncate(fd, (off_t)len);
    int e = s < 0 ? -errno : 0;
    opstats_record(w->st, OP_SETATTR, t0, meas_op_clock(), 0);
    return e;
}

static int ur_fsetattr(struct eng_worker *w, int fd, mode_t mode, const struct timespec times[2])
{
    int r = uring_enter(w->priv);
    if (r < 0)
        return r;
    if (mode != (mode_t)-1) {
        uint64_t t0 = meas_op_clock();
        long s = fchmod(fd, mode);
        int e = s < 0 ? -errno : 0;
        opstats_record(w->st, OP_SETATTR, t0, meas_op_clock(), 0);
        if (e)
            return e;
    }
    if (times) {
        uint64_t t0 = meas_op_clock();
        long s = futimens(fd, times);
        int e = s < 0 ? -errno : 0;
        opstats_record(w->st, OP_SETATTR, t0, meas_op_clock(), 0);
        return e;
    }
    return 0;
}

/* The metadata calls of tar -x: io_uring has no such operations, so each is the plain
 * system call once what is queued is submitted (the entry it acts on exists: a barrier
 * for a name, as set_times, an enter for an open fd, as fsetattr). */
static int ur_sync_result(struct eng_worker *w, uint64_t t0, long s)
{
    int e = s < 0 ? -errno : 0;
    opstats_record(w->st, OP_SETATTR, t0, meas_op_clock(), 0);
    return e;
}

static int ur_futimens(struct eng_worker *w, int fd, const struct timespec times[2])
{
    int r = uring_enter(w->priv);
    if (r < 0)
        return r;
    uint64_t t0 = meas_op_clock();
    return ur_sync_result(w, t0, futimens(fd, times));
}

static int ur_fchown(struct eng_worker *w, int fd, uid_t uid, gid_t gid)
{
    int r = uring_enter(w->priv);
    if (r < 0)
        return r;
    uint64_t t0 = meas_op_clock();
    return ur_sync_result(w, t0, fchown(fd, uid, gid));
}

static int ur_fchmod(struct eng_worker *w, int fd, mode_t mode)
{
    int r = uring_enter(w->priv);
    if (r < 0)
        return r;
    uint64_t t0 = meas_op_clock();
    return ur_sync_result(w, t0, fchmod(fd, mode));
}

static int ur_lchown(struct eng_worker *w, int dirfd, const char *name, uid_t uid, gid_t gid)
{
    int r = uring_barrier(w->priv);
    if (r < 0)
        return r;
    uint64_t t0 = meas_op_clock();
    return ur_sync_result(w, t0, fchownat(dirfd, name, uid, gid, AT_SYMLINK_NOFOLLOW));
}

static int ur_drain(struct eng_worker *w)
{
    return uring_barrier(w->priv);
}

const struct engine engine_uring = {
    .name = "uring",
    .desc = "io_uring: queued operations submitted in batches, linked create chains",
    .caps = ENG_CAP_REAL | ENG_CAP_ASYNC | ENG_CAP_COPY_OFFLOAD, /* posix's copy_file */
    .available = uring_available,
    .worker_init = uring_worker_init,
    .worker_fini = uring_worker_fini,
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
    .futimens = ur_futimens,
    .fchown = ur_fchown,
    .fchmod = ur_fchmod,
    .lchown = ur_lchown,
    .drain = ur_drain,
};
