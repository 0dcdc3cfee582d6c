/* resjson.c — run sets to and from JSON with jansson (see resjson.h, docs/json-schema.md).
 *
 * Writing emits every field of the model; derived figures (ops_per_s, mb_per_s,
 * created_utc) are written for readers and ignored when read back. Reading is lenient
 * about absent members (they keep their zero value) and strict about types: a member of
 * the wrong type is an error naming its path, e.g. "runs[2].phases[0].wall_s".
 *
 * Numbers: unsigned 64-bit counters above INT64_MAX (possible only for seeds) are written
 * as decimal strings, and a reader accepts either form. Non-finite doubles are written as
 * null and read back as NAN. Doubles survive a dump with JSON_REAL_PRECISION(17) exactly.
 */
#include "resjson.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "err.h"

/* Where a reader is: the file (or NULL) and the path of the containing object. */
struct rctx {
    const char *file;
    const char *where;
};

#define PATH_MAX_LEN 256

/* ---------------------------------------------------------------- writing helpers */

/* A JSON string from a fixed buffer; bytes that are not valid UTF-8 become '?', since
 * jansson accepts only UTF-8 (paths and command lines need not be). */
static json_t *jstr(const char *s, size_t size)
{
    size_t n = strnlen(s, size);
    json_t *j = json_stringn(s, n);
    if (j)
        return j;
    char *copy = malloc(n + 1);
    if (!copy)
        return NULL;
    for (size_t i = 0; i < n; i++)
        copy[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
    j = json_stringn(copy, n);
    free(copy);
    return j;
}

static json_t *ju64(uint64_t v)
{
    if (v <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)v);
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return json_string(buf);
}

static json_t *jreal(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* Sets o[key] = v (stealing v); returns 1 on failure so callers can accumulate. */
static int put(json_t *o, const char *key, json_t *v)
{
    return json_object_set_new(o, key, v) != 0; /* a NULL v fails here too */
}

#define PUT_STR(o, key, field) put(o, key, jstr(field, sizeof(field)))

static json_t *done(json_t *o, int bad)
{
    if (bad) {
        json_decref(o);
        error("out of memory building JSON");
        return NULL;
    }
    return o;
}

/* ---------------------------------------------------------------- reading helpers */

static int fail(const struct rctx *c, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(const struct rctx *c, const char *key, const char *fmt, ...)
{
    char what[256], loc[PATH_MAX_LEN + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *w = c->where ? c->where : "";
    key = key ? key : "";
    if (snprintf(loc, sizeof loc, "%s%s%s", w, *w && *key && *key != '[' ? "." : "", key) < 0)
        loc[0] = '\0';
    if (c->file && *loc)
        return error("%s: %s: %s", c->file, loc, what);
    if (c->file || *loc)
        return error("%s: %s", c->file ? c->file : loc, what);
    return error("%s", what);
}

/* Path of a child object ("runs[2]", "runs[2].phases"), for nested readers. */
static void child_path(char *buf, size_t len, const struct rctx *c, const char *key)
{
    const char *w = c->where ? c->where : "";
    int n = snprintf(buf, len, "%s%s%s", w, *w && *key != '[' ? "." : "", key);
    if (n < 0 || (size_t)n >= len) /* paths are short; keep a truncated one readable */
        buf[len - 1] = '\0';
}

/* v as an unsigned 64-bit integer: a non-negative integer or a decimal string. */
static int u64_value(const struct rctx *c, const char *key, const json_t *v, uint64_t *out)
{
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return 0;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        char *end;
        errno = 0;
        unsigned long long x = strtoull(s, &end, 10);
        if (*s >= '0' && *s <= '9' && !*end && errno == 0) {
            *out = x;
            return 0;
        }
    }
    return fail(c, key, "expected a non-negative integer");
}

static int get_u64(const struct rctx *c, const json_t *o, const char *key, uint64_t *out)
{
    const json_t *v = json_object_get(o, key);
    return v ? u64_value(c, key, v, out) : 0;
}

static int get_uint(const struct rctx *c, const json_t *o, const char *key, unsigned *out)
{
    uint64_t v = *out;
    if (get_u64(c, o, key, &v) < 0)
        return -1;
    if (v > UINT_MAX)
        return fail(c, key, "%" PRIu64 " is too large", v);
    *out = (unsigned)v;
    return 0;
}

/* A signed integer; null reads as null_value (machine settings that were unreadable). */
static int get_long(const struct rctx *c, const json_t *o, const char *key, long *out,
                    long null_value)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (json_is_null(v)) {
        *out = null_value;
        return 0;
    }
    if (!json_is_integer(v))
        return fail(c, key, "expected an integer");
    json_int_t x = json_integer_value(v);
    if (x < LONG_MIN || x > LONG_MAX)
        return fail(c, key, "integer out of range");
    *out = (long)x;
    return 0;
}

static int get_int(const struct rctx *c, const json_t *o, const char *key, int *out)
{
    long v = *out;
    if (get_long(c, o, key, &v, -1) < 0)
        return -1;
    if (v < INT_MIN || v > INT_MAX)
        return fail(c, key, "integer out of range");
    *out = (int)v;
    return 0;
}

static int get_double(const struct rctx *c, const json_t *o, const char *key, double *out)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (json_is_null(v)) {
        *out = NAN;
        return 0;
    }
    if (!json_is_number(v))
        return fail(c, key, "expected a number");
    *out = json_number_value(v);
    return 0;
}

