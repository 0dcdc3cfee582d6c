/* resjson_phase.c — the phase and run codec of resjson (see resjson.h): a phase_result and a
 * run_result to and from JSON, with the derived per-phase figures. The run set, machine,
 * target and tree codec, the file I/O and the shared reading and writing helpers are in
 * resjson.c; the conventions (lenient about absent members, strict about types, errors
 * naming the member's path) are described there.
 */
#include "results/resjson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "measure/stall.h"
#include "results/resjson_internal.h"

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
    bad |= resjson_put(o, "count", resjson_u64(l->count));
    bad |= resjson_put(o, "min_ns", resjson_u64(l->min_ns));
    bad |= resjson_put(o, "p50_ns", resjson_u64(l->p50_ns));
    bad |= resjson_put(o, "p90_ns", resjson_u64(l->p90_ns));
    bad |= resjson_put(o, "p99_ns", resjson_u64(l->p99_ns));
    bad |= resjson_put(o, "p999_ns", resjson_u64(l->p999_ns));
    bad |= resjson_put(o, "max_ns", resjson_u64(l->max_ns));
    bad |= resjson_put(o, "mean_ns", resjson_real(l->mean_ns));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The stalls of a phase: [{start_s, length_s, ops, device: {...} or null}]. */
static json_t *stalls_to_json(const struct phase_result *pr)
{
    json_t *a = json_array();
    int bad = a == NULL;
    for (size_t i = 0; a && i < pr->nstalls; i++) {
        const struct stall *st = &pr->stalls[i];
        json_t *so = json_object();
        if (!so) {
            bad = 1;
            break;
        }
        bad |= resjson_put(so, "start_s", resjson_real(st->start_s));
        bad |= resjson_put(so, "length_s", resjson_real(st->length_s));
        bad |= resjson_put(so, "ops", resjson_u64(st->ops));
        if (pr->timeline_dev) {
            json_t *d = json_object();
            if (d) {
                bad |= resjson_put(d, "sectors_read", resjson_u64(st->dev_rd_sectors));
                bad |= resjson_put(d, "sectors_written", resjson_u64(st->dev_wr_sectors));
                bad |= resjson_put(d, "busy_ms", resjson_u64(st->dev_busy_ms));
                bad |= resjson_put(d, "in_flight_max", resjson_u64(st->dev_inflight_max));
                bad |= resjson_put(d, "busy", json_boolean(stall_device_busy(st)));
            }
            bad |= resjson_put(so, "device", d);
        } else {
            bad |= resjson_put(so, "device", json_null());
        }
        bad |= json_array_append_new(a, so) != 0;
    }
    if (bad) {
        json_decref(a);
        return NULL;
    }
    return a;
}

