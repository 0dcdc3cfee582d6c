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
#include "base/pidmark.h"
#include "os/lockfile.h"
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

/* Opens (creating it when absent: *created) and locks the marker of the workspace in fd,
 * and writes this run's pid in it. The fd that holds the lock, or -1 after error() (a live
 * run holds it: "in use"). Where the lock works on a read-only descriptor (flock), the fd
 * kept is read-only: a file held open for writing would keep the run's file system from
 * being remounted read-only while the run lives. */
static int lock_marker(const char *path, int fd, bool *created)
{
    for (int attempt = 0; attempt < 8; attempt++) {
        *created = true;
        int m = openat(fd, WS_MARKER, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (m < 0 && errno == EEXIST) {
            *created = false;
            m = openat(fd, WS_MARKER, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
            if (m < 0 && errno == ENOENT)
                continue; /* its run just ended and removed it */
        }
        if (m < 0)
            return error_errno("cannot write in %s", path);
        struct stat a, b;
        if (fstat(m, &a) < 0 || !S_ISREG(a.st_mode)) {
            close(m);
            return error("%s/%s is not fsbench's marker (not a regular file)", path, WS_MARKER);
        }
        int hold = m;
        if (os_lock_readonly) {
            hold = openat(fd, WS_MARKER, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
            if (hold < 0 || fstat(hold, &b) < 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
                if (hold >= 0)
                    close(hold);
                close(m);
                continue;
            }
        }
        int l = os_lock_try(hold);
        if (l != 0) {
            int e = errno;
            long pid = l > 0 ? pidmark_read(m, "fsbench pid ") : 0;
            if (hold != m)
                close(hold);
            close(m);
            if (l < 0)
                return error_num(e, "cannot lock %s/%s", path, WS_MARKER);
            if (pid > 0)
                return error("%s is in use by fsbench pid %ld (a run in progress): give "
                             "another --dir, or wait for it",
                             path, pid);
            return error("%s is in use by another fsbench (a run in progress): give another "
                         "--dir, or wait for it",
                         path);
        }
        /* the marker locked must still be the one in the directory (its run may have
         * removed it between our open and our lock) */
        if (fstatat(fd, WS_MARKER, &b, AT_SYMLINK_NOFOLLOW) < 0 || a.st_dev != b.st_dev ||
            a.st_ino != b.st_ino) {
            if (hold != m)
                close(hold);
            close(m);
            continue;
        }
        char text[64];
        int n = snprintf(text, sizeof text, "fsbench pid %ld\n", (long)getpid());
        if (ftruncate(m, 0) < 0 || pwrite(m, text, (size_t)n, 0) != n) {
            int e = errno;
            if (hold != m)
                close(hold);
            close(m);
            return error_num(e, "cannot write in %s", path);
        }
        if (hold != m)
            close(m); /* flock: the lock stays with hold's open file */
        return hold;
    }
    return error("%s: its marker keeps changing: is another fsbench starting there?", path);
}

/* Undoes a failed ws_open: closes what it opened and removes what it made. */
static int open_failed(struct workspace *ws)
{
    if (ws->lock_fd >= 0) {
        if (ws->marked && ws->fd >= 0)
            unlinkat(ws->fd, WS_MARKER, 0);
        close(ws->lock_fd);
    }
    if (ws->fd >= 0)
        close(ws->fd);
    if (ws->made_dir)
        rmdir(ws->path);
    ws->fd = ws->lock_fd = -1;
    ws->marked = ws->made_dir = false;
    return -1;
}

int ws_open(struct workspace *ws, const char *dir)
{
    memset(ws, 0, sizeof *ws);
    ws->fd = ws->lock_fd = -1;
    if (dir) {
        if (snprintf(ws->path, sizeof ws->path, "%s", dir) >= (int)sizeof ws->path)
            return error("directory name too long: %s", dir);
    } else if (make_temp_dir(ws) < 0) {
        return -1;
    }
    ws->fd = open(ws->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (ws->fd < 0) {
        if (errno == ENOENT)
            error("directory %s does not exist", ws->path);
        else if (errno == ENOTDIR)
            error("%s is not a directory", ws->path);
        else
            error_errno("cannot open directory %s", ws->path);
        return open_failed(ws);
    }
    if (access(ws->path, W_OK | X_OK) < 0) {
        error("directory %s is not writable", ws->path);
        return open_failed(ws);
    }
    int found = scan_contents(ws->fd, ws->path);
    if (found < 0)
        return open_failed(ws);
    if ((found & HAS_OTHER) || (found == HAS_OURS)) {
        error("directory %s is not empty (fsbench needs an empty directory)", ws->path);
        return open_failed(ws);
    }
    bool created;
    ws->lock_fd = lock_marker(ws->path, ws->fd, &created);
    if (ws->lock_fd < 0)
        return open_failed(ws);
    ws->marked = true;
    if (!created) {
        warning("%s holds what an interrupted run left; removing it", ws->path);
        if (ws_clear(ws) < 0) {
            ws->marked = false; /* what is left stays marked for the next try */
            return open_failed(ws);
        }
    }
    return 0;
}

int ws_join(struct workspace *ws, const char *dir)
{
    memset(ws, 0, sizeof *ws);
    ws->lock_fd = -1;
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
    ws->fd = ws->lock_fd = -1;
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
        /* the marker goes while it is still locked: no other run takes a half-removed
         * workspace for a leftover */
        if (ws->marked && rc == 0 && unlinkat(ws->fd, WS_MARKER, 0) < 0 && errno != ENOENT)
            rc = error_errno("cannot remove %s/%s", ws->path, WS_MARKER);
        close(ws->fd);
        ws->fd = -1;
    }
    if (ws->lock_fd >= 0) {
        close(ws->lock_fd);
        ws->lock_fd = -1;
    }
    if (ws->made_dir && rc == 0 && rmdir(ws->path) < 0)
        rc = error_errno("cannot remove %s", ws->path);
    ws->made_dir = false;
    ws->marked = false;
    return rc;
}

int ws_keep(struct workspace *ws, char *path, size_t len)
{
    int rc = 0;
    snprintf(path, len, "%s/%s", ws->path, PHASE_TREE_DIR);
    if (ws->fd >= 0) {
        if (ws->marked && unlinkat(ws->fd, WS_MARKER, 0) < 0 && errno != ENOENT)
            rc = error_errno("cannot remove %s/%s", ws->path, WS_MARKER);
        close(ws->fd);
        ws->fd = -1;
    }
    if (ws->lock_fd >= 0) {
        close(ws->lock_fd);
        ws->lock_fd = -1;
    }
    ws->made_dir = false;
    ws->marked = false;
    return rc;
}

int ws_clean_leftover(const char *dir, bool remove_dir, bool dry_run)
{
    struct workspace ws;
    memset(&ws, 0, sizeof ws);
    ws.lock_fd = -1;
    if (snprintf(ws.path, sizeof ws.path, "%s", dir) >= (int)sizeof ws.path)
        return error("directory name too long: %s", dir);
    ws.fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (ws.fd < 0)
        return error_errno("cannot open directory %s", dir);
    struct stat st;
    int found = fstat(ws.fd, &st) < 0 ? -1 : scan_contents(ws.fd, dir);
    /* a temporary workspace is fsbench's own: mkdtemp's mode, this user's */
    bool ours = found >= 0 && (found & HAS_MARKER) && !(found & HAS_OTHER) &&
                (!remove_dir || (st.st_uid == geteuid() && (st.st_mode & 07777) == 0700));
    if (!ours) {
        close(ws.fd);
        return found < 0 ? -1 : 0;
    }
    ws.lock_fd = openat(ws.fd, WS_MARKER,
                        (os_lock_readonly ? O_RDONLY : O_RDWR) | O_NOFOLLOW | O_CLOEXEC);
    int l = ws.lock_fd < 0 ? -1 : os_lock_try(ws.lock_fd);
    if (l != 0) {
        long pid = l > 0 ? pidmark_read(ws.lock_fd, "fsbench pid ") : 0;
        int e = errno;
        if (ws.lock_fd >= 0)
            close(ws.lock_fd);
        close(ws.fd);
        if (l < 0)
            return error_num(e, "cannot lock %s/%s", dir, WS_MARKER);
        inform("%s is in use by fsbench pid %ld: left alone", dir, pid);
        return 0;
    }
    long pid = pidmark_read(ws.lock_fd, "fsbench pid ");
    char who[64] = "a killed run";
    if (pid > 0)
        snprintf(who, sizeof who, "fsbench pid %ld (no longer running)", pid);
    if (dry_run) {
        inform("would remove what %s left in %s%s", who, dir, remove_dir ? ", and it" : "");
        close(ws.lock_fd);
        close(ws.fd);
        return 1;
    }
    ws.marked = true;
    ws.made_dir = remove_dir;
    if (ws_close(&ws) < 0)
        return -1;
    inform("removed what %s left in %s%s", who, dir, remove_dir ? ", and it" : "");
    return 1;
}
