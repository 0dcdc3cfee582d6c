/* phase_sync.c — sync (syncfs of the target file system) and dropcaches (sync, then drop
 * the page, dentry and inode caches so the phases after it start cold). dropcaches needs
 * root; without it, or where /proc/sys/vm/drop_caches cannot be written (a container), it
 * is skipped with the reason, and the runner marks later figures as warm-cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "phase/phase.h"

#define DROP_CACHES "/proc/sys/vm/drop_caches"

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
    /* Only clean pages can be dropped: write everything back first, on every file system. */
    sync();
    if (ctx->drop_elsewhere)
        return 0; /* one rank per node drops (MPI); this one has written back its share */
    int fd = open(DROP_CACHES, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return phase_skip(ctx, "cannot open %s: %s: caches stay warm", DROP_CACHES,
                          strerror(errno));
    ssize_t n = write(fd, "3\n", 2);
    int e = errno;
    close(fd);
    if (n != 2)
        return phase_skip(ctx, "cannot write %s: %s: caches stay warm", DROP_CACHES,
                          strerror(e));
    return 0;
}
