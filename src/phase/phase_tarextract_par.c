/* phase_tarextract_par.c — the extract phase for an indexed archive (tarindex.h), on
 * phase_threads(ctx) threads; the same code with one thread for -j1, so counts and
 * operations by kind are the same for any -j.
 *
 * The calls on each entry are tar -x's or create only (tarcalls.h); their order across
 * entries is not tar's (phase_extract_tar streams an archive on one thread for that).
 * 1. The calling thread makes every directory, in index order (parents first): mkdir of
 *    its name in its parent's fd, which a cursor of open directories gives (longpath.h;
 *    tarcalls_dir_mode when the archive lists it, 0777 less the umask for a parent it does
 *    not list, as the streaming extraction does).
 * 2. All threads take work units (the files and symlinks of one directory, or of a chunk of
 *    a huge one; largest first) from an atomic counter: open the directory, then for each
 *    entry open(O_CREAT|O_EXCL) + write + tar's times, owner and mode + close (symlink +
 *    times + owner), then close it. No unit waits for another: every parent exists already, hard links come later, and
 *    no name is made twice (else the archive is not indexed), so the order across units
 *    cannot change the result.
 * 3. (tar's calls only) With no hard link, a directory's mode and times are set as soon as its last unit and
 *    its last subdirectory are done (an atomic count of what is pending, so deepest first,
 *    by whichever thread finishes last). With hard links, the calling thread makes them
 *    after step 2, in archive order (their targets all exist by then), and then sets every
 *    directory's mode and times deepest first, as the streaming extraction does.
 * Refusals were decided by tarindex's pass: they are warned about first, in archive order.
 * Directories are opened by their path below the root resolved beneath it, with no symlink
 * followed (engine.h), and entries made by their last name in that fd: a directory swapped
 * for a symlink while the phase runs fails the phase naming it, and nothing is written
 * through it.
 *
 * Units are directories, not subtrees below a split depth as in the synthetic extract: an
 * archive of one flat directory (fs_mark's 10,400 files) still spreads over every thread,
 * units are small so largest-first balances well, and the unit list depends on the archive
 * only. The price is step 1 on one thread: 5,096 mkdirs, 30 to 50 ms of the Linux tarball's
 * 0.9 s at -j2 on tmpfs.
 *
 * File data is read from the archive file with pread into the thread's own buffer and
 * written from there (write; pwrite after a hole; ftruncate for a trailing hole). Writing
 * straight from a read-only mapping of the archive, populated (MAP_POPULATE) before the
 * clock, was measured slower: linux-source-6.1 (1.36 GB .tar, 78,579 files) on tmpfs, 2
 * CPUs, medians of 5 interleaved runs: pread 1.62 s at -j1 and 1.04 s at -j2, mapping
 * 1.95 s and 1.28 s (MAP_PRIVATE: 2.05 s and 1.44 s over 3 runs), on a VM whose paging
 * makes the first touch of a mapped page costly. The pread path also fails cleanly (not
 * with SIGBUS) if the archive file shrinks during the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "phase/longpath.h"
#include "phase/phase.h"
#include "os/rawsys.h"
#include "tree/tarindex.h"
#include "phase/phase_tarextract.h"
#include "phase/tarcalls.h"

/* A thread's I/O buffer when its context has none. */
#define TARX_BUF ((size_t)128 * 1024)

struct tarx {
    const struct tarindex *ix;
    struct tarsrc *src;
    int root;
    int srcfd;
    bool dag;                   /* directories fixed as soon as their contents are done */
    struct tarcalls tc;         /* the calls on each entry */
    _Atomic uint32_t next;      /* the next unit nobody has claimed */
    _Atomic uint32_t *pending;  /* per directory: units and subdirectories not done yet */
};

/* Records a read failure of the archive file as the phase's failure. -1. */
static int read_fail(struct phase_ctx *t, const struct tarx *tx, const char *why)
{
    struct phase_result *r = t->res;
    if (r->status != PHASE_FAILED) {
        r->status = PHASE_FAILED;
        snprintf(r->note, sizeof r->note, "read tar:%s: %s", tarsrc_path(tx->src), why);
        if (t->par)
            phase_par_publish(t);
    }
    return -1;
}