json_t *resjson_from_phase(const struct phase_result *pr)
{
    json_t *o = json_object();
    if (!o)
        return resjson_done(o, 1);
    int bad = 0;
    unsigned st = (unsigned)pr->status;
    bad |= RESJSON_PUT_STR(o, "name", pr->name);
    bad |= resjson_put(o, "status", json_string(st < 3 ? status_names[st] : "failed"));
    bad |= RESJSON_PUT_STR(o, "note", pr->note);
    bad |= resjson_put(o, "wall_s", resjson_real(pr->wall_s));
    bad |= resjson_put(o, "user_s", resjson_real(pr->user_s));
    bad |= resjson_put(o, "sys_s", resjson_real(pr->sys_s));

    json_t *ops = json_object();
    for (int k = 0; ops && k < OP_KINDS; k++)
        if (pr->ops[k])
            bad |= resjson_put(ops, op_kind_name((enum op_kind)k), resjson_u64(pr->ops[k]));
    bad |= resjson_put(o, "ops", ops);
    bad |= resjson_put(o, "ops_total", resjson_u64(pr->ops_total));
    bad |= resjson_put(o, "ops_per_s", resjson_real(resjson_ops_per_s(pr)));
    bad |= resjson_put(o, "bytes_read", resjson_u64(pr->bytes_read));
    bad |= resjson_put(o, "bytes_written", resjson_u64(pr->bytes_written));
    bad |= resjson_put(o, "mb_per_s", resjson_real(resjson_mb_per_s(pr)));
    bad |= resjson_put(o, "files", resjson_u64(pr->files));
    bad |= resjson_put(o, "dirs", resjson_u64(pr->dirs));
    bad |= resjson_put(o, "symlinks", resjson_u64(pr->symlinks));

    json_t *ru = json_object();
    if (ru) {
        bad |= resjson_put(ru, "nvcsw", json_integer(pr->nvcsw));
        bad |= resjson_put(ru, "nivcsw", json_integer(pr->nivcsw));
        bad |= resjson_put(ru, "majflt", json_integer(pr->majflt));
        bad |= resjson_put(ru, "minflt", json_integer(pr->minflt));
        bad |= resjson_put(ru, "inblock", json_integer(pr->inblock));
        bad |= resjson_put(ru, "oublock", json_integer(pr->oublock));
    }
    bad |= resjson_put(o, "rusage", ru);

    json_t *io = json_object();
    if (io) {
        bad |= resjson_put(io, "read_bytes", resjson_u64(pr->io_read_bytes));
        bad |= resjson_put(io, "write_bytes", resjson_u64(pr->io_write_bytes));
    }
    bad |= resjson_put(o, "io", io);

    if (pr->dev.valid) {
        json_t *d = json_object();
        if (d) {
            bad |= resjson_put(d, "reads", resjson_u64(pr->dev.rd_ios));
            bad |= resjson_put(d, "sectors_read", resjson_u64(pr->dev.rd_sectors));
            bad |= resjson_put(d, "writes", resjson_u64(pr->dev.wr_ios));
            bad |= resjson_put(d, "sectors_written", resjson_u64(pr->dev.wr_sectors));
            bad |= resjson_put(d, "io_ticks_ms", resjson_u64(pr->dev.io_ticks_ms));
        }
        bad |= resjson_put(o, "device", d);
    } else {
        bad |= resjson_put(o, "device", json_null());
    }

    json_t *lat = json_object();
    for (int k = 0; lat && k < OP_KINDS; k++)
        if (pr->lat[k].count)
            bad |= resjson_put(lat, op_kind_name((enum op_kind)k), lat_to_json(&pr->lat[k]));
    bad |= resjson_put(o, "latency", lat);

    json_t *tl = json_array();
    for (size_t i = 0; tl && i < pr->timeline_len; i++) {
        const struct timeline_point *p = &pr->timeline[i];
        json_t *pt = json_array();
        if (pt) {
            bad |= json_array_append_new(pt, resjson_real(p->t)) != 0;
            bad |= json_array_append_new(pt, resjson_u64(p->ops)) != 0;
            bad |= json_array_append_new(pt, resjson_u64(p->bytes)) != 0;
            if (pr->timeline_dev) {
                bad |= json_array_append_new(pt, resjson_u64(p->dev_rd_sectors)) != 0;
                bad |= json_array_append_new(pt, resjson_u64(p->dev_wr_sectors)) != 0;
                bad |= json_array_append_new(pt, resjson_u64(p->dev_inflight)) != 0;
                bad |= json_array_append_new(pt, resjson_u64(p->dev_busy_ms)) != 0;
            }
        }
        bad |= pt == NULL || json_array_append_new(tl, pt) != 0;
    }
    bad |= resjson_put(o, "timeline", tl);
    bad |= resjson_put(o, "longest_stall_s", resjson_real(pr->longest_stall_s));
    bad |= resjson_put(o, "stalls", stalls_to_json(pr));
    bad |= resjson_put_phase_ranks(o, pr);
    bad |= resjson_put_phase_aging(o, pr);
    return resjson_done(o, bad);
}

/* One element of "stalls" (resjson_read_objects' callback). */
static int read_stall(const struct resjson_rctx *sub, const json_t *so, void *elem)
{
    struct stall *st = elem;
    if (resjson_get_seconds(sub, so, "start_s", &st->start_s) < 0 ||
        resjson_get_seconds(sub, so, "length_s", &st->length_s) < 0 ||
        resjson_get_u64(sub, so, "ops", &st->ops) < 0)
        return -1;
    const json_t *d;
    /* null: no block device behind the target (a tmpfs), as the writer puts it */
    if (json_is_null(json_object_get(so, "device")))
        return 0;
    if (resjson_get_object(sub, so, "device", &d) < 0)
        return -1;
    if (!d)
        return 0;
    char path[RESJSON_PATH_MAX];
    resjson_child_path(path, sizeof path, sub, "device");
    struct resjson_rctx dsub = {sub->file, path};
    if (resjson_get_u64(&dsub, d, "sectors_read", &st->dev_rd_sectors) < 0 ||
        resjson_get_u64(&dsub, d, "sectors_written", &st->dev_wr_sectors) < 0 ||
        resjson_get_u64(&dsub, d, "busy_ms", &st->dev_busy_ms) < 0 ||
        resjson_get_u64(&dsub, d, "in_flight_max", &st->dev_inflight_max) < 0)
        return -1;
    return 0;
}

