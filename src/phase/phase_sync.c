/* phase_sync.c — sync (syncfs of the target file system) and dropcaches (sync, then drop
 * the page, dentry and inode caches so the phases after it start cold). dropcaches needs
 * root; without it, or where the caches cannot be dropped (a container, a system with no
 * such control: os/machine.h), it is skipped with the reason, and the runner marks later
 * figures as warm-cache.
 */
#include "phase/phase.h"

#include <unistd.h>

#include "os/machine.h"

int phase_sync(struct phase_ctx *ctx)
{
    int rc = ctx->eng->syncfs(ctx->w, ctx->ws_fd);
    return rc < 0 ? phase_fail(ctx, "syncfs", ".", rc) : 0;
}

int phase_dropcaches(struct phase_ctx *ctx)
{
    if (!ctx->root)
        return phase_skip(ctx, "needs root: caches stay warm, later phases are warm-cache");
    if (!(ctx->eng->caps & ENG_CAP_REAL))
        return phase_skip(ctx, "the %s engine touches no file system", ctx->eng->name);
    if (ctx->drop_elsewhere) {
        /* One rank per node drops (MPI); this one writes back its share. */
        sync();
        return 0;
    }
    char why[256];
    if (os_drop_caches(why, sizeof why) < 0)
        return phase_skip(ctx, "%s: caches stay warm", why);
    return 0;
}
