/* layout.c — FIEMAP extents, the Smith & Seltzer layout score and directory locality of an
 * existing tree (see layout.h for the definitions). Computes; never prints except through
 * error().
 *
 * The extent map and the file system's geometry come from os/extents.h, directory records
 * from os/dirent.h.
 *
 * Invariants of the walk: its own stack, no recursion (any depth), one getdents buffer per
 * depth and at most LAYOUT_WINDOW directories open (a deeper level drains the shallowest
 * open one into memory and closes it; leaving a level reopens its parent as "..", checked
 * by device and inode); a directory on another file system (st_dev differs from the start directory's) is counted and not
 * entered; symlinks are never followed (O_NOFOLLOW, AT_SYMLINK_NOFOLLOW); an entry that
 * vanishes between getdents and open is ignored.
 */
#include "measure/layout.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "measure/measure.h"
#include "measure/results.h"
#include "os/dents.h"
#include "os/dirent.h"
#include "os/extents.h"
#include "os/mounts.h"

#define LAYOUT_DENTS_BUF (32 * 1024)

/* ---- pure arithmetic ---- */

void layout_file_begin(struct layout_file *f)
{
    memset(f, 0, sizeof *f);
}

void layout_file_add(struct layout_file *f, const struct layout_extent *e, uint64_t bs)
{
    f->extents++;
    if ((e->flags & LAYOUT_EXCLUDED_FLAGS) || e->length == 0 || bs == 0) {
        f->extents_excluded++;
        f->have_prev = false; /* the next located block has no known predecessor */
        return;
    }
    uint64_t start = e->physical / bs;
    uint64_t nblocks = e->length / bs + (e->length % bs != 0);
    if (!f->have_first) {
        f->first_block = start;
        f->have_first = true;
    }
    if (f->have_prev) {
        f->pairs++;
        if (start == f->prev_end)
            f->contiguous++;
    }
    /* Inside an extent every block follows its predecessor. */
    f->pairs += nblocks - 1;
    f->contiguous += nblocks - 1;
    f->blocks += nblocks;
    if (e->flags & OS_EXTENT_UNWRITTEN) {
        f->extents_unwritten++;
        f->blocks_unwritten += nblocks;
    }
    f->prev_end = start + nblocks;
    f->have_prev = true;
}

double layout_score_of(const struct layout_extent *e, size_t n, uint64_t bs, uint64_t *pairs,
                       uint64_t *contiguous)
{
    struct layout_file f;
    layout_file_begin(&f);
    for (size_t i = 0; i < n; i++)
        layout_file_add(&f, &e[i], bs);
    if (pairs)
        *pairs = f.pairs;
    if (contiguous)
        *contiguous = f.contiguous;
    if (f.blocks < 2 || f.pairs == 0)
        return -1;
    return (double)f.contiguous / (double)f.pairs;
}

unsigned layout_hist_bucket(uint64_t extents)
{
    if (extents <= 1)
        return LAYOUT_HIST_1;
    if (extents <= 4)
        return LAYOUT_HIST_2_4;
    if (extents <= 16)
        return LAYOUT_HIST_5_16;
    return LAYOUT_HIST_MORE;
}

static int layout_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int layout_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int layout_dir_of(uint64_t *first, size_t n, uint64_t group_blocks, uint64_t first_data_block,
                  struct layout_dir_stats *s)
{
    if (n < 2)
        return -1;
    double gaps = 0;
    for (size_t i = 1; i < n; i++)
        gaps +=
            (double)(first[i] > first[i - 1] ? first[i] - first[i - 1] : first[i - 1] - first[i]);
    s->gap_blocks = gaps / (double)(n - 1);
    qsort(first, n, sizeof *first, layout_cmp_u64);
    s->spread_blocks = (double)(first[n - 1] - first[0]);
    if (!group_blocks) {
        s->groups = -1;
        return 0;
    }
    uint64_t groups = 0, last = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t b = first[i] > first_data_block ? first[i] - first_data_block : 0;
        uint64_t g = b / group_blocks;
        if (i == 0 || g != last)
            groups++;
        last = g;
    }
    s->groups = (double)groups;
    return 0;
}

