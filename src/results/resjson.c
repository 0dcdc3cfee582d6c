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
 * This file holds the run-set, machine, target and tree codec and the file I/O; the phase
 * and run codec is in resjson_phase.c, the value helpers every part uses in
 * resjson_value.c (both through resjson_internal.h).
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
