/* replay_exec.c — one replayed call against the file system, timed and compared with the
 * recorded result (replay_internal.h).
 *
 * Paths: the name a call acts on is acted on in its parent directory's descriptor, which
 * is opened beneath the root with no symlink followed, no ".." and no mount point crossed
 * (os_open_beneath), and kept in a small per-thread cache keyed by the directory's path.
 * A rename or rmdir by any replay thread publishes the path it changed; every thread drops
 * the cached directories at or below it before its next call by path, so a cached
 * descriptor always names the directory the trace's path names now. Opening a parent is
 * the replay's bookkeeping: its time is in the phase's wall time, but it is not counted
 * among the phase's operations, which are the trace's calls one for one.
 *
 * Descriptors: a slot maps to the descriptor the replay opened for it. Data written is
 * the pattern; data read lands in the thread's buffer. A call the recorded program made
 * through a symlink fails here with ELOOP, and is counted as diverged.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hash.h"
#include "measure/measure.h"
#include "os/beneath.h"
#include "os/dirent.h"
#include "os/rawsys.h"
#include "os/replaysys.h"
#include "phase/replay_internal.h"

/* ---- the directory cache ---- */

static uint64_t key_hash(const char *s, size_t n)
{
    return hash_fnv1a(s, n);
}

static void cache_drop(struct rp_dircache_ent *e)
{
    if (e->fd >= 0)
        close(e->fd);
    free(e->path);
    e->path = NULL;
    e->fd = -1;
    e->hash = 0;
}

void rp_exec_done(struct rp_thread *me)
{
    for (int i = 0; i < RP_DIRCACHE; i++)
        if (me->cache[i].path)
            cache_drop(&me->cache[i]);
}

/* Drops the cached directories at or below what other threads (or this one) renamed or
 * removed since this thread last looked. */
static void cache_sync(struct rp_thread *me)
{
    struct replay *rp = me->rp;
    uint64_t gen = atomic_load_explicit(&rp->gen, memory_order_acquire);
    if (gen == me->gen_seen)
        return;
    pthread_mutex_lock(&rp->inval_mu);
    gen = atomic_load_explicit(&rp->gen, memory_order_relaxed);
    if (gen - me->gen_seen > RP_INVAL_RING) {
        rp_exec_done(me);
    } else {
        for (uint64_t g = me->gen_seen + 1; g <= gen; g++) {
            const char *p = rp->inval[g % RP_INVAL_RING];
            size_t n = p ? strlen(p) : 0;
            for (int i = 0; p && i < RP_DIRCACHE; i++) {
                struct rp_dircache_ent *e = &me->cache[i];
                if (e->path && e->len >= n && !memcmp(e->path, p, n) &&
                    (e->len == n || e->path[n] == '/' || (n == 1 && p[0] == '.')))
                    cache_drop(e);
            }
        }
    }
    me->gen_seen = gen;
    pthread_mutex_unlock(&rp->inval_mu);
}

/* Tells every thread that path (a directory, perhaps) was renamed or removed. */
static void publish(struct replay *rp, const char *path, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, path, n);
        c[n] = '\0';
    }
    pthread_mutex_lock(&rp->inval_mu);
    uint64_t g = atomic_load_explicit(&rp->gen, memory_order_relaxed) + 1;
    free(rp->inval[g % RP_INVAL_RING]);
    /* without memory the ring slot stays empty: a "." entry drops every cache */
    rp->inval[g % RP_INVAL_RING] = c ? c : NULL;
    if (!c)
        g += RP_INVAL_RING; /* more than the ring: every thread flushes */
    atomic_store_explicit(&rp->gen, g, memory_order_release);
    pthread_mutex_unlock(&rp->inval_mu);
}

/* The descriptor of path's parent directory (the root for a name in it), and in *name the
 * last component. A descriptor >= 0, or -errno (the parent cannot be opened). A lookup
 * past the last call's directory stamps *tp (when not stamped yet) as it starts: a call
 * whose parent cannot be had is timed from there, and the common case reads no clock. */