static int get_bool(const struct rctx *c, const json_t *o, const char *key, bool *out)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (!json_is_boolean(v))
        return fail(c, key, "expected true or false");
    *out = json_is_true(v);
    return 0;
}

static int get_str(const struct rctx *c, const json_t *o, const char *key, char *buf,
                   size_t size)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (!json_is_string(v))
        return fail(c, key, "expected a string");
    size_t n = json_string_length(v);
    if (n >= size)
        return fail(c, key, "longer than %zu bytes", size - 1);
    if (memchr(json_string_value(v), '\0', n))
        return fail(c, key, "contains a NUL character");
    memcpy(buf, json_string_value(v), n);
    buf[n] = '\0';
    return 0;
}

#define GET_STR(c, o, key, field) get_str(c, o, key, field, sizeof(field))

/* An optional member that must be an object when present; *out is NULL when absent. */
static int get_object(const struct rctx *c, const json_t *o, const char *key,
                      const json_t **out)
{
    const json_t *v = json_object_get(o, key);
    *out = NULL;
    if (!v)
        return 0;
    if (!json_is_object(v))
        return fail(c, key, "expected an object");
    *out = v;
    return 0;
}

static int op_kind_find(const char *name)
{
    for (int k = 0; k < OP_KINDS; k++)
        if (strcmp(op_kind_name((enum op_kind)k), name) == 0)
            return k;
    return -1;
}

static const char *const status_names[] = {
    [PHASE_OK] = "ok", [PHASE_SKIPPED] = "skipped", [PHASE_FAILED] = "failed"};

/* ---------------------------------------------------------------- derived figures */

double resjson_ops_per_s(const struct phase_result *pr)
{
    return pr->wall_s > 0 ? (double)pr->ops_total / pr->wall_s : NAN;
}

double resjson_mb_per_s(const struct phase_result *pr)
{
    return pr->wall_s > 0 ? (double)(pr->bytes_read + pr->bytes_written) / 1e6 / pr->wall_s
                          : NAN;
}

/* ---------------------------------------------------------------- phase */

