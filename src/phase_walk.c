/* phase_walk.c — the phases that walk an existing tree: walk (readdir only, like find),
 * statwalk (readdir + lstat of every entry, like find -ls) and read (every file read to the
 * end). One depth-first walker serves all three; the mode says what it does per entry.
 *
 * Counts: files, dirs and symlinks seen below the tree root (the root itself not counted),
 * so the counts equal what extract created.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

#include "dirscan.h"
#include "phase.h"

enum walk_mode { WALK_NAMES, WALK_STAT, WALK_READ };

static int walk_fail(struct phase_ctx *ctx, struct dirscan_stack *s, const char *op,
                     const char *name, int rc)
{
    char path[PATH_MAX];
    return phase_fail(ctx, op, dirscan_path(s, name, path, sizeof path), rc);
}

static int walk_dir(struct phase_ctx *ctx, struct dirscan_stack *s, size_t level,
                    enum walk_mode mode)
{
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    struct phase_result *res = ctx->res;
    struct dirscan_ent ent;
    int r;

    while ((r = dirscan_next(e, w, &s->lv[level], &ent)) > 0) {
        if (phase_check_interrupt(ctx))
            return -1;
        int fd = s->lv[level].fd;
        unsigned char type = ent.type;
        if (mode == WALK_STAT || type == DT_UNKNOWN) {
            struct stat st;
            int rc = e->stat(w, fd, ent.name, &st);
            if (rc < 0)
                return walk_fail(ctx, s, "stat", ent.name, rc);
            type = (unsigned char)IFTODT(st.st_mode);
        }
        if (type == DT_DIR) {
            res->dirs++;
            int cfd = e->opendir(w, fd, ent.name);
            if (cfd < 0)
                return walk_fail(ctx, s, "open", ent.name, cfd);
            if (!dirscan_push(s, cfd, ent.name)) {
                e->close(w, cfd);
                return walk_fail(ctx, s, "walk", ent.name, -ENOMEM);
            }
            int rc = walk_dir(ctx, s, level + 1, mode);
            dirscan_pop(s);
            e->close(w, cfd);
            if (rc)
                return rc;
        } else if (type == DT_LNK) {
            res->symlinks++;
        } else {
            res->files++;
            if (mode == WALK_READ && type == DT_REG) {
                uint64_t got;
                int rc = e->read_file(w, fd, ent.name, ctx->buf, ctx->buflen, &got);
                if (rc < 0)
                    return walk_fail(ctx, s, "read", ent.name, rc);
            }
        }
    }
    if (r < 0)
        return walk_fail(ctx, s, "readdir", NULL, r);
    return 0;
}

/* Walks the tree "tree" of the workspace in the given mode. */
static int walk_tree(struct phase_ctx *ctx, enum walk_mode mode)
{
    struct dirscan_stack s = {0};
    int fd = ctx->eng->opendir(ctx->w, ctx->ws_fd, PHASE_TREE_DIR);
    if (fd < 0)
        return phase_fail(ctx, "open", PHASE_TREE_DIR, fd);
    int rc;
    if (!dirscan_push(&s, fd, PHASE_TREE_DIR))
        rc = phase_fail(ctx, "walk", PHASE_TREE_DIR, -ENOMEM);
    else
        rc = walk_dir(ctx, &s, 0, mode);
    ctx->eng->close(ctx->w, fd);
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
