/* shape.c — capture a real tree's shape, keep it in an INI file, and make a profile of it
 * (see shape.h for what is recorded and the counting conventions).
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
 *
 * Profile fit (shape_to_profile): sizes and files per directory become the profile's
 * empirical tables (tree.c samples them); size_tilt is solved by bisection so that the
 * expected total of the tables' quantiles equals the captured bytes; max_depth is chosen
 * among the candidate depths by generating each candidate tree (at most FIT_FILES files)
 * and keeping the one whose file-depth histogram and directory count come closest.
 */
#include "tree/shape.h"
#include "tree/ageprof.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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
#define FIT_FILES 200000.0 /* largest tree generated per max_depth candidate */

unsigned shape_bucket(uint64_t v)
{
    unsigned b = v ? 64u - (unsigned)__builtin_clzll(v) : 0;
    return b < SHAPE_BUCKETS ? b : SHAPE_BUCKETS - 1;
}

/* --- capture ------------------------------------------------------------------------- */

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

/* --- INI file ------------------------------------------------------------------------ */

enum hist_kind { H_POW2, H_EXACT };

static const struct hist_def {
    const char *section;
    enum hist_kind kind;
    size_t off;         /* offset of the array in struct shape */
    unsigned n;         /* entries */
    const char *what;   /* for the header comment */
} hist_defs[] = {
    {"file_sizes", H_POW2, offsetof(struct shape, file_sizes), SHAPE_BUCKETS,
     "regular files by size in bytes"},
    {"files_per_dir", H_POW2, offsetof(struct shape, files_per_dir), SHAPE_BUCKETS,
     "directories (root included) by the regular files they hold"},
    {"subdirs_per_dir", H_POW2, offsetof(struct shape, subdirs_per_dir), SHAPE_BUCKETS,
     "directories (root included) by the subdirectories they hold"},
    {"depth", H_EXACT, offsetof(struct shape, depth), SHAPE_DEPTH_MAX + 1,
     "regular files by depth (the root's children are at depth 1)"},
    {"name_length", H_EXACT, offsetof(struct shape, name_length), SHAPE_NAME_MAX + 1,
     "entries by the length of their name in bytes"},
};
#define NHIST (sizeof hist_defs / sizeof hist_defs[0])

static const struct total_def {
    const char *key;
    size_t off;         /* of a uint64_t, or of max_depth (unsigned) when is_uint */
    int required, is_uint;
} total_defs[] = {
    {"version", 0, 1, 0},
    {"files", offsetof(struct shape, files), 1, 0},
    {"dirs", offsetof(struct shape, dirs), 1, 0},
    {"symlinks", offsetof(struct shape, symlinks), 0, 0},
    {"bytes", offsetof(struct shape, bytes), 1, 0},
    {"other", offsetof(struct shape, other), 0, 0},
    {"max_depth", offsetof(struct shape, max_depth), 0, 1},
    {"skipped_mounts", offsetof(struct shape, skipped_mounts), 0, 0},
    {"unreadable", offsetof(struct shape, unreadable), 0, 0},
};
#define NTOTAL (sizeof total_defs / sizeof total_defs[0])

static uint64_t *hist_of(struct shape *s, const struct hist_def *h)
{
    return (uint64_t *)(void *)((char *)s + h->off);
}

/* Lower bound of bucket i of a histogram. */
static uint64_t bucket_lo(const struct hist_def *h, unsigned i)
{
    return h->kind == H_EXACT || i == 0 ? i : (uint64_t)1 << (i - 1);
}