static json_t *lat_to_json(const struct lat_summary *l)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = 0;
    bad |= put(o, "count", ju64(l->count));
    bad |= put(o, "min_ns", ju64(l->min_ns));
    bad |= put(o, "p50_ns", ju64(l->p50_ns));
    bad |= put(o, "p90_ns", ju64(l->p90_ns));
    bad |= put(o, "p99_ns", ju64(l->p99_ns));
    bad |= put(o, "p999_ns", ju64(l->p999_ns));
    bad |= put(o, "max_ns", ju64(l->max_ns));
    bad |= put(o, "mean_ns", jreal(l->mean_ns));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *resjson_from_phase(const struct phase_result *pr)
{
    json_t *o = json_object();
    if (!o)
        return done(o, 1);
    int bad = 0;
    unsigned st = (unsigned)pr->status;
    bad |= PUT_STR(o, "name", pr->name);
    bad |= put(o, "status", json_string(st < 3 ? status_names[st] : "failed"));
    bad |= PUT_STR(o, "note", pr->note);
    bad |= put(o, "wall_s", jreal(pr->wall_s));
    bad |= put(o, "user_s", jreal(pr->user_s));
    bad |= put(o, "sys_s", jreal(pr->sys_s));

    json_t *ops = json_object();
    for (int k = 0; ops && k < OP_KINDS; k++)
        if (pr->ops[k])
            bad |= put(ops, op_kind_name((enum op_kind)k), ju64(pr->ops[k]));
    bad |= put(o, "ops", ops);
    bad |= put(o, "ops_total", ju64(pr->ops_total));
    bad |= put(o, "ops_per_s", jreal(resjson_ops_per_s(pr)));
    bad |= put(o, "bytes_read", ju64(pr->bytes_read));
    bad |= put(o, "bytes_written", ju64(pr->bytes_written));
    bad |= put(o, "mb_per_s", jreal(resjson_mb_per_s(pr)));
    bad |= put(o, "files", ju64(pr->files));
    bad |= put(o, "dirs", ju64(pr->dirs));
    bad |= put(o, "symlinks", ju64(pr->symlinks));

    json_t *ru = json_object();
    if (ru) {
        bad |= put(ru, "nvcsw", json_integer(pr->nvcsw));
        bad |= put(ru, "nivcsw", json_integer(pr->nivcsw));
        bad |= put(ru, "majflt", json_integer(pr->majflt));
        bad |= put(ru, "minflt", json_integer(pr->minflt));
        bad |= put(ru, "inblock", json_integer(pr->inblock));
        bad |= put(ru, "oublock", json_integer(pr->oublock));
    }
    bad |= put(o, "rusage", ru);

    json_t *io = json_object();
    if (io) {
        bad |= put(io, "read_bytes", ju64(pr->io_read_bytes));
        bad |= put(io, "write_bytes", ju64(pr->io_write_bytes));
    }
    bad |= put(o, "io", io);

    if (pr->dev.valid) {
        json_t *d = json_object();
        if (d) {
            bad |= put(d, "reads", ju64(pr->dev.rd_ios));
            bad |= put(d, "sectors_read", ju64(pr->dev.rd_sectors));
            bad |= put(d, "writes", ju64(pr->dev.wr_ios));
            bad |= put(d, "sectors_written", ju64(pr->dev.wr_sectors));
            bad |= put(d, "io_ticks_ms", ju64(pr->dev.io_ticks_ms));
        }
        bad |= put(o, "device", d);
    } else {
        bad |= put(o, "device", json_null());
    }

    json_t *lat = json_object();
    for (int k = 0; lat && k < OP_KINDS; k++)
        if (pr->lat[k].count)
            bad |= put(lat, op_kind_name((enum op_kind)k), lat_to_json(&pr->lat[k]));
    bad |= put(o, "latency", lat);

    json_t *tl = json_array();
    for (size_t i = 0; tl && i < pr->timeline_len; i++) {
        const struct timeline_point *p = &pr->timeline[i];
        json_t *pt = json_array();
        if (pt) {
            bad |= json_array_append_new(pt, jreal(p->t)) != 0;
            bad |= json_array_append_new(pt, ju64(p->ops)) != 0;
            bad |= json_array_append_new(pt, ju64(p->bytes)) != 0;
        }
        bad |= pt == NULL || json_array_append_new(tl, pt) != 0;
    }
    bad |= put(o, "timeline", tl);
    bad |= put(o, "longest_stall_s", jreal(pr->longest_stall_s));
    return done(o, bad);
}

static int read_lat(const struct rctx *c, const json_t *o, struct lat_summary *l)
{
    if (get_u64(c, o, "count", &l->count) < 0 || get_u64(c, o, "min_ns", &l->min_ns) < 0 ||
        get_u64(c, o, "p50_ns", &l->p50_ns) < 0 || get_u64(c, o, "p90_ns", &l->p90_ns) < 0 ||
        get_u64(c, o, "p99_ns", &l->p99_ns) < 0 ||
        get_u64(c, o, "p999_ns", &l->p999_ns) < 0 ||
        get_u64(c, o, "max_ns", &l->max_ns) < 0 || get_double(c, o, "mean_ns", &l->mean_ns) < 0)
        return -1;
    return 0;
}

/* Reads the object `key` whose members are op kinds, each handed to fn. */
static int read_by_kind(const struct rctx *c, const json_t *o, const char *key,
                        int (*fn)(const struct rctx *c, const json_t *v, const char *kind,
                                  int k, void *arg),
                        void *arg)
{
    const json_t *m;
    if (get_object(c, o, key, &m) < 0)
        return -1;
    if (!m)
        return 0;
    char path[PATH_MAX_LEN];
    child_path(path, sizeof path, c, key);
    struct rctx sub = {c->file, path};
    const char *kind;
    const json_t *v;
    json_object_foreach((json_t *)m, kind, v) {
        int k = op_kind_find(kind);
        if (k < 0)
            return fail(&sub, kind, "unknown operation kind");
        if (fn(&sub, v, kind, k, arg) < 0)
            return -1;
    }
    return 0;
}

