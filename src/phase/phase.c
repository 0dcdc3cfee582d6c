/* phase.c — the helpers every phase uses to fail, skip and stop (the registry is phase_registry.c). */
#include "phase/phase.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "phase_interrupt is set by a signal handler");
volatile atomic_int phase_interrupt;
atomic_int phase_stonewall;

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
