/* phase_extract.c — create the tree under test, like tar -x: stream the synthetic tree and
 * for each entry mkdir, create+write or symlink through the engine, relative to the fd of
 * the directory being filled. Directory fds are kept on a stack as deep as the tree.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "phase.h"
#include "tarsrc.h"
#include "tree.h"

struct fd_stack {
    int *fd;
    size_t n, cap;
};

static int fd_push(struct fd_stack *s, int fd)
{
    if (s->n == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 32;
        int *p = realloc(s->fd, ncap * sizeof *p);
        if (!p)
            return -ENOMEM;
        s->fd = p;
        s->cap = ncap;
    }
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

/* Creates every entry of the tree below directory fd root. */
static int extract_entries(struct phase_ctx *ctx, struct tree_gen *g, int root)
{
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    struct phase_result *res = ctx->res;
    struct fd_stack st = {0};
    struct tree_entry ent;
    int rc = fd_push(&st, root);

    while (rc == 0 && tree_next(g, &ent) > 0) {
        if (phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        int top = st.fd[st.n - 1];
        switch (ent.kind) {
        case TREE_DIR:
            rc = e->mkdir(w, top, ent.name, ent.mode);
            if (rc < 0) {
                rc = extract_fail(ctx, g, "mkdir", rc);
                break;
            }
            int fd = e->opendir(w, top, ent.name);
            if (fd < 0) {
                rc = extract_fail(ctx, g, "open", fd);
                break;
            }
            if (fd_push(&st, fd) < 0) {
                e->close(w, fd);
                rc = extract_fail(ctx, g, "extract", -ENOMEM);
                break;
            }
            res->dirs++;
            break;
        case TREE_FILE:
            rc = e->create_file(w, top, ent.name, ent.mode, ent.data, ent.data_len, ent.size,
                                ENG_CREATE_EXCL);
            if (rc < 0)
                rc = extract_fail(ctx, g, "create", rc);
            else
                res->files++;
            break;
        case TREE_SYMLINK:
            rc = e->symlink(w, ent.target, top, ent.name);
            if (rc < 0)
                rc = extract_fail(ctx, g, "symlink", rc);
            else
                res->symlinks++;
            break;
        case TREE_LEAVE:
            if (st.n > 1) {
                e->close(w, top);
                st.n--;
            }
            break;
        }
    }
    /* Close whatever an early stop left open (never the root: the caller owns it). */
    while (st.n > 1)
        e->close(w, st.fd[--st.n]);
    free(st.fd);
    if (rc == 0) {
        int d = e->drain(w);
        if (d < 0)
            rc = phase_fail(ctx, "extract", PHASE_TREE_DIR, d);
    }
    return rc < 0 ? -1 : 0;
}

int phase_extract_into(struct phase_ctx *ctx, int root)
{
    if (ctx->tar)
        return phase_extract_tar(ctx, ctx->tar, root);
    struct tree_gen *g = tree_open(ctx->tree);
    if (!g)
        return phase_fail(ctx, "generate", PHASE_TREE_DIR, -ENOMEM);
    int rc = extract_entries(ctx, g, root);
    tree_close(g);
    return rc;
}

int phase_extract(struct phase_ctx *ctx)
{
    const struct engine *e = ctx->eng;
    int rc = e->mkdir(ctx->w, ctx->ws_fd, PHASE_TREE_DIR, 0755);
    if (rc < 0)
        return phase_fail(ctx, "mkdir", PHASE_TREE_DIR, rc);
    int root = e->opendir(ctx->w, ctx->ws_fd, PHASE_TREE_DIR);
    if (root < 0)
        return phase_fail(ctx, "open", PHASE_TREE_DIR, root);
    rc = phase_extract_into(ctx, root);
    e->close(ctx->w, root);
    return rc;
}
