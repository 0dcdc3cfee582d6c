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
 *
 * This file holds the run-set, machine, target and tree codec, the file I/O, and the
 * writing and reading helpers it shares with resjson_phase.c (the phase and run codec)
 * through resjson_internal.h.
 */
#include "results/resjson.h"
#include "results/meta.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "base/outcheck.h"
#include "base/infile.h"
#include "base/outfile.h"
#include "base/text.h"
#include "results/resjson_internal.h"

/* ---------------------------------------------------------------- writing helpers */

/* A JSON string from a fixed buffer; bytes that are not valid UTF-8 become '?', since
 * jansson accepts only UTF-8 (paths and command lines need not be). */
json_t *resjson_str(const char *s, size_t size)
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

json_t *resjson_u64(uint64_t v)
{
    if (v <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)v);
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return json_string(buf);
}

json_t *resjson_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* Sets o[key] = v (stealing v); returns 1 on failure so callers can accumulate. */
int resjson_put(json_t *o, const char *key, json_t *v)
{
    return json_object_set_new(o, key, v) != 0; /* a NULL v fails here too */
}

json_t *resjson_done(json_t *o, int bad)
{
    if (bad) {
        json_decref(o);
        error("out of memory building JSON");
        return NULL;
    }
    return o;
}

/* ---------------------------------------------------------------- reading helpers */

int resjson_fail(const struct resjson_rctx *c, const char *key, const char *fmt, ...)
{
    char what[256], loc[RESJSON_PATH_MAX + 64];
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
void resjson_child_path(char *buf, size_t len, const struct resjson_rctx *c, const char *key)
{
    const char *w = c->where ? c->where : "";
    int n = snprintf(buf, len, "%s%s%s", w, *w && *key != '[' ? "." : "", key);
    if (n < 0 || (size_t)n >= len) /* paths are short; keep a truncated one readable */
        buf[len - 1] = '\0';
}

int resjson_read_objects(const struct resjson_rctx *c, const json_t *o, const char *key,
                         size_t elem_size, void **out, size_t *n,
                         int (*each)(const struct resjson_rctx *sub, const json_t *e, void *elem))
{
    *out = NULL;
    *n = 0;
    const json_t *a = json_object_get(o, key);
    if (!a || json_is_null(a))
        return 0;
    if (!json_is_array(a))
        return resjson_fail(c, key, "expected an array");
    size_t len = json_array_size(a);
    if (len == 0)
        return 0;
    char *v = calloc(len, elem_size);
    if (!v)
        return error("out of memory");
    *out = v;
    *n = len;
    char path[RESJSON_PATH_MAX];
    for (size_t i = 0; i < len; i++) {
        const json_t *e = json_array_get(a, i);
        char idx[96];
        snprintf(idx, sizeof idx, "%s[%zu]", key, i);
        if (!json_is_object(e))
            return resjson_fail(c, idx, "expected an object");
        resjson_child_path(path, sizeof path, c, idx);
        struct resjson_rctx sub = {c->file, path};
        if (each(&sub, e, v + i * elem_size) < 0)
            return -1;
    }
    return 0;
}

/* v as an unsigned 64-bit integer: a non-negative integer or a decimal string. */
int resjson_u64_value(const struct resjson_rctx *c, const char *key, const json_t *v, uint64_t *out)
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
    return resjson_fail(c, key, "expected a non-negative integer");
}

int resjson_get_u64(const struct resjson_rctx *c, const json_t *o, const char *key, uint64_t *out)
{
    const json_t *v = json_object_get(o, key);
    return v ? resjson_u64_value(c, key, v, out) : 0;
}

int resjson_get_uint(const struct resjson_rctx *c, const json_t *o, const char *key, unsigned *out)
{
    uint64_t v = *out;
    if (resjson_get_u64(c, o, key, &v) < 0)
        return -1;
    if (v > UINT_MAX)
        return resjson_fail(c, key, "%" PRIu64 " is too large", v);
    *out = (unsigned)v;
    return 0;
}

/* A signed integer; null reads as null_value (machine settings that were unreadable). */
int resjson_get_long(const struct resjson_rctx *c, const json_t *o, const char *key, long *out,
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
        return resjson_fail(c, key, "expected an integer");
    json_int_t x = json_integer_value(v);
    if (x < LONG_MIN || x > LONG_MAX)
        return resjson_fail(c, key, "integer out of range");
    *out = (long)x;
    return 0;
}