int shape_write_ini(const struct shape *s, const char *path)
{
    struct outfile of;
    if (outfile_open(&of, path, NULL) < 0)
        return -1;
    FILE *f = of.f;
    fprintf(f, "# fsbench tree shape (version %d), written by 'fsbench tree capture'.\n"
               "# It records the shape of a directory tree: totals and histograms of file sizes,\n"
               "# files and subdirectories per directory, depth of files and name lengths.\n"
               "# It holds no file names, no paths and no file content.\n"
               "# Use it with 'fsbench run --tree FILE.ini' or 'fsbench tree make FILE.ini DIR'.\n"
               "#\n"
               "# Histogram lines are 'bucket_lo = count'. In [file_sizes], [files_per_dir] and\n"
               "# [subdirs_per_dir] buckets are powers of two: '0' holds 0, '1' holds 1, and\n"
               "# 'N' holds N to 2N-1. In [depth] and [name_length] a bucket is one value.\n",
            SHAPE_VERSION);
    fprintf(f, "\n[shape]\nversion = %d\n", SHAPE_VERSION);
    for (size_t k = 1; k < NTOTAL; k++) {
        const struct total_def *t = &total_defs[k];
        uint64_t v = t->is_uint ? *(const unsigned *)(const void *)((const char *)s + t->off)
                                : *(const uint64_t *)(const void *)((const char *)s + t->off);
        fprintf(f, "%s = %" PRIu64 "\n", t->key, v);
    }
    for (size_t h = 0; h < NHIST; h++) {
        const struct hist_def *d = &hist_defs[h];
        const uint64_t *a = hist_of((struct shape *)s, d);
        fprintf(f, "\n[%s]\n; %s\n", d->section, d->what);
        for (unsigned i = 0; i < d->n; i++)
            if (a[i])
                fprintf(f, "%" PRIu64 " = %" PRIu64 "\n", bucket_lo(d, i), a[i]);
    }
    return outfile_commit(&of);
}

struct ini_ctx {
    const char *path;
    const char *text; /* the whole file, read by infile_read() */
    size_t pos;
    struct shape *s;
    int line;                       /* line of the text last handed to inih */
    int lines_done;                 /* complete lines read */
    int err_line;                   /* first error (0: none) */
    char err[256];
    int total_line[NTOTAL];         /* where each [shape] key was set (0: not) */
    int section_line[NHIST + 1];    /* where each section starts (last: [shape]) */
    unsigned char seen[NHIST][SHAPE_NAME_MAX + 1];
    uint64_t version;
};

/* fgets over the text for inih that counts lines and notes where known sections start. */
static char *ini_reader_fn(char *str, int num, void *stream)
{
    struct ini_ctx *c = stream;
    if (!c->text[c->pos] || num < 2)
        return NULL;
    const char *start = c->text + c->pos, *nl = strchr(start, '\n');
    size_t take = nl ? (size_t)(nl - start) + 1 : strlen(start);
    if (take > (size_t)num - 1)
        take = (size_t)num - 1;
    memcpy(str, start, take);
    str[take] = '\0';
    c->pos += take;
    c->line = c->lines_done + 1;
    size_t n = strlen(str);
    if (n && str[n - 1] == '\n')
        c->lines_done++;
    const char *p = str + strspn(str, " \t");
    if (*p == '[') {
        size_t len = strcspn(p + 1, "]");
        for (size_t h = 0; h <= NHIST; h++) {
            const char *name = h < NHIST ? hist_defs[h].section : "shape";
            if (strlen(name) == len && !strncmp(p + 1, name, len) && !c->section_line[h])
                c->section_line[h] = c->line;
        }
    }
    return str;
}

static int ini_fail(struct ini_ctx *c, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Keeps the first error's message and line; returns 0 (inih's "error"). */
static int ini_fail(struct ini_ctx *c, int line, const char *fmt, ...)
{
    if (c->err_line)
        return 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    c->err_line = line > 0 ? line : 1;
    return 0;
}

/* Parses a whole number without sign or spaces; 0 or -1. */
static int parse_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (*s)
        return -1;
    *out = v;
    return 0;
}

