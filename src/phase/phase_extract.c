/* phase_extract.c — create the tree under test, like tar -x: stream the synthetic tree and
 * for each entry mkdir, create+write or symlink through the engine, relative to the fd of
 * the directory being filled. Directory fds are kept on a stack as deep as the tree.
 * With tar's calls (--extract-calls tar, the default; phase/tarcalls.h) each entry then gets
 * what tar -x gives an archive's: a file futimens (and as root fchown and fchmod) before
 * its close, a symlink utimensat (and lchown), a directory its times (owner, mode) on its
 * fd when the tree leaves it, all contents done, as tar's delayed set_stat does. A
 * synthetic tree has no times or owners: every entry gets TARCALLS_SYNTH_MTIME and the
 * running user. --extract-calls create: create+write+close, mkdir, symlink only.
 *
 * Threads (-j N > 1, synthetic trees): partitioned by subtree, so threads never fill the
 * same directory. A split depth d is chosen: the smallest depth holding at least
 * EXTRACT_SPLIT_PER_THREAD x N directories (counted by dry walks that skip every subtree
 * below the depth tried, so they cost only the levels above it), else the depth with the
 * most, at most EXTRACT_SPLIT_MAX_DEPTH. The calling thread first makes the spine: every
 * entry above depth d and the depth-d directories themselves, skipping their contents
 * (tree_skip_subtree). Then every thread runs its own generator over the same tree and
 * claims depth-d subtrees through an atomic counter: it walks the spine again without
 * touching the file system, skips the subtrees it did not claim, and fills the one it
 * claimed under an fd it opened for it (by its path below the root, resolved beneath it
 * with no symlink followed: a directory swapped for a symlink meanwhile fails the phase
 * naming it, and nothing is written through it). Symlinks point within their own
 * directory, so the order across threads does not matter. Counts and ops by kind are the same for any N.
 * Shared placement (ctx->nparts > 1, MPI): only the top-level entries phase_owns_top()
 * gives this share, on one thread. Archives (ctx->tar): phase_extract_tree hands them to phase_extract_tar, which threads
 * them itself (phase_tarextract_par.c); phase_extract_into extracts them on one thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "phase/phase.h"
#include "phase/phase_tarextract.h"
#include "phase/tarcalls.h"
#include "tree/tree.h"

#define EXTRACT_SPLIT_PER_THREAD 8
#define EXTRACT_SPLIT_MAX_DEPTH 8

struct fd_stack {
    int *fd;
    mode_t *mode; /* each directory's mode, for its fix-up when the tree leaves it */
    size_t n, cap;
};

/* What tar's calls give a synthetic tree's entries (the file comment). */
struct synth_attrs {
    struct tarcalls tc;
    struct timespec times[2];
    uid_t uid;
    gid_t gid;
};

static void synth_attrs_init(struct synth_attrs *a, const struct phase_ctx *ctx)
{
    tarcalls_init(&a->tc, phase_extract_calls(ctx));
    a->times[0] = (struct timespec){0, UTIME_OMIT};
    a->times[1] = (struct timespec){TARCALLS_SYNTH_MTIME, 0};
    a->uid = geteuid();
    a->gid = getegid();
}

/* A file with tar's calls: open, the data (len bytes of data repeated), times, owner,
 * mode, fsync with ENG_CREATE_FSYNC, close. 0 or -errno; *op names the failed call. */
