/* ageprof.c — reading, writing and measuring against aging profiles (see ageprof.h).
 *
 * The parser reads the whole file (a regular file, size-limited, text only) and hands it to
 * inih line by line through its own reader, so every handler error knows its line.
 */
#include "tree/ageprof.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/err.h"
#include "base/infile.h"
#include "base/text.h"
#include "base/units.h"

static const char *const dim_names[AGEPROF_DIMS] = {"sizes", "ages", "depths"};
static const char *const op_names[AGEPROF_OPS] = {"create",   "delete", "append",
                                                  "truncate", "rename", "overwrite"};

const char *ageprof_dim_name(enum ageprof_dim d)
{
    return d < AGEPROF_DIMS ? dim_names[d] : "?";
}

const char *ageprof_op_name(enum ageprof_op op)
{
    return op < AGEPROF_OPS ? op_names[op] : "?";
}

const struct ageprof *ageprof_builtin(const char *name)
{
    for (size_t i = 0; ageprof_builtins[i]; i++)
        if (!strcmp(ageprof_builtins[i]->name, name))
            return ageprof_builtins[i];
    return NULL;
}

unsigned ageprof_bucket(const struct ageprof_dist *d, uint64_t v)
{
    unsigned b = 0;
    while (b + 1 < d->n && v >= d->lo[b + 1])
        b++;
    return b;
}

void ageprof_distance(const struct ageprof *p, const struct ageprof_hist *h,
                      struct ageprof_distance *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned d = 0; d < AGEPROF_DIMS; d++) {
        const struct ageprof_dist *dist = &p->dist[d];
        for (unsigned b = 0; b < dist->n; b++) {
            double cur = h->files ? (double)h->count[d][b] / (double)h->files : 0;
            double diff = cur - dist->share[b];
            out->diff[d][b] = diff;
            if (fabs(diff) > out->dim_max[d])
                out->dim_max[d] = fabs(diff);
            if (fabs(diff) > out->max_abs) {
                out->max_abs = fabs(diff);
                out->worst_dim = d;
                out->worst_bucket = b;
            }
        }
    }
    if (!h->files)
        out->max_abs = 1;
}

/* Durations: the largest unit that divides the value. */
static const struct {
    const char *suffix;
    uint64_t s;
} time_units[] = {{"y", 365ull * 86400}, {"d", 86400}, {"h", 3600}, {"m", 60}, {"s", 1}};

char *ageprof_bucket_label(enum ageprof_dim d, uint64_t lo, char *buf, size_t len)
{
    if (d == AGEPROF_SIZE) {
        static const char *const suf[] = {"", "K", "M", "G", "T"};
        unsigned u = 0;
        while (u < 4 && lo && lo % 1024 == 0) {
            lo /= 1024;
            u++;
        }
        snprintf(buf, len, "%llu%s", (unsigned long long)lo, suf[u]);
    } else if (d == AGEPROF_AGE) {
        size_t i = 0;
        while (lo && lo % time_units[i].s)
            i++;
        if (!lo)
            i = 4;
        snprintf(buf, len, "%llu%s", (unsigned long long)(lo / time_units[i].s),
                 time_units[i].suffix);
    } else {
        snprintf(buf, len, "%llu", (unsigned long long)lo);
    }
    return buf;
}