static int get_int(const struct resjson_rctx *c, const json_t *o, const char *key, int *out)
{
    long v = *out;
    if (resjson_get_long(c, o, key, &v, -1) < 0)
        return -1;
    if (v < INT_MIN || v > INT_MAX)
        return resjson_fail(c, key, "integer out of range");
    *out = (int)v;
    return 0;
}

int resjson_get_double(const struct resjson_rctx *c, const json_t *o, const char *key, double *out)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (json_is_null(v)) {
        *out = NAN;
        return 0;
    }
    if (!json_is_number(v))
        return resjson_fail(c, key, "expected a number");
    *out = json_number_value(v);
    return 0;
}

int resjson_nonneg_value(const struct resjson_rctx *c, const char *key, const json_t *v,
                         double *out, double max)
{
    if (json_is_null(v)) {
        *out = NAN;
        return 0;
    }
    if (!json_is_number(v))
        return resjson_fail(c, key, "expected a number");
    double x = json_number_value(v);
    if (!isfinite(x) || x < 0 || x > max)
        return resjson_fail(c, key, "%g is out of range (0 to %g)", x, max);
    *out = x;
    return 0;
}

int resjson_get_nonneg(const struct resjson_rctx *c, const json_t *o, const char *key,
                       double *out, double max)
{
    const json_t *v = json_object_get(o, key);
    return v ? resjson_nonneg_value(c, key, v, out, max) : 0;
}

int resjson_get_seconds(const struct resjson_rctx *c, const json_t *o, const char *key,
                        double *out)
{
    double x = *out;
    if (resjson_get_nonneg(c, o, key, &x, 1e9) < 0)
        return -1;
    if (x > 0 && x < 1e-9)
        return resjson_fail(c, key, "%g s is below the clock's resolution (1 ns): not a "
                            "measured time", x);
    *out = x;
    return 0;
}

int resjson_get_name(const struct resjson_rctx *c, const json_t *o, const char *key, char *buf,
                     size_t size)
{
    if (resjson_get_str(c, o, key, buf, size) < 0)
        return -1;
    struct text_flaw f;
    if (text_check(buf, strlen(buf), 0, &f) < 0)
        return resjson_fail(c, key, "holds %s", f.what);
    return 0;
}

int resjson_get_bool(const struct resjson_rctx *c, const json_t *o, const char *key, bool *out)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (!json_is_boolean(v))
        return resjson_fail(c, key, "expected true or false");
    *out = json_is_true(v);
    return 0;
}

int resjson_get_str(const struct resjson_rctx *c, const json_t *o, const char *key, char *buf,
                   size_t size)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (!json_is_string(v))
        return resjson_fail(c, key, "expected a string");
    size_t n = json_string_length(v);
    if (n >= size)
        return resjson_fail(c, key, "longer than %zu bytes", size - 1);
    if (memchr(json_string_value(v), '\0', n))
        return resjson_fail(c, key, "contains a NUL character");
    memcpy(buf, json_string_value(v), n);
    buf[n] = '\0';
    return 0;
}

/* An optional member that must be an object when present; *out is NULL when absent. */
int resjson_get_object(const struct resjson_rctx *c, const json_t *o, const char *key,
                      const json_t **out)
{
    const json_t *v = json_object_get(o, key);
    *out = NULL;
    if (!v)
        return 0;
    if (!json_is_object(v))
        return resjson_fail(c, key, "expected an object");
    *out = v;
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
        return resjson_done(o, 1);
    int bad = 0;
    bad |= RESJSON_PUT_STR(o, "hostname", m->hostname);
    bad |= RESJSON_PUT_STR(o, "kernel", m->kernel);
    bad |= RESJSON_PUT_STR(o, "kernel_version", m->kernel_version);
    bad |= RESJSON_PUT_STR(o, "arch", m->arch);
    bad |= RESJSON_PUT_STR(o, "cpu", m->cpu);
    bad |= resjson_put(o, "ncpu", json_integer(m->ncpu));
    bad |= resjson_put(o, "ram_bytes", resjson_u64(m->ram_bytes));
    bad |= resjson_put(o, "dirty_ratio", jsetting(m->dirty_ratio));
    bad |= resjson_put(o, "dirty_background_ratio", jsetting(m->dirty_background_ratio));
    bad |= resjson_put(o, "dirty_bytes", jsetting(m->dirty_bytes));
    bad |= resjson_put(o, "dirty_background_bytes", jsetting(m->dirty_background_bytes));
    bad |= resjson_put(o, "dirty_expire_centisecs", jsetting(m->dirty_expire_centisecs));
    bad |= resjson_put(o, "dirty_writeback_centisecs", jsetting(m->dirty_writeback_centisecs));
    bad |= resjson_put(o, "vfs_cache_pressure", jsetting(m->vfs_cache_pressure));
    return resjson_done(o, bad);
}