static int parent_fd(struct rp_thread *me, const char *path, uint32_t len, const char **name,
                     uint64_t *tp)
{
    uint32_t k = len;
    while (k > 0 && path[k - 1] != '/')
        k--;
    *name = path + k;
    if (k == 0)
        return me->rp->root;
    uint32_t plen = k - 1;
    /* the directory of the last call, most of the time (tar, cp, rm work a directory at a
     * time): checked first, by its name alone (no hash) */
    struct rp_dircache_ent *m = &me->cache[me->mru];
    if (m->path && m->len == plen && !memcmp(m->path, path, plen))
        return m->fd;
    if (!*tp)
        *tp = meas_op_clock();
    uint64_t h = key_hash(path, plen);
    struct rp_dircache_ent *victim = &me->cache[0];
    for (int i = 0; i < RP_DIRCACHE; i++) {
        struct rp_dircache_ent *e = &me->cache[i];
        if (e->path && e->hash == h && e->len == plen && !memcmp(e->path, path, plen)) {
            e->used = ++me->cache_clock;
            me->mru = (unsigned)i;
            return e->fd;
        }
        if (victim->path && (!e->path || e->used < victim->used))
            victim = e;
    }
    char dir[TRACE_PATH_MAX];
    memcpy(dir, path, plen);
    dir[plen] = '\0';
    int fd = os_open_beneath(me->rp->root, dir, O_RDONLY | O_DIRECTORY, 0);
    if (fd < 0)
        return -errno;
    char *copy = malloc(plen + 1);
    if (!copy) /* used once, not kept: the caller closes nothing, so keep it in a slot */
        return close(fd), -ENOMEM;
    memcpy(copy, dir, plen + 1);
    if (victim->path)
        cache_drop(victim);
    *victim = (struct rp_dircache_ent){.path = copy, .len = plen, .hash = h,
                                       .used = ++me->cache_clock, .fd = fd};
    me->mru = (unsigned)(victim - me->cache);
    return fd;
}

/* ---- results ---- */

static void describe(char *out, size_t len, long v, enum trace_result rk)
{
    if (v < 0)
        snprintf(out, len, "%s", trace_err_name(trace_err_from_errno((int)-v)));
    else if (rk == TR_COUNT)
        snprintf(out, len, "%ld byte%s", v, v == 1 ? "" : "s");
    else if (rk == TR_SLOT)
        snprintf(out, len, "a descriptor");
    else
        snprintf(out, len, "%ld", v);
}

/* Whether the result got (a value or -errno) is the recorded one. */
static inline bool same_result(const struct rp_call *c, long got)
{
    int64_t want = c->result;
    if (want < 0)
        return got < 0 && trace_err_from_errno((int)-got) == (enum trace_err)-want;
    if (got < 0)
        return false;
    if (c->kind == TK_GETDENTS) /* entries' layout differs: only "more" or "the end" */
        return (got == 0) == (want == 0);
    if (c->rk == TR_COUNT || c->rk == TR_OFFSET)
        return got == want;
    return true;
}

/* Counts a call whose result differs from the recorded one, and says the first. */
static void diverged(struct rp_thread *me, const struct rp_call *c, const char *base, long got)
{
    enum trace_result rk = (enum trace_result)c->rk;
    int64_t want = c->result;
    me->diverged[c->kind]++;
    if (me->first.seq && me->first.seq < c->seq)
        return;
    me->first.seq = c->seq;
    char g[48], w[48], where[TRACE_PATH_MAX + 64];
    describe(g, sizeof g, got, rk);
    if (want < 0)
        snprintf(w, sizeof w, "%s", trace_err_name((unsigned)-want));
    else
        describe(w, sizeof w, (long)want, rk);
    if (c->path != UINT32_MAX)
        snprintf(where, sizeof where, "%s", base + c->path);
    else
        snprintf(where, sizeof where, "on descriptor slot %u", c->slot);
    snprintf(me->first.text, sizeof me->first.text, "%s %s: %s, recorded %s",
             trace_kind_name(c->kind), where, g, w);
}

/* ---- calls ---- */