static const struct tix_ent *dir_entry(const struct tarindex *ix, uint32_t d)
{
    return &ix->ents[ix->dir_ent[d]];
}

/* Writes e's data to fd through buf (len bytes) and sets the size. 0 or -1. */
static int write_data(struct phase_ctx *t, const struct tarx *tx, const struct tix_ent *e,
                      int fd, const char *path, char *buf, size_t len)
{
    const struct engine *eng = t->eng;
    uint64_t pos = 0;
    bool seq = true; /* no hole yet: plain write() at the current offset */
    for (uint32_t s = 0; s < e->nseg; s++) {
        const struct tix_seg *sg = &tx->ix->segs[e->seg + s];
        if (sg->file_off != pos)
            seq = false;
        uint64_t arc = sg->arc_off, o = sg->file_off, left = sg->len;
        while (left) {
            size_t n = left < len ? (size_t)left : len;
            ssize_t r = raw_pread(tx->srcfd, buf, n, (off_t)arc);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                return read_fail(t, tx, strerror(errno));
            if (r == 0)
                return read_fail(t, tx, "the archive is shorter than when it was opened");
            const char *p = buf;
            size_t m = (size_t)r;
            while (m) {
                long w = seq ? eng->write(t->w, fd, p, m) : eng->pwrite(t->w, fd, p, m, o);
                if (w < 0)
                    return phase_fail(t, "write", path, (int)w);
                if (w == 0)
                    return phase_fail(t, "write", path, -EIO);
                p += w;
                m -= (size_t)w;
                o += (uint64_t)w;
            }
            arc += (uint64_t)r;
            left -= (uint64_t)r;
        }
        pos = o;
    }
    if ((e->flags & TIX_SIZE_SET) && e->size > pos) {
        int rc = eng->ftruncate(t->w, fd, e->size);
        if (rc < 0)
            return phase_fail(t, "truncate", path, rc);
    }
    return 0;
}

/* Data (through buf), then with attrs tar's times, owner and mode (tarcalls.h), fsync with
 * ENG_CREATE_FSYNC, close. */
static int finish_file(struct phase_ctx *t, const struct tarx *tx, const struct tix_ent *e,
                       int fd, const char *path, char *buf, size_t len, bool attrs)
{
    const struct engine *eng = t->eng;
    int rc = write_data(t, tx, e, fd, path, buf, len);
    if (rc == 0 && attrs) {
        const char *op = "setattr";
        int r = tarcalls_fix_file(&tx->tc, eng, t->w, fd, e->mode,
                                  (e->flags & TIX_TIMES) ? e->times : NULL, e->uid, e->gid, &op);
        if (r < 0)
            rc = phase_fail(t, op, path, r);
    }
    if (rc == 0 && (t->create_flags & ENG_CREATE_FSYNC)) {
        int r = eng->fsync(t->w, fd);
        if (r < 0)
            rc = phase_fail(t, "fsync", path, r);
    }
    int c = eng->close(t->w, fd);
    if (c < 0 && rc == 0)
        rc = phase_fail(t, "close", path, c);
    return rc;
}

static int make_file(struct phase_ctx *t, const struct tarx *tx, const struct tix_ent *e,
                     int pfd, const char *base, const char *path, char *buf, size_t len)
{
    mode_t cmode = tarcalls_file_mode(&tx->tc, e->mode);
    int fd = t->eng->open(t->w, pfd, base, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, cmode);
    if (fd < 0)
        return phase_fail(t, "create", path, fd);
    if (finish_file(t, tx, e, fd, path, buf, len, true) < 0)
        return -1;
    t->res->files++;
    return 0;
}