static int read_machine(const struct resjson_rctx *c, const json_t *o, struct machine_info *m)
{
    m->dirty_ratio = m->dirty_background_ratio = m->dirty_bytes = -1;
    m->dirty_background_bytes = m->dirty_expire_centisecs = -1;
    m->dirty_writeback_centisecs = m->vfs_cache_pressure = -1;
    if (RESJSON_GET_STR(c, o, "hostname", m->hostname) < 0 ||
        RESJSON_GET_STR(c, o, "kernel", m->kernel) < 0 ||
        RESJSON_GET_STR(c, o, "kernel_version", m->kernel_version) < 0 ||
        RESJSON_GET_STR(c, o, "arch", m->arch) < 0 || RESJSON_GET_STR(c, o, "cpu", m->cpu) < 0 ||
        get_int(c, o, "ncpu", &m->ncpu) < 0 ||
        resjson_get_u64(c, o, "ram_bytes", &m->ram_bytes) < 0 ||
        resjson_get_long(c, o, "dirty_ratio", &m->dirty_ratio, -1) < 0 ||
        resjson_get_long(c, o, "dirty_background_ratio", &m->dirty_background_ratio, -1) < 0 ||
        resjson_get_long(c, o, "dirty_bytes", &m->dirty_bytes, -1) < 0 ||
        resjson_get_long(c, o, "dirty_background_bytes", &m->dirty_background_bytes, -1) < 0 ||
        resjson_get_long(c, o, "dirty_expire_centisecs", &m->dirty_expire_centisecs, -1) < 0 ||
        resjson_get_long(c, o, "dirty_writeback_centisecs", &m->dirty_writeback_centisecs,
                         -1) < 0 ||
        resjson_get_long(c, o, "vfs_cache_pressure", &m->vfs_cache_pressure, -1) < 0)
        return -1;
    return 0;
}

json_t *resjson_from_target(const struct target_info *t)
{
    json_t *o = json_object();
    if (!o)
        return resjson_done(o, 1);
    int bad = 0;
    bad |= RESJSON_PUT_STR(o, "path", t->path);
    bad |= RESJSON_PUT_STR(o, "fstype", t->fstype);
    bad |= RESJSON_PUT_STR(o, "mount_point", t->mount_point);
    bad |= RESJSON_PUT_STR(o, "mount_opts", t->mount_opts);
    bad |= RESJSON_PUT_STR(o, "device", t->device);
    bad |= RESJSON_PUT_STR(o, "blockdev", t->blockdev);
    if (t->kind[0])
        bad |= RESJSON_PUT_STR(o, "kind", t->kind);
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
    return resjson_done(o, bad);
}

static int read_target(const struct resjson_rctx *c, const json_t *o, struct target_info *t)
{
    if (RESJSON_GET_STR(c, o, "path", t->path) < 0 ||
        RESJSON_GET_STR(c, o, "fstype", t->fstype) < 0 ||
        RESJSON_GET_STR(c, o, "mount_point", t->mount_point) < 0 ||
        RESJSON_GET_STR(c, o, "mount_opts", t->mount_opts) < 0 ||
        RESJSON_GET_STR(c, o, "device", t->device) < 0 ||
        RESJSON_GET_STR(c, o, "blockdev", t->blockdev) < 0 ||
        RESJSON_GET_STR(c, o, "kind", t->kind) < 0)
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
        return resjson_done(o, 1);
    int bad = 0;
    bad |= RESJSON_PUT_STR(o, "profile", t->profile);
    bad |= resjson_put(o, "scale", resjson_real(t->scale));
    bad |= resjson_put(o, "seed", resjson_u64(t->seed));
    bad |= resjson_put(o, "files", resjson_u64(t->files));
    bad |= resjson_put(o, "dirs", resjson_u64(t->dirs));
    bad |= resjson_put(o, "symlinks", resjson_u64(t->symlinks));
    bad |= resjson_put(o, "bytes", resjson_u64(t->bytes));
    return resjson_done(o, bad);
}

