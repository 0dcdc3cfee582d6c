/* phase_walk.c — the phases that walk an existing tree: walk (readdir only, like find),
 * statwalk (readdir + lstat of every entry, like find -ls) and read (every file read to the
 * end). One depth-first walker serves all three; the mode says what it does per entry.
 *
 * Counts: files, dirs and symlinks seen below the tree root (the root itself not counted),
 * so the counts equal what extract created.
 *
 * Threads (-j N > 1): the same walker, fed by a shared queue of directories (workq.h). A
 * worker meeting a subdirectory opens it and, when another worker waits for work, hands the
 * open fd with its path to the queue instead of descending; the taker reads it and closes
 * it. Workers also keep a few subdirectories of their item's top directory queued ahead
 * (workq_short), so idle workers rarely sleep. Every directory is still opened, read and
 * closed exactly once, so every count (ops by kind included) is the same for any N (readdir
 * calls depend only on each directory's layout). With N = 1 there is no queue and no lock.
 *
 * Depth: the descent lives on a dirscan stack, not the C stack, with a window of open
 * directories (dirscan.h): any depth, any path length, a bounded number of fds. A tree
 * deeper than the window reopens ancestors (one more open each), so its op counts differ
 * by those opens between N = 1 and N > 1; directories deeper than DIRSCAN_HANDOFF_MAX
 * characters of path are walked by the thread that found them.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/dirscan.h"
#include "phase/phase.h"
#include "phase/phase_scan.h"
#include "phase/workq.h"

enum walk_mode { WALK_NAMES, WALK_STAT, WALK_READ };

/* Hands the open subdirectory cfd (entry `name` of the deepest level of s) to the queue.
 * 0, or -1 when it cannot (no memory, or a path too long to name it by): the caller
 * descends itself. */
static int hand_off(struct workq *q, struct dirscan_stack *s, int cfd, const char *name)
{
    char path[PATH_MAX];
    struct workq_item it = {.fd = cfd, .fd2 = -1};
    if (strlen(dirscan_path(s, name, path, sizeof path)) >= DIRSCAN_HANDOFF_MAX)
        return -1;
    return workq_put_path(q, &it, path);
}

struct walk_visit {
    enum walk_mode mode;
    struct workq *q;
};

/* An entry of a walk: counted, stat'ed (statwalk, or a type the directory does not say),
 * read (read), a directory descended into or handed to the queue. */
static int walk_entry(struct phase_ctx *ctx, struct dirscan_stack *s, size_t base, size_t level,
                      const struct dirscan_ent *ent, void *arg)
{
    const struct walk_visit *v = arg;
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    struct phase_result *res = ctx->res;
    int fd = s->lv[level].fd;
    unsigned char type = ent->type;
    if (v->mode == WALK_STAT || type == DT_UNKNOWN) {
        struct stat st;
        int rc = e->stat(w, fd, ent->name, &st);
        if (rc < 0)
            return phase_fail_scan(ctx, s, "stat", ent->name, rc);
        type = (unsigned char)IFTODT(st.st_mode);
    }
    if (type == DT_DIR) {
        res->dirs++;
        int cfd = e->opendir(w, fd, ent->name);
        if (cfd < 0)
            return phase_fail_scan_dir(ctx, s, "open", ent->name, cfd);
        struct workq *q = v->q;
        if (q && (workq_hungry(q) || (level == base && workq_short(q))) &&
            hand_off(q, s, cfd, ent->name) == 0)
            return 0;
        int rc = dirscan_enter(s, cfd, -1, ent->name);
        if (rc < 0)
            return phase_fail_scan(ctx, s, "walk", NULL, rc);
    } else if (type == DT_LNK) {
        res->symlinks++;
    } else {
        res->files++;
        if (v->mode == WALK_READ && type == DT_REG) {
            uint64_t got;
            int rc = e->read_file(w, fd, ent->name, ctx->buf, ctx->buflen, &got);
            if (rc < 0)
                return phase_fail_scan(ctx, s, "read", ent->name, rc);
        }
    }
    return 0;
}