double layout_median(double *v, size_t n)
{
    if (n == 0)
        return -1;
    qsort(v, n, sizeof *v, layout_cmp_double);
    if (n % 2)
        return v[n / 2];
    return (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- the walk ---- */

/* A growable array of doubles (one per measured directory). */
struct layout_vec {
    double *v;
    size_t n, cap;
};

struct layout_walk {
    struct layout_result *out;
    dev_t dev;
    uint64_t bs;
    uint64_t first_data_block;
    struct os_extent_reader *ext;
    struct layout_vec spread, gap, groups;
    char root[PATH_MAX]; /* the start directory, for messages */
    char rel[PATH_MAX];  /* the current directory below it, "" at the start */
    size_t rel_len;
};

static int layout_vec_push(struct layout_vec *v, double x)
{
    if (v->n == v->cap) {
        size_t ncap = v->cap ? v->cap * 2 : 64;
        double *nv = realloc(v->v, ncap * sizeof *nv);
        if (!nv)
            return error("out of memory");
        v->v = nv;
        v->cap = ncap;
    }
    v->v[v->n++] = x;
    return 0;
}

/* "root/rel/name" into buf, for messages. */
static const char *layout_path(const struct layout_walk *lw, const char *name, char *buf,
                               size_t len)
{
    snprintf(buf, len, "%s%s%s%s", lw->root, lw->rel, name ? "/" : "", name ? name : "");
    return buf;
}

static int layout_fail(const struct layout_walk *lw, const char *op, const char *name, int errnum)
{
    char path[PATH_MAX + 256];
    return error_num(errnum, "layout: %s %s", op, layout_path(lw, name, path, sizeof path));
}

/* Appends "/name" to the relative path; returns the previous length for layout_rel_pop. */
static size_t layout_rel_push(struct layout_walk *lw, const char *name)
{
    size_t old = lw->rel_len;
    int n = snprintf(lw->rel + old, sizeof lw->rel - old, "/%s", name);
    if (n > 0)
        lw->rel_len = old + (size_t)n < sizeof lw->rel ? old + (size_t)n : sizeof lw->rel - 1;
    return old;
}

static void layout_rel_pop(struct layout_walk *lw, size_t old)
{
    lw->rel_len = old;
    lw->rel[old] = '\0';
}

/* Adds one file's totals to the result. */
static void layout_account(struct layout_result *r, const struct layout_file *f)
{
    if (f->extents == 0) {
        r->files_empty++;
        return;
    }
    r->extents_hist[layout_hist_bucket(f->extents)]++;
    r->extents += f->extents;
    r->extents_excluded += f->extents_excluded;
    r->extents_unwritten += f->extents_unwritten;
    r->blocks_unwritten += f->blocks_unwritten;
    if (f->extents_unwritten)
        r->files_unwritten++;
    if (f->blocks == 0)
        r->files_excluded++;
    else if (f->blocks == 1)
        r->files_single_block++;
    r->blocks += f->blocks;
    r->pairs += f->pairs;
    r->contiguous += f->contiguous;
}

/* Adds one extent to the file being scanned (os_extents_read's callback). */
struct layout_add {
    struct layout_file *f;
    uint64_t bs;
};

static void layout_add_extent(void *arg, const struct os_extent *x)
{
    struct layout_add *a = arg;
    struct layout_extent e = {x->logical, x->physical, x->length, x->flags};
    layout_file_add(a->f, &e, a->bs);
}

/* One directory entry believed to be a regular file. 0, 1 (FIEMAP unsupported: stop) or
 * -1 after error(). *located and *first get the file's first physical block. */
static int layout_file(struct layout_walk *lw, int dirfd, const char *name, bool *located,
                       uint64_t *first)
{
    *located = false;
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT || errno == ELOOP) /* vanished, or now a symlink */
            return 0;
        if (errno == EACCES || errno == EPERM) {
            lw->out->files_unreadable++;
            return 0;
        }
        return layout_fail(lw, "open", name, errno);
    }
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return layout_fail(lw, "stat", name, e);
    }
    if (!S_ISREG(st.st_mode) || st.st_dev != lw->dev) { /* changed type, or bind-mounted */
        close(fd);
        return 0;
    }
    struct layout_file f;
    layout_file_begin(&f);
    struct layout_add add = {&f, lw->bs};
    int rc = os_extents_read(lw->ext, fd, layout_add_extent, &add);
    close(fd);
    if (rc == 1)
        return 1;
    if (rc < 0)
        return layout_fail(lw, "FIEMAP of", name, -rc);
    lw->out->files++;
    layout_account(lw->out, &f);
    if (f.have_first) {
        *located = true;
        *first = f.first_block;
    }
    return 0;
}