static int read_tree(const struct resjson_rctx *c, const json_t *o, struct tree_info *t)
{
    if (RESJSON_GET_STR(c, o, "profile", t->profile) < 0 ||
        resjson_get_double(c, o, "scale", &t->scale) < 0 ||
        resjson_get_u64(c, o, "seed", &t->seed) < 0 ||
        resjson_get_u64(c, o, "files", &t->files) < 0 ||
        resjson_get_u64(c, o, "dirs", &t->dirs) < 0 ||
        resjson_get_u64(c, o, "symlinks", &t->symlinks) < 0 ||
        resjson_get_u64(c, o, "bytes", &t->bytes) < 0)
        return -1;
    return 0;
}

/* Runs a reader on a whole object given as `j`, with `where` as its path. */
#define TO_WRAPPER(fn, type, reader)                                                               \
    int fn(const json_t *j, type *x, const char *where)                                            \
    {                                                                                              \
        struct resjson_rctx c = {NULL, where ? where : ""};                                        \
        if (!json_is_object(j))                                                                    \
            return error("%s: expected an object", *c.where ? c.where : #type);                    \
        return reader(&c, j, x);                                                                   \
    }

TO_WRAPPER(resjson_to_machine, struct machine_info, read_machine)
TO_WRAPPER(resjson_to_target, struct target_info, read_target)
TO_WRAPPER(resjson_to_tree, struct tree_info, read_tree)

/* ---------------------------------------------------------------- run set */

json_t *resjson_from_run_set(const struct run_set *rs)
{
    json_t *o = json_object();
    if (!o)
        return resjson_done(o, 1);
    int bad = 0;
    char iso[32] = "";
    time_t t = (time_t)floor(rs->created);
    struct tm tm;
    if (isfinite(rs->created) && gmtime_r(&t, &tm))
        strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &tm);

    bad |= resjson_put(o, "schema_version", json_integer(RESULTS_SCHEMA_VERSION));
    bad |= RESJSON_PUT_STR(o, "label", rs->label);
    bad |= RESJSON_PUT_STR(o, "scenario", rs->scenario);
    bad |= RESJSON_PUT_STR(o, "engine", rs->engine);
    bad |= RESJSON_PUT_STR(o, "command_line", rs->command_line);
    bad |= resjson_put(o, "created", resjson_real(rs->created));
    bad |= resjson_put(o, "created_utc", *iso ? json_string(iso) : json_null());
    bad |= resjson_put(o, "root", json_boolean(rs->root));
    bad |= resjson_put(o, "warm_cache", json_boolean(rs->warm_cache));
    bad |= resjson_put(o, "machine", resjson_from_machine(&rs->machine));
    bad |= resjson_put(o, "target", resjson_from_target(&rs->target));
    bad |= resjson_put(o, "tree", resjson_from_tree(&rs->tree));
    /* the job file the set ran, expanded (fsbench export --job writes it back) */
    json_t *job = rs->job_text[0] ? json_object() : json_null();
    if (job && rs->job_text[0]) {
        bad |= RESJSON_PUT_STR(job, "hash", rs->job_hash);
        bad |= RESJSON_PUT_STR(job, "text", rs->job_text);
    }
    bad |= resjson_put(o, "job", job);
    if (rs->ranks.count)
        bad |= resjson_put(o, "ranks", resjson_from_ranks(&rs->ranks));
    if (rs->stop.method[0])
        bad |= resjson_put(o, "stopping", resjson_from_stop(&rs->stop));
    if (rs->nmeta) /* absent when none: a set without --meta reads and writes as before */
        bad |= resjson_put(o, "meta", meta_to_json(rs));
    if (rs->nwork) /* absent in sets made before the work records were kept */
        bad |= resjson_put(o, "work", meta_work_to_json(rs));
    if (rs->kept_kind[0]) { /* --keep-image: where the file system stays after the set */
        json_t *k = json_object();
        bad |= k == NULL;
        if (k) {
            bad |= RESJSON_PUT_STR(k, "kind", rs->kept_kind);
            bad |= RESJSON_PUT_STR(k, "path", rs->kept_path);
        }
        bad |= resjson_put(o, "kept", k);
    }
    json_t *runs = json_array();
    for (size_t i = 0; runs && !bad && i < rs->nruns; i++) {
        json_t *r = resjson_run_to_json(&rs->runs[i]);
        bad |= r == NULL || json_array_append_new(runs, r) != 0;
    }
    bad |= resjson_put(o, "runs", runs);
    return resjson_done(o, bad);
}