static int make_symlink(struct phase_ctx *t, const struct tarx *tx, const struct tix_ent *e,
                        int pfd, const char *base, const char *path)
{
    int rc = t->eng->symlink(t->w, tix_link(tx->ix, e), pfd, base);
    if (rc < 0)
        return phase_fail(t, "symlink", path, rc);
    const char *op = "setattr";
    rc = tarcalls_fix_symlink(&tx->tc, t->eng, t->w, pfd, base,
                              (e->flags & TIX_TIMES) ? e->times : NULL, e->uid, e->gid, &op);
    if (rc < 0)
        return phase_fail(t, op, path, rc);
    t->res->symlinks++;
    return 0;
}

/* Sets directory d's mode and times if the archive lists it. 0 or -1. */
static int fix_dir(struct phase_ctx *t, const struct tarx *tx, uint32_t d)
{
    const struct tix_ent *e = dir_entry(tx->ix, d);
    if (!(e->flags & TIX_LISTED) || !tx->tc.tar)
        return 0;
    const char *path = tix_path(tx->ix, e);
    int fd = longpath_opendir(t->eng, t->w, tx->root, path);
    if (fd < 0)
        return phase_fail_dir_at(t, "open", "", tx->root, path, fd);
    const char *op = "setattr";
    mode_t have = (e->flags & TIX_EXPLICIT) ? tarcalls_dir_made(&tx->tc, e->mode)
                                            : 0777 & ~tx->tc.umask;
    int rc = tarcalls_fix_dir(&tx->tc, t->eng, t->w, fd, e->mode, have, e->times, e->uid,
                              e->gid, &op);
    int c = t->eng->close(t->w, fd);
    if (rc < 0)
        return phase_fail(t, op, path, rc);
    if (c < 0)
        return phase_fail(t, "close", path, c);
    return 0;
}

/* One piece of directory d's pending work is done: the thread that finishes the last one
 * fixes d, and that is one piece of its parent's. 0 or -1. */
static int dag_done(struct phase_ctx *t, struct tarx *tx, uint32_t d)
{
    while (d != TIX_ROOT) {
        if (atomic_fetch_sub(&tx->pending[d], 1) != 1)
            return 0;
        if (fix_dir(t, tx, d) < 0)
            return -1;
        d = dir_entry(tx->ix, d)->parent;
    }
    return 0;
}

/* Makes the files and symlinks of unit u. 0 or -1. */
static int do_unit(struct phase_ctx *t, struct tarx *tx, const struct tix_unit *u, char *buf,
                   size_t len)
{
    const struct tarindex *ix = tx->ix;
    int pfd = tx->root, rc = 0;
    const char *dpath = NULL;
    if (u->dir != TIX_ROOT) {
        dpath = tix_path(ix, dir_entry(ix, u->dir));
        pfd = longpath_opendir(t->eng, t->w, tx->root, dpath);
        if (pfd < 0)
            return phase_fail_dir_at(t, "open", "", tx->root, dpath, pfd);
    }
    for (uint32_t k = 0; k < u->n && rc == 0; k++) {
        if (phase_check_interrupt(t)) {
            rc = -1;
            break;
        }
        const struct tix_ent *e = &ix->ents[ix->order[u->first + k]];
        const char *path = tix_path(ix, e), *sl = strrchr(path, '/');
        const char *base = sl ? sl + 1 : path;
        rc = e->kind == TIX_FILE ? make_file(t, tx, e, pfd, base, path, buf, len)
                                 : make_symlink(t, tx, e, pfd, base, path);
    }
    if (dpath) {
        int c = t->eng->close(t->w, pfd);
        if (c < 0 && rc == 0)
            rc = phase_fail(t, "close", dpath, c);
    }
    if (rc == 0 && tx->dag && dpath) {
        /* a queued (asynchronous) creation must not land after the directory's fix-up */
        int d = t->eng->drain(t->w);
        rc = d < 0 ? phase_fail(t, "extract", dpath, d) : dag_done(t, tx, u->dir);
    }
    return rc;
}