static int create_tar_file(struct phase_ctx *ctx, const struct synth_attrs *a, int dirfd,
                           const struct tree_entry *ent, const char **op)
{
    const struct engine *e = ctx->eng;
    int fd = e->open(ctx->w, dirfd, ent->name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW,
                     tarcalls_file_mode(&a->tc, ent->mode));
    if (fd < 0) {
        *op = "create";
        return fd;
    }
    int rc = 0;
    for (uint64_t left = ent->size; left && rc == 0;) {
        size_t n = left < ent->data_len ? (size_t)left : ent->data_len;
        long w = e->write(ctx->w, fd, ent->data, n);
        rc = w < 0 ? (int)w : w == 0 ? -EIO : 0;
        if (rc == 0)
            left -= (uint64_t)w;
        else
            *op = "write";
    }
    if (rc == 0)
        rc = tarcalls_fix_file(&a->tc, e, ctx->w, fd, ent->mode, a->times, a->uid, a->gid, op);
    if (rc == 0 && (ctx->create_flags & ENG_CREATE_FSYNC) && (rc = e->fsync(ctx->w, fd)) < 0)
        *op = "fsync";
    int c = e->close(ctx->w, fd);
    if (rc == 0 && c < 0) {
        *op = "close";
        rc = c;
    }
    return rc;
}

static int fd_push(struct fd_stack *s, int fd)
{
    if (s->n == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 32;
        int *p = realloc(s->fd, ncap * sizeof *p);
        if (!p)
            return -ENOMEM;
        s->fd = p;
        mode_t *m = realloc(s->mode, ncap * sizeof *m);
        if (!m)
            return -ENOMEM;
        s->mode = m;
        s->cap = ncap;
    }
    s->mode[s->n] = 0;
    s->fd[s->n++] = fd;
    return 0;
}

/* The failing entry's path as the other phases name it: "tree/a/b.c". */
static const char *entry_path(struct tree_gen *g, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", PHASE_TREE_DIR, tree_path(g));
    return buf;
}

static int extract_fail(struct phase_ctx *ctx, struct tree_gen *g, const char *op, int rc)
{
    char path[PATH_MAX];
    return phase_fail(ctx, op, entry_path(g, path, sizeof path), rc);
}

/* Creates every entry of the tree below directory fd root. With split > 0 (the spine of
 * a threaded extract), directories at depth split are made but not filled. With subtree
 * set, g has just entered a directory and root is its fd: stops after that directory's
 * TREE_LEAVE. */
