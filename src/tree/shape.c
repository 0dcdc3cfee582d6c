/* shape.c — capture a real tree's shape (see shape.h for what is recorded and the counting
 * conventions). The INI file that keeps a shape is shape_ini.c, the profile made of it
 * shape_fit.c.
 *
 * Privacy invariant: nothing derived from a name or from content leaves shape_capture()
 * except the length of each name. The INI file holds counts only.
 *
 * Capture walks depth first on its own stack (no recursion), with one os_getdents buffer
 * per level, so memory grows with the depth of the tree, never with its width. At most
 * SHAPE_WINDOW directories are open: a deeper level drains the shallowest open one into
 * memory and closes it, and leaving a level reopens a closed parent as ".." (checked by
 * device and inode), so a tree 10,000 levels deep is captured under `ulimit -n 64`.
 * Directories are
 * opened with O_NOFOLLOW relative to their parent and compared by st_dev with the root, so
 * a symlink is never followed and a mount point is never entered.
 */
#include "tree/shape.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/infile.h"
#include "base/units.h"
#include "base/outfile.h"
#include "base/text.h"
#include "os/dents.h"
#include "os/dirent.h"
#include "tree/tree.h"

#define DENTS_BUF (32 * 1024)
/* Directories kept open at once: deeper levels drain and close the shallowest one. */
#define SHAPE_WINDOW 16

unsigned shape_bucket(uint64_t v)
{
    unsigned b = v ? 64u - (unsigned)__builtin_clzll(v) : 0;
    return b < SHAPE_BUCKETS ? b : SHAPE_BUCKETS - 1;
}

/* --- capture ------------------------------------------------------------------------- */

uint64_t shape_hist_sum(const uint64_t *a, unsigned n)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < n; i++)
        t = a[i] > UINT64_MAX - t ? UINT64_MAX : t + a[i];
    return t;
}

struct walk_level {
    int fd;                 /* -1 while closed by the window */
    char *buf;
    size_t cap;             /* bytes at buf */
    long filled, pos;
    bool drained;           /* every remaining entry is in buf, fd closed */
    dev_t dev;              /* identity while closed, checked when reopened */
    ino_t ino;
    uint64_t nfiles, nsub;
    size_t pathlen;         /* length of this directory's path in walk.path */
};

struct walk {
    struct walk_level *lv;
    size_t n, cap;
    size_t first_open;      /* levels first_open..n-1 hold an open fd */
    dev_t dev;
    char path[8192];        /* for messages only */
};

/* Reads the rest of level l into memory and closes it (the window, see the file comment).
 * 0 or -1 after error(). */
static int walk_drain(struct walk *w, struct walk_level *l)
{
    struct stat st;
    if (fstat(l->fd, &st) < 0)
        return error_errno("capture: cannot stat %.*s", (int)l->pathlen, w->path);
    if (!l->drained) { /* a level drained before and reopened since has its rest already */
        char *nb;
        size_t have;
        int r = os_dents_drain(l->fd, l->buf + l->pos, (size_t)(l->filled - l->pos), DENTS_BUF,
                               &nb, &have);
        if (r < 0) {
            errno = -r;
            return error_errno("capture: cannot read directory %.*s", (int)l->pathlen, w->path);
        }
        free(l->buf);
        l->buf = nb;
        l->cap = have;
        l->filled = (long)have;
        l->pos = 0;
        l->drained = true;
    }
    l->dev = st.st_dev;
    l->ino = st.st_ino;
    close(l->fd);
    l->fd = -1;
    return 0;
}

static int walk_push(struct walk *w, int fd, const char *name)
{
    if (w->n == w->cap) {
        size_t ncap = w->cap ? 2 * w->cap : 16;
        struct walk_level *p = realloc(w->lv, ncap * sizeof *p);
        if (!p)
            return error("capture: out of memory");
        memset(p + w->cap, 0, (ncap - w->cap) * sizeof *p);
        w->lv = p;
        w->cap = ncap;
    }
    struct walk_level *l = &w->lv[w->n];
    if (l->cap < DENTS_BUF) {
        free(l->buf);
        l->cap = 0;
        if (!(l->buf = malloc(DENTS_BUF)))
            return error("capture: out of memory");
        l->cap = DENTS_BUF;
    }
    l->drained = false;
    size_t plen = w->n ? w->lv[w->n - 1].pathlen : 0;
    if (w->n)
        plen += (size_t)snprintf(w->path + plen, sizeof w->path - plen, "/%s", name);
    else
        plen = (size_t)snprintf(w->path, sizeof w->path, "%s", name);
    if (plen >= sizeof w->path)
        plen = sizeof w->path - 1;
    l->fd = fd;
    l->filled = l->pos = 0;
    l->nfiles = l->nsub = 0;
    l->pathlen = plen;
    w->n++;
    while (w->n - w->first_open > SHAPE_WINDOW) {
        if (walk_drain(w, &w->lv[w->first_open]) < 0)
            return -1;
        w->first_open++;
    }
    return 0;
}

/* Records one directory's counts, closes it, and leaves it; reopens its parent as ".."
 * when the window closed it. 0 or -1 after error(). */
