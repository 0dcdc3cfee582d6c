/* longpath.c — paths below a directory fd, acted on by name in the parent's fd, with a
 * cursor of open directories (longpath.h). */
#include "phase/longpath.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Opens directory path[0..len) below dirfd in pieces shorter than LONGPATH_CHUNK, each
 * resolved beneath the one before by the engine's opendir: fd or -errno. */
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
        while (len > 0 && *path == '/') {
            path++;
            len--;
        }
    }
    return cur;
}

static void close_levels(const struct engine *e, struct eng_worker *w, struct longpath *lp,
                         size_t keep)
{
    for (size_t i = lp->n; i-- > keep;)
        if (lp->lv[i].fd >= 0)
            e->close(w, lp->lv[i].fd);
    lp->n = keep;
    if (lp->first_open > keep)
        lp->first_open = keep;
}

/* Appends level path[0..end) with fd (the cursor's path already holds path[0..end) up to
 * the previous level), closing the shallowest open level beyond the window. 0 or -ENOMEM
 * (fd closed). */
static int push_level(const struct engine *e, struct eng_worker *w, struct longpath *lp,
                      const char *path, size_t end, int fd)
{
    if (lp->n == lp->lcap) {
        size_t ncap = lp->lcap ? lp->lcap * 2 : 16;
        struct longpath_level *p = realloc(lp->lv, ncap * sizeof *p);
        if (!p) {
            e->close(w, fd);
            return -ENOMEM;
        }
        lp->lv = p;
        lp->lcap = ncap;
    }
    if (end + 1 > lp->pcap) {
        size_t ncap = lp->pcap ? lp->pcap : 256;
        while (ncap < end + 1)
            ncap *= 2;
        char *p = realloc(lp->path, ncap);
        if (!p) {
            e->close(w, fd);
            return -ENOMEM;
        }
        lp->path = p;
        lp->pcap = ncap;
    }
    size_t from = lp->n ? lp->lv[lp->n - 1].end : 0;
    memcpy(lp->path + from, path + from, end - from);
    lp->path[end] = '\0';
    lp->lv[lp->n++] = (struct longpath_level){.end = end, .fd = fd};
    while (lp->n - lp->first_open > LONGPATH_WINDOW) {
        e->close(w, lp->lv[lp->first_open].fd);
        lp->lv[lp->first_open++].fd = -1;
    }
    return 0;
}

/* longpath_dir with a cursor (see longpath.h). */
static int cursor_dir(const struct engine *e, struct eng_worker *w, struct longpath *lp,
                      int dirfd, const char *path, size_t len)
{
    if (lp->dirfd != dirfd) {
        longpath_release(e, w, lp);
        lp->dirfd = dirfd;
    }
    /* The deepest level that is path or one of its ancestors: within the common prefix,
     * ending where a name of path ends. */
    size_t have = lp->n ? lp->lv[lp->n - 1].end : 0, c = 0, lim = have < len ? have : len;
    while (c < lim && lp->path[c] == path[c])
        c++;
    size_t k = lp->n;
    while (k > 0 && !(lp->lv[k - 1].end <= c &&
                      (lp->lv[k - 1].end == len || path[lp->lv[k - 1].end] == '/')))
        k--;
    close_levels(e, w, lp, k);
    int from = dirfd;
    size_t pos = 0;
    if (k > 0) {
        struct longpath_level *top = &lp->lv[k - 1];
        if (top->fd < 0) { /* closed by the window: reopen it from dirfd */
            int fd = open_pieces(e, w, dirfd, path, top->end);
            if (fd < 0)
                return fd;
            top->fd = fd;
            lp->first_open = k - 1;
        }
        from = top->fd;
        pos = top->end;
    }
    while (pos < len) {
        while (pos < len && path[pos] == '/')
            pos++;
        size_t n = 0;
        while (pos + n < len && path[pos + n] != '/')
            n++;
        if (n == 0)
            break;
        char name[1024];
        if (n >= sizeof name)
            return -ENAMETOOLONG;
        memcpy(name, path + pos, n);
        name[n] = '\0';
        int fd = e->opendir(w, from, name);
        if (fd < 0)
            return fd;
        int rc = push_level(e, w, lp, path, pos + n, fd);
        if (rc < 0)
            return rc;
        from = fd;
        pos += n;
    }
    return from;
}

int longpath_dir(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                 const char *path, size_t len)
{
    while (len > 0 && path[len - 1] == '/')
        len--;
    if (len == 0)
        return dirfd;
    return lp ? cursor_dir(e, w, lp, dirfd, path, len) : open_pieces(e, w, dirfd, path, len);
}

int longpath_parent(const struct engine *e, struct eng_worker *w, struct longpath *lp,
                    int dirfd, const char *path, int *fd, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!slash) {
        *fd = dirfd;
        return 0;
    }
    int r = longpath_dir(e, w, lp, dirfd, path, (size_t)(slash - path));
    if (r < 0)
        return r;
    *fd = r;
    return 0;
}

void longpath_done(const struct engine *e, struct eng_worker *w, const struct longpath *lp,
                   int dirfd, int fd)
{
    if (!lp && fd >= 0 && fd != dirfd)
        e->close(w, fd);
}

void longpath_release(const struct engine *e, struct eng_worker *w, struct longpath *lp)
{
    close_levels(e, w, lp, 0);
    free(lp->path);
    free(lp->lv);
    *lp = (struct longpath)LONGPATH_INIT;
}

int longpath_opendir(const struct engine *e, struct eng_worker *w, int dirfd, const char *path)
{
    size_t len = strlen(path);
    if (len == 0)
        return -ENOENT;
    return open_pieces(e, w, dirfd, path, len);
}

int longpath_mkdir(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                   const char *path, mode_t mode)
{
    int fd;
    const char *base;
    int rc = longpath_parent(e, w, lp, dirfd, path, &fd, &base);
    if (rc < 0)
        return rc;
    rc = e->mkdir(w, fd, base, mode);
    longpath_done(e, w, lp, dirfd, fd);
    return rc;
}

int longpath_link(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                  const char *target, int newdirfd, const char *newname)
{
    /* the target's directory on its own (the cursor serves the new name's side) */
    int tfd;
    const char *tbase;
    int rc = longpath_parent(e, w, NULL, dirfd, target, &tfd, &tbase);
    if (rc < 0)
        return rc;
    int nfd;
    const char *nbase;
    rc = longpath_parent(e, w, lp, newdirfd, newname, &nfd, &nbase);
    if (rc == 0) {
        rc = e->link(w, tfd, tbase, nfd, nbase);
        longpath_done(e, w, lp, newdirfd, nfd);
    }
    longpath_done(e, w, NULL, dirfd, tfd);
    return rc;
}