static int read_op_count(const struct rctx *c, const json_t *v, const char *kind, int k,
                         void *arg)
{
    struct phase_result *pr = arg;
    return u64_value(c, kind, v, &pr->ops[k]);
}

static int read_op_lat(const struct rctx *c, const json_t *v, const char *kind, int k,
                       void *arg)
{
    struct phase_result *pr = arg;
    if (!json_is_object(v))
        return fail(c, kind, "expected an object");
    char path[PATH_MAX_LEN];
    child_path(path, sizeof path, c, kind);
    struct rctx sub = {c->file, path};
    return read_lat(&sub, v, &pr->lat[k]);
}

static int read_timeline(const struct rctx *c, const json_t *o, struct phase_result *pr)
{
    const json_t *tl = json_object_get(o, "timeline");
    if (!tl || json_is_null(tl))
        return 0;
    if (!json_is_array(tl))
        return fail(c, "timeline", "expected an array");
    size_t n = json_array_size(tl);
    if (n == 0)
        return 0;
    pr->timeline = calloc(n, sizeof *pr->timeline);
    if (!pr->timeline)
        return error("out of memory");
    pr->timeline_len = n;
    char path[PATH_MAX_LEN];
    child_path(path, sizeof path, c, "timeline");
    for (size_t i = 0; i < n; i++) {
        const json_t *pt = json_array_get(tl, i);
        char idx[32];
        snprintf(idx, sizeof idx, "[%zu]", i);
        struct rctx sub = {c->file, path};
        if (!json_is_array(pt) || json_array_size(pt) != 3)
            return fail(&sub, idx, "expected [t, ops, bytes]");
        const json_t *t = json_array_get(pt, 0), *ops = json_array_get(pt, 1),
                     *bytes = json_array_get(pt, 2);
        char ikey[64];
        snprintf(ikey, sizeof ikey, "%s[0]", idx);
        if (!json_is_number(t))
            return fail(&sub, ikey, "expected a number (t)");
        snprintf(ikey, sizeof ikey, "%s[1]", idx);
        if (u64_value(&sub, ikey, ops, &pr->timeline[i].ops) < 0)
            return -1;
        snprintf(ikey, sizeof ikey, "%s[2]", idx);
        if (u64_value(&sub, ikey, bytes, &pr->timeline[i].bytes) < 0)
            return -1;
        pr->timeline[i].t = json_number_value(t);
    }
    return 0;
}

