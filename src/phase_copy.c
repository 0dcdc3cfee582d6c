/* phase_copy.c — copy the tree to the sibling "copy", like cp -a or cpdup: directories with
 * their modes and times, regular files' data (copy_file_range where the file system takes
 * it) with modes and times, symlinks with their targets and times. Hard links are copied as
 * separate files (synthetic trees have none).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

#include "dirscan.h"
#include "phase.h"

static int copy_fail(struct phase_ctx *ctx, struct dirscan_stack *s, const char *op,
                     const char *name, int rc)
{
    char path[PATH_MAX];
    return phase_fail(ctx, op, dirscan_path(s, name, path, sizeof path), rc);
}

/* Copies the entries of source level `level` (fd open there) into directory fd dst. */
static int copy_dir(struct phase_ctx *ctx, struct dirscan_stack *s, size_t level, int dst)
{
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    struct dirscan_ent ent;
    int r;

    while ((r = dirscan_next(e, w, &s->lv[level], &ent)) > 0) {
        if (phase_check_interrupt(ctx))
            return -1;
        int src = s->lv[level].fd;
        struct stat st;
        int rc = e->stat(w, src, ent.name, &st);
        if (rc < 0)
            return copy_fail(ctx, s, "stat", ent.name, rc);
        struct timespec times[2] = {st.st_atim, st.st_mtim};
        mode_t mode = st.st_mode & 07777;

        if (S_ISDIR(st.st_mode)) {
            rc = e->mkdir(w, dst, ent.name, mode | 0700);
            if (rc < 0)
                return copy_fail(ctx, s, "mkdir", ent.name, rc);
            int sfd = e->opendir(w, src, ent.name);
            if (sfd < 0)
                return copy_fail(ctx, s, "open", ent.name, sfd);
            int dfd = e->opendir(w, dst, ent.name);
            if (dfd < 0) {
                e->close(w, sfd);
                return copy_fail(ctx, s, "open copy of", ent.name, dfd);
            }
            if (!dirscan_push(s, sfd, ent.name)) {
                rc = copy_fail(ctx, s, "copy", ent.name, -ENOMEM);
            } else {
                rc = copy_dir(ctx, s, level + 1, dfd);
                dirscan_pop(s);
            }
            e->close(w, dfd);
            e->close(w, sfd);
            if (rc)
                return rc;
            /* Times last: filling the directory changed its mtime. */
            rc = e->set_times(w, dst, ent.name, times);
            if (rc < 0)
                return copy_fail(ctx, s, "set times of", ent.name, rc);
            ctx->res->dirs++;
        } else if (S_ISREG(st.st_mode)) {
            uint64_t bytes;
            rc = e->copy_file(w, src, ent.name, dst, ent.name, mode, times, ctx->buf,
                              ctx->buflen, &bytes);
            if (rc < 0)
                return copy_fail(ctx, s, "copy", ent.name, rc);
            ctx->res->files++;
        } else if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            rc = e->readlink(w, src, ent.name, target, sizeof target);
            if (rc < 0)
                return copy_fail(ctx, s, "readlink", ent.name, rc);
            rc = e->symlink(w, target, dst, ent.name);
            if (rc < 0)
                return copy_fail(ctx, s, "symlink", ent.name, rc);
            rc = e->set_times(w, dst, ent.name, times);
            if (rc < 0)
                return copy_fail(ctx, s, "set times of", ent.name, rc);
            ctx->res->symlinks++;
        }
        /* Devices, fifos and sockets are not part of any tree fsbench makes. */
    }
    if (r < 0)
        return copy_fail(ctx, s, "readdir", NULL, r);
    return 0;
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
    if (rc < 0)
        return phase_fail(ctx, "mkdir", PHASE_COPY_DIR, rc);
    int sfd = e->opendir(w, ctx->ws_fd, PHASE_TREE_DIR);
    if (sfd < 0)
        return phase_fail(ctx, "open", PHASE_TREE_DIR, sfd);
    int dfd = e->opendir(w, ctx->ws_fd, PHASE_COPY_DIR);
    if (dfd < 0) {
        e->close(w, sfd);
        return phase_fail(ctx, "open", PHASE_COPY_DIR, dfd);
    }
    struct dirscan_stack s = {0};
    if (!dirscan_push(&s, sfd, PHASE_TREE_DIR))
        rc = phase_fail(ctx, "copy", PHASE_TREE_DIR, -ENOMEM);
    else
        rc = copy_dir(ctx, &s, 0, dfd);
    dirscan_free(&s);
    e->close(w, dfd);
    e->close(w, sfd);
    if (rc == 0) {
        struct timespec times[2] = {st.st_atim, st.st_mtim};
        rc = e->set_times(w, ctx->ws_fd, PHASE_COPY_DIR, times);
        if (rc < 0)
            return phase_fail(ctx, "set times of", PHASE_COPY_DIR, rc);
    }
    return rc;
}
