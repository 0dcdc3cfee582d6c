/* phase_delete.c — remove the tree and its copy, like rm -rf: read each directory, unlink
 * its files and symlinks, descend into subdirectories, remove each directory once empty.
 *
 * Unlinking while a directory is being read is safe on Linux file systems, but POSIX leaves
 * it unspecified whether entries are still returned, so a directory that is not empty when
 * its scan ends is scanned again (a few times at most) before giving up.
 *
 * Threads (-j N > 1): the same scanner, fed by a shared queue of directories (workq.h); a
 * worker hands an opened subdirectory to the queue when another worker waits for work.
 * A directory can only be removed once everything below it is gone, also what other
 * workers took, so removal is post-order across threads:
 *  - every queue item carries a node; a node has a parent pointer (the node of its nearest
 *    ancestor that has one) and a pending count: 1 for the scan of the directory itself
 *    plus 1 for every child node;
 *  - a worker handing off a subdirectory from deep inside its own item first gives a node
 *    to each directory between the item's root and the subdirectory that has none yet
 *    (allocated on demand, each one's scan pending, counted in its parent), then counts
 *    the new node in the node of the directory being scanned;
 *  - a worker finishing the scan of a directory that has a node (drains its queued
 *    operations first) decrements the count instead of removing the directory; whoever
 *    brings a count to 0 removes that directory by name from its parent, opened by its
 *    workspace path resolved beneath the workspace with no symlink followed (that open is
 *    not counted as the phase's), and decrements the parent's, and so on up. Directories
 *    without a node are removed as in one thread.
 * So every directory is removed exactly once, after its contents, by whichever thread
 * finished last below it; counts (files, dirs, symlinks, unlink and rmdir ops) equal one
 * thread's. Nodes live until the phase ends (a failure may leave counts above 0).
 * With N = 1 there is no queue, no node and no lock.
 *
 * Races and mounts: every directory is opened by one name relative to its parent's fd
 * (or, for a node's parent, by a path resolved beneath the workspace), never following a
 * symlink, and never into another file system or bind mount (the engine's opendir says
 * EXDEV): a directory swapped for a symlink, or a mount point inside the tree, fails the
 * phase naming it, and nothing outside the tree is removed (rm -rf --one-file-system).
 *
 * Depth: the descent lives on a dirscan stack, not on the C stack, with a window of open
 * directories (dirscan.h): any depth and path length with a bounded number of fds (node
 * paths stay short: deeper directories than DIRSCAN_HANDOFF_MAX are not handed off).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/dirscan.h"
#include "phase/phase.h"
#include "phase/phase_scan.h"
#include "phase/workq.h"

#define DELETE_RESCANS 4

/* What an rmdir of name in dirfd that failed with rc says: ENOTDIR is a symlink (-ELOOP,
 * as an open says) or a file standing where the directory was. */
static int rmdir_errno(struct phase_ctx *ctx, int dirfd, const char *name, int rc)
{
    struct stat st;
    if (rc == -ENOTDIR && ctx->eng->stat(ctx->w, dirfd, name, &st) == 0 && S_ISLNK(st.st_mode))
        return -ELOOP;
    return rc;
}

/* A directory whose removal waits for other threads (see the file comment). */
struct del_node {
    struct del_node *parent;    /* NULL: a workspace top ("tree", "copy"): not counted */
    _Atomic unsigned pending;   /* its own scan + child nodes not yet removed */
    char *path;                 /* workspace-relative */
    struct del_node *next_all;  /* every node of the phase, freed at its end */
};

/* What the threads share. */
struct del_par {
    struct workq *q;
    pthread_mutex_t mu;         /* guards all */
    struct del_node *all;
};

/* One thread's state: the node of each level of its dirscan stack (NULL: none yet), and
 * where the opens of a node's parent are counted (not among the phase's operations). */
struct del_thr {
    struct del_par *dp;
    struct del_node **nodes;
    size_t cap;
    struct opstats *scratch;
};

static int empty_dir(struct phase_ctx *ctx, struct dirscan_stack *s, struct del_thr *dt);