static int ini_handler_fn(void *user, const char *section, const char *name, const char *value)
{
    struct ini_ctx *c = user;
    uint64_t v;
    if (!strcmp(section, "shape")) {
        for (size_t k = 0; k < NTOTAL; k++) {
            const struct total_def *t = &total_defs[k];
            if (strcmp(name, t->key))
                continue;
            if (c->total_line[k])
                return ini_fail(c, c->line, "'%s' set twice in [shape]", name);
            if (parse_u64(value, &v) < 0)
                return ini_fail(c, c->line, "%s = '%s' is not a whole number", name, value);
            c->total_line[k] = c->line;
            if (k == 0) {
                if (v != SHAPE_VERSION)
                    return ini_fail(c, c->line, "shape version %" PRIu64 " is not supported "
                                    "(this fsbench reads version %d)", v, SHAPE_VERSION);
                c->version = v;
            } else if (t->is_uint) {
                if (v > 1000000)
                    return ini_fail(c, c->line, "%s = %" PRIu64 " is too large", name, v);
                *(unsigned *)(void *)((char *)c->s + t->off) = (unsigned)v;
            } else {
                *(uint64_t *)(void *)((char *)c->s + t->off) = v;
            }
            return 1;
        }
        return ini_fail(c, c->line, "unknown key '%s' in [shape]", name);
    }
    for (size_t h = 0; h < NHIST; h++) {
        const struct hist_def *d = &hist_defs[h];
        if (strcmp(section, d->section))
            continue;
        uint64_t lo;
        unsigned i;
        if (parse_u64(name, &lo) < 0)
            return ini_fail(c, c->line, "'%s' in [%s] is not a bucket (a whole number)", name,
                            section);
        if (d->kind == H_POW2) {
            i = shape_bucket(lo);
            if (lo != bucket_lo(d, i))
                return ini_fail(c, c->line, "'%s' in [%s] is not a bucket's lower bound "
                                "(0 or a power of two)", name, section);
        } else {
            if (lo == 0 || lo >= d->n)
                return ini_fail(c, c->line, "'%s' in [%s] is out of range (1 to %u)", name,
                                section, d->n - 1);
            i = (unsigned)lo;
        }
        if (parse_u64(value, &v) < 0)
            return ini_fail(c, c->line, "count '%s' of bucket %s in [%s] is not a whole number",
                            value, name, section);
        if (c->seen[h][i])
            return ini_fail(c, c->line, "bucket %s appears twice in [%s]", name, section);
        c->seen[h][i] = 1;
        hist_of(c->s, d)[i] = v;
        return 1;
    }
    if (!*section)
        return ini_fail(c, c->line, "'%s' outside any section", name);
    return ini_fail(c, c->line, "unknown section [%s]", section);
}

/* Sum of a histogram, saturating. */
static uint64_t hist_sum(const uint64_t *a, unsigned n)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < n; i++)
        t = a[i] > UINT64_MAX - t ? UINT64_MAX : t + a[i];
    return t;
}

/* The checks across sections, once everything is read. 0, or the message in c. */
static int ini_check_totals(struct ini_ctx *c)
{
    struct shape *s = c->s;
    int shape_line = c->section_line[NHIST];
    if (!c->total_line[1] && !shape_line)
        return ini_fail(c, 1, "no [shape] section: not a shape file from 'fsbench tree capture'");
    for (size_t k = 0; k < NTOTAL; k++)
        if (total_defs[k].required && !c->total_line[k])
            return ini_fail(c, shape_line, "[shape] has no '%s'", total_defs[k].key);
    if (s->files == 0)
        return ini_fail(c, c->total_line[1], "files = 0: a shape needs at least one file");
    uint64_t want[NHIST] = {s->files, s->dirs + 1, s->dirs + 1, s->files,
                            s->files + s->dirs + s->symlinks + s->other};
    static const char *const want_what[NHIST] = {"files", "dirs + 1", "dirs + 1", "files",
                                                 "files + dirs + symlinks + other"};
    for (size_t h = 0; h < NHIST; h++) {
        uint64_t got = hist_sum(hist_of(s, &hist_defs[h]), hist_defs[h].n);
        if (got != want[h])
            return ini_fail(c, c->section_line[h] ? c->section_line[h] : shape_line,
                            "[%s] counts add up to %" PRIu64 ", but [shape] says %s = %" PRIu64,
                            hist_defs[h].section, got, want_what[h], want[h]);
    }
    long double lo = 0, hi = 0;
    for (unsigned i = 1; i < SHAPE_BUCKETS; i++) {
        lo += (long double)s->file_sizes[i] * (long double)bucket_lo(&hist_defs[0], i);
        hi += (long double)s->file_sizes[i] * (long double)(2 * bucket_lo(&hist_defs[0], i) - 1);
    }
    if ((long double)s->bytes < lo || (long double)s->bytes > hi)
        return ini_fail(c, c->total_line[4], "bytes = %" PRIu64 " does not fit the "
                        "[file_sizes] buckets (%.0Lf to %.0Lf)", s->bytes, lo, hi);
    return 0;
}

