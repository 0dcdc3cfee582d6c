/* probe_dir.c — a writing probe's own directory (probe_dir.h). */
#include "run/probe_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"

static int probe_dir_fd(int ws_fd)
{
    int fd = openat(ws_fd, PROBE_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int probe_dir_remove(struct phase_ctx *ctx, int ws_fd)
{
    int fd = probe_dir_fd(ws_fd);
    if (fd == -ENOENT)
        return 0;
    if (fd < 0)
        return error_num(-fd, "cannot open the probe's directory %s", PROBE_DIR);
    int rc = phase_delete_below(ctx, fd, PROBE_DIR);
    close(fd);
    if (rc < 0)
        return error("cannot empty the probe's directory: %s", ctx->res->note);
    if (unlinkat(ws_fd, PROBE_DIR, AT_REMOVEDIR) < 0)
        return error_errno("cannot remove the probe's directory %s", PROBE_DIR);
    return 0;
}

int probe_dir_open(struct phase_ctx *ctx, int ws_fd, bool make)
{
    if (make) {
        struct phase_result scratch;
        memset(&scratch, 0, sizeof scratch);
        struct phase_ctx c = *ctx;
        c.res = &scratch;
        if (probe_dir_remove(&c, ws_fd) < 0)
            return phase_fail(ctx, "clear", PROBE_DIR, -EIO);
        if (mkdirat(ws_fd, PROBE_DIR, 0755) < 0)
            return phase_fail_dir(ctx, "mkdir", PROBE_DIR, -errno);
    }
    int fd = probe_dir_fd(ws_fd);
    if (fd < 0)
        return phase_fail_dir(ctx, "open", PROBE_DIR, fd);
    return fd;
}
