/* meta.c — a run set's KEY=VALUE notes (see meta.h). Keys and values are data from the
 * command line, an import or the store: every one is checked the same way wherever it
 * comes from, so a value never carries a control character into a report or a terminal. */
#include "results/meta.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"

/* The key the store keeps the work records under, beside the user's keys. */
#define META_WORK_KEY "_work"

static bool key_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-';
}

int meta_check(const char *key, const char *value, char *why, size_t len)
{
    size_t n = strlen(key);
    if (n == 0 || n >= RES_META_KEY_MAX)
        return snprintf(why, len, "the key must be 1 to %d characters", RES_META_KEY_MAX - 1),
               -1;
    if (key[0] == '.' || key[0] == '_' || key[0] == '-')
        return snprintf(why, len, "the key '%s' must start with a letter or digit", key), -1;
    for (size_t i = 0; i < n; i++)
        if (!key_char(key[i]))
            return snprintf(why, len, "the key holds 0x%02x: letters, digits, '.', '_' and "
                                      "'-' only", (unsigned char)key[i]), -1;
    if (strlen(value) >= RES_META_VALUE_MAX)
        return snprintf(why, len, "the value of %s is over %d bytes", key,
                        RES_META_VALUE_MAX - 1), -1;
    struct text_flaw fl;
    if (text_check(value, strlen(value), 0, &fl) < 0)
        return snprintf(why, len, "the value of %s holds %s", key, fl.what), -1;
    return 0;
}

/* Adds key=value to rs; 0, or -1 with the reason in why. */
static int add(struct run_meta *meta, unsigned *n, const char *key, const char *value, char *why,
               size_t len)
{
    if (meta_check(key, value, why, len) < 0)
        return -1;
    const char *had = meta_find(meta, *n, key);
    if (had) {
        if (strcmp(had, value))
            return snprintf(why, len, "%s given twice, as '%s' and as '%s'", key, had, value),
                   -1;
        return 0;
    }
    if (*n >= RES_META_MAX)
        return snprintf(why, len, "at most %d keys", RES_META_MAX), -1;
    struct run_meta *m = &meta[(*n)++];
    snprintf(m->key, sizeof m->key, "%s", key);
    snprintf(m->value, sizeof m->value, "%s", value);
    return 0;
}

int meta_add_arg(struct run_meta *meta, unsigned *n, const char *arg, const char *opt)
{
    char key[RES_META_KEY_MAX + 1], why[RES_META_VALUE_MAX + 160];
    const char *eq = strchr(arg, '=');
    if (!eq)
        return error("%s: '%s' is not KEY=VALUE (e.g. --meta commit=abc123)", opt, arg);
    size_t kn = (size_t)(eq - arg);
    if (kn >= sizeof key)
        kn = sizeof key - 1; /* meta_check refuses it for its length */
    memcpy(key, arg, kn);
    key[kn] = '\0';
    if ((size_t)(eq - arg) >= RES_META_KEY_MAX)
        return error("%s: the key must be 1 to %d characters", opt, RES_META_KEY_MAX - 1);
    if (add(meta, n, key, eq + 1, why, sizeof why) < 0)
        return error("%s: %s", opt, why);
    return 0;
}

const char *meta_find(const struct run_meta *meta, unsigned n, const char *key)
{
    for (unsigned i = 0; i < n && i < RES_META_MAX; i++)
        if (!strcmp(meta[i].key, key))
            return meta[i].value;
    return NULL;
}

json_t *meta_to_json(const struct run_set *rs)
{
    json_t *o = json_object();
    for (unsigned i = 0; o && i < rs->nmeta && i < RES_META_MAX; i++)
        if (json_object_set_new(o, rs->meta[i].key, json_string(rs->meta[i].value)) != 0) {
            json_decref(o);
            o = NULL;
        }
    if (!o)
        error("out of memory");
    return o;
}

int meta_from_json(const json_t *o, struct run_set *rs, const char *where)
{
    rs->nmeta = 0;
    if (!o || json_is_null(o))
        return 0;
    if (!json_is_object(o))
        return error("%s: meta: expected an object of strings", where);
    const char *key;
    json_t *v;
    char why[RES_META_VALUE_MAX + 160];
    json_object_foreach((json_t *)o, key, v) {
        if (!strcmp(key, META_WORK_KEY)) { /* the store's work records (meta_store_json) */
            if (meta_work_from_json(v, rs, where) < 0)
                return -1;
            continue;
        }
        char shown[RES_META_KEY_MAX + 8];
        text_escape(shown, sizeof shown, key);
        if (!json_is_string(v))
            return error("%s: meta.%s: expected a string", where, shown);
        if (strlen(json_string_value(v)) != json_string_length(v))
            return error("%s: meta.%s: the value holds a NUL byte", where, shown);
        if (add(rs->meta, &rs->nmeta, key, json_string_value(v), why, sizeof why) < 0)
            return error("%s: meta: %s", where, why);
    }
    return 0;
}