/* Reads the "stalls" array; absent (files written before stalls were listed) is none. */
static int read_stalls(const struct resjson_rctx *c, const json_t *o, struct phase_result *pr)
{
    void *v;
    int rc = resjson_read_objects(c, o, "stalls", sizeof *pr->stalls, &v, &pr->nstalls,
                                  read_stall);
    pr->stalls = v;
    return rc;
}

static int read_lat(const struct resjson_rctx *c, const json_t *o, struct lat_summary *l)
{
    if (resjson_get_u64(c, o, "count", &l->count) < 0 ||
        resjson_get_u64(c, o, "min_ns", &l->min_ns) < 0 ||
        resjson_get_u64(c, o, "p50_ns", &l->p50_ns) < 0 ||
        resjson_get_u64(c, o, "p90_ns", &l->p90_ns) < 0 ||
        resjson_get_u64(c, o, "p99_ns", &l->p99_ns) < 0 ||
        resjson_get_u64(c, o, "p999_ns", &l->p999_ns) < 0 ||
        resjson_get_u64(c, o, "max_ns", &l->max_ns) < 0 ||
        resjson_get_nonneg(c, o, "mean_ns", &l->mean_ns, 1e18) < 0)
        return -1;
    return 0;
}

/* Reads the object `key` whose members are op kinds, each handed to fn. */
static int read_by_kind(const struct resjson_rctx *c, const json_t *o, const char *key,
                        int (*fn)(const struct resjson_rctx *c, const json_t *v, const char *kind,
                                  int k, void *arg),
                        void *arg)
{
    const json_t *m;
    if (resjson_get_object(c, o, key, &m) < 0)
        return -1;
    if (!m)
        return 0;
    char path[RESJSON_PATH_MAX];
    resjson_child_path(path, sizeof path, c, key);
    struct resjson_rctx sub = {c->file, path};
    const char *kind;
    const json_t *v;
    json_object_foreach((json_t *)m, kind, v) {
        int k = op_kind_find(kind);
        if (k < 0)
            return resjson_fail(&sub, kind, "unknown operation kind");
        if (fn(&sub, v, kind, k, arg) < 0)
            return -1;
    }
    return 0;
}

static int read_op_count(const struct resjson_rctx *c, const json_t *v, const char *kind, int k,
                         void *arg)
{
    struct phase_result *pr = arg;
    return resjson_u64_value(c, kind, v, &pr->ops[k]);
}

static int read_op_lat(const struct resjson_rctx *c, const json_t *v, const char *kind, int k,
                       void *arg)
{
    struct phase_result *pr = arg;
    if (!json_is_object(v))
        return resjson_fail(c, kind, "expected an object");
    char path[RESJSON_PATH_MAX];
    resjson_child_path(path, sizeof path, c, kind);
    struct resjson_rctx sub = {c->file, path};
    return read_lat(&sub, v, &pr->lat[k]);
}

