/* longpath.c — *at calls on paths longer than PATH_MAX, one piece at a time (longpath.h). */
#include "phase/longpath.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Opens path[0..len) below dirfd in pieces shorter than LONGPATH_CHUNK: fd or -errno. */
static int open_pieces(const struct engine *e, struct eng_worker *w, int dirfd,
                       const char *path, size_t len)
{
    char piece[LONGPATH_CHUNK];
    int cur = dirfd;
    while (len > 0) {
        size_t cut = len;
        if (cut >= LONGPATH_CHUNK) { /* the last '/' within a chunk */
            cut = LONGPATH_CHUNK - 1;
            while (cut > 0 && path[cut] != '/')
                cut--;
            if (cut == 0) { /* one name longer than a chunk: no system call takes it */
                if (cur != dirfd)
                    e->close(w, cur);
                return -ENAMETOOLONG;
            }
        }
        memcpy(piece, path, cut);
        piece[cut] = '\0';
        int next = e->opendir(w, cur, piece);
        if (cur != dirfd)
            e->close(w, cur);
        if (next < 0)
            return next;
        cur = next;
        path += cut;
        len -= cut;
        if (len > 0) { /* skip the '/' */
            path++;
            len--;
        }
    }
    return cur;
}

/* Makes lp cache the directory of path[0..len) below dirfd, starting from what it holds
 * when that is a prefix. 0 or -errno (the cache is empty then). */
static int cache_set(const struct engine *e, struct eng_worker *w, struct longpath *lp,
                     int dirfd, const char *path, size_t len)
{
    int from = dirfd;
    const char *p = path;
    size_t l = len;
    bool reuse = lp->fd >= 0 && lp->dirfd == dirfd && lp->plen < len &&
                 path[lp->plen] == '/' && memcmp(lp->prefix, path, lp->plen) == 0;
    if (reuse) {
        from = lp->fd;
        p = path + lp->plen + 1;
        l = len - lp->plen - 1;
    }
    int fd = open_pieces(e, w, from, p, l);
    char *np = fd >= 0 ? malloc(len + 1) : NULL;
    longpath_release(e, w, lp);
    if (fd < 0)
        return fd;
    if (!np) {
        e->close(w, fd);
        return -ENOMEM;
    }
    memcpy(np, path, len);
    np[len] = '\0';
    lp->dirfd = dirfd;
    lp->fd = fd;
    lp->prefix = np;
    lp->plen = len;
    return 0;
}

int longpath_at(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                const char *path, int *fd, const char **rest)
{
    size_t len = strlen(path);
    if (len < LONGPATH_CHUNK) {
        *fd = dirfd;
        *rest = path;
        return 0;
    }
    if (!lp) {
        const char *cut = path + len - (LONGPATH_CHUNK - 1);
        while (*cut && *cut != '/')
            cut++;
        if (!*cut)
            return -ENAMETOOLONG;
        int r = open_pieces(e, w, dirfd, path, (size_t)(cut - path));
        if (r < 0)
            return r;
        *fd = r;
        *rest = cut + 1;
        return 0;
    }
    bool hit = lp->fd >= 0 && lp->dirfd == dirfd && lp->plen < len && path[lp->plen] == '/' &&
               len - lp->plen - 1 < LONGPATH_CHUNK && memcmp(lp->prefix, path, lp->plen) == 0;
    if (!hit) {
        /* a new prefix leaving a short rest, so that deeper paths reuse it for long */
        const char *cut = path + len - LONGPATH_CHUNK / 4;
        while (cut > path && *cut != '/')
            cut--;
        if (cut == path || (size_t)(path + len - cut) >= LONGPATH_CHUNK) {
            cut = path + len - (LONGPATH_CHUNK - 1);
            while (*cut && *cut != '/')
                cut++;
            if (!*cut)
                return -ENAMETOOLONG;
        }
        int r = cache_set(e, w, lp, dirfd, path, (size_t)(cut - path));
        if (r < 0)
            return r;
    }
    *fd = lp->fd;
    *rest = path + lp->plen + 1;
    return 0;
}

void longpath_done(const struct engine *e, struct eng_worker *w, const struct longpath *lp,
                   int dirfd, int fd)
{
    if (fd != dirfd && fd >= 0 && !(lp && fd == lp->fd))
        e->close(w, fd);
}

void longpath_release(const struct engine *e, struct eng_worker *w, struct longpath *lp)
{
    if (lp->fd >= 0)
        e->close(w, lp->fd);
    free(lp->prefix);
    lp->fd = lp->dirfd = -1;
    lp->prefix = NULL;
    lp->plen = 0;
}

int longpath_opendir(const struct engine *e, struct eng_worker *w, struct longpath *lp,
                     int dirfd, const char *path)
{
    int fd;
    const char *rest;
    int rc = longpath_at(e, w, lp, dirfd, path, &fd, &rest);
    if (rc < 0)
        return rc;
    rc = e->opendir(w, fd, rest);
    longpath_done(e, w, lp, dirfd, fd);
    return rc;
}

int longpath_mkdir(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                   const char *path, mode_t mode)
{
    int fd;
    const char *rest;
    int rc = longpath_at(e, w, lp, dirfd, path, &fd, &rest);
    if (rc < 0)
        return rc;
    rc = e->mkdir(w, fd, rest, mode);
    longpath_done(e, w, lp, dirfd, fd);
    return rc;
}

int longpath_link(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                  const char *target, int newdirfd, const char *newname)
{
    /* the target by its own pieces (uncached): the cache serves the new name's side */
    int tfd;
    const char *trest;
    int rc = longpath_at(e, w, NULL, dirfd, target, &tfd, &trest);
    if (rc < 0)
        return rc;
    int nfd;
    const char *nrest;
    rc = longpath_at(e, w, lp, newdirfd, newname, &nfd, &nrest);
    if (rc == 0) {
        rc = e->link(w, tfd, trest, nfd, nrest);
        longpath_done(e, w, lp, newdirfd, nfd);
    }
    longpath_done(e, w, NULL, dirfd, tfd);
    return rc;
}