int shape_load_ini(const char *path, struct shape *out)
{
    memset(out, 0, sizeof *out);
    struct ini_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return error("out of memory");
    c->path = path;
    c->s = out;
    char *text, why[256];
    size_t len;
    if (infile_read(path, INFILE_TEXT_MAX, &text, &len, why, sizeof why) < 0) {
        free(c);
        return error("cannot open %s: %s", path, why);
    }
    struct text_flaw f;
    if (text_check(text, len, TEXT_ALLOW_NEWLINE | TEXT_ALLOW_TAB, &f) < 0) {
        int line = text_line_of(text, f.off);
        free(text);
        free(c);
        return error("%s:%d: %s: a shape file is text", path, line, f.what);
    }
    c->text = text;
    infile_ini_limits();
    int rc = ini_parse_stream(ini_reader_fn, c, ini_handler_fn, c);
    free(text);
    if (rc > 0 && (!c->err_line || rc < c->err_line)) {
        c->err_line = 0;
        ini_fail(c, rc, "expected '[section]' or 'key = value'");
    }
    if (!c->err_line)
        ini_check_totals(c);
    int ret = 0;
    if (c->err_line)
        ret = error("%s:%d: %s", path, c->err_line, c->err);
    free(c);
    return ret;
}

/* --- profile --------------------------------------------------------------------------- */

static const char *const shape_suffixes[] = {"", NULL};

/* Integral of exp(b t) over [0, 1). */
static double int_exp(double b)
{
    return fabs(b) < 1e-12 ? 1.0 : expm1(b) / b;
}

/* Expected files drawn from power-of-two bucket i with a log-uniform offset (tree.c). */
static double bucket_mean_count(unsigned i)
{
    if (i <= 1)
        return i;
    double lo = ldexp(1.0, (int)i - 1);
    if (lo >= 16)
        return lo / M_LN2 - 0.5;
    double m = 0;
    for (double n = lo; n < 2 * lo; n++)
        m += n * log2((n + 1) / n);
    return m;
}

/* Solves size_tilt: the expected bytes of the table's quantiles equal the captured bytes. */
static double fit_tilt(const struct shape *s)
{
    double target = (double)s->bytes - (double)s->file_sizes[1], base = 0, half = 0;
    for (unsigned i = 2; i < SHAPE_BUCKETS; i++) {
        base += (double)s->file_sizes[i] * ldexp(1.0, (int)i - 1);
        half += 0.5 * (double)s->file_sizes[i]; /* flooring to whole bytes */
    }
    if (base <= 0)
        return 0;
    double lo = -64, hi = 64;
    for (int k = 0; k < 200; k++) {
        double a = 0.5 * (lo + hi);
        double got = base * int_exp(a + M_LN2) / int_exp(a) - half;
        if (got < target)
            lo = a;
        else
            hi = a;
    }
    return 0.5 * (lo + hi);
}

/* Generates the candidate tree at a fit scale; distance of its file-depth histogram to
 * the captured one (L1 of shares) plus the log ratio of the directory counts. */
static double depth_distance(const struct shape *s, struct profile *p, double scale)
{
    struct tree_spec spec = {.prof = p, .scale = scale, .seed = 1};
    struct tree_gen *g = tree_open(&spec);
    if (!g)
        return INFINITY;
    uint64_t depth[SHAPE_DEPTH_MAX + 1] = {0}, files = 0, dirs = 0;
    struct tree_entry e;
    while (tree_next(g, &e)) {
        if (e.kind == TREE_FILE) {
            depth[e.depth < SHAPE_DEPTH_MAX ? e.depth : SHAPE_DEPTH_MAX]++;
            files++;
        } else if (e.kind == TREE_DIR) {
            dirs++;
        }
    }
    tree_close(g);
    double d = 0;
    for (unsigned i = 1; i <= SHAPE_DEPTH_MAX; i++)
        d += fabs((double)depth[i] / (double)files - (double)s->depth[i] / (double)s->files);
    double want_dirs = ((double)s->dirs + 1) * (double)files / (double)s->files;
    return d + fabs(log(((double)dirs + 1) / want_dirs));
}