static int read_timeline(const struct resjson_rctx *c, const json_t *o, struct phase_result *pr)
{
    const json_t *tl = json_object_get(o, "timeline");
    if (!tl || json_is_null(tl))
        return 0;
    if (!json_is_array(tl))
        return resjson_fail(c, "timeline", "expected an array");
    size_t n = json_array_size(tl);
    if (n == 0)
        return 0;
    pr->timeline = calloc(n, sizeof *pr->timeline);
    if (!pr->timeline)
        return error("out of memory");
    pr->timeline_len = n;
    char path[RESJSON_PATH_MAX];
    resjson_child_path(path, sizeof path, c, "timeline");
    for (size_t i = 0; i < n; i++) {
        const json_t *pt = json_array_get(tl, i);
        char idx[32];
        snprintf(idx, sizeof idx, "[%zu]", i);
        struct resjson_rctx sub = {c->file, path};
        size_t np = json_is_array(pt) ? json_array_size(pt) : 0;
        if (np != 3 && np != 7)
            return resjson_fail(&sub, idx,
                                "expected [t, ops, bytes] or [t, ops, bytes, sectors read, "
                                "sectors written, in flight, busy ms]");
        if (i == 0)
            pr->timeline_dev = np == 7;
        else if (pr->timeline_dev != (np == 7))
            return resjson_fail(&sub, idx, "points of one time line differ in length");
        static const char *const dev_names[] = {"sectors read", "sectors written", "in flight",
                                                "busy ms"};
        uint64_t *dev_fields[] = {&pr->timeline[i].dev_rd_sectors, &pr->timeline[i].dev_wr_sectors,
                                  &pr->timeline[i].dev_inflight, &pr->timeline[i].dev_busy_ms};
        for (size_t f = 3; f < np; f++) {
            char dkey[64];
            snprintf(dkey, sizeof dkey, "%s[%zu] (%s)", idx, f, dev_names[f - 3]);
            if (resjson_u64_value(&sub, dkey, json_array_get(pt, f), dev_fields[f - 3]) < 0)
                return -1;
        }
        const json_t *t = json_array_get(pt, 0), *ops = json_array_get(pt, 1),
                     *bytes = json_array_get(pt, 2);
        char ikey[64];
        snprintf(ikey, sizeof ikey, "%s[0]", idx);
        double tv;
        if (!json_is_number(t))
            return resjson_fail(&sub, ikey, "expected a number (t)");
        if (resjson_nonneg_value(&sub, ikey, t, &tv, 1e9) < 0)
            return -1;
        snprintf(ikey, sizeof ikey, "%s[1]", idx);
        if (resjson_u64_value(&sub, ikey, ops, &pr->timeline[i].ops) < 0)
            return -1;
        snprintf(ikey, sizeof ikey, "%s[2]", idx);
        if (resjson_u64_value(&sub, ikey, bytes, &pr->timeline[i].bytes) < 0)
            return -1;
        pr->timeline[i].t = tv;
    }
    return 0;
}

static int read_phase(const struct resjson_rctx *c, const json_t *o, struct phase_result *pr)
{
    const json_t *sv = json_object_get(o, "status");
    if (sv) {
        if (!json_is_string(sv))
            return resjson_fail(c, "status", "expected a string");
        int st = -1;
        for (int i = 0; i < 3; i++)
            if (strcmp(json_string_value(sv), status_names[i]) == 0)
                st = i;
        if (st < 0)
            return resjson_fail(c, "status", "expected \"ok\", \"skipped\" or \"failed\"");
        pr->status = (enum phase_status)st;
    }
    if (RESJSON_GET_NAME(c, o, "name", pr->name) < 0 ||
        RESJSON_GET_STR(c, o, "note", pr->note) < 0 ||
        resjson_get_seconds(c, o, "wall_s", &pr->wall_s) < 0 ||
        resjson_get_seconds(c, o, "user_s", &pr->user_s) < 0 ||
        resjson_get_seconds(c, o, "sys_s", &pr->sys_s) < 0 ||
        read_by_kind(c, o, "ops", read_op_count, pr) < 0 ||
        resjson_get_u64(c, o, "ops_total", &pr->ops_total) < 0 ||
        resjson_get_u64(c, o, "bytes_read", &pr->bytes_read) < 0 ||
        resjson_get_u64(c, o, "bytes_written", &pr->bytes_written) < 0 ||
        resjson_get_u64(c, o, "files", &pr->files) < 0 ||
        resjson_get_u64(c, o, "dirs", &pr->dirs) < 0 ||
        resjson_get_u64(c, o, "symlinks", &pr->symlinks) < 0 ||
        resjson_get_seconds(c, o, "longest_stall_s", &pr->longest_stall_s) < 0)
        return -1;

    const json_t *ru, *io;
    char path[RESJSON_PATH_MAX];
    if (resjson_get_object(c, o, "rusage", &ru) < 0)
        return -1;
    if (ru) {
        resjson_child_path(path, sizeof path, c, "rusage");
        struct resjson_rctx sub = {c->file, path};
        if (resjson_get_long(&sub, ru, "nvcsw", &pr->nvcsw, 0) < 0 ||
            resjson_get_long(&sub, ru, "nivcsw", &pr->nivcsw, 0) < 0 ||
            resjson_get_long(&sub, ru, "majflt", &pr->majflt, 0) < 0 ||
            resjson_get_long(&sub, ru, "minflt", &pr->minflt, 0) < 0 ||
            resjson_get_long(&sub, ru, "inblock", &pr->inblock, 0) < 0 ||
            resjson_get_long(&sub, ru, "oublock", &pr->oublock, 0) < 0)
            return -1;
    }
    if (resjson_get_object(c, o, "io", &io) < 0)
        return -1;
    if (io) {
        resjson_child_path(path, sizeof path, c, "io");
        struct resjson_rctx sub = {c->file, path};
        if (resjson_get_u64(&sub, io, "read_bytes", &pr->io_read_bytes) < 0 ||
            resjson_get_u64(&sub, io, "write_bytes", &pr->io_write_bytes) < 0)
            return -1;
    }
    const json_t *dev = json_object_get(o, "device");
    if (dev && !json_is_null(dev)) {
        if (!json_is_object(dev))
            return resjson_fail(c, "device", "expected an object or null");
        resjson_child_path(path, sizeof path, c, "device");
        struct resjson_rctx sub = {c->file, path};
        pr->dev.valid = true;
        if (resjson_get_u64(&sub, dev, "reads", &pr->dev.rd_ios) < 0 ||
            resjson_get_u64(&sub, dev, "sectors_read", &pr->dev.rd_sectors) < 0 ||
            resjson_get_u64(&sub, dev, "writes", &pr->dev.wr_ios) < 0 ||
            resjson_get_u64(&sub, dev, "sectors_written", &pr->dev.wr_sectors) < 0 ||
            resjson_get_u64(&sub, dev, "io_ticks_ms", &pr->dev.io_ticks_ms) < 0)
            return -1;
    }
    if (read_by_kind(c, o, "latency", read_op_lat, pr) < 0 ||
        resjson_read_phase_ranks(c, o, pr) < 0 || resjson_read_phase_aging(c, o, pr) < 0)
        return -1;
    if (read_timeline(c, o, pr) < 0)
        return -1;
    return read_stalls(c, o, pr);
}

