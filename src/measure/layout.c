/* layout.c — FIEMAP extents, the Smith & Seltzer layout score and directory locality of an
 * existing tree (see layout.h for the definitions). Computes; never prints except through
 * error().
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
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/err.h"
#include "measure/measure.h"
#include "os/dents.h"
#include "measure/results.h"

#if defined(__has_include)
#if __has_include(<xfs/xfs.h>)
#include <xfs/xfs.h>
#define LAYOUT_HAVE_XFS 1
#endif
#endif

#ifndef XFS_SUPER_MAGIC
#define XFS_SUPER_MAGIC 0x58465342
#endif

#define LAYOUT_FIEMAP_EXTENTS 256
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

/* The kernel's getdents64 record. */
struct layout_dirent {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

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
    struct fiemap *fm;
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
    if (f->blocks == 0)
        r->files_excluded++;
    else if (f->blocks == 1)
        r->files_single_block++;
    r->blocks += f->blocks;
    r->pairs += f->pairs;
    r->contiguous += f->contiguous;
}

/* FIEMAP of open regular file fd, in slices of LAYOUT_FIEMAP_EXTENTS. 0, 1 when the file
 * system has no FIEMAP, or -errno. */
static int layout_fiemap(struct layout_walk *lw, int fd, struct layout_file *f)
{
    struct fiemap *fm = lw->fm;
    uint64_t start = 0;
    uint32_t flags = FIEMAP_FLAG_SYNC; /* flush delayed allocation once, on the first call */
    for (;;) {
        memset(fm, 0, sizeof *fm);
        fm->fm_start = start;
        fm->fm_length = FIEMAP_MAX_OFFSET - start;
        fm->fm_flags = flags;
        fm->fm_extent_count = LAYOUT_FIEMAP_EXTENTS;
        if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
            int e = errno;
            if (e == EOPNOTSUPP || e == ENOTTY)
                return 1;
            if (e == EBADR && flags) { /* no FIEMAP_FLAG_SYNC here: flush by hand */
                if (fdatasync(fd) < 0)
                    return -errno;
                flags = 0;
                continue;
            }
            return -e;
        }
        flags = 0;
        uint32_t n = fm->fm_mapped_extents;
        if (n == 0)
            return 0;
        for (uint32_t i = 0; i < n; i++) {
            const struct fiemap_extent *fe = &fm->fm_extents[i];
            struct layout_extent e = {fe->fe_logical, fe->fe_physical, fe->fe_length, fe->fe_flags};
            layout_file_add(f, &e, lw->bs);
        }
        const struct fiemap_extent *last = &fm->fm_extents[n - 1];
        uint64_t next = last->fe_logical + last->fe_length;
        if ((last->fe_flags & FIEMAP_EXTENT_LAST) || n < LAYOUT_FIEMAP_EXTENTS || next <= start ||
            next >= FIEMAP_MAX_OFFSET)
            return 0;
        start = next;
    }
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
    int rc = layout_fiemap(lw, fd, &f);
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
            ssize_t got = f->drained ? 0 : getdents64(f->fd, f->buf, LAYOUT_DENTS_BUF);
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
        struct layout_dirent *de = (struct layout_dirent *)(void *)(f->buf + f->pos);
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

static uint32_t layout_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Reads s_blocks_per_group and s_first_data_block from the ext2/3/4 superblock of block
 * device dev (via /dev/block/M:m, else the mount source if it is that device). 0, or -1
 * when it cannot be read (not root, no node): the caller falls back to the default. */