/* A new node for path with one pending scan, counted in parent; NULL when out of memory. */
static struct del_node *node_new(struct del_par *dp, struct del_node *parent, const char *path)
{
    struct del_node *n = calloc(1, sizeof *n);
    if (!n || !(n->path = strdup(path))) {
        free(n);
        return NULL;
    }
    n->parent = parent;
    atomic_init(&n->pending, 1);
    if (parent)
        atomic_fetch_add(&parent->pending, 1);
    pthread_mutex_lock(&dp->mu);
    n->next_all = dp->all;
    dp->all = n;
    pthread_mutex_unlock(&dp->mu);
    return n;
}

/* Makes room for the node of level `level`. 0 or -ENOMEM. */
static int node_slot(struct del_thr *dt, size_t level)
{
    if (level < dt->cap)
        return 0;
    size_t ncap = dt->cap ? dt->cap * 2 : 32;
    while (ncap <= level)
        ncap *= 2;
    struct del_node **p = realloc(dt->nodes, ncap * sizeof *p);
    if (!p)
        return -ENOMEM;
    memset(p + dt->cap, 0, (ncap - dt->cap) * sizeof *p);
    dt->nodes = p;
    dt->cap = ncap;
    return 0;
}

/* Removes directory `path` (workspace-relative), emptying it again if entries reappear.
 * Its parent is opened by path, resolved beneath the workspace with no symlink followed
 * (engine.h; counted in scratch, not as the phase's), and the directory removed by its
 * name in that parent: an rmdir by the whole path would follow a symlink swapped in for
 * any directory on the way. */
static int rmdir_path(struct phase_ctx *ctx, const char *path, struct opstats *scratch)
{
    const struct engine *e = ctx->eng;
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    int pfd = ctx->ws_fd;
    if (slash) {
        char parent[DIRSCAN_HANDOFF_MAX];
        size_t pl = (size_t)(slash - path);
        if (pl >= sizeof parent)
            return phase_fail(ctx, "rmdir", path, -ENAMETOOLONG);
        memcpy(parent, path, pl);
        parent[pl] = '\0';
        struct opstats *own = eng_uncounted_begin(ctx->w, scratch);
        pfd = e->opendir(ctx->w, ctx->ws_fd, parent);
        eng_uncounted_end(ctx->w, own);
        if (pfd < 0)
            return phase_fail_dir_at(ctx, "open", "", ctx->ws_fd, parent, pfd);
    }
    int rc;
    for (int pass = 0;; pass++) {
        rc = e->unlink(ctx->w, pfd, base, AT_REMOVEDIR);
        if (rc == 0)
            break;
        if (rc != -ENOTEMPTY || pass == DELETE_RESCANS) {
            rc = phase_fail_dir(ctx, "rmdir", path, rmdir_errno(ctx, pfd, base, rc));
            break;
        }
        int fd = e->opendir(ctx->w, pfd, base);
        if (fd < 0) {
            rc = phase_fail_dir(ctx, "open", path, fd);
            break;
        }
        struct dirscan_stack s = {0};
        dirscan_init(&s, e, ctx->w, dirscan_window(phase_threads(ctx), 1));
        rc = dirscan_enter(&s, fd, -1, path);
        if (rc < 0)
            rc = phase_fail(ctx, "delete", path, rc);
        else
            rc = empty_dir(ctx, &s, NULL);
        dirscan_unwind(&s, 0);
        dirscan_free(&s);
        if (rc < 0)
            break;
        int d = e->drain(ctx->w);
        if (d < 0) {
            rc = phase_fail(ctx, "delete", path, d);
            break;
        }
    }
    if (pfd != ctx->ws_fd) {
        struct opstats *own = eng_uncounted_begin(ctx->w, scratch);
        e->close(ctx->w, pfd);
        eng_uncounted_end(ctx->w, own);
    }
    return rc < 0 ? -1 : 0;
}

/* This thread finished scanning node n's directory: count it down, and remove every
 * directory on the way up whose count reaches 0. 0 or -1. */
static int node_finish(struct phase_ctx *ctx, struct del_node *n, struct opstats *scratch)
{
    while (n) {
        /* Our queued unlinks below n must be done before another thread's rmdir. */
        int d = ctx->eng->drain(ctx->w);
        if (d < 0)
            return phase_fail(ctx, "delete", n->path, d);
        if (atomic_fetch_sub(&n->pending, 1) != 1)
            return 0;
        if (rmdir_path(ctx, n->path, scratch) < 0)
            return -1;
        if (n->parent)
            ctx->res->dirs++;
        n = n->parent;
    }
    return 0;
}

