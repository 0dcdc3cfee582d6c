/* phase_fsync.c — fsync storms (seed 003: CVS fsyncs every file it touches, and journaling
 * lost 5x to softdep there).
 *
 * fsyncstorm rewrites every regular file of "tree" the way CVS (and RCS, and most version
 * control tools) commit a file: write the new version to ",name," in the same directory,
 * fsync it, rename it over "name", and with params->fsync_dir also fsync the directory so
 * the rename is durable. The new version is the original read back through ctx->buf (so the
 * phase reads and writes every byte, as `cvs rtag` does with each ,v file) with the bytes at
 * offsets 0, size/2 and size-1 each incremented by one (mod 256): a revision bump in the
 * header, the middle and the end. Sizes never change; an empty file stays empty. Files are
 * visited in name order, directory by directory, depth first; symlinks are left alone.
 * Tree names never contain ',', so a ",name," can never be a file of the tree.
 *
 * createsync is extract with an fsync of every file before its close (fs_mark -S 1): a
 * private copy of extract's loop passing ENG_CREATE_FSYNC. (A flag in phase_ctx read by
 * phase_extract_into would make the copy unnecessary: a one-line change proposed to the
 * lead.)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "workload.h"

struct storm {
    bool fsync_dir;
};

/* Rewrites one file: ",name," <- name with bytes bumped, fsync, rename over name. */
static int storm_file(struct phase_ctx *ctx, int dirfd, const char *path, const char *name,
                      uint64_t size, mode_t mode, const struct storm *st)
{
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    char tmp[NAME_MAX + 1];
    char where[PATH_MAX];
    snprintf(where, sizeof where, "%s/%s", path, name);
    if ((size_t)snprintf(tmp, sizeof tmp, ",%s,", name) >= sizeof tmp)
        return phase_fail(ctx, "create", where, -ENAMETOOLONG);

    int in = e->open(w, dirfd, name, O_RDONLY | O_NOFOLLOW, 0);
    if (in < 0)
        return phase_fail(ctx, "open", where, in);
    int out = e->open(w, dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode & 07777);
    if (out < 0) {
        e->close(w, in);
        snprintf(where, sizeof where, "%s/%s", path, tmp);
        return phase_fail(ctx, "create", where, out);
    }
    const uint64_t bump[3] = {0, size / 2, size ? size - 1 : 0};
    unsigned char *buf = ctx->buf;
    uint64_t off = 0;
    int rc = 0;
    const char *op = "read";
    for (;;) {
        long n = e->read(w, in, buf, ctx->buflen);
        if (n <= 0) {
            rc = (int)n;
            break;
        }
        /* Each distinct offset once (they coincide for files of 1 or 2 bytes). */
        for (int i = 0; i < 3; i++) {
            if (bump[i] < off || bump[i] >= off + (uint64_t)n)
                continue;
            if ((i > 0 && bump[i] == bump[i - 1]) || (i == 2 && bump[2] == bump[0]))
                continue;
            buf[bump[i] - off]++;
        }
        for (long done = 0; done < n;) {
            long wr = e->write(w, out, buf + done, (size_t)(n - done));
            if (wr <= 0) {
                rc = wr < 0 ? (int)wr : -EIO;
                op = "write";
                break;
            }
            done += wr;
        }
        if (rc)
            break;
        off += (uint64_t)n;
    }
    if (rc == 0) {
        op = "fsync";
        rc = e->fsync(w, out);
    }
    e->close(w, in);
    int rc2 = e->close(w, out);
    if (rc == 0 && rc2 < 0) {
        op = "close";
        rc = rc2;
    }
    if (rc == 0) {
        op = "rename";
        rc = e->rename(w, dirfd, tmp, dirfd, name);
    }
    if (rc < 0) {
        e->unlink(w, dirfd, tmp, 0); /* best effort: leave no ",name," behind */
        snprintf(where, sizeof where, "%s/%s", path, strcmp(op, "rename") ? tmp : name);
        return phase_fail(ctx, op, where, rc);
    }
    if (st->fsync_dir) {
        rc = e->fsync(w, dirfd);
        if (rc < 0)
            return phase_fail(ctx, "fsync", path, rc);
    }
    ctx->res->files++;
    return 0;
}

