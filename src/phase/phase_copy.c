/* phase_copy.c — copy the tree to the sibling "copy", like cp -a or cpdup: directories with
 * their modes and times, regular files' data (copy_file_range where the file system takes
 * it) with modes and times, symlinks with their targets and times. Hard links are copied as
 * separate files (synthetic trees have none).
 *
 * Threads (-j N > 1): the same copier, fed by a shared queue of directories (workq.h): a
 * worker that made and opened a directory's copy hands the pair of fds to the queue when
 * another worker waits for work, else descends itself. A directory's times are set after
 * its own entries are made, by the worker that scanned it (through the fd of its copy,
 * which that worker holds: never by path, which a swapped symlink could redirect). That is
 * post-order enough: a directory's mtime changes only when entries are added to it, not
 * when its subdirectories fill, and nothing reads the copy's directories afterwards, so
 * no count across threads is needed (delete needs one: see phase_delete.c). The top
 * "copy" gets its times after every thread is done, as with one thread. Counts and ops by
 * kind are the same for any N. With N = 1 there is no queue and no lock.
 *
 * Depth: the descent lives on a dirscan stack (source and copy fds per level, the
 * source's times to set when the level is left), not on the C stack, with a window of open
 * levels (dirscan.h): any depth and path length with a bounded number of fds. Directories
 * whose path is longer than DIRSCAN_HANDOFF_MAX are copied by the thread that found them.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/dirscan.h"
#include "phase/phase.h"
#include "phase/phase_scan.h"
#include "phase/workq.h"

/* A directory (of the tree, or with copy set of its copy) could not be opened. */
static int copy_fail_dir(struct phase_ctx *ctx, struct dirscan_stack *s, const char *op,
                         const char *name, int rc, bool copy)
{
    char path[PATH_MAX];
    dirscan_path(s, name, path, sizeof path);
    size_t tl = strlen(PHASE_TREE_DIR);
    if (copy && strncmp(path, PHASE_TREE_DIR, tl) == 0 && (path[tl] == '/' || !path[tl])) {
        char cpath[PATH_MAX];
        snprintf(cpath, sizeof cpath, "%s%s", PHASE_COPY_DIR, path + tl);
        return phase_fail_dir(ctx, op, cpath, rc);
    }
    return phase_fail_dir(ctx, op, path, rc);
}

/* Hands a directory (source fd sfd, its copy dfd; entry `name` of the deepest level of s)
 * to the queue. 0, or -1 when it cannot (no memory, or a path too long to name it by):
 * the caller descends itself. */
static int hand_off(struct workq *q, struct dirscan_stack *s, int sfd, int dfd,
                    const char *name, const struct timespec times[2])
{
    char path[PATH_MAX];
    struct workq_item it = {.fd = sfd, .fd2 = dfd, .times = {times[0], times[1]}};
    if (strlen(dirscan_path(s, name, path, sizeof path)) >= DIRSCAN_HANDOFF_MAX)
        return -1;
    return workq_put_path(q, &it, path);
}

/* An entry of the copy: a directory made and opened (source and copy) and descended into
 * or handed to the queue, a file copied, a symlink made. */
static int copy_entry(struct phase_ctx *ctx, struct dirscan_stack *s, size_t base, size_t level,
                      const struct dirscan_ent *ent, void *arg)
{
    struct workq *q = arg;
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    int src = s->lv[level].fd, dst = s->lv[level].fd2;
    struct stat st;
    int rc = e->stat(w, src, ent->name, &st);
    if (rc < 0)
        return phase_fail_scan(ctx, s, "stat", ent->name, rc);
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    mode_t mode = st.st_mode & 07777;

    if (S_ISDIR(st.st_mode)) {
        rc = e->mkdir(w, dst, ent->name, mode | 0700);
        if (rc < 0)
            return phase_fail_scan(ctx, s, "mkdir", ent->name, rc);
        int sfd = e->opendir(w, src, ent->name);
        if (sfd < 0)
            return copy_fail_dir(ctx, s, "open", ent->name, sfd, false);
        int dfd = e->opendir(w, dst, ent->name);
        if (dfd < 0) {
            e->close(w, sfd);
            return copy_fail_dir(ctx, s, "open copy of", ent->name, dfd, true);
        }
        if (q && (workq_hungry(q) || (level == base && workq_short(q))) &&
            hand_off(q, s, sfd, dfd, ent->name, times) == 0)
            return 0; /* its times and count: the worker that takes it */
        rc = dirscan_enter(s, sfd, dfd, ent->name);
        s->lv[s->n - 1].times[0] = times[0];
        s->lv[s->n - 1].times[1] = times[1];
        if (rc < 0)
            return phase_fail_scan(ctx, s, "copy", NULL, rc);
    } else if (S_ISREG(st.st_mode)) {
        uint64_t bytes;
        rc = e->copy_file(w, src, ent->name, dst, ent->name, mode, times, ctx->buf,
                          ctx->buflen, &bytes);
        if (rc < 0)
            return phase_fail_scan(ctx, s, "copy", ent->name, rc);
        ctx->res->files++;
    } else if (S_ISLNK(st.st_mode)) {
        char target[PATH_MAX];
        rc = e->readlink(w, src, ent->name, target, sizeof target);
        if (rc < 0)
            return phase_fail_scan(ctx, s, "readlink", ent->name, rc);
        rc = e->symlink(w, target, dst, ent->name);
        if (rc < 0)
            return phase_fail_scan(ctx, s, "symlink", ent->name, rc);
        rc = e->set_times(w, dst, ent->name, times);
        if (rc < 0)
            return phase_fail_scan(ctx, s, "set times of", ent->name, rc);
        ctx->res->symlinks++;
    }
    /* Devices, fifos and sockets are not part of any tree fsbench makes. */
    return 0;
}

