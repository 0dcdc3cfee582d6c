/* shape_ini.c — a captured shape kept in an INI file (see shape.h): written with its
 * histograms and totals, and read back strictly (every count checked against its totals,
 * every error as file:line).
 */
#include "tree/shape.h"

#include <errno.h>
#include <ini.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/infile.h"
#include "base/units.h"
#include "base/outfile.h"
#include "base/text.h"
#include "tree/tree.h"


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
    if (!text_gets(str, num, c->text, &c->pos))
        return NULL;
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
        uint64_t got = shape_hist_sum(hist_of(s, &hist_defs[h]), hist_defs[h].n);
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