static int read_run_set(const struct resjson_rctx *c, const json_t *j, struct run_set *rs)
{
    if (!json_is_object(j))
        return resjson_fail(c, "", "expected a JSON object (an fsbench run set)");
    const json_t *sv = json_object_get(j, "schema_version");
    if (!sv)
        return resjson_fail(c, "schema_version", "missing: not an fsbench run set");
    if (!json_is_integer(sv))
        return resjson_fail(c, "schema_version", "expected an integer");
    json_int_t v = json_integer_value(sv);
    if (v > RESULTS_SCHEMA_VERSION)
        return resjson_fail(c, "schema_version",
                    "%lld is newer than this fsbench understands (%d); upgrade fsbench",
                    (long long)v, RESULTS_SCHEMA_VERSION);
    if (v < 1)
        return resjson_fail(c, "schema_version", "%lld is not a valid version", (long long)v);
    rs->schema_version = RESULTS_SCHEMA_VERSION; /* the struct is always the current model */

    if (RESJSON_GET_STR(c, j, "label", rs->label) < 0 ||
        RESJSON_GET_NAME(c, j, "scenario", rs->scenario) < 0 ||
        RESJSON_GET_STR(c, j, "engine", rs->engine) < 0 ||
        RESJSON_GET_STR(c, j, "command_line", rs->command_line) < 0 ||
        resjson_get_nonneg(c, j, "created", &rs->created, 1e12) < 0 ||
        resjson_get_bool(c, j, "root", &rs->root) < 0 ||
        resjson_get_bool(c, j, "warm_cache", &rs->warm_cache) < 0)
        return -1;
    const json_t *job = json_object_get(j, "job");
    if (job && !json_is_null(job)) {
        const json_t *text = json_object_get(job, "text"), *hash = json_object_get(job, "hash");
        if (!json_is_object(job) || !json_is_string(text) || !json_is_string(hash) ||
            json_string_length(text) >= sizeof rs->job_text ||
            json_string_length(hash) >= sizeof rs->job_hash)
            return resjson_fail(c, "job", "expected {\"hash\": \"...\", \"text\": \"...\"}");
        snprintf(rs->job_text, sizeof rs->job_text, "%s", json_string_value(text));
        snprintf(rs->job_hash, sizeof rs->job_hash, "%s", json_string_value(hash));
    }

    const json_t *kept = json_object_get(j, "kept");
    if (kept && !json_is_null(kept)) {
        const json_t *kind = json_object_get(kept, "kind"), *kp = json_object_get(kept, "path");
        if (!json_is_object(kept) || !json_is_string(kind) || !json_is_string(kp) ||
            json_string_length(kind) >= sizeof rs->kept_kind ||
            json_string_length(kp) >= sizeof rs->kept_path)
            return resjson_fail(c, "kept", "expected {\"kind\": \"...\", \"path\": \"...\"}");
        snprintf(rs->kept_kind, sizeof rs->kept_kind, "%s", json_string_value(kind));
        snprintf(rs->kept_path, sizeof rs->kept_path, "%s", json_string_value(kp));
    }

    const json_t *m, *t, *tr;
    if (resjson_get_object(c, j, "machine", &m) < 0 || resjson_get_object(c, j, "target", &t) < 0 ||
        resjson_get_object(c, j, "tree", &tr) < 0)
        return -1;
    struct resjson_rctx sub = *c;
    char path[RESJSON_PATH_MAX];
    rs->machine.dirty_ratio = rs->machine.dirty_background_ratio = -1;
    rs->machine.dirty_bytes = rs->machine.dirty_background_bytes = -1;
    rs->machine.dirty_expire_centisecs = rs->machine.dirty_writeback_centisecs = -1;
    rs->machine.vfs_cache_pressure = -1;
    if (m) {
        resjson_child_path(path, sizeof path, c, "machine");
        sub.where = path;
        if (read_machine(&sub, m, &rs->machine) < 0)
            return -1;
    }
    if (t) {
        resjson_child_path(path, sizeof path, c, "target");
        sub.where = path;
        if (read_target(&sub, t, &rs->target) < 0)
            return -1;
    }
    if (tr) {
        resjson_child_path(path, sizeof path, c, "tree");
        sub.where = path;
        if (read_tree(&sub, tr, &rs->tree) < 0)
            return -1;
    }
    const json_t *rk;
    if (resjson_get_object(c, j, "ranks", &rk) < 0)
        return -1;
    if (rk) {
        resjson_child_path(path, sizeof path, c, "ranks");
        sub.where = path;
        if (resjson_read_ranks(&sub, rk, &rs->ranks) < 0)
            return -1;
    }
    const json_t *stop;
    if (resjson_get_object(c, j, "stopping", &stop) < 0)
        return -1;
    if (stop) {
        resjson_child_path(path, sizeof path, c, "stopping");
        sub.where = path;
        if (resjson_read_stop(&sub, stop, &rs->stop) < 0)
            return -1;
    }
    char mwhere[RESJSON_PATH_MAX + 4200];
    snprintf(mwhere, sizeof mwhere, "%s%s%s", c->file ? c->file : "run set",
             c->where && *c->where ? ": " : "", c->where ? c->where : "");
    if (meta_from_json(json_object_get(j, "meta"), rs, mwhere) < 0)
        return -1;
    const json_t *work = json_object_get(j, "work");
    if (work && meta_work_from_json(work, rs, mwhere) < 0)
        return -1;

    const json_t *runs = json_object_get(j, "runs");
    if (!runs)
        return resjson_fail(c, "runs", "missing");
    if (!json_is_array(runs))
        return resjson_fail(c, "runs", "expected an array");
    for (size_t i = 0; i < json_array_size(runs); i++) {
        char key[32];
        snprintf(key, sizeof key, "runs[%zu]", i);
        resjson_child_path(path, sizeof path, c, key);
        sub.where = path;
        const json_t *r = json_array_get(runs, i);
        if (!json_is_object(r))
            return resjson_fail(c, key, "expected an object");
        if (resjson_read_run(&sub, r, rs) < 0)
            return -1;
    }
    return 0;
}