static int storm_visit(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                       unsigned depth, void *arg)
{
    for (size_t i = 0; i < l->n; i++) {
        if (l->ent[i].type != DT_REG)
            continue;
        if (phase_check_interrupt(ctx))
            return -1;
        const char *name = wl_name(l, i);
        if (name[0] == ',')
            continue; /* a leftover of an interrupted storm, not a tree file */
        if (storm_file(ctx, dirfd, path, name, l->ent[i].size, l->ent[i].mode, arg) < 0)
            return -1;
    }
    return 0;
}

int phase_fsyncstorm(struct phase_ctx *ctx)
{
    struct storm st = {.fsync_dir = ctx->params && ctx->params->fsync_dir};
    struct wl_walk wk = {
        .visit = storm_visit,
        .stat_all = true,
        .count_dirs = true,
        .arg = &st,
    };
    int rc = wl_walk(ctx, ctx->ws_fd, PHASE_TREE_DIR, PHASE_TREE_DIR, &wk);
    if (rc == 0) {
        int d = ctx->eng->drain(ctx->w);
        if (d < 0)
            rc = phase_fail(ctx, "fsyncstorm", PHASE_TREE_DIR, d);
    }
    return rc;
}

/* ---- createsync ---- */

/* Extract's loop with ENG_CREATE_FSYNC. The generator bounds the depth, so the directory
 * fds fit a fixed stack. */
static int createsync_entries(struct phase_ctx *ctx, struct tree_gen *g, int root)
{
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    struct phase_result *res = ctx->res;
    int stack[TREE_MAX_DEPTH + 2];
    size_t n = 0;
    struct tree_entry ent;
    int rc = 0;

    stack[n++] = root;
    while (rc == 0 && tree_next(g, &ent) > 0) {
        if (phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        int top = stack[n - 1];
        switch (ent.kind) {
        case TREE_DIR: {
            rc = e->mkdir(w, top, ent.name, ent.mode);
            if (rc < 0) {
                rc = phase_fail(ctx, "mkdir", tree_path(g), rc);
                break;
            }
            int fd = e->opendir(w, top, ent.name);
            if (fd < 0) {
                rc = phase_fail(ctx, "open", tree_path(g), fd);
                break;
            }
            if (n == sizeof stack / sizeof stack[0]) {
                e->close(w, fd);
                rc = phase_fail(ctx, "createsync", tree_path(g), -ELOOP);
                break;
            }
            stack[n++] = fd;
            res->dirs++;
            break;
        }
        case TREE_FILE:
            rc = e->create_file(w, top, ent.name, ent.mode, ent.data, ent.data_len, ent.size,
                                ENG_CREATE_EXCL | ENG_CREATE_FSYNC);
            if (rc < 0)
                rc = phase_fail(ctx, "create", tree_path(g), rc);
            else
                res->files++;
            break;
        case TREE_SYMLINK:
            rc = e->symlink(w, ent.target, top, ent.name);
            if (rc < 0)
                rc = phase_fail(ctx, "symlink", tree_path(g), rc);
            else
                res->symlinks++;
            break;
        case TREE_LEAVE:
            if (n > 1)
                e->close(w, stack[--n]);
            break;
        }
    }
    while (n > 1)
        e->close(w, stack[--n]);
    if (rc == 0) {
        int d = e->drain(w);
        if (d < 0)
            rc = phase_fail(ctx, "createsync", PHASE_TREE_DIR, d);
    }
    return rc < 0 ? -1 : 0;
}

int phase_createsync(struct phase_ctx *ctx)
{
    const struct engine *e = ctx->eng;
    int rc = e->mkdir(ctx->w, ctx->ws_fd, PHASE_TREE_DIR, 0755);
    if (rc < 0)
        return phase_fail(ctx, "mkdir", PHASE_TREE_DIR, rc);
    int root = e->opendir(ctx->w, ctx->ws_fd, PHASE_TREE_DIR);
    if (root < 0)
        return phase_fail(ctx, "open", PHASE_TREE_DIR, root);
    struct tree_gen *g = tree_open(ctx->tree);
    if (!g)
        rc = phase_fail(ctx, "generate", PHASE_TREE_DIR, -ENOMEM);
    else
        rc = createsync_entries(ctx, g, root);
    tree_close(g);
    e->close(ctx->w, root);
    return rc;
}
