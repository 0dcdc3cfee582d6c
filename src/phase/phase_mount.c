/* phase_mount.c — the mount cycle as timed phases: umount (it includes the flush of every
 * dirty page and inode: seed 000's softdep umount took 477 s), mount, and remount (both: the
 * phases after it start cold). They need a target fsbench manages (--image or --device); the
 * workspace fd is released before unmounting and opened again after mounting.
 */
#include <errno.h>
#include <stdio.h>

#include "base/err.h"
#include "phase/phase.h"
#include "target/target.h"
#include "phase/workspace.h"

static int need_target(struct phase_ctx *ctx, const char *what)
{
    if (ctx->tgt && ctx->ws)
        return 0;
    ctx->res->status = PHASE_FAILED;
    snprintf(ctx->res->note, sizeof ctx->res->note,
             "%s needs a managed target (--image SIZE or --device DEV)", what);
    return -1;
}

/* Runs a target operation, folding its message into the phase's note. */
static int fold(struct phase_ctx *ctx, int rc, const char *msg)
{
    if (rc == 0)
        return 0;
    ctx->res->status = PHASE_FAILED;
    snprintf(ctx->res->note, sizeof ctx->res->note, "%s", msg[0] ? msg : "failed");
    return -1;
}

int phase_umount(struct phase_ctx *ctx)
{
    if (need_target(ctx, "umount") < 0)
        return -1;
    char msg[RES_NOTE_MAX];
    ws_release(ctx->ws);
    err_capture_begin(msg, sizeof msg);
    int rc = target_umount(ctx->tgt);
    err_capture_end();
    return fold(ctx, rc, msg);
}

int phase_mount(struct phase_ctx *ctx)
{
    if (need_target(ctx, "mount") < 0)
        return -1;
    char msg[RES_NOTE_MAX];
    err_capture_begin(msg, sizeof msg);
    int rc = target_mount(ctx->tgt, ctx->mount_opts);
    if (rc == 0)
        rc = ws_open_managed(ctx->ws, target_mount_point(ctx->tgt));
    err_capture_end();
    return fold(ctx, rc, msg);
}

int phase_remount(struct phase_ctx *ctx)
{
    if (phase_umount(ctx) < 0)
        return -1;
    return phase_mount(ctx);
}
