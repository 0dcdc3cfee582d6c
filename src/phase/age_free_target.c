/* age_free_target.c — the free-space target of aging (--age-free-target PCT[:SIZE]): both
 * ways of aging (the churn of phase_age.c, a profile's in age_profile.c) stop when at least
 * PCT of the file system's free space lies in free extents under SIZE. The free space is
 * measured like everywhere else (measure/freefrag.h: GETFSMAP, else the file system's own
 * tool on the run's own device), after a syncfs so delayed allocation has placed the
 * blocks; every 1/64 of the file system written, since a measure costs a sync.
 */
#include "phase/age.h"

#include <errno.h>
#include <stdio.h>

#include "base/units.h"
#include "target/target.h"

#define AGE_FREE_EVERY 64 /* a measure each fs size / this many bytes written */

int age_free_begin(struct phase_ctx *ctx, struct age_free_check *c, double fs_size)
{
    c->share = ctx->params ? ctx->params->age_free_share : 0;
    c->below = ctx->params ? ctx->params->age_free_below : 0;
    c->every = fs_size / AGE_FREE_EVERY;
    c->next_at = 0;
    c->last = -1;
    if (c->share <= 0)
        return 0;
    if (!c->below)
        c->below = 1u << 20;
    struct freefrag f;
    if (freefrag_measure_dev(ctx->ws_fd, ctx->tgt ? target_device(ctx->tgt) : NULL, &f) < 0) {
        char why[300];
        ctx->res->status = PHASE_FAILED;
        snprintf(ctx->res->note, sizeof ctx->res->note,
                 "--age-free-target: the free space cannot be measured here: %s",
                 freefrag_summary(&f, why, sizeof why));
        return -1;
    }
    return 0;
}

int age_free_reached(struct phase_ctx *ctx, struct age_free_check *c, double written)
{
    if (c->share <= 0 || written < c->next_at)
        return 0;
    c->next_at = written + c->every;
    if (ctx->eng->drain(ctx->w) < 0)
        return phase_fail(ctx, "age", PHASE_TREE_DIR, -EIO);
    if (ctx->eng->syncfs(ctx->w, ctx->ws_fd) < 0)
        return phase_fail(ctx, "syncfs", ".", -EIO);
    struct freefrag f;
    if (freefrag_measure_dev(ctx->ws_fd, ctx->tgt ? target_device(ctx->tgt) : NULL, &f) < 0)
        return 0; /* measured at the start; a passing failure waits for the next */
    c->last = freefrag_share_below(&f, c->below);
    return c->last >= c->share;
}

char *age_free_text(const struct age_free_check *c, char *buf, size_t len)
{
    char sz[32];
    snprintf(buf, len, "%.0f%% of free space in extents under %s (target %.0f%%)",
             100 * c->last, units_bytes(sz, sizeof sz, (double)c->below), 100 * c->share);
    return buf;
}