static int read_phase(const struct rctx *c, const json_t *o, struct phase_result *pr)
{
    const json_t *sv = json_object_get(o, "status");
    if (sv) {
        if (!json_is_string(sv))
            return fail(c, "status", "expected a string");
        int st = -1;
        for (int i = 0; i < 3; i++)
            if (strcmp(json_string_value(sv), status_names[i]) == 0)
                st = i;
        if (st < 0)
            return fail(c, "status", "expected \"ok\", \"skipped\" or \"failed\"");
        pr->status = (enum phase_status)st;
    }
    if (GET_STR(c, o, "name", pr->name) < 0 || GET_STR(c, o, "note", pr->note) < 0 ||
        get_double(c, o, "wall_s", &pr->wall_s) < 0 ||
        get_double(c, o, "user_s", &pr->user_s) < 0 ||
        get_double(c, o, "sys_s", &pr->sys_s) < 0 ||
        read_by_kind(c, o, "ops", read_op_count, pr) < 0 ||
        get_u64(c, o, "ops_total", &pr->ops_total) < 0 ||
        get_u64(c, o, "bytes_read", &pr->bytes_read) < 0 ||
        get_u64(c, o, "bytes_written", &pr->bytes_written) < 0 ||
        get_u64(c, o, "files", &pr->files) < 0 || get_u64(c, o, "dirs", &pr->dirs) < 0 ||
        get_u64(c, o, "symlinks", &pr->symlinks) < 0 ||
        get_double(c, o, "longest_stall_s", &pr->longest_stall_s) < 0)
        return -1;

    const json_t *ru, *io;
    char path[PATH_MAX_LEN];
    if (get_object(c, o, "rusage", &ru) < 0)
        return -1;
    if (ru) {
        child_path(path, sizeof path, c, "rusage");
        struct rctx sub = {c->file, path};
        if (get_long(&sub, ru, "nvcsw", &pr->nvcsw, 0) < 0 ||
            get_long(&sub, ru, "nivcsw", &pr->nivcsw, 0) < 0 ||
            get_long(&sub, ru, "majflt", &pr->majflt, 0) < 0 ||
            get_long(&sub, ru, "minflt", &pr->minflt, 0) < 0 ||
            get_long(&sub, ru, "inblock", &pr->inblock, 0) < 0 ||
            get_long(&sub, ru, "oublock", &pr->oublock, 0) < 0)
            return -1;
    }
    if (get_object(c, o, "io", &io) < 0)
        return -1;
    if (io) {
        child_path(path, sizeof path, c, "io");
        struct rctx sub = {c->file, path};
        if (get_u64(&sub, io, "read_bytes", &pr->io_read_bytes) < 0 ||
            get_u64(&sub, io, "write_bytes", &pr->io_write_bytes) < 0)
            return -1;
    }
    const json_t *dev = json_object_get(o, "device");
    if (dev && !json_is_null(dev)) {
        if (!json_is_object(dev))
            return fail(c, "device", "expected an object or null");
        child_path(path, sizeof path, c, "device");
        struct rctx sub = {c->file, path};
        pr->dev.valid = true;
        if (get_u64(&sub, dev, "reads", &pr->dev.rd_ios) < 0 ||
            get_u64(&sub, dev, "sectors_read", &pr->dev.rd_sectors) < 0 ||
            get_u64(&sub, dev, "writes", &pr->dev.wr_ios) < 0 ||
            get_u64(&sub, dev, "sectors_written", &pr->dev.wr_sectors) < 0 ||
            get_u64(&sub, dev, "io_ticks_ms", &pr->dev.io_ticks_ms) < 0)
            return -1;
    }
    if (read_by_kind(c, o, "latency", read_op_lat, pr) < 0)
        return -1;
    return read_timeline(c, o, pr);
}

