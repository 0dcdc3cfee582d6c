/* beneath.c — the parts of beneath.h every system shares: what a path is, the walk (the
 * POSIX build's resolver and Linux's fallback without openat2) and lstat below a directory
 * by a given resolver (os_stat_beneath in beneath_stat.c passes os_open_beneath; the
 * errno of an io_uring open passes the walk, so this file needs no system's resolver).
 */
#include "os/beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* How the walk opens a component that must be a directory: for searching only where the
 * system can (no read permission needed, as the kernel's own walk), else for reading. */
#if defined(O_PATH)
#define WALK_DIR_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#elif defined(O_SEARCH)
#define WALK_DIR_FLAGS (O_SEARCH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#else
#define WALK_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#endif

int os_beneath_kind(const char *path)
{
    if (!path[0])
        return -ENOENT;
    if (path[0] == '/')
        return -EXDEV;
    bool several = false;
    size_t i = 0;
    for (const char *c = path;; i++) {
        char ch = path[i];
        if (ch == '/' || ch == '\0') {
            if (path + i - c == 2 && c[0] == '.' && c[1] == '.')
                return -EXDEV;
            if (ch == '\0')
                break;
            /* a trailing '/' still leaves one name */
            if (path[i + 1] != '\0' && path[i + 1] != '/')
                several = true;
            c = path + i + 1;
        }
    }
    if (i >= PATH_MAX)
        return -ENAMETOOLONG;
    return several ? OS_BENEATH_PATH : OS_BENEATH_NAME;
}

/* Some systems say EMLINK (FreeBSD) or EFTYPE (NetBSD) where Linux says ELOOP for
 * O_NOFOLLOW meeting a symlink. */
static int nofollow_errno(int e)
{
#ifdef EFTYPE
    if (e == EFTYPE)
        return ELOOP;
#endif
    return e == EMLINK ? ELOOP : e;
}

int os_open_beneath_walk(int dirfd, const char *path, int flags, mode_t mode)
{
    int kind = os_beneath_kind(path);
    if (kind < 0) {
        errno = -kind;
        return -1;
    }
    struct stat st;
    if (fstatat(dirfd, ".", &st, 0) < 0)
        return -1;
    const dev_t dev = st.st_dev;
    int cur = dirfd;
    const char *p = path;
    for (;;) {
        while (*p == '/')
            p++;
        size_t n = strcspn(p, "/");
        const char *next = p + n;
        while (*next == '/')
            next++;
        bool last = *next == '\0';
        char name[NAME_MAX + 1];
        int fd = -1, e = ENAMETOOLONG;
        if (n < sizeof name) {
            memcpy(name, p, n);
            name[n] = '\0';
            int fl = WALK_DIR_FLAGS;
            if (last) {
                fl = flags | O_NOFOLLOW | O_CLOEXEC;
                if (p[n] == '/') /* "a/b/": b must be a directory */
                    fl |= O_DIRECTORY;
            }
            fd = openat(cur, name, fl, last ? mode : 0);
            e = fd < 0 ? nofollow_errno(errno) : 0;
            if (fd >= 0 && fstat(fd, &st) < 0)
                e = errno;
            else if (fd >= 0 && st.st_dev != dev)
                e = EXDEV; /* a mount point: the descent stops here */
        }
        if (e == ENOTDIR && fd < 0) { /* a final symlink opened with O_DIRECTORY? */
            struct stat lst;
            if (fstatat(cur, name, &lst, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(lst.st_mode))
                e = ELOOP;
        }
        if (cur != dirfd)
            close(cur);
        if (e) {
            if (fd >= 0)
                close(fd);
            errno = e;
            return -1;
        }
        if (last)
            return fd;
        cur = fd;
        p = next;
    }
}

int os_beneath_errno(int dirfd, const char *path, int flags, int e)
{
    struct stat st;
    if (e == ENOTDIR && (flags & O_DIRECTORY) &&
        os_stat_beneath_by(dirfd, path, &st, os_open_beneath_walk) == 0 &&
        S_ISLNK(st.st_mode))
        return ELOOP;
    return e;
}

int os_stat_beneath_by(int dirfd, const char *path, struct stat *st,
                       int (*open_dir)(int dirfd, const char *path, int flags, mode_t mode))
{
    int kind = os_beneath_kind(path);
    if (kind < 0) {
        errno = -kind;
        return -1;
    }
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    const char *slash = NULL;
    for (size_t i = 0; i < len; i++)
        if (path[i] == '/')
            slash = path + i;
    char dir[PATH_MAX], base[NAME_MAX + 1];
    size_t blen = slash ? len - (size_t)(slash + 1 - path) : len;
    if (blen >= sizeof base) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(base, slash ? slash + 1 : path, blen);
    base[blen] = '\0';
    int pfd = dirfd;
    if (slash) {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
        pfd = open_dir(dirfd, dir, O_RDONLY | O_DIRECTORY, 0);
        if (pfd < 0)
            return -1;
    }
    struct stat pst;
    int rc = fstatat(pfd, base, st, AT_SYMLINK_NOFOLLOW);
    int e = rc < 0 ? errno : 0;
    if (rc == 0 && !S_ISLNK(st->st_mode) && strcmp(base, ".") != 0) {
        if (fstatat(pfd, ".", &pst, 0) < 0)
            e = errno;
        else if (pst.st_dev != st->st_dev)
            e = EXDEV; /* a mount point: its attributes are another file system's */
    }
    if (pfd != dirfd)
        close(pfd);
    if (e) {
        errno = e;
        return -1;
    }
    return 0;
}