/* "root/a/b": the path of level k of s. */
static const char *level_path(const struct dirscan_stack *s, size_t k, char *buf, size_t len)
{
    struct dirscan_stack v = *s;
    v.n = k + 1;
    return dirscan_path(&v, NULL, buf, len);
}

/* Hands the open subdirectory cfd, entry `name` of level `level`, to the queue (see the
 * file comment). 0, or -1 when it cannot (no memory): the caller descends itself. */
static int hand_off(struct del_thr *dt, struct dirscan_stack *s, size_t level, int cfd,
                    const char *name)
{
    char path[PATH_MAX];
    if (strlen(dirscan_path(s, name, path, sizeof path)) >= DIRSCAN_HANDOFF_MAX ||
        node_slot(dt, level + 1) < 0)
        return -1;
    for (size_t k = 1; k <= level; k++) {
        if (dt->nodes[k])
            continue;
        dt->nodes[k] = node_new(dt->dp, dt->nodes[k - 1], level_path(s, k, path, sizeof path));
        if (!dt->nodes[k])
            return -1;
    }
    dirscan_path(s, name, path, sizeof path);
    struct workq_item it = {.fd = cfd, .fd2 = -1, .path = strdup(path)};
    if (!it.path)
        return -1;
    it.node = node_new(dt->dp, dt->nodes[level], path);
    if (!it.node || workq_put(dt->dp->q, &it) < 0) {
        free(it.path);
        if (it.node) /* never queued: it is gone as far as its parent is concerned */
            atomic_fetch_sub(&dt->nodes[level]->pending, 1);
        return -1;
    }
    return 0;
}

/* Opens subdirectory `name` of the deepest level of s and enters it (pass: how often it
 * was scanned before). 0 or -1 after phase_fail. */
static int enter_sub(struct phase_ctx *ctx, struct dirscan_stack *s, const char *name, int pass,
                     struct del_thr *dt)
{
    int cfd = ctx->eng->opendir(ctx->w, s->lv[s->n - 1].fd, name);
    if (cfd < 0)
        return phase_fail_scan_dir(ctx, s, "open", name, cfd);
    if (dt && node_slot(dt, s->n) < 0) {
        ctx->eng->close(ctx->w, cfd);
        return phase_fail_scan(ctx, s, "delete", name, -ENOMEM);
    }
    if (dt)
        dt->nodes[s->n] = NULL;
    int rc = dirscan_enter(s, cfd, -1, name);
    s->lv[s->n - 1].pass = pass;
    if (rc < 0)
        return phase_fail_scan(ctx, s, "delete", NULL, rc);
    return 0;
}

/* The scan of the deepest level of s (not the start) ended: leave it and remove it, or
 * scan it again when entries reappeared. 0 or -1 after phase_fail. */
static int finish_sub(struct phase_ctx *ctx, struct dirscan_stack *s, struct del_thr *dt)
{
    const struct engine *e = ctx->eng;
    size_t level = s->n - 1;
    int rc = dirscan_leave(s);
    if (rc < 0)
        return phase_fail_scan_dir(ctx, s, "reopen", NULL, rc);
    const struct dirscan *c = &s->lv[level];
    if (dt && dt->nodes[level]) {
        /* something below went to another worker: the last one out removes it */
        struct del_node *n = dt->nodes[level];
        dt->nodes[level] = NULL;
        return node_finish(ctx, n, dt->scratch) < 0 ? -1 : 0;
    }
    rc = e->unlink(ctx->w, s->lv[level - 1].fd, dirscan_name(c), AT_REMOVEDIR);
    if (rc == 0) {
        ctx->res->dirs++;
        return 0;
    }
    if (rc != -ENOTEMPTY || c->pass == DELETE_RESCANS)
        return phase_fail_scan_dir(ctx, s, "rmdir", dirscan_name(c),
                            rmdir_errno(ctx, s->lv[level - 1].fd, dirscan_name(c), rc));
    char name[sizeof c->own];
    snprintf(name, sizeof name, "%s", dirscan_name(c));
    return enter_sub(ctx, s, name, c->pass + 1, dt);
}

/* An entry to delete: a file or symlink unlinked and counted, a directory handed to the
 * queue (threads) or entered to be emptied first. */