/* One directory being scanned: the walk's own stack replaces recursion (any depth). */
struct layout_frame {
    int fd;             /* -1 while closed by the window */
    char *buf;
    size_t cap;
    long filled, pos;
    bool drained;       /* every remaining entry is in buf, fd closed */
    dev_t dev;          /* identity while closed, checked when reopened */
    ino_t ino;
    uint64_t *first;    /* first physical block of each located file */
    size_t nfirst, capfirst;
    size_t rel_old;     /* lw->rel_len before this directory was entered */
};

/* Directories kept open at once: deeper ones drain and close the shallowest. */
#define LAYOUT_WINDOW 16

struct layout_stack {
    struct layout_frame *f;
    size_t n, cap, first_open;
};

/* Enters directory fd (its name already on lw->rel, old length rel_old). 0 or -1. */
static int frame_push(struct layout_stack *st, int fd, size_t rel_old)
{
    if (st->n == st->cap) {
        size_t ncap = st->cap ? st->cap * 2 : 16;
        struct layout_frame *p = realloc(st->f, ncap * sizeof *p);
        if (!p)
            return error("out of memory");
        st->f = p;
        st->cap = ncap;
    }
    struct layout_frame *f = &st->f[st->n];
    memset(f, 0, sizeof *f);
    if (!(f->buf = malloc(LAYOUT_DENTS_BUF)))
        return error("out of memory");
    f->cap = LAYOUT_DENTS_BUF;
    f->fd = fd;
    f->rel_old = rel_old;
    st->n++;
    return 0;
}

/* Reads the rest of frame f into memory and closes it. 0 or -1 after error(). */
static int frame_drain(struct layout_walk *lw, struct layout_frame *f)
{
    struct stat sb;
    if (fstat(f->fd, &sb) < 0)
        return layout_fail(lw, "stat", NULL, errno);
    if (!f->drained) {
        char *nb;
        size_t have;
        int r = os_dents_drain(f->fd, f->buf + f->pos, (size_t)(f->filled - f->pos),
                               LAYOUT_DENTS_BUF, &nb, &have);
        if (r < 0)
            return r == -ENOMEM ? error("out of memory") : layout_fail(lw, "readdir", NULL, -r);
        free(f->buf);
        f->buf = nb;
        f->cap = have;
        f->filled = (long)have;
        f->pos = 0;
        f->drained = true;
    }
    f->dev = sb.st_dev;
    f->ino = sb.st_ino;
    close(f->fd);
    f->fd = -1;
    return 0;
}

/* Leaves the deepest directory: its locality figures, then its parent reopened as ".."
 * if the window closed it. 0 or -1 after error(). */