int shape_to_profile(const struct shape *s, const char *name, struct shape_model *m)
{
    memset(m, 0, sizeof *m);
    if (s->files == 0)
        return error("shape %s: no files", name);
    snprintf(m->name, sizeof m->name, "%s", name);
    struct profile *p = &m->prof;
    p->name = m->name;

    /* sizes: the empirical table; mu, sigma and the bounds describe it (for the check) */
    uint64_t cum = 0;
    double lsum = 0, lsq = 0;
    unsigned top = 0;
    for (unsigned i = 0; i < SHAPE_BUCKETS; i++) {
        cum += s->file_sizes[i];
        m->size_cdf[i] = (double)cum / (double)s->files;
        if (s->file_sizes[i]) {
            top = i;
            double l = i ? log(1.5 * ldexp(1.0, (int)i - 1)) : 0;
            lsum += (double)s->file_sizes[i] * l;
            lsq += (double)s->file_sizes[i] * l * l;
        }
    }
    m->size_cdf[SHAPE_BUCKETS - 1] = 1;
    p->size_cdf = m->size_cdf;
    p->size_tilt = fit_tilt(s);
    p->size_mu = lsum / (double)s->files;
    double var = lsq / (double)s->files - p->size_mu * p->size_mu;
    p->size_sigma = var > 0 ? fmin(sqrt(var), 9.0) : 0;
    p->size_min = 0;
    p->size_max = top ? ((uint64_t)1 << top) - 1 : 0;

    /* files per directory: the empirical table and its mean */
    uint64_t ndirs = s->dirs + 1;
    double mean = 0;
    cum = 0;
    for (unsigned i = 0; i < SHAPE_BUCKETS; i++) {
        cum += s->files_per_dir[i];
        m->fpd_cdf[i] = (double)cum / (double)ndirs;
        mean += (double)s->files_per_dir[i] / (double)ndirs * bucket_mean_count(i);
    }
    m->fpd_cdf[SHAPE_BUCKETS - 1] = 1;
    p->files_per_dir_cdf = m->fpd_cdf;
    p->files_per_dir_mean = fmin(fmax(mean, 1.0), 999999.0);
    p->files_per_dir_sigma = 1.0; /* unused with the table */
    uint64_t parents = ndirs - s->subdirs_per_dir[0];
    p->subdirs_mean = parents ? fmin(fmax((double)s->dirs / (double)parents, 1.0), 9999.0) : 1.0;

    double sym = (double)s->symlinks / (double)s->files;
    p->symlink_share = sym < 0.95 ? sym : 0.95;
    p->suffixes = shape_suffixes;

    /* name lengths: the 5th to the 95th percentile, within what profiles allow */
    uint64_t nnames = hist_sum(s->name_length, SHAPE_NAME_MAX + 1), seen = 0;
    unsigned p5 = 0, p95 = 0;
    for (unsigned i = 0; i <= SHAPE_NAME_MAX && nnames; i++) {
        seen += s->name_length[i];
        if (!p5 && (double)seen >= 0.05 * (double)nnames)
            p5 = i;
        if (!p95 && (double)seen >= 0.95 * (double)nnames)
            p95 = i;
    }
    p->name_len_min = p5 < 3 ? 3 : p5 > PROFILE_NAME_LEN_MAX ? PROFILE_NAME_LEN_MAX : p5;
    p->name_len_max = p95 < p->name_len_min ? p->name_len_min
                      : p95 > PROFILE_NAME_LEN_MAX ? PROFILE_NAME_LEN_MAX : p95;

    p->files = s->files;
    char size[32];
    snprintf(m->summary, sizeof m->summary,
             "captured shape: %" PRIu64 " files, %" PRIu64 " dirs, %s", s->files, s->dirs,
             units_bytes(size, sizeof size, (double)s->bytes));
    p->summary = m->summary;

    /* depth: directories go one level above the deepest file; try each depth from the
     * median file depth down there and keep the closest */
    unsigned fmax_depth = 0, median = 0;
    seen = 0;
    for (unsigned i = 1; i <= SHAPE_DEPTH_MAX; i++) {
        if (s->depth[i])
            fmax_depth = i;
        seen += s->depth[i];
        if (!median && 2 * seen >= s->files)
            median = i;
    }
    unsigned dmax = fmax_depth ? fmax_depth - 1 : 0;
    if (dmax > TREE_MAX_DEPTH)
        dmax = TREE_MAX_DEPTH;
    unsigned dmin = median > 1 ? median - 1 : 0;
    if (dmin > dmax)
        dmin = dmax;
    double fit_scale = (double)s->files > FIT_FILES ? FIT_FILES / (double)s->files : 1.0;
    p->source = "fsbench tree capture";
    double best = INFINITY;
    unsigned best_depth = dmax;
    for (unsigned d = dmin; d <= dmax; d++) {
        p->max_depth = d;
        if (profile_check(p) < 0)
            return -1;
        double dist = depth_distance(s, p, fit_scale);
        if (dist < best) {
            best = dist;
            best_depth = d;
        }
    }
    p->max_depth = best_depth;
    snprintf(m->source, sizeof m->source,
             "captured shape (fsbench tree capture, version %d): empirical file-size and "
             "files-per-directory histograms, size tilt %.3f, max_depth %u fitted to the "
             "depth histogram", SHAPE_VERSION, p->size_tilt, p->max_depth);
    p->source = m->source;
    return profile_check(p);
}