/* A whole number with an optional unit suffix. 0 or -1. */
static int parse_scaled(const char *s, enum ageprof_dim d, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    uint64_t mul = 1;
    if (*end && d == AGEPROF_SIZE) {
        const char *u = "KMGT";
        const char *k = strchr(u, *end >= 'a' ? *end - 32 : *end);
        if (!k)
            return -1;
        mul = 1ull << (10 * (1 + (k - u)));
        end++;
        if (*end == 'i' && end[1] == 'B')
            end += 2;
        else if (*end == 'B')
            end++;
    } else if (*end && d == AGEPROF_AGE) {
        size_t i;
        for (i = 0; i < sizeof time_units / sizeof time_units[0]; i++)
            if (*end == time_units[i].suffix[0])
                break;
        if (i == sizeof time_units / sizeof time_units[0])
            return -1;
        mul = time_units[i].s;
        end++;
    }
    if (*end || (v && mul > UINT64_MAX / v))
        return -1;
    *out = v * mul;
    return 0;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

struct parse {
    const char *path;
    const char *text;
    size_t pos;
    int line;
    int err_line;
    char err[256];
    struct ageprof *p;
    bool seen_profile, seen_dim[AGEPROF_DIMS], seen_mix, seen_op[AGEPROF_OPS];
};

static int fail(struct parse *c, const char *fmt, ...)
{
    if (c->err_line)
        return 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    c->err_line = c->line ? c->line : 1;
    return 0;
}

static char *reader(char *str, int num, void *stream)
{
    struct parse *c = stream;
    if (!text_gets(str, num, c->text, &c->pos))
        return NULL;
    c->line++;
    return str;
}

static int dim_of(const char *section)
{
    for (unsigned d = 0; d < AGEPROF_DIMS; d++)
        if (!strcmp(section, dim_names[d]))
            return (int)d;
    return -1;
}

static int handle_profile(struct parse *c, const char *key, const char *value)
{
    struct ageprof *p = c->p;
    double v;
    uint64_t u;
    if (!strcmp(key, "name")) {
        if (!*value || strlen(value) >= sizeof p->name)
            return fail(c, "name: empty or longer than %zu characters", sizeof p->name - 1);
        snprintf(p->name, sizeof p->name, "%s", value);
    } else if (!strcmp(key, "source")) {
        snprintf(p->source, sizeof p->source, "%s", value);
    } else if (!strcmp(key, "utilization")) {
        if (parse_double(value, 0.01, 0.99, &v) < 0)
            return fail(c, "utilization: '%s' is not a share from 0.01 to 0.99", value);
        p->utilization = v;
    } else if (!strcmp(key, "fanout") || !strcmp(key, "files-per-dir")) {
        if (parse_scaled(value, AGEPROF_DEPTH, &u) < 0 || u < 1 || u > 100000)
            return fail(c, "%s: '%s' is not a whole number from 1 to 100000", key, value);
        if (key[0] == 'f' && key[1] == 'a')
            p->fanout = (unsigned)u;
        else
            p->files_per_dir = (unsigned)u;
    } else if (!strcmp(key, "turnover")) {
        if (parse_scaled(value, AGEPROF_AGE, &u) < 0 || u < 1)
            return fail(c, "turnover: '%s' is not a duration (e.g. 30d, 12h, 600s)", value);
        p->turnover_s = u;
    } else {
        return fail(c,
                    "unknown key '%s' in [profile] (name, source, utilization, fanout, "
                    "files-per-dir, turnover)",
                    key);
    }
    return 1;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
    struct parse *c = user;
    if (c->err_line)
        return 1;
    if (!strcmp(section, "profile")) {
        c->seen_profile = true;
        return handle_profile(c, key, value) ? 1 : 1;
    }
    double share;
    if (!strcmp(section, "mix")) {
        c->seen_mix = true;
        for (unsigned o = 0; o < AGEPROF_OPS; o++) {
            if (strcmp(key, op_names[o]))
                continue;
            if (c->seen_op[o])
                return fail(c, "'%s' given twice", key), 1;
            if (parse_double(value, 0, 1e9, &share) < 0)
                return fail(c, "%s: '%s' is not a non-negative number", key, value), 1;
            c->seen_op[o] = true;
            c->p->mix[o] = share;
            return 1;
        }
        return fail(c,
                    "unknown operation '%s' in [mix] (create, delete, append, truncate, "
                    "rename, overwrite)",
                    key),
               1;
    }
    int d = dim_of(section);
    if (d < 0)
        return fail(c, "unknown section [%s] (profile, sizes, ages, depths, mix)", section), 1;
    c->seen_dim[d] = true;
    struct ageprof_dist *dist = &c->p->dist[d];
    uint64_t lo;
    if (parse_scaled(key, (enum ageprof_dim)d, &lo) < 0)
        return fail(c, "[%s]: '%s' is not a bucket's lower bound (%s)", section, key,
                    d == AGEPROF_SIZE  ? "bytes, e.g. 0, 512, 4K, 1M"
                    : d == AGEPROF_AGE ? "a duration, e.g. 0, 1h, 7d, 1y"
                                       : "a depth, e.g. 1, 2, 5"),
               1;
    if (dist->n && lo <= dist->lo[dist->n - 1])
        return fail(c, "[%s]: bucket '%s' is not above the one before it", section, key), 1;
    if (dist->n == AGEPROF_BUCKETS)
        return fail(c, "[%s]: more than %d buckets", section, AGEPROF_BUCKETS), 1;
    if (parse_double(value, 0, 1e9, &share) < 0)
        return fail(c, "[%s]: %s: '%s' is not a non-negative share", section, key, value), 1;
    dist->lo[dist->n] = lo;
    dist->share[dist->n++] = share;
    return 1;
}

static int normalise(double *v, unsigned n)
{
    double sum = 0;
    for (unsigned i = 0; i < n; i++)
        sum += v[i];
    if (!(sum > 0))
        return -1;
    for (unsigned i = 0; i < n; i++)
        v[i] /= sum;
    return 0;
}

int ageprof_parse_text(const char *path, const char *text, struct ageprof *out)
{
    struct parse c = {.path = path, .text = text, .p = out};
    memset(out, 0, sizeof *out);
    out->utilization = 0.5;
    out->fanout = 8;
    out->files_per_dir = 64;
    out->turnover_s = 30ull * 86400;
    infile_ini_limits();
    int rc = ini_parse_stream(reader, &c, handler, &c);
    if (rc > 0 && (!c.err_line || rc < c.err_line)) {
        c.err_line = rc;
        snprintf(c.err, sizeof c.err, "expected '[section]' or 'key = value'");
    }
    if (c.err_line)
        return error("%s:%d: %s", path, c.err_line, c.err);
    if (!c.seen_profile || !out->name[0])
        return error("%s: no [profile] section with a name", path);
    for (unsigned d = 0; d < AGEPROF_DIMS; d++) {
        struct ageprof_dist *dist = &out->dist[d];
        if (!c.seen_dim[d] || !dist->n)
            return error("%s: no [%s] section (buckets 'lower bound = share')", path, dim_names[d]);
        if (dist->lo[0] != (d == AGEPROF_DEPTH ? 1 : 0))
            return error("%s: [%s]: the first bucket must start at %d", path, dim_names[d],
                         d == AGEPROF_DEPTH ? 1 : 0);
        if (normalise(dist->share, dist->n) < 0)
            return error("%s: [%s]: the shares add up to 0", path, dim_names[d]);
    }
    if (!c.seen_mix || normalise(out->mix, AGEPROF_OPS) < 0)
        return error("%s: no [mix] section with a share above 0", path);
    if (out->mix[AGEPROF_CREATE] <= 0)
        return error("%s: [mix]: create must have a share above 0", path);
    return 0;
}

int ageprof_parse_file(const char *path, struct ageprof *out)
{
    char *text, why[256];
    size_t len;
    if (infile_read(path, INFILE_TEXT_MAX, &text, &len, why, sizeof why) < 0)
        return error("cannot open %s: %s", path, why);
    struct text_flaw f;
    if (text_check(text, len, TEXT_ALLOW_NEWLINE | TEXT_ALLOW_TAB, &f) < 0) {
        int line = text_line_of(text, f.off);
        free(text);
        return error("%s:%d: %s: a profile file is text", path, line, f.what);
    }
    int rc = ageprof_parse_text(path, text, out);
    free(text);
    return rc;
}

int ageprof_load(const char *arg, struct ageprof *out)
{
    const struct ageprof *b = ageprof_builtin(arg);
    if (b) {
        *out = *b;
        return 0;
    }
    if (!strchr(arg, '/') && !strchr(arg, '.')) {
        char names[256] = "";
        for (size_t i = 0; ageprof_builtins[i]; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                     ageprof_builtins[i]->name);
        return error("--age-profile: '%s' is neither a built-in profile (%s) nor a file", arg,
                     names);
    }
    return ageprof_parse_file(arg, out);
}

int ageprof_write(const struct ageprof *p, FILE *f)
{
    char lbl[32];
    fprintf(f, "# fsbench aging profile (docs/guide.md, \"Aging profiles\")\n[profile]\n");
    fprintf(f, "name = %s\n", p->name);
    if (p->source[0])
        fprintf(f, "source = %s\n", p->source);
    fprintf(f, "utilization = %.2f\nfanout = %u\nfiles-per-dir = %u\nturnover = %s\n",
            p->utilization, p->fanout, p->files_per_dir,
            ageprof_bucket_label(AGEPROF_AGE, p->turnover_s, lbl, sizeof lbl));
    for (unsigned d = 0; d < AGEPROF_DIMS; d++) {
        fprintf(f, "\n[%s]\n", dim_names[d]);
        for (unsigned b = 0; b < p->dist[d].n; b++)
            fprintf(f, "%s = %.4f\n",
                    ageprof_bucket_label((enum ageprof_dim)d, p->dist[d].lo[b], lbl, sizeof lbl),
                    100 * p->dist[d].share[b]);
    }
    fprintf(f, "\n[mix]\n");
    for (unsigned o = 0; o < AGEPROF_OPS; o++)
        fprintf(f, "%s = %.2f\n", op_names[o], 100 * p->mix[o]);
    return ferror(f) ? -1 : 0;
}