static int layout_ext_superblock(dev_t dev, const char *source, uint64_t bs, uint64_t *bpg,
                                 uint64_t *first_data)
{
    char node[64];
    snprintf(node, sizeof node, "/dev/block/%u:%u", major(dev), minor(dev));
    int fd = open(node, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && source[0] == '/') {
        struct stat st;
        if (stat(source, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev)
            fd = open(source, O_RDONLY | O_CLOEXEC);
    }
    if (fd < 0)
        return -1;
    unsigned char sb[1024];
    ssize_t got = pread(fd, sb, sizeof sb, 1024);
    close(fd);
    if (got != (ssize_t)sizeof sb || sb[56] != 0x53 || sb[57] != 0xEF) /* s_magic 0xEF53 */
        return -1;
    uint32_t log_bs = layout_le32(sb + 24);
    uint32_t per_group = layout_le32(sb + 32);
    if (log_bs > 16 || (1024ull << log_bs) != bs || per_group == 0)
        return -1;
    *bpg = per_group;
    *first_data = layout_le32(sb + 20);
    return 0;
}

/* Name of a file-system magic, for when mountinfo cannot tell. */
static const char *layout_magic_name(unsigned long magic)
{
    switch (magic) {
    case EXT4_SUPER_MAGIC:
        return "ext2/3/4";
    case XFS_SUPER_MAGIC:
        return "xfs";
    case BTRFS_SUPER_MAGIC:
        return "btrfs";
    case TMPFS_MAGIC:
        return "tmpfs";
    case F2FS_SUPER_MAGIC:
        return "f2fs";
    case NFS_SUPER_MAGIC:
        return "nfs";
    case OVERLAYFS_SUPER_MAGIC:
        return "overlay";
    default:
        return "unknown";
    }
}

/* Fills fstype, fs_block_size, group_blocks, group_source and lw->first_data_block. */
static void layout_fs_probe(struct layout_walk *lw, int dirfd)
{
    struct layout_result *r = lw->out;
    struct statfs sfs;
    bool have_sfs = fstatfs(dirfd, &sfs) == 0;

    struct target_info *t = calloc(1, sizeof *t);
    char proc[64], ignored[256];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", dirfd);
    err_capture_begin(ignored, sizeof ignored); /* fstype is descriptive: no noise */
    bool have_t = t && meas_target_probe(proc, t) == 0 && t->fstype[0];
    err_capture_end();
    snprintf(r->fstype, sizeof r->fstype, "%s",
             have_t     ? t->fstype
             : have_sfs ? layout_magic_name((unsigned long)sfs.f_type)
                        : "unknown");

    int bsz = 0;
    if (ioctl(dirfd, FIGETBSZ, &bsz) == 0 && bsz > 0)
        r->fs_block_size = (uint64_t)bsz;
    else if (have_sfs && sfs.f_bsize > 0)
        r->fs_block_size = (uint64_t)sfs.f_bsize;
    else
        r->fs_block_size = 4096;
    lw->bs = r->fs_block_size;

    snprintf(r->group_source, sizeof r->group_source, "n/a");
    if (have_sfs && (unsigned long)sfs.f_type == EXT4_SUPER_MAGIC) {
        uint64_t bpg, first;
        if (layout_ext_superblock(lw->dev, have_t ? t->device : "", lw->bs, &bpg, &first) == 0) {
            r->group_blocks = bpg;
            lw->first_data_block = first;
            snprintf(r->group_source, sizeof r->group_source, "superblock");
        } else {
            /* mke2fs: one block bitmap block per group, so 8 * block size blocks; the first
             * data block is 1 with 1 KiB blocks (the boot block), else 0. */
            r->group_blocks = 8 * lw->bs;
            lw->first_data_block = lw->bs == 1024 ? 1 : 0;
            snprintf(r->group_source, sizeof r->group_source, "mke2fs default");
        }
    }
#ifdef LAYOUT_HAVE_XFS
    if (have_sfs && (unsigned long)sfs.f_type == XFS_SUPER_MAGIC) {
        struct xfs_fsop_geom geo;
        memset(&geo, 0, sizeof geo);
        if (ioctl(dirfd, XFS_IOC_FSGEOMETRY, &geo) == 0 && geo.agblocks > 0 &&
            geo.blocksize == lw->bs) {
            /* FIEMAP's physical addresses on xfs are linear: AG g starts at g * agblocks. */
            r->group_blocks = geo.agblocks;
            lw->first_data_block = 0;
            snprintf(r->group_source, sizeof r->group_source, "xfs geometry");
        }
    }
#endif
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
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", dirfd);
    ssize_t n = readlink(proc, lw.root, sizeof lw.root - 1);
    if (n <= 0)
        snprintf(lw.root, sizeof lw.root, ".");
    else
        lw.root[n] = '\0';

    struct stat st;
    if (fstat(dirfd, &st) < 0)
        return layout_fail(&lw, "stat", NULL, errno);
    if (!S_ISDIR(st.st_mode))
        return error("layout: %s is not a directory", lw.root);
    lw.dev = st.st_dev;
    layout_fs_probe(&lw, dirfd);

    lw.fm = calloc(1, sizeof *lw.fm + LAYOUT_FIEMAP_EXTENTS * sizeof(struct fiemap_extent));
    if (!lw.fm)
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
    free(lw.fm);
    free(lw.spread.v);
    free(lw.gap.v);
    free(lw.groups.v);
    return rc;
}
