/* workspace.c — create, validate, clear and release the run's directory (see workspace.h). */
#include "phase/workspace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "base/err.h"
#include "phase/phase.h"

/* What the directory holds: -1 error, else a bit set of what was found. */
enum { HAS_MARKER = 1, HAS_OURS = 2, HAS_OTHER = 4 };

static int scan_contents(int fd, const char *path)
{
    int dfd = dup(fd);
    if (dfd < 0)
        return error_errno("cannot read directory %s", path);
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return error_errno("cannot read directory %s", path);
    }
    int found = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *n = de->d_name;
        if (!strcmp(n, ".") || !strcmp(n, ".."))
            continue;
        if (!strcmp(n, WS_MARKER))
            found |= HAS_MARKER;
        else if (!strcmp(n, PHASE_TREE_DIR) || !strcmp(n, PHASE_COPY_DIR))
            found |= HAS_OURS;
        else
            found |= HAS_OTHER;
    }
    closedir(d);
    return found;
}

int ws_make_temp_dir(char *path, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (snprintf(path, len, "%s/fsbench.XXXXXX", tmp) >= (int)len)
        return error("TMPDIR is too long: %s", tmp);
    if (!mkdtemp(path))
        return error_errno("cannot create a temporary directory in %s", tmp);
    return 0;
}

static int make_temp_dir(struct workspace *ws)
{
    if (ws_make_temp_dir(ws->path, sizeof ws->path) < 0)
        return -1;
    ws->made_dir = true;
    return 0;
}

int ws_open(struct workspace *ws, const char *dir)
{
    memset(ws, 0, sizeof *ws);
    ws->fd = -1;
    if (dir) {
        if (snprintf(ws->path, sizeof ws->path, "%s", dir) >= (int)sizeof ws->path)
            return error("directory name too long: %s", dir);
    } else if (make_temp_dir(ws) < 0) {
        return -1;
    }
    ws->fd = open(ws->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (ws->fd < 0) {
        if (errno == ENOENT)
            return error("directory %s does not exist", ws->path);
        if (errno == ENOTDIR)
            return error("%s is not a directory", ws->path);
        return error_errno("cannot open directory %s", ws->path);
    }
    if (access(ws->path, W_OK | X_OK) < 0)
        return error("directory %s is not writable", ws->path);
    int found = scan_contents(ws->fd, ws->path);
    if (found < 0)
        return -1;
    if ((found & HAS_OTHER) || (found == HAS_OURS))
        return error("directory %s is not empty (fsbench needs an empty directory)",
                     ws->path);
    if (found & HAS_MARKER) {
        warning("%s holds what an interrupted run left; removing it", ws->path);
        ws->marked = true;
        if (ws_clear(ws) < 0)
            return -1;
        return 0;
    }
    int m = openat(ws->fd, WS_MARKER, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (m < 0)
        return error_errno("cannot write in %s", ws->path);
    close(m);
    ws->marked = true;
    return 0;
}

int ws_join(struct workspace *ws, const char *dir)
{
    memset(ws, 0, sizeof *ws);
    if (snprintf(ws->path, sizeof ws->path, "%s", dir) >= (int)sizeof ws->path)
        return error("directory name too long: %s", dir);
    ws->fd = open(ws->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (ws->fd < 0)
        return error_errno("cannot open directory %s", ws->path);
    return 0;
}

int ws_open_managed(struct workspace *ws, const char *mount_point)
{
    memset(ws, 0, sizeof *ws);
    ws->fd = -1;
    if (snprintf(ws->path, sizeof ws->path, "%s/fsbench", mount_point) >= (int)sizeof ws->path)
        return error("mount point name too long: %s", mount_point);
    if (mkdir(ws->path, 0755) < 0 && errno != EEXIST)
        return error_errno("cannot create %s", ws->path);
    ws->fd = open(ws->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (ws->fd < 0)
        return error_errno("cannot open %s", ws->path);
    int m = openat(ws->fd, WS_MARKER, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (m < 0)
        return error_errno("cannot write in %s", ws->path);
    close(m);
    ws->marked = true;
    return 0;
}

void ws_release(struct workspace *ws)
{
    if (ws->fd >= 0)
        close(ws->fd);
    ws->fd = -1;
}

int ws_clear(struct workspace *ws)
{
    if (!ws->marked || ws->fd < 0)
        return 0;
    struct opstats *st = calloc(1, sizeof *st);
    struct phase_result res = {0};
    if (!st)
        return error("out of memory");
    struct eng_worker w = {.st = st};
    struct phase_ctx ctx = {.eng = &engine_posix, .w = &w, .ws_fd = ws->fd, .res = &res};
    /* Cleanup must finish even after an interrupt. */
    sig_atomic_t saved = phase_interrupt;
    phase_interrupt = 0;
    int rc = phase_delete(&ctx);
    phase_interrupt = saved;
    free(st);
    if (rc < 0)
        return error("cannot clean %s: %s", ws->path, res.note);
    return 0;
}

int ws_close(struct workspace *ws)
{
    int rc = 0;
    if (ws->fd >= 0) {
        if (ws_clear(ws) < 0)
            rc = -1;
        if (ws->marked && rc == 0 && unlinkat(ws->fd, WS_MARKER, 0) < 0 && errno != ENOENT)
            rc = error_errno("cannot remove %s/%s", ws->path, WS_MARKER);
        close(ws->fd);
        ws->fd = -1;
    }
    if (ws->made_dir && rc == 0 && rmdir(ws->path) < 0)
        rc = error_errno("cannot remove %s", ws->path);
    ws->made_dir = false;
    ws->marked = false;
    return rc;
}