/* A level copied to its end: back to its parent, and the copy of the level gets its times
 * last (filling the directory changed its mtime). */
static int copy_leave(struct phase_ctx *ctx, struct dirscan_stack *s, void *arg)
{
    const struct engine *e = ctx->eng;
    int rc = dirscan_leave(s);
    if (rc < 0)
        return copy_fail_dir(ctx, s, "reopen", NULL, rc, false);
    const struct dirscan *c = &s->lv[s->n];
    rc = e->set_times(ctx->w, s->lv[s->n - 1].fd2, dirscan_name(c), c->times);
    if (rc < 0)
        return phase_fail_scan(ctx, s, "set times of", dirscan_name(c), rc);
    ctx->res->dirs++;
    return 0;
}

/* Copies the entries of the deepest level of s (fd: the source, fd2: its copy) and
 * everything below (phase_scan); with a queue q (threads), subdirectories may go to other
 * workers. */
static int copy_dir(struct phase_ctx *ctx, struct dirscan_stack *s, struct workq *q)
{
    return phase_scan(ctx, s, copy_entry, copy_leave, q);
}

/* One thread: copies the directories it takes from the queue until all are done. */
static int copy_worker(struct phase_ctx *t, unsigned idx, void *arg)
{
    struct workq *q = arg;
    struct dirscan_stack s = {0};
    dirscan_init(&s, t->eng, t->w, dirscan_window(phase_threads(t), 2));
    struct workq_item it;
    int rc = 0;
    while (rc == 0 && workq_get(q, &it) > 0) {
        rc = dirscan_enter(&s, it.fd, it.fd2, it.path);
        if (rc < 0)
            rc = phase_fail(t, "copy", it.path, rc);
        else
            rc = copy_dir(t, &s, q);
        /* The times of the copy, through its own fd (never by its path: a directory on the
         * way may have been swapped for a symlink), once what this worker queued in it is
         * done; the top's are set by phase_copy once every thread is done. */
        if (rc == 0 && strcmp(it.path, PHASE_TREE_DIR)) {
            rc = t->eng->drain(t->w);
            if (rc == 0)
                rc = t->eng->fsetattr(t->w, s.lv[0].fd2, (mode_t)-1, it.times);
            if (rc < 0)
                rc = phase_fail(t, "set times of", it.path, rc);
            else
                t->res->dirs++;
        }
        dirscan_unwind(&s, 0);
        free(it.path);
        workq_done(q);
    }
    dirscan_free(&s);
    return rc;
}

static void copy_stop(void *arg)
{
    workq_stop(arg);
}

static void drop_item(struct workq_item *it, void *arg)
{
    struct phase_ctx *ctx = arg;
    ctx->eng->close(ctx->w, it->fd2);
    ctx->eng->close(ctx->w, it->fd);
}

/* Copies source fd sfd into dfd on phase_threads(ctx) threads; takes both fds. */
static int copy_par(struct phase_ctx *ctx, int sfd, int dfd)
{
    struct workq *q = workq_new(phase_threads(ctx));
    struct workq_item it = {.fd = sfd, .fd2 = dfd, .path = strdup(PHASE_TREE_DIR)};
    if (!q || !it.path || workq_put(q, &it) < 0) {
        free(it.path);
        workq_free(q, NULL, NULL);
        ctx->eng->close(ctx->w, dfd);
        ctx->eng->close(ctx->w, sfd);
        return phase_fail(ctx, "copy", PHASE_TREE_DIR, -ENOMEM);
    }
    int rc = phase_par_run(ctx, copy_worker, copy_stop, q);
    workq_free(q, drop_item, ctx);
    return rc;
}

int phase_copy(struct phase_ctx *ctx)
{
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    struct stat st;
    int rc = e->stat(w, ctx->ws_fd, PHASE_TREE_DIR, &st);
    if (rc < 0)
        return phase_fail(ctx, "stat", PHASE_TREE_DIR, rc);
    rc = e->mkdir(w, ctx->ws_fd, PHASE_COPY_DIR, (st.st_mode & 07777) | 0700);
    if (rc < 0 && !(rc == -EEXIST && ctx->nparts > 1)) /* shared: another rank made it */
        return phase_fail(ctx, "mkdir", PHASE_COPY_DIR, rc);
    int sfd = e->opendir(w, ctx->ws_fd, PHASE_TREE_DIR);
    if (sfd < 0)
        return phase_fail_dir(ctx, "open", PHASE_TREE_DIR, sfd);
    int dfd = e->opendir(w, ctx->ws_fd, PHASE_COPY_DIR);
    if (dfd < 0) {
        e->close(w, sfd);
        return phase_fail_dir(ctx, "open", PHASE_COPY_DIR, dfd);
    }
    if (phase_threads(ctx) > 1) {
        rc = copy_par(ctx, sfd, dfd);
    } else {
        struct dirscan_stack s = {0};
        dirscan_init(&s, e, w, dirscan_window(1, 2));
        rc = dirscan_enter(&s, sfd, dfd, PHASE_TREE_DIR);
        if (rc < 0)
            rc = phase_fail(ctx, "copy", PHASE_TREE_DIR, rc);
        else
            rc = copy_dir(ctx, &s, NULL);
        dirscan_unwind(&s, 0);
        dirscan_free(&s);
    }
    if (rc == 0) {
        struct timespec times[2] = {st.st_atim, st.st_mtim};
        rc = e->set_times(w, ctx->ws_fd, PHASE_COPY_DIR, times);
        if (rc < 0)
            return phase_fail(ctx, "set times of", PHASE_COPY_DIR, rc);
    }
    return rc;
}