int resjson_to_phase(const json_t *j, struct phase_result *pr, const char *where)
{
    struct rctx c = {NULL, where ? where : ""};
    if (!json_is_object(j))
        return error("%s: expected an object", *c.where ? c.where : "phase");
    if (read_phase(&c, j, pr) < 0) {
        phase_result_free(pr);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- descriptions */

static json_t *jsetting(long v)
{
    return v < 0 ? json_null() : json_integer(v);
}

json_t *resjson_from_machine(const struct machine_info *m)
{
    json_t *o = json_object();
    if (!o)
        return done(o, 1);
    int bad = 0;
    bad |= PUT_STR(o, "hostname", m->hostname);
    bad |= PUT_STR(o, "kernel", m->kernel);
    bad |= PUT_STR(o, "kernel_version", m->kernel_version);
    bad |= PUT_STR(o, "arch", m->arch);
    bad |= PUT_STR(o, "cpu", m->cpu);
    bad |= put(o, "ncpu", json_integer(m->ncpu));
    bad |= put(o, "ram_bytes", ju64(m->ram_bytes));
    bad |= put(o, "dirty_ratio", jsetting(m->dirty_ratio));
    bad |= put(o, "dirty_background_ratio", jsetting(m->dirty_background_ratio));
    bad |= put(o, "dirty_bytes", jsetting(m->dirty_bytes));
    bad |= put(o, "dirty_background_bytes", jsetting(m->dirty_background_bytes));
    bad |= put(o, "dirty_expire_centisecs", jsetting(m->dirty_expire_centisecs));
    bad |= put(o, "dirty_writeback_centisecs", jsetting(m->dirty_writeback_centisecs));
    bad |= put(o, "vfs_cache_pressure", jsetting(m->vfs_cache_pressure));
    return done(o, bad);
}

static int read_machine(const struct rctx *c, const json_t *o, struct machine_info *m)
{
    m->dirty_ratio = m->dirty_background_ratio = m->dirty_bytes = -1;
    m->dirty_background_bytes = m->dirty_expire_centisecs = -1;
    m->dirty_writeback_centisecs = m->vfs_cache_pressure = -1;
    if (GET_STR(c, o, "hostname", m->hostname) < 0 || GET_STR(c, o, "kernel", m->kernel) < 0 ||
        GET_STR(c, o, "kernel_version", m->kernel_version) < 0 ||
        GET_STR(c, o, "arch", m->arch) < 0 || GET_STR(c, o, "cpu", m->cpu) < 0 ||
        get_int(c, o, "ncpu", &m->ncpu) < 0 || get_u64(c, o, "ram_bytes", &m->ram_bytes) < 0 ||
        get_long(c, o, "dirty_ratio", &m->dirty_ratio, -1) < 0 ||
        get_long(c, o, "dirty_background_ratio", &m->dirty_background_ratio, -1) < 0 ||
        get_long(c, o, "dirty_bytes", &m->dirty_bytes, -1) < 0 ||
        get_long(c, o, "dirty_background_bytes", &m->dirty_background_bytes, -1) < 0 ||
        get_long(c, o, "dirty_expire_centisecs", &m->dirty_expire_centisecs, -1) < 0 ||
        get_long(c, o, "dirty_writeback_centisecs", &m->dirty_writeback_centisecs, -1) < 0 ||
        get_long(c, o, "vfs_cache_pressure", &m->vfs_cache_pressure, -1) < 0)
        return -1;
    return 0;
}

json_t *resjson_from_target(const struct target_info *t)
{
    json_t *o = json_object();
    if (!o)
        return done(o, 1);
    int bad = 0;
    bad |= PUT_STR(o, "path", t->path);
    bad |= PUT_STR(o, "fstype", t->fstype);
    bad |= PUT_STR(o, "mount_point", t->mount_point);
    bad |= PUT_STR(o, "mount_opts", t->mount_opts);
    bad |= PUT_STR(o, "device", t->device);
    bad |= PUT_STR(o, "blockdev", t->blockdev);
    if (t->configs[0]) {
        json_t *a = json_array();
        bad |= !a || json_object_set_new(o, "configurations", a) < 0;
        for (const char *p = t->configs; a && *p;) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            bad |= json_array_append_new(a, json_stringn(p, n)) < 0;
            p += n + (nl != NULL);
        }
    }
    return done(o, bad);
}

static int read_target(const struct rctx *c, const json_t *o, struct target_info *t)
{
    if (GET_STR(c, o, "path", t->path) < 0 || GET_STR(c, o, "fstype", t->fstype) < 0 ||
        GET_STR(c, o, "mount_point", t->mount_point) < 0 ||
        GET_STR(c, o, "mount_opts", t->mount_opts) < 0 ||
        GET_STR(c, o, "device", t->device) < 0 || GET_STR(c, o, "blockdev", t->blockdev) < 0)
        return -1;
    /* optional: the declared configurations, in order */
    const json_t *a = json_object_get(o, "configurations");
    size_t i, used = 0;
    const json_t *v;
    if (json_is_array(a))
        json_array_foreach(a, i, v) {
            if (!json_is_string(v))
                continue;
            int n = snprintf(t->configs + used, sizeof t->configs - used, "%s%s",
                             used ? "\n" : "", json_string_value(v));
            if (n < 0 || (size_t)n >= sizeof t->configs - used)
                break;
            used += (size_t)n;
        }
    return 0;
}

json_t *resjson_from_tree(const struct tree_info *t)
{
    json_t *o = json_object();
    if (!o)
        return done(o, 1);
    int bad = 0;
    bad |= PUT_STR(o, "profile", t->profile);
    bad |= put(o, "scale", jreal(t->scale));
    bad |= put(o, "seed", ju64(t->seed));
    bad |= put(o, "files", ju64(t->files));
    bad |= put(o, "dirs", ju64(t->dirs));
    bad |= put(o, "symlinks", ju64(t->symlinks));
    bad |= put(o, "bytes", ju64(t->bytes));
    return done(o, bad);
}

static int read_tree(const struct rctx *c, const json_t *o, struct tree_info *t)
{
    if (GET_STR(c, o, "profile", t->profile) < 0 || get_double(c, o, "scale", &t->scale) < 0 ||
        get_u64(c, o, "seed", &t->seed) < 0 || get_u64(c, o, "files", &t->files) < 0 ||
        get_u64(c, o, "dirs", &t->dirs) < 0 || get_u64(c, o, "symlinks", &t->symlinks) < 0 ||
        get_u64(c, o, "bytes", &t->bytes) < 0)
        return -1;
    return 0;
}

/* Runs a reader on a whole object given as `j`, with `where` as its path. */
#define TO_WRAPPER(fn, type, reader)                                                        \
    int fn(const json_t *j, type *x, const char *where)                                    \
    {                                                                                       \
        struct rctx c = {NULL, where ? where : ""};                                         \
        if (!json_is_object(j))                                                             \
            return error("%s: expected an object", *c.where ? c.where : #type);             \
        return reader(&c, j, x);                                                            \
    }

TO_WRAPPER(resjson_to_machine, struct machine_info, read_machine)
TO_WRAPPER(resjson_to_target, struct target_info, read_target)
TO_WRAPPER(resjson_to_tree, struct tree_info, read_tree)

/* ---------------------------------------------------------------- run set */

static json_t *run_to_json(const struct run_result *r)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = 0;
    bad |= put(o, "index", json_integer(r->index));
    bad |= put(o, "round", json_integer(r->round));
    bad |= PUT_STR(o, "config", r->config);
    bad |= put(o, "warmup", json_boolean(r->warmup));
    bad |= put(o, "started", jreal(r->started));
    json_t *ph = json_array();
    for (size_t i = 0; ph && !bad && i < r->nphases; i++) {
        json_t *p = resjson_from_phase(&r->phases[i]);
        bad |= p == NULL || json_array_append_new(ph, p) != 0;
    }
    bad |= put(o, "phases", ph);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *resjson_from_run_set(const struct run_set *rs)
{
    json_t *o = json_object();
    if (!o)
        return done(o, 1);
    int bad = 0;
    char iso[32] = "";
    time_t t = (time_t)floor(rs->created);
    struct tm tm;
    if (isfinite(rs->created) && gmtime_r(&t, &tm))
        strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &tm);

    bad |= put(o, "schema_version", json_integer(RESULTS_SCHEMA_VERSION));
    bad |= PUT_STR(o, "label", rs->label);
    bad |= PUT_STR(o, "scenario", rs->scenario);
    bad |= PUT_STR(o, "engine", rs->engine);
    bad |= PUT_STR(o, "command_line", rs->command_line);
    bad |= put(o, "created", jreal(rs->created));
    bad |= put(o, "created_utc", *iso ? json_string(iso) : json_null());
    bad |= put(o, "root", json_boolean(rs->root));
    bad |= put(o, "warm_cache", json_boolean(rs->warm_cache));
    bad |= put(o, "machine", resjson_from_machine(&rs->machine));
    bad |= put(o, "target", resjson_from_target(&rs->target));
    bad |= put(o, "tree", resjson_from_tree(&rs->tree));
    json_t *runs = json_array();
    for (size_t i = 0; runs && !bad && i < rs->nruns; i++) {
        json_t *r = run_to_json(&rs->runs[i]);
        bad |= r == NULL || json_array_append_new(runs, r) != 0;
    }
    bad |= put(o, "runs", runs);
    return done(o, bad);
}

static int read_run(const struct rctx *c, const json_t *o, struct run_set *rs)
{
    const json_t *ph = json_object_get(o, "phases");
    if (ph && !json_is_array(ph))
        return fail(c, "phases", "expected an array");
    size_t n = ph ? json_array_size(ph) : 0;
    struct run_result *r = run_set_add_run(rs, n);
    if (!r)
        return -1;
    if (get_uint(c, o, "index", &r->index) < 0 || get_uint(c, o, "round", &r->round) < 0 ||
        GET_STR(c, o, "config", r->config) < 0 || get_bool(c, o, "warmup", &r->warmup) < 0 ||
        get_double(c, o, "started", &r->started) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX_LEN], key[32];
        snprintf(key, sizeof key, "phases[%zu]", i);
        child_path(path, sizeof path, c, key);
        struct rctx sub = {c->file, path};
        const json_t *p = json_array_get(ph, i);
        if (!json_is_object(p))
            return fail(c, key, "expected an object");
        if (read_phase(&sub, p, &r->phases[i]) < 0)
            return -1;
    }
    return 0;
}