static int frame_pop(struct layout_walk *lw, struct layout_stack *st)
{
    struct layout_frame *f = &st->f[st->n - 1];
    int rc = 0;
    struct layout_dir_stats ds;
    if (layout_dir_of(f->first, f->nfirst, lw->out->group_blocks, lw->first_data_block, &ds) == 0) {
        lw->out->dirs_measured++;
        if (layout_vec_push(&lw->spread, ds.spread_blocks) < 0 ||
            layout_vec_push(&lw->gap, ds.gap_blocks) < 0 ||
            (ds.groups >= 0 && layout_vec_push(&lw->groups, ds.groups) < 0))
            rc = -1;
    }
    layout_rel_pop(lw, f->rel_old);
    if (rc == 0 && st->n >= 2 && st->first_open > st->n - 2) {
        struct layout_frame *p = &st->f[st->n - 2];
        int pfd = openat(f->fd, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int e = pfd < 0 ? errno : 0;
        struct stat sb;
        if (pfd >= 0 && (fstat(pfd, &sb) < 0 || sb.st_dev != p->dev || sb.st_ino != p->ino)) {
            e = ESTALE; /* moved while we walked */
            close(pfd);
            pfd = -1;
        }
        if (pfd < 0)
            rc = layout_fail(lw, "reopen", NULL, e);
        p->fd = pfd;
        st->first_open = st->n - 2;
    }
    if (f->fd >= 0)
        close(f->fd);
    free(f->first);
    free(f->buf);
    st->n--;
    return rc;
}

/* One entry of the deepest directory. 0, 1 (FIEMAP unsupported: stop) or -1. */
static int layout_entry(struct layout_walk *lw, struct layout_stack *st, const char *name,
                        unsigned char type)
{
    struct layout_frame *f = &st->f[st->n - 1];
    if (type == DT_UNKNOWN) {
        struct stat sb;
        if (fstatat(f->fd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
            return errno == ENOENT ? 0 : layout_fail(lw, "stat", name, errno);
        type = (unsigned char)IFTODT(sb.st_mode);
    }
    if (type == DT_REG) {
        bool located;
        uint64_t fb;
        int rc = layout_file(lw, f->fd, name, &located, &fb);
        if (rc || !located)
            return rc;
        if (f->nfirst == f->capfirst) {
            size_t ncap = f->capfirst ? f->capfirst * 2 : 256;
            uint64_t *nf = realloc(f->first, ncap * sizeof *nf);
            if (!nf)
                return error("out of memory");
            f->first = nf;
            f->capfirst = ncap;
        }
        f->first[f->nfirst++] = fb;
        return 0;
    }
    if (type != DT_DIR) /* symlinks, devices, fifos, sockets: no data blocks of their own */
        return 0;
    int cfd = openat(f->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (cfd < 0) {
        if (errno == ENOENT || errno == ELOOP || errno == ENOTDIR)
            return 0;
        return layout_fail(lw, "open", name, errno);
    }
    struct stat sb;
    if (fstat(cfd, &sb) < 0) {
        int e = errno;
        close(cfd);
        return layout_fail(lw, "stat", name, e);
    }
    if (sb.st_dev != lw->dev) {
        lw->out->mounts_skipped++;
        close(cfd);
        return 0;
    }
    size_t old = layout_rel_push(lw, name);
    if (frame_push(st, cfd, old) < 0) {
        layout_rel_pop(lw, old);
        close(cfd);
        return -1;
    }
    lw->out->dirs++;
    while (st->n - st->first_open > LAYOUT_WINDOW) {
        if (frame_drain(lw, &st->f[st->first_open]) < 0)
            return -1;
        st->first_open++;
    }
    return 0;
}

/* Scans directory fd (named lw->rel) and everything below it, on its own stack with at
 * most LAYOUT_WINDOW directories open. Takes fd. 0, 1 (FIEMAP unsupported: stop) or -1
 * after error(). */
static int layout_dir(struct layout_walk *lw, int fd)
{
    struct layout_stack st = {0};
    lw->out->dirs++;
    int rc = frame_push(&st, fd, lw->rel_len);
    if (rc < 0) {
        close(fd);
        return -1;
    }
    while (rc == 0 && st.n > 0) {
        struct layout_frame *f = &st.f[st.n - 1];
        if (f->pos >= f->filled) {
            long got = f->drained ? 0 : os_getdents(f->fd, f->buf, LAYOUT_DENTS_BUF);
            if (got < 0) {
                rc = layout_fail(lw, "readdir", NULL, errno);
                break;
            }
            if (got == 0) {
                rc = frame_pop(lw, &st);
                continue;
            }
            f->filled = got;
            f->pos = 0;
        }
        const struct os_dirent *de = os_dirent_at(f->buf, (size_t)f->pos);
        f->pos += de->d_reclen;
        const char *name = de->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
            continue;
        rc = layout_entry(lw, &st, name, de->d_type);
    }
    while (st.n > 0) { /* after a failure or a stop */
        struct layout_frame *f = &st.f[--st.n];
        if (f->fd >= 0)
            close(f->fd);
        free(f->first);
        free(f->buf);
    }
    free(st.f);
    return rc;
}

/* ---- the file system ---- */

/* Fills fstype, fs_block_size, group_blocks, group_source and lw->first_data_block. */
static void layout_fs_probe(struct layout_walk *lw, int dirfd)
{
    struct layout_result *r = lw->out;
    struct target_info *t = calloc(1, sizeof *t);
    char path[PATH_MAX], ignored[256];
    err_capture_begin(ignored, sizeof ignored); /* fstype is descriptive: no noise */
    bool have_t = t && os_fd_path(dirfd, path, sizeof path) == 0 &&
                  meas_target_probe(path, t) == 0 && t->fstype[0] && strcmp(t->fstype, "unknown");
    err_capture_end();
    struct os_fs_geometry g;
    os_fs_geometry(dirfd, lw->dev, have_t ? t->device : "", &g);
    snprintf(r->fstype, sizeof r->fstype, "%s", have_t ? t->fstype : g.type);
    r->fs_block_size = lw->bs = g.block_size;
    r->group_blocks = g.group_blocks;
    lw->first_data_block = g.first_data_block;
    snprintf(r->group_source, sizeof r->group_source, "%s", g.group_source);
    free(t);
}

int layout_scan(int dirfd, struct layout_result *out)
{
    memset(out, 0, sizeof *out);
    out->score = -1;
    out->dir_spread_median_blocks = out->dir_gap_median_blocks = out->dir_groups_median = -1;

    struct layout_walk lw;
    memset(&lw, 0, sizeof lw);
    lw.out = out;
    if (os_fd_path(dirfd, lw.root, sizeof lw.root) < 0)
        snprintf(lw.root, sizeof lw.root, ".");

    struct stat st;
    if (fstat(dirfd, &st) < 0)
        return layout_fail(&lw, "stat", NULL, errno);
    if (!S_ISDIR(st.st_mode))
        return error("layout: %s is not a directory", lw.root);
    lw.dev = st.st_dev;
    layout_fs_probe(&lw, dirfd);

    lw.ext = os_extent_reader_new();
    if (!lw.ext)
        return error("out of memory");
    /* A fresh fd of our own, so getdents starts at the beginning whatever the caller did. */
    int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc;
    if (fd < 0) {
        rc = layout_fail(&lw, "open", NULL, errno);
    } else {
        rc = layout_dir(&lw, fd); /* takes fd */
    }
    if (rc == 1) { /* no FIEMAP: say so, with no half-counted numbers */
        char fstype[sizeof out->fstype];
        uint64_t bs = out->fs_block_size;
        memcpy(fstype, out->fstype, sizeof fstype);
        memset(out, 0, sizeof *out);
        memcpy(out->fstype, fstype, sizeof fstype);
        out->fs_block_size = bs;
        snprintf(out->group_source, sizeof out->group_source, "n/a");
        out->score = -1;
        out->dir_spread_median_blocks = out->dir_gap_median_blocks = -1;
        out->dir_groups_median = -1;
        out->supported = false;
        rc = 0;
    } else if (rc == 0) {
        out->supported = true;
        uint64_t with_extents = out->files - out->files_empty;
        out->extents_per_file = with_extents ? (double)out->extents / (double)with_extents : 0;
        out->score = out->pairs ? (double)out->contiguous / (double)out->pairs : -1;
        out->dir_spread_median_blocks = layout_median(lw.spread.v, lw.spread.n);
        out->dir_gap_median_blocks = layout_median(lw.gap.v, lw.gap.n);
        out->dir_groups_median = out->group_blocks ? layout_median(lw.groups.v, lw.groups.n) : -1;
    }
    os_extent_reader_free(lw.ext);
    free(lw.spread.v);
    free(lw.gap.v);
    free(lw.groups.v);
    return rc;
}