static int fd_of(const struct rp_thread *me, uint32_t slot)
{
    if (slot >= me->rp->nslots)
        return -1;
    return atomic_load_explicit(&me->rp->slots[slot], memory_order_relaxed);
}

/* Maps a new descriptor to slot s (closing one it held, should a bad trace reuse it). */
static void set_slot(struct rp_thread *me, int64_t s, int fd)
{
    if (s < 0 || (uint64_t)s >= me->rp->nslots) {
        close(fd);
        return;
    }
    int old = atomic_exchange_explicit(&me->rp->slots[s], fd, memory_order_relaxed);
    if (old >= 0)
        raw_close(old);
}

static int open_flags(uint32_t f)
{
    static const int acc[] = {O_RDONLY, O_WRONLY, O_RDWR, O_RDWR};
    int o = acc[f & TRO_ACCMODE] | O_NOFOLLOW | O_CLOEXEC;
    if (f & TRO_CREAT)
        o |= O_CREAT;
    if (f & TRO_EXCL)
        o |= O_EXCL;
    if (f & TRO_TRUNC)
        o |= O_TRUNC;
    if (f & TRO_APPEND)
        o |= O_APPEND;
    if (f & TRO_DIRECTORY)
        o |= O_DIRECTORY;
    if (f & TRO_SYNC)
        o |= O_SYNC;
    if (f & TRO_DSYNC)
        o |= O_DSYNC;
    if (f & TRO_NONBLOCK)
        o |= O_NONBLOCK;
    unsigned extra = ((f & TRO_DIRECT) ? OS_OPEN_DIRECT : 0) |
                     ((f & TRO_NOATIME) ? OS_OPEN_NOATIME : 0) |
                     ((f & TRO_PATH) ? OS_OPEN_PATH : 0) |
                     ((f & TRO_TMPFILE) ? OS_OPEN_TMPFILE : 0);
    int x = os_open_flags(extra);
    if (x < 0)
        return -1;
    if (f & TRO_TMPFILE) /* O_TMPFILE takes no O_CREAT and carries O_DIRECTORY itself */
        o &= ~(O_CREAT | O_DIRECTORY | O_NOFOLLOW);
    return o | x;
}

/* Reads up to n bytes (in pieces of the buffer when larger): total, or -errno. */
static long do_read(struct rp_thread *me, int fd, uint64_t n, const uint64_t *off)
{
    uint64_t total = 0;
    do {
        size_t k = n - total < me->rbuf_len ? (size_t)(n - total) : me->rbuf_len;
        long r = off ? raw_pread(fd, me->rbuf, k, (off_t)(*off + total))
                     : raw_read(fd, me->rbuf, k);
        if (r < 0)
            return total ? (long)total : -errno;
        total += (uint64_t)r;
        if ((size_t)r < k)
            break;
    } while (total < n);
    return (long)total;
}

static long do_write(struct rp_thread *me, int fd, uint64_t n, const uint64_t *off)
{
    uint64_t total = 0;
    const struct replay *rp = me->rp;
    do {
        size_t k = n - total < rp->wbuf_len ? (size_t)(n - total) : rp->wbuf_len;
        long r = off ? raw_pwrite(fd, rp->wbuf, k, (off_t)(*off + total))
                     : raw_write(fd, rp->wbuf, k);
        if (r < 0)
            return total ? (long)total : -errno;
        total += (uint64_t)r;
        if ((size_t)r < k)
            break;
    } while (total < n);
    return (long)total;
}

/* The mapped range read (and, when dirty, written back) through the thread's buffer: what
 * a map stands for where the range cannot be mapped. The bytes read, or -errno. */
static long mapped_by_reads(struct rp_thread *me, int fd, uint64_t off, uint64_t n, bool dirty)
{
    uint64_t done = 0;
    while (done < n) {
        size_t k = n - done < me->rbuf_len ? (size_t)(n - done) : me->rbuf_len;
        long r = raw_pread(fd, me->rbuf, k, (off_t)(off + done));
        if (r <= 0)
            return r < 0 ? -errno : (long)done;
        if (dirty && raw_pwrite(fd, me->rbuf, (size_t)r, (off_t)(off + done)) < 0)
            return -errno;
        done += (uint64_t)r;
    }
    return (long)done;
}