int resjson_to_phase(const json_t *j, struct phase_result *pr, const char *where)
{
    struct resjson_rctx c = {NULL, where ? where : ""};
    if (!json_is_object(j))
        return error("%s: expected an object", *c.where ? c.where : "phase");
    if (read_phase(&c, j, pr) < 0) {
        phase_result_free(pr);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- runs */

json_t *resjson_run_to_json(const struct run_result *r)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = 0;
    bad |= resjson_put(o, "index", json_integer(r->index));
    bad |= resjson_put(o, "round", json_integer(r->round));
    bad |= RESJSON_PUT_STR(o, "config", r->config);
    bad |= resjson_put(o, "warmup", json_boolean(r->warmup));
    if (r->interrupted) /* only when true: a finished run's object is as before */
        bad |= resjson_put(o, "interrupted", json_true());
    bad |= resjson_put(o, "started", resjson_real(r->started));
    json_t *ph = json_array();
    for (size_t i = 0; ph && !bad && i < r->nphases; i++) {
        json_t *p = resjson_from_phase(&r->phases[i]);
        bad |= p == NULL || json_array_append_new(ph, p) != 0;
    }
    bad |= resjson_put(o, "phases", ph);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int resjson_read_run(const struct resjson_rctx *c, const json_t *o, struct run_set *rs)
{
    const json_t *ph = json_object_get(o, "phases");
    if (ph && !json_is_array(ph))
        return resjson_fail(c, "phases", "expected an array");
    size_t n = ph ? json_array_size(ph) : 0;
    struct run_result *r = run_set_add_run(rs, n);
    if (!r)
        return -1;
    if (resjson_get_uint(c, o, "index", &r->index) < 0 ||
        resjson_get_uint(c, o, "round", &r->round) < 0 ||
        RESJSON_GET_NAME(c, o, "config", r->config) < 0 ||
        resjson_get_bool(c, o, "warmup", &r->warmup) < 0 ||
        resjson_get_bool(c, o, "interrupted", &r->interrupted) < 0 ||
        resjson_get_nonneg(c, o, "started", &r->started, 1e12) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char path[RESJSON_PATH_MAX], key[32];
        snprintf(key, sizeof key, "phases[%zu]", i);
        resjson_child_path(path, sizeof path, c, key);
        struct resjson_rctx sub = {c->file, path};
        const json_t *p = json_array_get(ph, i);
        if (!json_is_object(p))
            return resjson_fail(c, key, "expected an object");
        if (read_phase(&sub, p, &r->phases[i]) < 0)
            return -1;
    }
    return 0;
}