static int read_run_set(const struct rctx *c, const json_t *j, struct run_set *rs)
{
    if (!json_is_object(j))
        return fail(c, "", "expected a JSON object (an fsbench run set)");
    const json_t *sv = json_object_get(j, "schema_version");
    if (!sv)
        return fail(c, "schema_version", "missing: not an fsbench run set");
    if (!json_is_integer(sv))
        return fail(c, "schema_version", "expected an integer");
    json_int_t v = json_integer_value(sv);
    if (v > RESULTS_SCHEMA_VERSION)
        return fail(c, "schema_version",
                    "%lld is newer than this fsbench understands (%d); upgrade fsbench",
                    (long long)v, RESULTS_SCHEMA_VERSION);
    if (v < 1)
        return fail(c, "schema_version", "%lld is not a valid version", (long long)v);
    rs->schema_version = RESULTS_SCHEMA_VERSION; /* the struct is always the current model */

    if (GET_STR(c, j, "label", rs->label) < 0 || GET_STR(c, j, "scenario", rs->scenario) < 0 ||
        GET_STR(c, j, "engine", rs->engine) < 0 ||
        GET_STR(c, j, "command_line", rs->command_line) < 0 ||
        get_double(c, j, "created", &rs->created) < 0 || get_bool(c, j, "root", &rs->root) < 0 ||
        get_bool(c, j, "warm_cache", &rs->warm_cache) < 0)
        return -1;

    const json_t *m, *t, *tr;
    if (get_object(c, j, "machine", &m) < 0 || get_object(c, j, "target", &t) < 0 ||
        get_object(c, j, "tree", &tr) < 0)
        return -1;
    struct rctx sub = *c;
    char path[PATH_MAX_LEN];
    rs->machine.dirty_ratio = rs->machine.dirty_background_ratio = -1;
    rs->machine.dirty_bytes = rs->machine.dirty_background_bytes = -1;
    rs->machine.dirty_expire_centisecs = rs->machine.dirty_writeback_centisecs = -1;
    rs->machine.vfs_cache_pressure = -1;
    if (m) {
        child_path(path, sizeof path, c, "machine");
        sub.where = path;
        if (read_machine(&sub, m, &rs->machine) < 0)
            return -1;
    }
    if (t) {
        child_path(path, sizeof path, c, "target");
        sub.where = path;
        if (read_target(&sub, t, &rs->target) < 0)
            return -1;
    }
    if (tr) {
        child_path(path, sizeof path, c, "tree");
        sub.where = path;
        if (read_tree(&sub, tr, &rs->tree) < 0)
            return -1;
    }

    const json_t *runs = json_object_get(j, "runs");
    if (!runs)
        return fail(c, "runs", "missing");
    if (!json_is_array(runs))
        return fail(c, "runs", "expected an array");
    for (size_t i = 0; i < json_array_size(runs); i++) {
        char key[32];
        snprintf(key, sizeof key, "runs[%zu]", i);
        child_path(path, sizeof path, c, key);
        sub.where = path;
        const json_t *r = json_array_get(runs, i);
        if (!json_is_object(r))
            return fail(c, key, "expected an object");
        if (read_run(&sub, r, rs) < 0)
            return -1;
    }
    return 0;
}

