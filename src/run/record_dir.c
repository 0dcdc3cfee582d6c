/* record_dir.c — record_dir.h. */
#include "run/record_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* dir/NAME.XXXXXX made into out. 0, or -1. */
static int make_in(const char *dir, const char *name, char *out, size_t len)
{
    if ((size_t)snprintf(out, len, "%s/%s.XXXXXX", dir, name) >= len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return mkdtemp(out) ? 0 : -1;
}

/* near's parent into out, when it is on near's file system (a of near) and writable. */
static bool parent_alike(const char *near, const struct stat *a, char *out, size_t len)
{
    const char *slash = strrchr(near, '/');
    struct stat b;
    if (!slash || slash == near || (size_t)(slash - near) >= len)
        return false;
    snprintf(out, len, "%.*s", (int)(slash - near), near);
    return stat(out, &b) == 0 && a->st_dev == b.st_dev && access(out, W_OK) == 0;
}

int record_dir_make(struct record_dir *d, const char *near, const char *name)
{
    memset(d, 0, sizeof *d);
    struct stat a;
    char parent[PATH_MAX];
    if (near && stat(near, &a) == 0 && S_ISDIR(a.st_mode)) {
        if (parent_alike(near, &a, parent, sizeof parent) &&
            make_in(parent, name, d->path, sizeof d->path) == 0)
            return 0;
        /* near is its file system's root (or its parent is not writable): inside it */
        if (access(near, W_OK) == 0 && strlen(near) < sizeof d->near &&
            make_in(near, name, d->path, sizeof d->path) == 0) {
            snprintf(d->near, sizeof d->near, "%s", near);
            d->times[0] = a.st_atim;
            d->times[1] = a.st_mtim;
            d->inside = true;
            return 0;
        }
    }
    const char *tmp = getenv("TMPDIR");
    return make_in(tmp && *tmp ? tmp : "/tmp", name, d->path, sizeof d->path);
}

int record_dir_remove(struct record_dir *d)
{
    if (!d->path[0] || d->removed)
        return 0;
    int rc = rmdir(d->path);
    d->removed = rc == 0;
    int e = errno;
    if (d->inside)
        utimensat(AT_FDCWD, d->near, d->times, 0);
    errno = e;
    return rc;
}