json_t *meta_work_to_json(const struct run_set *rs)
{
    json_t *a = json_array();
    for (unsigned i = 0; a && i < rs->nwork && i < RES_WORK_MAX; i++) {
        const struct run_work *w = &rs->work[i];
        json_t *trace = w->trace[0] ? json_pack("{s:s, s:I, s:I}", "name", w->trace, "calls",
                                                (json_int_t)w->trace_calls, "recorded_ns",
                                                (json_int_t)w->trace_recorded_ns)
                                    : json_null();
        json_t *o = trace ? json_pack("{s:s, s:I, s:s, s:o, s:s, s:I}", "config", w->config,
                                      "threads", (json_int_t)w->threads, "mkfs_opts",
                                      w->mkfs_opts, "trace", trace, "extract_calls",
                                      w->extract_calls, "extract_version",
                                      (json_int_t)w->extract_version)
                          : NULL;
        if (!o || json_array_append_new(a, o) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    if (!a)
        error("out of memory");
    return a;
}

/* A string member of a work record: absent is "", anything else must be a string of under
 * len bytes with no control character. 0, or -1 after error(). */
static int work_str(const json_t *o, const char *key, char *out, size_t len, const char *where,
                    unsigned i)
{
    const json_t *v = json_object_get(o, key);
    out[0] = '\0';
    if (!v)
        return 0;
    struct text_flaw fl;
    if (!json_is_string(v))
        return error("%s: work[%u].%s: expected a string", where, i, key);
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (n >= len || strlen(s) != n)
        return error("%s: work[%u].%s: longer than %zu bytes", where, i, key, len - 1);
    if (text_check(s, n, 0, &fl) < 0)
        return error("%s: work[%u].%s: holds %s", where, i, key, fl.what);
    memcpy(out, s, n + 1);
    return 0;
}

/* An integer member of 0..max (absent: 0). 0, or -1 after error(). */
static int work_int(const json_t *o, const char *key, json_int_t max, uint64_t *out,
                    const char *where, unsigned i)
{
    const json_t *v = json_object_get(o, key);
    *out = 0;
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > max)
        return error("%s: work[%u].%s: expected an integer from 0 to %lld", where, i, key,
                     (long long)max);
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

int meta_work_from_json(const json_t *a, struct run_set *rs, const char *where)
{
    rs->nwork = 0;
    if (!a || json_is_null(a))
        return 0;
    if (!json_is_array(a))
        return error("%s: work: expected an array", where);
    if (json_array_size(a) > RES_WORK_MAX)
        return error("%s: work: more than %d records", where, RES_WORK_MAX);
    size_t i;
    json_t *o;
    json_array_foreach(a, i, o) {
        struct run_work *w = &rs->work[i];
        memset(w, 0, sizeof *w);
        unsigned k = (unsigned)i;
        uint64_t threads, version;
        if (!json_is_object(o))
            return error("%s: work[%u]: expected an object", where, k);
        if (work_str(o, "config", w->config, sizeof w->config, where, k) < 0 ||
            work_int(o, "threads", 1 << 20, &threads, where, k) < 0 ||
            work_str(o, "mkfs_opts", w->mkfs_opts, sizeof w->mkfs_opts, where, k) < 0 ||
            work_str(o, "extract_calls", w->extract_calls, sizeof w->extract_calls, where, k) <
                0 ||
            work_int(o, "extract_version", 1000, &version, where, k) < 0)
            return -1;
        w->threads = (unsigned)threads;
        w->extract_version = (unsigned)version;
        const json_t *t = json_object_get(o, "trace");
        if (t && !json_is_null(t)) {
            if (!json_is_object(t))
                return error("%s: work[%u].trace: expected an object or null", where, k);
            if (work_str(t, "name", w->trace, sizeof w->trace, where, k) < 0 ||
                work_int(t, "calls", INT64_MAX, &w->trace_calls, where, k) < 0 ||
                work_int(t, "recorded_ns", INT64_MAX, &w->trace_recorded_ns, where, k) < 0)
                return -1;
        }
        rs->nwork = k + 1;
    }
    return 0;
}

json_t *meta_store_json(const struct run_set *rs)
{
    json_t *o = meta_to_json(rs);
    if (o && rs->nwork) {
        json_t *w = meta_work_to_json(rs);
        if (!w || json_object_set_new(o, META_WORK_KEY, w) != 0) {
            json_decref(o);
            return error("out of memory"), NULL;
        }
    }
    return o;
}
