/* longpath.c — *at calls on paths longer than PATH_MAX, one piece at a time (longpath.h). */
#include "phase/longpath.h"

#include <errno.h>
#include <string.h>

int longpath_at(const struct engine *e, struct eng_worker *w, int dirfd, const char *path,
                int *fd, const char **rest)
{
    char piece[LONGPATH_CHUNK];
    int cur = dirfd;
    while (strlen(path) >= LONGPATH_CHUNK) {
        /* the last '/' within the first LONGPATH_CHUNK - 1 bytes */
        size_t cut = LONGPATH_CHUNK - 1;
        while (cut > 0 && path[cut] != '/')
            cut--;
        if (cut == 0) { /* one name longer than a chunk: no system call takes it */
            longpath_done(e, w, dirfd, cur);
            return -ENAMETOOLONG;
        }
        memcpy(piece, path, cut);
        piece[cut] = '\0';
        int next = e->opendir(w, cur, piece);
        longpath_done(e, w, dirfd, cur);
        if (next < 0)
            return next;
        cur = next;
        path += cut + 1;
    }
    *fd = cur;
    *rest = path;
    return 0;
}

void longpath_done(const struct engine *e, struct eng_worker *w, int dirfd, int fd)
{
    if (fd != dirfd && fd >= 0)
        e->close(w, fd);
}

int longpath_opendir(const struct engine *e, struct eng_worker *w, int dirfd, const char *path)
{
    int fd;
    const char *rest;
    int rc = longpath_at(e, w, dirfd, path, &fd, &rest);
    if (rc < 0)
        return rc;
    rc = e->opendir(w, fd, rest);
    longpath_done(e, w, dirfd, fd);
    return rc;
}

int longpath_mkdir(const struct engine *e, struct eng_worker *w, int dirfd, const char *path,
                   mode_t mode)
{
    int fd;
    const char *rest;
    int rc = longpath_at(e, w, dirfd, path, &fd, &rest);
    if (rc < 0)
        return rc;
    rc = e->mkdir(w, fd, rest, mode);
    longpath_done(e, w, dirfd, fd);
    return rc;
}

int longpath_link(const struct engine *e, struct eng_worker *w, int dirfd, const char *target,
                  int newdirfd, const char *newname)
{
    int tfd;
    const char *trest;
    int rc = longpath_at(e, w, dirfd, target, &tfd, &trest);
    if (rc < 0)
        return rc;
    int nfd;
    const char *nrest;
    rc = longpath_at(e, w, newdirfd, newname, &nfd, &nrest);
    if (rc == 0) {
        rc = e->link(w, tfd, trest, nfd, nrest);
        longpath_done(e, w, newdirfd, nfd);
    }
    longpath_done(e, w, dirfd, tfd);
    return rc;
}