/* One thread: claims units in order (largest first) until none is left. */
static int unit_worker(struct phase_ctx *t, unsigned idx, void *arg)
{
    struct tarx *tx = arg;
    char *own = NULL, *buf = t->buf;
    size_t len = t->buflen;
    if (!buf || !len) {
        if (!(own = malloc(TARX_BUF)))
            return phase_fail(t, "extract", tarsrc_path(tx->src), -ENOMEM);
        buf = own;
        len = TARX_BUF;
    }
    int rc = 0;
    for (;;) {
        uint32_t u = atomic_fetch_add(&tx->next, 1);
        if (u >= tx->ix->nunits)
            break;
        if ((rc = do_unit(t, tx, &tx->ix->units[u], buf, len)) < 0)
            break;
    }
    free(own);
    return rc;
}

/* The directory of path (below the root) could not be opened: phase_fail naming it. */
static int fail_parent(struct phase_ctx *ctx, const struct tarx *tx, const char *path, int rc)
{
    const char *sl = strrchr(path, '/');
    size_t n = sl ? (size_t)(sl - path) : 0;
    char *p = malloc(n + 1);
    if (!p)
        return phase_fail(ctx, "open", path, rc);
    memcpy(p, path, n);
    p[n] = '\0';
    phase_fail_dir_at(ctx, "open", "", tx->root, p, rc);
    free(p);
    return -1;
}

/* Step 1: every directory, parents first, each by its name in its parent (the cursor keeps
 * the directories of the last path open). 0 or -1. */