static int walk_pop(struct walk *w, struct shape *s)
{
    struct walk_level *l = &w->lv[--w->n];
    s->files_per_dir[shape_bucket(l->nfiles)]++;
    s->subdirs_per_dir[shape_bucket(l->nsub)]++;
    int rc = 0;
    if (w->n && w->first_open > w->n - 1) {
        struct walk_level *p = &w->lv[w->n - 1];
        struct stat st;
        int fd = openat(l->fd, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int e = fd < 0 ? errno : 0;
        if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_dev != p->dev || st.st_ino != p->ino)) {
            e = ESTALE; /* not the directory closed: moved while we walked */
            close(fd);
            fd = -1;
        }
        if (fd < 0) {
            errno = e;
            rc = error_errno("capture: cannot reopen %.*s", (int)p->pathlen, w->path);
        } else {
            p->fd = fd;
            w->first_open = w->n - 1;
        }
    }
    close(l->fd);
    l->fd = -1;
    w->path[w->n ? w->lv[w->n - 1].pathlen : 0] = '\0';
    return rc;
}

/* "PATH/name" of an entry of the top directory, for a message. */
static const char *walk_path(struct walk *w, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%.*s/%s", (int)w->lv[w->n - 1].pathlen, w->path, name);
    return buf;
}

/* Handles one entry of the top directory; may push a level. 0 or -1. */
static int walk_entry(struct walk *w, struct shape *s, const char *name, unsigned char type)
{
    struct walk_level *l = &w->lv[w->n - 1];
    unsigned depth = (unsigned)w->n; /* the root's children: 1 */
    char pbuf[8448];
    struct stat st;
    if (type == DT_UNKNOWN || type == DT_REG) {
        if (fstatat(l->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
            if (errno == ENOENT)
                return 0; /* removed while we walked */
            return error_errno("capture: cannot stat %s", walk_path(w, name, pbuf, sizeof pbuf));
        }
        type = S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR
               : S_ISLNK(st.st_mode) ? DT_LNK : DT_FIFO;
    }
    size_t nlen = strlen(name);
    if (type == DT_DIR) {
        int fd = openat(l->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            /* removed, or no longer a directory (a symlink or file now: never followed),
             * while we walked */
            if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)
                return 0;
            if (errno == EACCES || errno == EPERM) {
                if (!s->unreadable++)
                    warning("capture: cannot open %s (skipped; further ones are counted only)",
                            walk_path(w, name, pbuf, sizeof pbuf));
                return 0;
            }
            return error_errno("capture: cannot open %s", walk_path(w, name, pbuf, sizeof pbuf));
        }
        if (fstat(fd, &st) < 0) {
            close(fd);
            return error_errno("capture: cannot stat %s", walk_path(w, name, pbuf, sizeof pbuf));
        }
        if (st.st_dev != w->dev) {
            close(fd);
            s->skipped_mounts++;
            return 0;
        }
        l->nsub++;
        s->dirs++;
        s->name_length[nlen <= SHAPE_NAME_MAX ? nlen : SHAPE_NAME_MAX]++;
        if (depth > s->max_depth)
            s->max_depth = depth;
        if (walk_push(w, fd, name) < 0) {
            close(fd);
            return -1;
        }
        return 0;
    }
    s->name_length[nlen <= SHAPE_NAME_MAX ? nlen : SHAPE_NAME_MAX]++;
    if (depth > s->max_depth)
        s->max_depth = depth;
    if (type == DT_REG) {
        l->nfiles++;
        s->files++;
        s->bytes += (uint64_t)st.st_size;
        s->file_sizes[shape_bucket((uint64_t)st.st_size)]++;
        s->depth[depth < SHAPE_DEPTH_MAX ? depth : SHAPE_DEPTH_MAX]++;
    } else if (type == DT_LNK) {
        s->symlinks++;
    } else {
        s->other++;
    }
    return 0;
}

int shape_capture(const char *dir, struct shape *out)
{
    memset(out, 0, sizeof *out);
    struct walk w = {0};
    struct stat st;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return error_errno("capture: cannot open %s", dir);
    if (fstat(fd, &st) < 0) {
        close(fd);
        return error_errno("capture: cannot stat %s", dir);
    }
    w.dev = st.st_dev;
    int rc = walk_push(&w, fd, dir);
    if (rc < 0)
        close(fd);
    while (rc == 0 && w.n > 0) {
        struct walk_level *l = &w.lv[w.n - 1];
        if (l->pos >= l->filled && l->drained) {
            rc = walk_pop(&w, out);
            continue;
        }
        if (l->pos >= l->filled) {
            long got = os_getdents(l->fd, l->buf, DENTS_BUF);
            if (got < 0) {
                rc = error_errno("capture: cannot read directory %.*s", (int)l->pathlen, w.path);
                break;
            }
            if (got == 0) {
                rc = walk_pop(&w, out);
                continue;
            }
            l->filled = got;
            l->pos = 0;
        }
        const struct os_dirent *de = os_dirent_at(l->buf, (size_t)l->pos);
        l->pos += de->d_reclen;
        const char *nm = de->d_name;
        if (nm[0] == '.' && (!nm[1] || (nm[1] == '.' && !nm[2])))
            continue;
        rc = walk_entry(&w, out, nm, de->d_type);
    }
    while (w.n > 0) { /* after a failure: close what is open */
        int lfd = w.lv[--w.n].fd;
        if (lfd >= 0)
            close(lfd);
    }
    for (size_t i = 0; i < w.cap; i++)
        free(w.lv[i].buf);
    free(w.lv);
    if (rc == 0 && out->unreadable > 1)
        warning("capture: %" PRIu64 " directories could not be opened and were skipped",
                out->unreadable);
    return rc;
}