static int extract_entries(struct phase_ctx *ctx, struct tree_gen *g, int root, unsigned split,
                           bool subtree, mode_t root_mode)
{
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    struct phase_result *res = ctx->res;
    struct fd_stack st = {0};
    struct tree_entry ent;
    struct synth_attrs at;
    synth_attrs_init(&at, ctx);
    const char *op = NULL;
    int rc = fd_push(&st, root);
    if (rc == 0)
        st.mode[0] = root_mode;

    bool left = false;
    while (rc == 0 && !left && tree_next(g, &ent) > 0) {
        if (phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        int top = st.fd[st.n - 1];
        if (ent.depth == 1 && ent.kind != TREE_LEAVE && !phase_owns_top(ctx, ent.name)) {
            if (ent.kind == TREE_DIR)
                tree_skip_subtree(g); /* another rank's share of a shared tree */
            continue;
        }
        switch (ent.kind) {
        case TREE_DIR:
            rc = e->mkdir(w, top, ent.name, at.tc.tar ? tarcalls_dir_mode(&at.tc, ent.mode)
                                                      : ent.mode);
            if (rc < 0) {
                rc = extract_fail(ctx, g, "mkdir", rc);
                break;
            }
            if (ent.depth == split) {
                tree_skip_subtree(g); /* filled (and fixed) by whichever thread claims it */
                res->dirs++;
                break;
            }
            int fd = e->opendir(w, top, ent.name);
            if (fd < 0) {
                char path[PATH_MAX];
                rc = phase_fail_dir(ctx, "open", entry_path(g, path, sizeof path), fd);
                break;
            }
            if (fd_push(&st, fd) < 0) {
                e->close(w, fd);
                rc = extract_fail(ctx, g, "extract", -ENOMEM);
                break;
            }
            st.mode[st.n - 1] = ent.mode;
            res->dirs++;
            break;
        case TREE_FILE:
            if (at.tc.tar) {
                op = "create";
                rc = create_tar_file(ctx, &at, top, &ent, &op);
            } else {
                op = "create";
                rc = e->create_file(w, top, ent.name, ent.mode, ent.data, ent.data_len, ent.size,
                                    ENG_CREATE_EXCL | ctx->create_flags);
            }
            if (rc < 0)
                rc = extract_fail(ctx, g, op, rc);
            else
                res->files++;
            break;
        case TREE_SYMLINK:
            op = "symlink";
            rc = e->symlink(w, ent.target, top, ent.name);
            if (rc == 0)
                rc = tarcalls_fix_symlink(&at.tc, e, w, top, ent.name, at.times, at.uid, at.gid,
                                          &op);
            if (rc < 0)
                rc = extract_fail(ctx, g, op, rc);
            else
                res->symlinks++;
            break;
        case TREE_LEAVE:
            /* tar's delayed set_stat: the directory is done once the tree leaves it */
            if ((st.n > 1 || subtree) && at.tc.tar) {
                op = "setattr";
                mode_t m = st.mode[st.n - 1];
                rc = tarcalls_fix_dir(&at.tc, e, w, top, m, tarcalls_dir_made(&at.tc, m),
                                      at.times, at.uid, at.gid, &op);
                if (rc < 0) {
                    rc = phase_fail(ctx, op, PHASE_TREE_DIR, rc);
                    break;
                }
            }
            if (st.n > 1) {
                e->close(w, top);
                st.n--;
            } else if (subtree) {
                left = true;
            }
            break;
        }
    }
    /* Close whatever an early stop left open (never the root: the caller owns it). */
    while (st.n > 1)
        e->close(w, st.fd[--st.n]);
    free(st.fd);
    free(st.mode);
    if (rc == 0) {
        int d = e->drain(w);
        if (d < 0)
            rc = phase_fail(ctx, "extract", PHASE_TREE_DIR, d);
    }
    return rc < 0 ? -1 : 0;
}

int phase_extract_into(struct phase_ctx *ctx, int root)
{
    if (ctx->tar) { /* one thread, as for a synthetic tree */
        struct phase_ctx one = *ctx;
        one.workers = NULL;
        one.bufs = NULL;
        one.nworkers = 0;
        return phase_extract_tar(&one, ctx->tar, root);
    }
    struct tree_gen *g = tree_open(ctx->tree);
    if (!g)
        return phase_fail(ctx, "generate", PHASE_TREE_DIR, -ENOMEM);
    int rc = extract_entries(ctx, g, root, 0, false, 0);
    tree_close(g);
    return rc;
}

/* Directories at depth `depth`, by a walk that skips everything below it; -1 when the
 * generator cannot start. */
static int64_t dirs_at_depth(const struct tree_spec *spec, unsigned depth)
{
    struct tree_gen *g = tree_open(spec);
    if (!g)
        return -1;
    struct tree_entry ent;
    int64_t n = 0;
    while (tree_next(g, &ent) > 0) {
        if (ent.kind == TREE_DIR && ent.depth == depth) {
            n++;
            tree_skip_subtree(g);
        }
    }
    tree_close(g);
    return n;
}

/* The split depth for nthreads (see the file comment), 0 when the tree has no directory;
 * *count gets the directories there. -1 when the generator cannot start. */
static int choose_split(const struct tree_spec *spec, unsigned nthreads, uint64_t *count)
{
    unsigned best = 0;
    int64_t bestc = 0;
    for (unsigned d = 1; d <= EXTRACT_SPLIT_MAX_DEPTH && d <= TREE_MAX_DEPTH; d++) {
        int64_t c = dirs_at_depth(spec, d);
        if (c < 0)
            return -1;
        if (c > bestc) {
            best = d;
            bestc = c;
        }
        if (c == 0 || c >= (int64_t)EXTRACT_SPLIT_PER_THREAD * nthreads)
            break;
    }
    *count = (uint64_t)bestc;
    return (int)best;
}

struct extract_par {
    int root;                   /* fd of the tree root (worker 0's) */
    unsigned split;             /* depth of the subtrees handed out */
    uint64_t nsplit;            /* how many there are */
    _Atomic uint64_t next;      /* the next one nobody has claimed */
};

/* One thread: claims depth-split subtrees in order and fills them. */
static int extract_worker(struct phase_ctx *t, unsigned idx, void *arg)
{
    struct extract_par *xp = arg;
    uint64_t mine = atomic_fetch_add(&xp->next, 1);
    if (mine >= xp->nsplit)
        return 0;
    struct tree_gen *g = tree_open(t->tree);
    if (!g)
        return phase_fail(t, "generate", PHASE_TREE_DIR, -ENOMEM);
    struct tree_entry ent;
    uint64_t seen = 0;
    int rc = 0;
    while (rc == 0 && mine < xp->nsplit && tree_next(g, &ent) > 0) {
        if (ent.kind != TREE_DIR || ent.depth != xp->split)
            continue; /* the spine: made already */
        if (seen++ != mine) {
            tree_skip_subtree(g);
            continue;
        }
        if (phase_check_interrupt(t)) {
            rc = -1;
            break;
        }
        /* by its path below the root: resolved beneath it, no symlink followed (engine.h) */
        int fd = t->eng->opendir(t->w, xp->root, tree_path(g));
        if (fd < 0) {
            rc = phase_fail_dir_at(t, "open", PHASE_TREE_DIR, xp->root, tree_path(g), fd);
            break;
        }
        rc = extract_entries(t, g, fd, 0, true, ent.mode);
        t->eng->close(t->w, fd);
        mine = atomic_fetch_add(&xp->next, 1);
    }
    tree_close(g);
    return rc;
}

/* phase_extract_into for a synthetic tree on phase_threads(ctx) threads. */
static int extract_par(struct phase_ctx *ctx, int root)
{
    struct extract_par xp = {.root = root};
    int split = choose_split(ctx->tree, phase_threads(ctx), &xp.nsplit);
    if (split < 0)
        return phase_fail(ctx, "generate", PHASE_TREE_DIR, -ENOMEM);
    xp.split = (unsigned)split;
    struct tree_gen *g = tree_open(ctx->tree);
    if (!g)
        return phase_fail(ctx, "generate", PHASE_TREE_DIR, -ENOMEM);
    /* the spine; with no directory at all (split 0) this is the whole tree */
    int rc = extract_entries(ctx, g, root, xp.split, false, 0);
    tree_close(g);
    if (rc == 0 && xp.nsplit > 0)
        rc = phase_par_run(ctx, extract_worker, NULL, &xp);
    return rc;
}

int phase_extract_tree(struct phase_ctx *ctx, int root)
{
    if (ctx->tar)
        return phase_extract_tar(ctx, ctx->tar, root);
    if (phase_threads(ctx) > 1 && ctx->nparts <= 1)
        return extract_par(ctx, root);
    return phase_extract_into(ctx, root);
}

int phase_extract(struct phase_ctx *ctx)
{
    const struct engine *e = ctx->eng;
    int rc = e->mkdir(ctx->w, ctx->ws_fd, PHASE_TREE_DIR, 0755);
    if (rc < 0 && !(rc == -EEXIST && ctx->nparts > 1)) /* shared: another rank made it */
        return phase_fail(ctx, "mkdir", PHASE_TREE_DIR, rc);
    int root = e->opendir(ctx->w, ctx->ws_fd, PHASE_TREE_DIR);
    if (root < 0)
        return phase_fail_dir(ctx, "open", PHASE_TREE_DIR, root);
    rc = phase_extract_tree(ctx, root);
    e->close(ctx->w, root);
    return rc;
}
