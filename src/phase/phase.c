/* phase.c — the helpers every phase uses to fail, skip and stop (the registry is phase_registry.c). */
#include "phase/phase.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "phase_interrupt is set by a signal handler");
volatile atomic_int phase_interrupt;

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

int phase_check_interrupt(struct phase_ctx *ctx)
{
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