/* A map of a file (TK_MMAP), replayed as the work it stands for: the range (up to the
 * file's end) mapped with every page faulted in, and unmapped, as the program's map, its
 * touches and its munmap made the kernel do (on this machine 30 us a small map more than a
 * read of it: cvs's 5,000 maps are a third of its CPU time); written back once from the map
 * when it was shared and writable (what msync or writeback of dirtied pages does). The
 * trace holds no page the program touched: each is taken as touched once. Where the range
 * cannot be mapped, it is read instead. The bytes mapped, or -errno. */
static long do_mapped(struct rp_thread *me, int fd, const struct rp_call *c)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return -errno;
    uint64_t size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    if (c->off >= size)
        return 0;
    uint64_t n = size - c->off < c->size ? size - c->off : c->size;
    bool dirty = (c->flags & TRM_WRITE) && (c->flags & TRM_SHARED);
    const unsigned char *m = n <= SIZE_MAX ? os_map_populated(fd, c->off, (size_t)n) : NULL;
    if (!m)
        return mapped_by_reads(me, fd, c->off, n, dirty);
    long r = (long)n;
    for (uint64_t done = 0; dirty && done < n;) {
        size_t k = n - done < me->rbuf_len ? (size_t)(n - done) : me->rbuf_len;
        long w = raw_pwrite(fd, m + done, k, (off_t)(c->off + done));
        if (w <= 0) {
            r = w < 0 ? -errno : -EIO;
            break;
        }
        done += (uint64_t)w;
    }
    os_unmap((void *)m, (size_t)n);
    return r;
}

static const struct timespec fixed_times[2] = {{1577836800, 0}, {1577836800, 0}}; /* 2020 */

/* A system call's return as a result: the value, or -errno. */
static inline long R(long x)
{
    return x < 0 ? -(long)errno : x;
}

/* A call by path; *bytes gets what it moved. The result, or -errno. */
static long path_call(struct rp_thread *me, const struct rp_call *c, const char *path,
                      const char *path2, uint64_t *t0)
{
    const char *name;
    uint64_t tp = 0; /* stamped by a lookup of a parent that is not the last call's */
    int pfd = parent_fd(me, path, c->path_len, &name, &tp);
    if (pfd < 0) {
        /* the path walk failed, as the kernel's would have for the program: issued */
        *t0 = tp;
        return pfd;
    }
    switch (c->kind) {
    case TK_OPEN: {
        int flags = open_flags(c->flags);
        if (flags < 0)
            return -EINVAL;
        *t0 = meas_op_clock();
        long fd = raw_openat(pfd, name, flags, c->mode);
        if (fd < 0)
            return -errno;
        if (c->result >= 0)
            set_slot(me, c->result, (int)fd);
        else
            raw_close((int)fd); /* it failed when recorded: nothing refers to it */
        return c->result >= 0 ? c->result : 0;
    }
    case TK_STAT:
    case TK_ACCESS: { /* access is a lookup of the name, as stat is */
        struct stat st;
        *t0 = meas_op_clock();
        return R(fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW));
    }
    case TK_STATFS: *t0 = meas_op_clock(); return R(os_fstatfs_any(pfd));
    case TK_MKDIR: *t0 = meas_op_clock(); return R(mkdirat(pfd, name, c->mode));
    case TK_RMDIR: {
        *t0 = meas_op_clock();
        long r = R(unlinkat(pfd, name, AT_REMOVEDIR));
        if (r == 0)
            publish(me->rp, path, c->path_len);
        return r;
    }
    case TK_UNLINK: *t0 = meas_op_clock(); return R(unlinkat(pfd, name, 0));
    case TK_RENAME:
    case TK_LINK: {
        /* the second path's parent may be the same cached directory as the first's */
        const char *name2;
        int pfd2 = parent_fd(me, path2, c->path2_len, &name2, &tp);
        /* a miss on the second may have evicted the first: look it up again */
        if (pfd2 >= 0)
            pfd = parent_fd(me, path, c->path_len, &name, &tp);
        if (pfd2 < 0 || pfd < 0) {
            *t0 = tp;
            return pfd2 < 0 ? pfd2 : pfd;
        }
        *t0 = meas_op_clock();
        long r = c->kind == TK_LINK ? R(linkat(pfd, name, pfd2, name2, 0))
                                    : R(os_renameat_flags(pfd, name, pfd2, name2, c->flags));
        if (r == 0 && c->kind == TK_RENAME) {
            publish(me->rp, path, c->path_len);
            publish(me->rp, path2, c->path2_len);
        }
        return r;
    }
    case TK_SYMLINK: *t0 = meas_op_clock(); return R(symlinkat(path2, pfd, name));
    case TK_READLINK: {
        size_t n = c->size < me->rbuf_len ? (size_t)c->size : me->rbuf_len;
        *t0 = meas_op_clock();
        return R(readlinkat(pfd, name, me->rbuf, n));
    }
    case TK_CHMOD: *t0 = meas_op_clock(); return R(os_fchmodat_nofollow(pfd, name, c->mode));
    case TK_CHOWN:
        *t0 = meas_op_clock();
        return R(fchownat(pfd, name, (uid_t)-1, (gid_t)-1, AT_SYMLINK_NOFOLLOW));
    case TK_UTIMENS:
        *t0 = meas_op_clock();
        return R(utimensat(pfd, name, (c->flags & TRU_TIMES) ? fixed_times : NULL,
                           AT_SYMLINK_NOFOLLOW));
    case TK_TRUNCATE: {
        /* truncate(2) follows a symlink: the name is opened without following instead */
        *t0 = meas_op_clock();
        long fd = raw_openat(pfd, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0);
        if (fd < 0)
            return -errno;
        long r = R(ftruncate((int)fd, (off_t)c->size));
        raw_close((int)fd);
        return r;
    }
    default: return -ENOSYS;
    }
}