static int make_dirs(struct phase_ctx *ctx, const struct tarx *tx)
{
    const struct tarindex *ix = tx->ix;
    struct longpath lp = LONGPATH_INIT; /* parents come first: deep chains stay O(depth) */
    int rc = 0;
    for (uint32_t d = 0; d < ix->ndirs && rc == 0; d++) {
        if (phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        const struct tix_ent *e = dir_entry(ix, d);
        const char *path = tix_path(ix, e);
        int pfd;
        const char *base;
        rc = longpath_parent(ctx->eng, ctx->w, &lp, tx->root, path, &pfd, &base);
        if (rc < 0) {
            rc = fail_parent(ctx, tx, path, rc);
            break;
        }
        rc = ctx->eng->mkdir(ctx->w, pfd, base,
                             (e->flags & TIX_EXPLICIT) ? tarcalls_dir_mode(&tx->tc, e->mode) : 0777);
        if (rc < 0)
            rc = phase_fail(ctx, "mkdir", path, rc);
        else
            ctx->res->dirs++;
    }
    longpath_release(ctx->eng, ctx->w, &lp);
    if (rc < 0)
        return -1;
    int d = ctx->eng->drain(ctx->w);
    return d < 0 ? phase_fail(ctx, "extract", tarsrc_path(tx->src), d) : 0;
}

/* Step 3 with hard links: the links in archive order, then every directory deepest first. */
static int make_links_then_fix(struct phase_ctx *ctx, const struct tarx *tx)
{
    const struct tarindex *ix = tx->ix;
    char *buf = ctx->buf, *own = NULL;
    size_t len = ctx->buflen;
    if (!buf || !len) {
        if (!(own = malloc(TARX_BUF)))
            return phase_fail(ctx, "extract", tarsrc_path(tx->src), -ENOMEM);
        buf = own;
        len = TARX_BUF;
    }
    int rc = 0;
    struct longpath lp = LONGPATH_INIT; /* the links' directories */
    for (uint32_t i = 0; i < ix->nlinks && rc == 0; i++) {
        if (phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        const struct tix_ent *e = &ix->ents[ix->links[i]];
        const char *path = tix_path(ix, e);
        int pfd;
        const char *base;
        rc = longpath_parent(ctx->eng, ctx->w, &lp, tx->root, path, &pfd, &base);
        if (rc < 0) {
            rc = fail_parent(ctx, tx, path, rc);
            break;
        }
        rc = longpath_link(ctx->eng, ctx->w, NULL, tx->root, tix_link(ix, e), pfd, base);
        if (rc < 0) { /* ENOTDIR: a directory on the target's path is a file now */
            rc = rc == -ENOTDIR ? phase_fail_dir(ctx, "link", path, rc)
                                : phase_fail(ctx, "link", path, rc);
            break;
        }
        if (e->flags & TIX_SIZE_SET) { /* data with the last link (cpio) */
            int fd = ctx->eng->open(ctx->w, pfd, base, O_WRONLY | O_TRUNC | O_NOFOLLOW, 0);
            if (fd < 0)
                rc = phase_fail(ctx, "open", path, fd);
            else
                rc = finish_file(ctx, tx, e, fd, path, buf, len, false);
        }
        if (rc == 0)
            ctx->res->files++;
    }
    longpath_release(ctx->eng, ctx->w, &lp);
    free(own);
    for (uint32_t d = ix->ndirs; rc == 0 && d-- > 0;) {
        if (phase_check_interrupt(ctx))
            return -1;
        rc = fix_dir(ctx, tx, d);
    }
    return rc;
}

int phase_extract_tar_par(struct phase_ctx *ctx, struct tarsrc *src, int root_fd)
{
    const struct tarindex *ix = tarsrc_index(src);
    struct tarx tx = {.ix = ix, .src = src, .root = root_fd, .srcfd = tarsrc_fd(src),
                      .dag = ix->nlinks == 0};
    tarcalls_init(&tx.tc, phase_extract_calls(ctx));
    if (!tx.tc.tar)
        tx.dag = false; /* no fix-up to order */
    for (uint64_t i = 0; i < ix->nrefused && i < TIX_REFUSE_LINES; i++)
        warning("tar:%s: refused '%s': %s", tarsrc_path(src), ix->refusal[i].name,
                ix->refusal[i].why);
    tarsrc_set_refused(src, ix->nrefused);
    struct stat st;
    if (fstat(tx.srcfd, &st) < 0)
        return read_fail(ctx, &tx, strerror(errno));
    if ((uint64_t)st.st_size != ix->arc_size) {
        char why[160];
        snprintf(why, sizeof why, "the archive changed since it was opened (%llu bytes, was %llu)",
                 (unsigned long long)st.st_size, (unsigned long long)ix->arc_size);
        return read_fail(ctx, &tx, why);
    }
    if (tx.dag && ix->ndirs) {
        tx.pending = malloc(ix->ndirs * sizeof *tx.pending);
        if (!tx.pending)
            return phase_fail(ctx, "extract", tarsrc_path(src), -ENOMEM);
        for (uint32_t d = 0; d < ix->ndirs; d++)
            atomic_init(&tx.pending[d], ix->pending0[d]);
    }
    atomic_init(&tx.next, 0);
    int rc = make_dirs(ctx, &tx);
    /* Directories with nothing in them are done already. */
    for (uint32_t d = 0; rc == 0 && tx.dag && d < ix->ndirs; d++)
        if (ix->pending0[d] == 0 && (rc = fix_dir(ctx, &tx, d)) == 0)
            rc = dag_done(ctx, &tx, dir_entry(ix, d)->parent);
    if (rc == 0)
        rc = phase_par_run(ctx, unit_worker, NULL, &tx);
    if (rc == 0 && !tx.dag)
        rc = make_links_then_fix(ctx, &tx);
    if (rc == 0 && ix->root_listed) {
        const char *op = "setattr";
        int r = tarcalls_fix_root(&tx.tc, ctx->eng, ctx->w, root_fd, ix->root_mode,
                                  ix->root_times, ix->root_uid, ix->root_gid, &op);
        if (r < 0)
            rc = phase_fail(ctx, op, ".", r);
    }
    if (rc == 0) {
        int d = ctx->eng->drain(ctx->w);
        if (d < 0)
            rc = phase_fail(ctx, "extract", tarsrc_path(src), d);
    }
    if (ix->nrefused > TIX_REFUSE_LINES)
        warning("tar:%s: %llu more entries refused", tarsrc_path(src),
                (unsigned long long)(ix->nrefused - TIX_REFUSE_LINES));
    free(tx.pending);
    return rc < 0 ? -1 : 0;
}