static int delete_entry(struct phase_ctx *ctx, struct dirscan_stack *s, size_t base,
                        size_t level, const struct dirscan_ent *ent, void *arg)
{
    struct del_thr *dt = arg;
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    int fd = s->lv[level].fd;
    unsigned char type = ent->type;
    if (type == DT_UNKNOWN) {
        struct stat st;
        int rc = e->stat(w, fd, ent->name, &st);
        if (rc < 0)
            return phase_fail_scan(ctx, s, "stat", ent->name, rc);
        type = (unsigned char)IFTODT(st.st_mode);
    }
    if (type != DT_DIR) {
        int rc = e->unlink(w, fd, ent->name, 0);
        if (rc < 0)
            return phase_fail_scan(ctx, s, "unlink", ent->name, rc);
        if (type == DT_LNK)
            ctx->res->symlinks++;
        else
            ctx->res->files++;
        return 0;
    }
    if (dt && (workq_hungry(dt->dp->q) || (level == base && workq_short(dt->dp->q)))) {
        int cfd = e->opendir(w, fd, ent->name);
        if (cfd < 0)
            return phase_fail_scan_dir(ctx, s, "open", ent->name, cfd);
        if (hand_off(dt, s, level, cfd, ent->name) == 0)
            return 0; /* removed and counted by node_finish */
        e->close(w, cfd);
    }
    return enter_sub(ctx, s, ent->name, 0, dt) < 0 ? -1 : 0;
}

/* A level emptied: removed (finish_sub). */
static int delete_leave(struct phase_ctx *ctx, struct dirscan_stack *s, void *arg)
{
    return finish_sub(ctx, s, arg);
}

/* Empties the directory at the deepest level of s and everything below it (phase_scan).
 * With dt (threads), a subdirectory may go to another worker, and directories with a node
 * are removed by node_finish instead of here. */
static int empty_dir(struct phase_ctx *ctx, struct dirscan_stack *s, struct del_thr *dt)
{
    return phase_scan(ctx, s, delete_entry, delete_leave, dt);
}

/* Removes workspace entry `name` and everything below it; a missing one is not an error. */
static int delete_top(struct phase_ctx *ctx, struct dirscan_stack *s, const char *name)
{
    const struct engine *e = ctx->eng;
    struct stat st;
    int rc = e->stat(ctx->w, ctx->ws_fd, name, &st);
    if (rc == -ENOENT)
        return 0;
    if (rc < 0)
        return phase_fail(ctx, "stat", name, rc);
    bool shared = ctx->nparts > 1;
    for (int pass = 0;; pass++) {
        int fd = e->opendir(ctx->w, ctx->ws_fd, name);
        if (fd == -ENOENT && shared)
            return 0; /* another rank removed it */
        if (fd < 0)
            return phase_fail_dir(ctx, "open", name, fd);
        rc = dirscan_enter(s, fd, -1, name);
        if (rc < 0)
            rc = phase_fail(ctx, "delete", name, rc);
        else
            rc = empty_dir(ctx, s, NULL);
        dirscan_unwind(s, 0);
        if (rc)
            return rc;
        rc = e->unlink(ctx->w, ctx->ws_fd, name, AT_REMOVEDIR);
        if (rc == 0)
            return 0;
        /* Shared: other ranks' shares are still there; the last rank out removes it. */
        if (shared && (rc == -ENOTEMPTY || rc == -ENOENT))
            return 0;
        if (rc != -ENOTEMPTY || pass == DELETE_RESCANS)
            return phase_fail_dir(ctx, "rmdir", name, rmdir_errno(ctx, ctx->ws_fd, name, rc));
    }
}

/* One thread: empties the directories it takes from the queue until all are done. */
static int delete_worker(struct phase_ctx *t, unsigned idx, void *arg)
{
    struct del_thr dt = {.dp = arg, .scratch = calloc(1, sizeof(struct opstats))};
    struct dirscan_stack s = {0};
    dirscan_init(&s, t->eng, t->w, dirscan_window(phase_threads(t), 1));
    struct workq_item it;
    int rc = 0;
    while (rc == 0 && workq_get(dt.dp->q, &it) > 0) {
        if (node_slot(&dt, 0) < 0) {
            t->eng->close(t->w, it.fd);
            rc = phase_fail(t, "delete", it.path, -ENOMEM);
        } else if ((rc = dirscan_enter(&s, it.fd, -1, it.path)) < 0) {
            rc = phase_fail(t, "delete", it.path, rc);
        } else {
            dt.nodes[0] = it.node;
            rc = empty_dir(t, &s, &dt);
        }
        dirscan_unwind(&s, 0);
        if (rc == 0)
            rc = node_finish(t, it.node, dt.scratch);
        free(it.path);
        workq_done(dt.dp->q);
    }
    dirscan_free(&s);
    free(dt.nodes);
    free(dt.scratch);
    return rc;
}

