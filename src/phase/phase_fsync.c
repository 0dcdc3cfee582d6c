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

#include "phase/tarcalls.h"
#include "phase/workload.h"

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

int phase_createsync(struct phase_ctx *ctx)
{
    /* extract, with an fsync of every file before its close (and its threads with -j), and
     * fs_mark's calls: the entries alone, no owner, mode or time (--extract-calls create) */
    struct phase_ctx c = *ctx;
    struct phase_params pp = ctx->params ? *ctx->params : (struct phase_params){0};
    pp.extract_calls = EXTRACT_CALLS_CREATE;
    c.params = &pp;
    c.create_flags |= ENG_CREATE_FSYNC;
    return phase_extract(&c);
}
