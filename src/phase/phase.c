/* phase.c — the phase registry and the helpers every phase uses to fail, skip and stop. */
#include "phase/phase.h"

#include "measure/layout.h"
#include "phase/workload.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "phase_interrupt is set by a signal handler");
volatile atomic_int phase_interrupt;
atomic_int phase_stonewall;

const struct phase_def phase_table[] = {
    {"extract", "create the tree: mkdir, create+write every file, symlinks (like tar -x)", 0,
     phase_extract},
    {"sync", "syncfs of the target file system (like sync)", 0, phase_sync},
    {"dropcaches", "sync, then drop page, dentry and inode caches (root only)",
     PHASE_NEEDS_ROOT, phase_dropcaches},
    {"walk", "readdir every directory of the tree (like find)", PHASE_READS_TREE,
     phase_walk},
    {"statwalk", "readdir and lstat every entry (like find -ls)", PHASE_READS_TREE,
     phase_statwalk},
    {"read", "read every file to the end (like tar -c >/dev/null)",
     PHASE_ASYNC_GAINS | PHASE_READS_TREE,
     phase_read},
    {"copy", "copy the tree with modes and times to a sibling (like cp -a, cpdup)",
     PHASE_READS_TREE,
     phase_copy},
    {"delete", "remove the tree and its copy (like rm -rf)", 0, phase_delete},
    {"umount", "unmount the target, including the flush of everything dirty (root)",
     PHASE_NEEDS_ROOT | PHASE_NEEDS_TARGET, phase_umount},
    {"mount", "mount the target with the configuration's options (root)",
     PHASE_NEEDS_ROOT | PHASE_NEEDS_TARGET, phase_mount},
    {"remount", "umount + mount: the phases after it start with cold caches (root)",
     PHASE_NEEDS_ROOT | PHASE_NEEDS_TARGET, phase_remount},
    {"createsync", "create+write+fsync+close every file of the tree (fs_mark -S 1)", 0,
     phase_createsync},
    {"fsyncstorm",
     "rewrite every file as CVS does: new version to ,name,, fsync, rename over the original",
     0, phase_fsyncstorm},
    {"cb_initial", "compilebench's initial create: -i kernel-shaped trees (tree/kernel-N)", 0,
     phase_cb_initial},
    {"cb_random",
     "compilebench's -r random operations: create, patch, compile, clean, read, delete, stat",
     0, phase_cb_random},
    {"age", "churn (create, append, truncate, delete, rename) until the fs is aged; once with "
            "--keep-fs",
     PHASE_KEEPS_TREE, phase_age},
    {"layout", "FIEMAP of every file: extents, layout score, directory locality", 0,
     phase_layout},
    {"cmd", "run a shell command (--cmd) and measure it and its children", 0, phase_cmd},
    {NULL, NULL, 0, NULL},
};

const struct phase_def *phase_find(const char *name)
{
    for (const struct phase_def *p = phase_table; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

int phase_fail(struct phase_ctx *ctx, const char *op, const char *path, int neg_errno)
{
    struct phase_result *r = ctx->res;
    if (r->status != PHASE_FAILED) {
        r->status = PHASE_FAILED;
        int e = neg_errno < 0 ? -neg_errno : neg_errno;
        snprintf(r->note, sizeof r->note, "%s %s: %s", op, path, strerror(e));
        if (ctx->par)
            phase_par_publish(ctx); /* a thread's copy: the first failure is the phase's */
    }
    return -1;
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
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    return h % ctx->nparts == ctx->part;
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
            snprintf(ctx->res->note, sizeof ctx->res->note, "interrupted by a signal");
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