static void delete_stop(void *arg)
{
    workq_stop(((struct del_par *)arg)->q);
}

static void drop_item(struct workq_item *it, void *arg)
{
    struct phase_ctx *ctx = arg;
    ctx->eng->close(ctx->w, it->fd);
}

/* phase_delete on phase_threads(ctx) threads: the queue starts with both tops. */
static int delete_par(struct phase_ctx *ctx)
{
    struct del_par dp = {.q = workq_new(phase_threads(ctx))};
    if (!dp.q)
        return phase_fail(ctx, "delete", PHASE_TREE_DIR, -ENOMEM);
    pthread_mutex_init(&dp.mu, NULL);
    int rc = 0;
    const char *tops[] = {PHASE_TREE_DIR, PHASE_COPY_DIR};
    for (size_t i = 0; i < 2 && rc == 0; i++) {
        struct stat st;
        int r = ctx->eng->stat(ctx->w, ctx->ws_fd, tops[i], &st);
        if (r == -ENOENT)
            continue;
        if (r < 0) {
            rc = phase_fail(ctx, "stat", tops[i], r);
            break;
        }
        int fd = ctx->eng->opendir(ctx->w, ctx->ws_fd, tops[i]);
        if (fd < 0) {
            rc = phase_fail_dir(ctx, "open", tops[i], fd);
            break;
        }
        struct workq_item it = {.fd = fd, .fd2 = -1, .path = strdup(tops[i])};
        it.node = node_new(&dp, NULL, tops[i]);
        if (!it.path || !it.node || workq_put(dp.q, &it) < 0) {
            free(it.path);
            ctx->eng->close(ctx->w, fd);
            rc = phase_fail(ctx, "delete", tops[i], -ENOMEM);
        }
    }
    if (rc == 0)
        rc = phase_par_run(ctx, delete_worker, delete_stop, &dp);
    workq_free(dp.q, drop_item, ctx);
    while (dp.all) {
        struct del_node *n = dp.all;
        dp.all = n->next_all;
        free(n->path);
        free(n);
    }
    pthread_mutex_destroy(&dp.mu);
    return rc;
}

int phase_delete(struct phase_ctx *ctx)
{
    if (phase_threads(ctx) > 1 && ctx->nparts <= 1)
        return delete_par(ctx);
    struct dirscan_stack s = {0};
    dirscan_init(&s, ctx->eng, ctx->w, dirscan_window(1, 1));
    int rc = delete_top(ctx, &s, PHASE_TREE_DIR);
    if (rc == 0)
        rc = delete_top(ctx, &s, PHASE_COPY_DIR);
    dirscan_free(&s);
    return rc;
}

int phase_delete_below(struct phase_ctx *ctx, int dirfd, const char *name)
{
    /* Cleanup must finish even after an interrupt. */
    int saved = phase_interrupt;
    phase_interrupt = 0;
    struct dirscan_stack s = {0};
    dirscan_init(&s, ctx->eng, ctx->w, dirscan_window(1, 1));
    int rc, fd = ctx->eng->opendir(ctx->w, dirfd, ".");
    if (fd < 0) {
        rc = phase_fail_dir(ctx, "open", name, fd);
    } else if ((rc = dirscan_enter(&s, fd, -1, name)) < 0) {
        rc = phase_fail(ctx, "delete", name, rc);
    } else {
        rc = empty_dir(ctx, &s, NULL);
        if (rc == 0) {
            int d = ctx->eng->drain(ctx->w);
            if (d < 0)
                rc = phase_fail(ctx, "delete", name, d);
        }
    }
    dirscan_unwind(&s, 0);
    dirscan_free(&s);
    phase_interrupt = saved;
    return rc < 0 ? -1 : 0;
}