/* A level read to its end: back to its parent (reopened when the window closed it). */
static int walk_leave(struct phase_ctx *ctx, struct dirscan_stack *s, void *arg)
{
    int rc = dirscan_leave(s);
    return rc < 0 ? phase_fail_scan_dir(ctx, s, "reopen", NULL, rc) : 0;
}

/* Walks the directory at the deepest level of s and everything below it (phase_scan). With
 * a queue q (threads), subdirectories may be handed to other workers instead. */
static int walk_dir(struct phase_ctx *ctx, struct dirscan_stack *s, enum walk_mode mode,
                    struct workq *q)
{
    struct walk_visit v = {.mode = mode, .q = q};
    return phase_scan(ctx, s, walk_entry, walk_leave, &v);
}

struct walk_par {
    struct workq *q;
    enum walk_mode mode;
};

/* One thread: walks the directories it takes from the queue until all are done. */
static int walk_worker(struct phase_ctx *t, unsigned idx, void *arg)
{
    struct walk_par *wp = arg;
    struct dirscan_stack s = {0};
    dirscan_init(&s, t->eng, t->w, dirscan_window(phase_threads(t), 1));
    struct workq_item it;
    int rc = 0;
    while (rc == 0 && workq_get(wp->q, &it) > 0) {
        rc = dirscan_enter(&s, it.fd, -1, it.path);
        if (rc < 0)
            rc = phase_fail(t, "walk", it.path, rc);
        else
            rc = walk_dir(t, &s, wp->mode, wp->q);
        dirscan_unwind(&s, 0);
        free(it.path);
        workq_done(wp->q);
    }
    dirscan_free(&s);
    return rc;
}

static void walk_stop(void *arg)
{
    workq_stop(((struct walk_par *)arg)->q);
}

/* Closes a directory left in the queue by a stop. */
static void drop_item(struct workq_item *it, void *arg)
{
    struct phase_ctx *ctx = arg;
    ctx->eng->close(ctx->w, it->fd);
    if (it->fd2 >= 0)
        ctx->eng->close(ctx->w, it->fd2);
}

/* walk_tree on phase_threads(ctx) threads, fed by a queue that starts with the root fd. */
static int walk_tree_par(struct phase_ctx *ctx, enum walk_mode mode, int fd)
{
    struct walk_par wp = {.q = workq_new(phase_threads(ctx)), .mode = mode};
    struct workq_item it = {.fd = fd, .fd2 = -1, .path = strdup(PHASE_TREE_DIR)};
    if (!wp.q || !it.path || workq_put(wp.q, &it) < 0) {
        free(it.path);
        workq_free(wp.q, NULL, NULL);
        ctx->eng->close(ctx->w, fd);
        return phase_fail(ctx, "walk", PHASE_TREE_DIR, -ENOMEM);
    }
    int rc = phase_par_run(ctx, walk_worker, walk_stop, &wp);
    workq_free(wp.q, drop_item, ctx);
    return rc;
}

/* Walks the tree "tree" of the workspace in the given mode. */
static int walk_tree(struct phase_ctx *ctx, enum walk_mode mode)
{
    struct dirscan_stack s = {0};
    int fd = ctx->eng->opendir(ctx->w, ctx->ws_fd, PHASE_TREE_DIR);
    if (fd < 0)
        return phase_fail_dir(ctx, "open", PHASE_TREE_DIR, fd);
    if (phase_threads(ctx) > 1)
        return walk_tree_par(ctx, mode, fd);
    dirscan_init(&s, ctx->eng, ctx->w, dirscan_window(1, 1));
    int rc = dirscan_enter(&s, fd, -1, PHASE_TREE_DIR);
    if (rc < 0)
        rc = phase_fail(ctx, "walk", PHASE_TREE_DIR, rc);
    else
        rc = walk_dir(ctx, &s, mode, NULL);
    dirscan_unwind(&s, 0);
    dirscan_free(&s);
    return rc;
}

int phase_walk(struct phase_ctx *ctx)
{
    return walk_tree(ctx, WALK_NAMES);
}

int phase_statwalk(struct phase_ctx *ctx)
{
    return walk_tree(ctx, WALK_STAT);
}

int phase_read(struct phase_ctx *ctx)
{
    return walk_tree(ctx, WALK_READ);
}