/* A call on descriptors. */
static long fd_call(struct rp_thread *me, const struct rp_call *c, uint64_t *t0)
{
    int fd = fd_of(me, c->slot);
    if (fd < 0)
        return -EBADF; /* its open diverged: nothing to act on (not issued) */
    *t0 = meas_op_clock();
    switch (c->kind) {
    case TK_CLOSE: {
        int old = atomic_exchange_explicit(&me->rp->slots[c->slot], -1, memory_order_relaxed);
        return R(raw_close(old));
    }
    case TK_READ: return do_read(me, fd, c->size, NULL);
    case TK_PREAD: return do_read(me, fd, c->size, &c->off);
    case TK_WRITE: return do_write(me, fd, c->size, NULL);
    case TK_PWRITE: return do_write(me, fd, c->size, &c->off);
    case TK_LSEEK: {
        int w = os_seek_whence(c->flags);
        if (w < 0)
            return -EINVAL;
        off_t r = lseek(fd, (off_t)c->soff, w);
        return r < 0 ? -errno : (long)r;
    }
    case TK_GETDENTS: {
        size_t n = c->size < me->rbuf_len ? (size_t)c->size : me->rbuf_len;
        if (n < 512)
            n = me->rbuf_len < 512 ? me->rbuf_len : 512;
        return R(os_getdents(fd, me->rbuf, n));
    }
    case TK_FSYNC: return R(raw_fsync(fd));
    case TK_FDATASYNC: return R(fdatasync(fd));
    case TK_SYNC_RANGE: return R(os_sync_range(fd, (int64_t)c->off, (int64_t)c->size, c->flags));
    case TK_FALLOCATE: {
        if (c->flags & TRF_OTHER)
            return R(os_fallocate(fd, 0, (int64_t)c->off, (int64_t)c->size));
        unsigned m = ((c->flags & TRF_KEEP_SIZE) ? OS_FALLOC_KEEP_SIZE : 0) |
                     ((c->flags & TRF_PUNCH_HOLE) ? OS_FALLOC_PUNCH_HOLE : 0) |
                     ((c->flags & TRF_ZERO_RANGE) ? OS_FALLOC_ZERO_RANGE : 0);
        return R(os_fallocate(fd, m, (int64_t)c->off, (int64_t)c->size));
    }
    case TK_FTRUNCATE: return R(ftruncate(fd, (off_t)c->size));
    case TK_FSTAT: {
        struct stat st;
        return R(fstat(fd, &st));
    }
    case TK_FSTATFS: return R(os_fstatfs_any(fd));
    case TK_FCHMOD: return R(fchmod(fd, c->mode));
    case TK_FCHOWN: return R(fchown(fd, (uid_t)-1, (gid_t)-1));
    case TK_FUTIMENS: return R(futimens(fd, (c->flags & TRU_TIMES) ? fixed_times : NULL));
    case TK_DUP:
    case TK_INHERIT: {
        long r = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        if (r < 0)
            return -errno;
        if (c->result >= 0)
            set_slot(me, c->result, (int)r);
        else
            close((int)r);
        return c->result >= 0 ? c->result : 0;
    }
    case TK_SETFL: {
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0)
            return -errno;
        fl &= ~(O_APPEND | O_NONBLOCK);
        if (c->flags & TRO_APPEND)
            fl |= O_APPEND;
        if (c->flags & TRO_NONBLOCK)
            fl |= O_NONBLOCK;
        int x = os_open_flags(((c->flags & TRO_DIRECT) ? OS_OPEN_DIRECT : 0) |
                              ((c->flags & TRO_NOATIME) ? OS_OPEN_NOATIME : 0));
        return R(fcntl(fd, F_SETFL, fl | (x > 0 ? x : 0)));
    }
    case TK_SYNCFS: return R(raw_syncfs(fd));
    case TK_MMAP: return do_mapped(me, fd, c);
    case TK_COPY: {
        int out = fd_of(me, c->slot2);
        if (out < 0)
            return -EBADF;
        int64_t a = (int64_t)c->off, b = (int64_t)c->off2;
        return R(os_copy_range(fd, (c->flags & TRC_IN_OFF) ? &a : NULL, out,
                               (c->flags & TRC_OUT_OFF) ? &b : NULL, c->size, me->rbuf,
                               me->rbuf_len));
    }
    case TK_DROP: {
        int old = atomic_exchange_explicit(&me->rp->slots[c->slot], -1, memory_order_relaxed);
        return R(raw_close(old));
    }
    default: return -ENOSYS;
    }
}

