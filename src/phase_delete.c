/* phase_delete.c — remove the tree and its copy, like rm -rf: read each directory, unlink
 * its files and symlinks, descend into subdirectories, remove each directory once empty.
 *
 * Unlinking while a directory is being read is safe on Linux file systems, but POSIX leaves
 * it unspecified whether entries are still returned, so a directory that is not empty when
 * its scan ends is scanned again (a few times at most) before giving up.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include "dirscan.h"
#include "phase.h"

#define DELETE_RESCANS 4

static int del_fail(struct phase_ctx *ctx, struct dirscan_stack *s, const char *op,
                    const char *name, int rc)
{
    char path[PATH_MAX];
    return phase_fail(ctx, op, dirscan_path(s, name, path, sizeof path), rc);
}

/* Empties the directory at level `level` of s (its fd open there). */
static int empty_dir(struct phase_ctx *ctx, struct dirscan_stack *s, size_t level)
{
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    struct dirscan_ent ent;
    int r;

    while ((r = dirscan_next(e, w, &s->lv[level], &ent)) > 0) {
        if (phase_check_interrupt(ctx))
            return -1;
        int fd = s->lv[level].fd;
        unsigned char type = ent.type;
        if (type == DT_UNKNOWN) {
            struct stat st;
            int rc = e->stat(w, fd, ent.name, &st);
            if (rc < 0)
                return del_fail(ctx, s, "stat", ent.name, rc);
            type = (unsigned char)IFTODT(st.st_mode);
        }
        if (type != DT_DIR) {
            int rc = e->unlink(w, fd, ent.name, 0);
            if (rc < 0)
                return del_fail(ctx, s, "unlink", ent.name, rc);
            if (type == DT_LNK)
                ctx->res->symlinks++;
            else
                ctx->res->files++;
            continue;
        }
        for (int pass = 0;; pass++) {
            int cfd = e->opendir(w, fd, ent.name);
            if (cfd < 0)
                return del_fail(ctx, s, "open", ent.name, cfd);
            if (!dirscan_push(s, cfd, ent.name)) {
                e->close(w, cfd);
                return del_fail(ctx, s, "delete", ent.name, -ENOMEM);
            }
            int rc = empty_dir(ctx, s, level + 1);
            dirscan_pop(s);
            e->close(w, cfd);
            if (rc)
                return rc;
            rc = e->unlink(w, fd, ent.name, AT_REMOVEDIR);
            if (rc == 0)
                break;
            if (rc != -ENOTEMPTY || pass == DELETE_RESCANS)
                return del_fail(ctx, s, "rmdir", ent.name, rc);
        }
        ctx->res->dirs++;
    }
    if (r < 0)
        return del_fail(ctx, s, "readdir", NULL, r);
    return 0;
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
    for (int pass = 0;; pass++) {
        int fd = e->opendir(ctx->w, ctx->ws_fd, name);
        if (fd < 0)
            return phase_fail(ctx, "open", name, fd);
        if (!dirscan_push(s, fd, name)) {
            e->close(ctx->w, fd);
            return phase_fail(ctx, "delete", name, -ENOMEM);
        }
        rc = empty_dir(ctx, s, 0);
        dirscan_pop(s);
        e->close(ctx->w, fd);
        if (rc)
            return rc;
        rc = e->unlink(ctx->w, ctx->ws_fd, name, AT_REMOVEDIR);
        if (rc == 0)
            return 0;
        if (rc != -ENOTEMPTY || pass == DELETE_RESCANS)
            return phase_fail(ctx, "rmdir", name, rc);
    }
}

int phase_delete(struct phase_ctx *ctx)
{
    struct dirscan_stack s = {0};
    int rc = delete_top(ctx, &s, PHASE_TREE_DIR);
    if (rc == 0)
        rc = delete_top(ctx, &s, PHASE_COPY_DIR);
    dirscan_free(&s);
    return rc;
}