int resjson_to_run_set(const json_t *j, struct run_set *rs)
{
    struct resjson_rctx c = {NULL, ""};
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
    struct outfile of;
    if (outfile_open(&of, path, NULL) < 0) {
        json_decref(j);
        return -1;
    }
    errno = 0;
    int rc = json_dumpf(j, of.f, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    int werr = rc ? errno : 0;
    json_decref(j);
    if (rc == 0)
        fputc('\n', of.f);
    if (rc != 0 && of.to_stdout) {
        outfile_discard(&of);
        return outcheck_stdout_err(werr, NULL) < 0 ? -1 : error("standard output: cannot write the JSON");
    }
    if (rc != 0) {
        outfile_discard(&of);
        return error("%s: cannot write the JSON", path);
    }
    return outfile_commit(&of);
}

int resjson_read_file(const char *path, struct run_set *rs)
{
    json_error_t je;
    char *text, why[256];
    size_t len;
    if (infile_read(path, INFILE_JSON_MAX, &text, &len, why, sizeof why) < 0)
        return error("%s: %s", strcmp(path, "-") ? path : "standard input", why);
    json_t *j = json_loadb(text, len, 0, &je);
    free(text);
    if (!j) {
        if (je.line > 0)
            return error("%s:%d:%d: %s", path, je.line, je.column, je.text);
        return error("%s: %s", path, je.text);
    }
    struct resjson_rctx c = {path, ""};
    int rc = read_run_set(&c, j, rs);
    json_decref(j);
    if (rc < 0)
        run_set_free(rs);
    return rc;
}