void rp_exec(struct rp_thread *me, const struct rp_call *c, const char *base)
{
    struct replay *rp = me->rp;
    bool call = c->kind < TK_CALL_KINDS;
    if (!call && c->kind != TK_INHERIT && c->kind != TK_DROP)
        return; /* spawn, exit: bookkeeping of the dispatcher and timing */
    enum op_kind ok = (enum op_kind)c->opk;
    if (!rp->real) {
        /* the null engine: the harness alone, every call counted, none made */
        if (call) {
            uint64_t t = meas_op_clock();
            opstats_record(me->t.w->st, ok, t, t, 0);
            me->issued[c->kind]++;
        }
        return;
    }
    uint64_t t0 = 0;
    long got;
    if (c->path != UINT32_MAX) {
        cache_sync(me);
        got = path_call(me, c, base + c->path, c->path2 != UINT32_MAX ? base + c->path2 : NULL,
                        &t0);
    } else if (c->kind == TK_SYNC) {
        t0 = meas_op_clock();
        sync();
        got = 0;
    } else {
        got = fd_call(me, c, &t0);
    }
    if (!call)
        return; /* inherit, drop: the replay's bookkeeping, not the program's calls */
    if (t0) { /* issued (else its descriptor or directory could not be had) */
        uint64_t bytes = got > 0 && (ok == OP_READ || ok == OP_WRITE || ok == OP_COPY)
                             ? (uint64_t)got
                             : 0;
        opstats_record(me->t.w->st, ok, t0, meas_op_clock(), bytes);
        me->issued[c->kind]++;
    }
    if (!same_result(c, got))
        diverged(me, c, base, got);
}