int resjson_to_run_set(const json_t *j, struct run_set *rs)
{
    struct rctx c = {NULL, ""};
    if (read_run_set(&c, j, rs) < 0) {
        run_set_free(rs);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- files */

int resjson_write_file(const struct run_set *rs, const char *path)
{
    json_t *j = resjson_from_run_set(rs);
    if (!j)
        return -1;
    bool to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "w");
    if (!f) {
        json_decref(j);
        return error_errno("%s", path);
    }
    int rc = json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    json_decref(j);
    if (rc == 0 && fputc('\n', f) == EOF)
        rc = -1;
    if (fflush(f) != 0)
        rc = -1;
    if (rc != 0 && !ferror(f))
        errno = EIO;
    int saved = errno;
    if (!to_stdout && fclose(f) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        errno = saved;
        return error_errno("%s: write failed", to_stdout ? "standard output" : path);
    }
    return 0;
}

int resjson_read_file(const char *path, struct run_set *rs)
{
    json_error_t je;
    bool from_stdin = strcmp(path, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(path, "r");
    if (!f)
        return error_errno("%s", path);
    json_t *j = json_loadf(f, 0, &je);
    if (!from_stdin)
        fclose(f);
    if (!j) {
        if (je.line > 0)
            return error("%s:%d:%d: %s", path, je.line, je.column, je.text);
        return error("%s: %s", path, je.text);
    }
    struct rctx c = {path, ""};
    int rc = read_run_set(&c, j, rs);
    json_decref(j);
    if (rc < 0)
        run_set_free(rs);
    return rc;
}
