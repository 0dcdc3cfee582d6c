/* resjson_value.c — the JSON codec's value helpers (resjson_internal.h), shared by every
 * resjson file: writing strings, counters and reals the way the schema says (invalid UTF-8
 * as '?', counters above INT64_MAX as decimal strings, non-finite reals as null), and
 * reading members strictly by type, each failure naming the member's path.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
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
