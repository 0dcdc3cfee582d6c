/* phase.c — the helpers every phase uses to fail, skip and stop (the registry is phase_registry.c). */
#include "phase/phase.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/hash.h"
#include "base/sig.h"
#include "engine/dirscan.h"

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "phase_interrupt is set by a signal handler");
volatile atomic_int phase_interrupt;
atomic_int phase_stonewall;

/* What an errno says was found at a path of fsbench's tree instead of what fsbench made
 * there (dir: a directory was expected), or NULL when it says nothing of the kind. */
static const char *changed_what(int e, bool dir)
{
    switch (e) {
    case ELOOP:
        return dir ? "a symlink where fsbench made a directory"
                   : "a symlink where fsbench made a file";
    case EISDIR:
        return dir ? NULL : "a directory where fsbench made a file";
    case ENOTDIR:
        return dir ? "a file where fsbench made a directory" : NULL;
    case ESTALE:
        return dir ? "moved while fsbench worked in it" : NULL;
    case ENOTEMPTY:
        return dir ? "entries added while fsbench removed it" : NULL;
    default:
        return NULL;
    }
}

/* phase_fail, saying what an errno of a changed tree means when it says so. */
static int fail_as(struct phase_ctx *ctx, const char *op, const char *path, int neg_errno,
                   bool dir)
{
    struct phase_result *r = ctx->res;
    if (r->status != PHASE_FAILED) {
        r->status = PHASE_FAILED;
        int e = neg_errno < 0 ? -neg_errno : neg_errno;
        const char *what = changed_what(e, dir);
        if (e == EXDEV)
            snprintf(r->note, sizeof r->note,
                     "%s: a mount point (another file system); fsbench does not cross it",
                     path);
        else if (what)
            snprintf(r->note, sizeof r->note, "%s: changed during the run (%s)", path, what);
        else
            snprintf(r->note, sizeof r->note, "%s %s: %s", op, path, strerror(e));
        if (ctx->par)
            phase_par_publish(ctx); /* a thread's copy: the first failure is the phase's */
    }
    return -1;
}

int phase_fail(struct phase_ctx *ctx, const char *op, const char *path, int neg_errno)
{
    return fail_as(ctx, op, path, neg_errno, false);
}

int phase_fail_dir(struct phase_ctx *ctx, const char *op, const char *path, int neg_errno)
{
    return fail_as(ctx, op, path, neg_errno, true);
}

int phase_fail_scan(struct phase_ctx *ctx, const struct dirscan_stack *s, const char *op,
                    const char *name, int neg_errno)
{
    char path[PATH_MAX];
    return phase_fail(ctx, op, dirscan_path(s, name, path, sizeof path), neg_errno);
}

int phase_fail_scan_dir(struct phase_ctx *ctx, const struct dirscan_stack *s, const char *op,
                        const char *name, int neg_errno)
{
    char path[PATH_MAX];
    return phase_fail_dir(ctx, op, dirscan_path(s, name, path, sizeof path), neg_errno);
}

int phase_fail_dir_at(struct phase_ctx *ctx, const char *op, const char *shown, int dirfd,
                      const char *rel, int neg_errno)
{
    char path[PATH_MAX];
    size_t at = 0, cut = strlen(rel);
    if (shown && shown[0])
        at = (size_t)snprintf(path, sizeof path, "%s/", shown);
    if (at >= sizeof path)
        at = sizeof path - 1;
    int rc = neg_errno;
    if ((rc == -ELOOP || rc == -ENOTDIR || rc == -EXDEV) && strchr(rel, '/')) {
        /* Which component: open them one by one (this failure path only). */
        const struct engine *e = ctx->eng;
        char name[256];
        int cur = dirfd;
        for (size_t i = 0; rel[i];) {
            size_t n = strcspn(rel + i, "/");
            if (n == 0 || n >= sizeof name) {
                i += n ? n : 1;
                continue;
            }
            memcpy(name, rel + i, n);
            name[n] = '\0';
            int fd = e->opendir(ctx->w, cur, name);
            if (cur != dirfd)
                e->close(ctx->w, cur);
            cur = dirfd;
            if (fd == -ELOOP || fd == -ENOTDIR || fd == -EXDEV) {
                cut = i + n;
                rc = fd;
                break;
            }
            if (fd < 0)
                break;
            cur = fd;
            i += n;
            while (rel[i] == '/')
                i++;
        }
        if (cur != dirfd)
            e->close(ctx->w, cur);
    }
    snprintf(path + at, sizeof path - at, "%.*s", (int)(cut < INT32_MAX ? cut : INT32_MAX), rel);
    return fail_as(ctx, op, path, rc, true);
}

int phase_skip(struct phase_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ctx->res->status = PHASE_SKIPPED;
    vsnprintf(ctx->res->note, sizeof ctx->res->note, fmt, ap);
    va_end(ap);
    return 0;
}

bool phase_owns_top(const struct phase_ctx *ctx, const char *name)
{
    if (ctx->nparts <= 1)
        return true;
    return hash_fnv1a(name, strlen(name)) % ctx->nparts == ctx->part;
}

bool phase_skips_entry(const struct phase_ctx *ctx, const char *dir, size_t level,
                       const char *name)
{
    return ctx->nparts > 1 && level == 0 &&
           (!strcmp(dir, PHASE_TREE_DIR) || !strcmp(dir, PHASE_COPY_DIR)) &&
           !phase_owns_top(ctx, name);
}

int phase_check_interrupt(struct phase_ctx *ctx)
{
    if (atomic_load_explicit(&phase_stonewall, memory_order_relaxed) &&
        ctx->res->status != PHASE_FAILED) {
        ctx->res->status = PHASE_FAILED;
        snprintf(ctx->res->note, sizeof ctx->res->note, "stopped by the stonewall");
        if (ctx->par)
            phase_par_publish(ctx);
        return -1;
    }
    if (atomic_load_explicit(&phase_stonewall, memory_order_relaxed))
        return -1;
    if (phase_interrupt) {
        if (ctx->res->status != PHASE_FAILED) {
            ctx->res->status = PHASE_FAILED;
            char name[32];
            snprintf(ctx->res->note, sizeof ctx->res->note, "interrupted by %s",
                     sig_name(phase_interrupt, name, sizeof name));
            if (ctx->par)
                phase_par_publish(ctx);
        }
        return -1;
    }
    if (!ctx->stop || !atomic_load_explicit(ctx->stop, memory_order_relaxed))
        return 0;
    /* A peer thread failed first; its failure is the phase's, this note is never shown. */
    if (ctx->res->status != PHASE_FAILED) {
        ctx->res->status = PHASE_FAILED;
        snprintf(ctx->res->note, sizeof ctx->res->note, "stopped: another thread failed");
    }
    return -1;
}