int shape_model_load(const char *path, struct shape_model *m)
{
    struct shape *s = malloc(sizeof *s);
    if (!s)
        return error("out of memory");
    int rc = shape_load_ini(path, s);
    if (rc == 0)
        rc = shape_to_profile(s, path, m);
    free(s);
    return rc;
}

int shape_is_path(const char *arg)
{
    size_t n = arg ? strlen(arg) : 0;
    return n > 4 && !strcmp(arg + n - 4, ".ini");
}

/* --- fsbench tree capture -------------------------------------------------------------- */

static void capture_usage(FILE *out)
{
    fprintf(out, "usage: fsbench tree capture DIR -o FILE.ini [--age-profile AGE.ini]\n"
                 "  records the shape of the tree under DIR (sizes, files and subdirectories per\n"
                 "  directory, depth, name lengths; no names, no content) in FILE.ini ('-' for\n"
                 "  stdout); use it with 'fsbench run --tree FILE.ini'\n"
                 "  --age-profile AGE.ini  also (or, without -o, only) an aging profile: sizes,\n"
                 "  depths and ages (from mtimes) of DIR's files, for 'fsbench run age\n"
                 "  --age-profile AGE.ini'\n");
}

int shape_cmd_capture(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"age-profile", required_argument, NULL, 'a'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *outpath = NULL, *agepath = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:a:", opts, NULL)) != -1) {
        switch (c) {
        case 'o': outpath = optarg; break;
        case 'a': agepath = optarg; break;
        case 'h': capture_usage(stdout); return EXIT_OK;
        default: capture_usage(stderr); return EXIT_USAGE;
        }
    }
    if (argc - optind != 1 || (!outpath && !agepath)) {
        capture_usage(stderr);
        return EXIT_USAGE;
    }
    const char *dir = argv[optind];
    if (agepath) {
        struct ageprof ap;
        const char *base = strrchr(agepath, '/') ? strrchr(agepath, '/') + 1 : agepath;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(base, "."), base);
        if (ageprof_capture(dir, name[0] ? name : "captured", &ap) < 0 ||
            ageprof_write_file(&ap, agepath) < 0)
            return EXIT_RUN_FAILED;
        fprintf(strcmp(agepath, "-") ? stdout : stderr,
                "wrote the aging profile of %s to %s (sizes, depths, ages from mtimes)\n", dir,
                strcmp(agepath, "-") ? agepath : "stdout");
        if (!outpath)
            return EXIT_OK;
    }
    struct shape *s = malloc(sizeof *s);
    if (!s)
        return error("out of memory"), EXIT_RUN_FAILED;
    int rc = shape_capture(dir, s);
    if (rc == 0 && s->files == 0) {
        rc = error("capture: %s holds no regular files: nothing to shape a tree on", dir);
    }
    if (rc == 0)
        rc = shape_write_ini(s, outpath);
    if (rc == 0) {
        FILE *out = strcmp(outpath, "-") ? stdout : stderr;
        fprintf(out, "captured %s: %" PRIu64 " files, %" PRIu64 " dirs, %" PRIu64
                     " symlinks, %" PRIu64 " bytes (%.1f MB), max depth %u\n",
                dir, s->files, s->dirs, s->symlinks, s->bytes, (double)s->bytes / 1e6,
                s->max_depth);
        if (s->skipped_mounts || s->unreadable || s->other)
            fprintf(out, "not recorded: %" PRIu64 " mount points, %" PRIu64
                         " unreadable directories; not reproduced: %" PRIu64
                         " special files\n", s->skipped_mounts, s->unreadable, s->other);
        fprintf(out, "wrote the shape to %s (no names, no content)\n",
                strcmp(outpath, "-") ? outpath : "stdout");
    }
    free(s);
    return rc == 0 ? EXIT_OK : EXIT_RUN_FAILED;
}
