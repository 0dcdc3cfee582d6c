/* resjson_aging.c — a phase's "age_replay" and "age_profile" objects: what aging by replay
 * (--age-replay) or by a profile's engine (--age-profile) measured (measure/results.h's
 * struct age_replay_result; the two share their members' shapes and these writers and
 * readers, replay adding its trace and repetitions, the profile engine its ops), written
 * beside the phase's other members and read back, so the store keeps them (in the phase's
 * detail) and `report` and `export` give them. docs/json-schema.md describes the members.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "results/resjson_internal.h"

static const char *const dim_names[] = {"sizes", "ages", "depths"};

/* A distance or a share that may be absent (negative): null then. */
static json_t *maybe(double v)
{
    return v < 0 ? json_null() : resjson_real(v);
}

static json_t *free_json(const struct age_free_figures *f)
{
    json_t *o = json_object();
    int bad = !o;
    if (!f->known) {
        bad |= RESJSON_PUT_STR(o, "unknown", f->why);
        return resjson_done(o, bad);
    }
    bad |= RESJSON_PUT_STR(o, "source", f->source);
    bad |= resjson_put(o, "extents", resjson_u64(f->extents));
    bad |= resjson_put(o, "bytes", resjson_u64(f->bytes));
    bad |= resjson_put(o, "largest", resjson_u64(f->largest));
    bad |= resjson_put(o, "small_share", resjson_real(f->small_share));
    return resjson_done(o, bad);
}

static json_t *reps_json(const struct age_replay_result *a)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < a->nreps; i++) {
        json_t *e = json_object();
        int bad = !e;
        bad |= resjson_put(e, "bytes_written", resjson_u64(a->reps[i].bytes_written));
        bad |= resjson_put(e, "distance", maybe(a->reps[i].distance));
        if (bad || json_array_append_new(arr, e) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

static json_t *buckets_json(const struct age_replay_result *a)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < a->nbuckets; i++) {
        const struct age_bucket_figure *b = &a->buckets[i];
        json_t *e = json_object();
        int bad = !e;
        bad |= resjson_put(e, "dimension", json_string(dim_names[b->dim < 3 ? b->dim : 0]));
        bad |= resjson_put(e, "from", resjson_u64(b->from));
        if (b->target >= 0)
            bad |= resjson_put(e, "target", resjson_real(b->target));
        bad |= resjson_put(e, "now", resjson_real(b->now));
        if (bad || json_array_append_new(arr, e) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

/* The object of one kind of aging: the members both kinds share, then replay's trace and
 * repetitions or the profile engine's operations. */
static json_t *aging_json(const struct age_replay_result *a, bool replay)
{
    json_t *j = json_object();
    int bad = !j;
    if (replay)
        bad |= RESJSON_PUT_STR(j, "trace", a->trace);
    bad |= resjson_put(j, "profile", a->profile[0] ? resjson_str(a->profile, sizeof a->profile)
                                                    : json_null());
    if (replay) {
        bad |= resjson_put(j, "repetitions", json_integer((json_int_t)a->nreps));
        bad |= resjson_put(j, "first", json_integer(a->first));
        bad |= resjson_put(j, "last", json_integer(a->last));
    } else {
        bad |= resjson_put(j, "ops", resjson_u64(a->ops));
    }
    bad |= resjson_put(j, "bytes_written", resjson_u64(a->bytes_written));
    bad |= resjson_put(j, "fs_bytes", resjson_real(a->fs_bytes));
    bad |= resjson_put(j, "fullness", resjson_real(a->fullness));
    bad |= RESJSON_PUT_STR(j, "stop", a->stop);
    bad |= resjson_put(j, "free_before", free_json(&a->free_before));
    bad |= resjson_put(j, "free_after", free_json(&a->free_after));
    bad |= resjson_put(j, "files", resjson_u64(a->files));
    bad |= resjson_put(j, "distance", maybe(a->distance));
    if (a->distance >= 0) {
        json_t *d = json_object();
        for (unsigned k = 0; d && k < 3; k++)
            bad |= resjson_put(d, dim_names[k], resjson_real(a->dim_distance[k]));
        bad |= resjson_put(j, "distance_by", d);
    } else {
        bad |= resjson_put(j, "distance_by", json_null());
    }
    if (replay)
        bad |= resjson_put(j, "per_repetition", reps_json(a));
    bad |= resjson_put(j, "buckets", buckets_json(a));
    return resjson_done(j, bad);
}

int resjson_put_phase_aging(json_t *o, const struct phase_result *pr)
{
    int bad = 0;
    if (pr->age_replay)
        bad |= resjson_put(o, "age_replay", aging_json(pr->age_replay, true));
    if (pr->age_profile)
        bad |= resjson_put(o, "age_profile", aging_json(pr->age_profile, false));
    return bad;
}

/* ---- reading ---- */

static int read_free(const struct resjson_rctx *c, const json_t *o, const char *key,
                     struct age_free_figures *f)
{
    const json_t *fo;
    if (resjson_get_object(c, o, key, &fo) < 0)
        return -1;
    memset(f, 0, sizeof *f);
    if (!fo)
        return 0;
    char path[RESJSON_PATH_MAX];
    resjson_child_path(path, sizeof path, c, key);
    struct resjson_rctx sub = {c->file, path};
    if (json_object_get(fo, "unknown"))
        return RESJSON_GET_STR(&sub, fo, "unknown", f->why);
    f->known = true;
    if (RESJSON_GET_STR(&sub, fo, "source", f->source) < 0 ||
        resjson_get_u64(&sub, fo, "extents", &f->extents) < 0 ||
        resjson_get_u64(&sub, fo, "bytes", &f->bytes) < 0 ||
        resjson_get_u64(&sub, fo, "largest", &f->largest) < 0 ||
        resjson_get_nonneg(&sub, fo, "small_share", &f->small_share, 1) < 0)
        return -1;
    return 0;
}

/* A distance or share: null (or absent) is -1, else from 0 to 1. */
static int get_share(const struct resjson_rctx *c, const json_t *o, const char *key, double *out)
{
    *out = -1;
    double v = NAN;
    if (resjson_get_nonneg(c, o, key, &v, 1) < 0)
        return -1;
    if (isfinite(v))
        *out = v;
    return 0;
}

static int read_rep(const struct resjson_rctx *sub, const json_t *e, void *elem)
{
    struct age_rep_figure *r = elem;
    if (resjson_get_u64(sub, e, "bytes_written", &r->bytes_written) < 0)
        return -1;
    return get_share(sub, e, "distance", &r->distance);
}

static int read_bucket(const struct resjson_rctx *sub, const json_t *e, void *elem)
{
    struct age_bucket_figure *b = elem;
    char dim[16] = "";
    if (RESJSON_GET_STR(sub, e, "dimension", dim) < 0 ||
        resjson_get_u64(sub, e, "from", &b->from) < 0 || get_share(sub, e, "target", &b->target) < 0 ||
        get_share(sub, e, "now", &b->now) < 0)
        return -1;
    for (b->dim = 0; b->dim < 3 && strcmp(dim, dim_names[b->dim]); b->dim++)
        ;
    if (b->dim == 3)
        return resjson_fail(sub, "dimension", "expected \"sizes\", \"ages\" or \"depths\"");
    if (b->now < 0)
        b->now = 0;
    return 0;
}

/* Fills a from j (the "age_replay" object, or with !replay the "age_profile" one). 0, or -1
 * after error(). */
static int read_aging(const struct resjson_rctx *c, const json_t *j, struct age_replay_result *a,
                      bool replay)
{
    const json_t *pv = json_object_get(j, "profile");
    if ((replay && (RESJSON_GET_STR(c, j, "trace", a->trace) < 0 ||
                    resjson_get_uint(c, j, "first", &a->first) < 0 ||
                    resjson_get_uint(c, j, "last", &a->last) < 0)) ||
        (!replay && resjson_get_u64(c, j, "ops", &a->ops) < 0) ||
        (pv && !json_is_null(pv) && RESJSON_GET_STR(c, j, "profile", a->profile) < 0) ||
        resjson_get_u64(c, j, "bytes_written", &a->bytes_written) < 0 ||
        resjson_get_nonneg(c, j, "fs_bytes", &a->fs_bytes, 1e18) < 0 ||
        resjson_get_nonneg(c, j, "fullness", &a->fullness, 1) < 0 ||
        RESJSON_GET_STR(c, j, "stop", a->stop) < 0 ||
        read_free(c, j, "free_before", &a->free_before) < 0 ||
        read_free(c, j, "free_after", &a->free_after) < 0 ||
        resjson_get_u64(c, j, "files", &a->files) < 0 ||
        get_share(c, j, "distance", &a->distance) < 0)
        return -1;
    for (unsigned k = 0; k < 3; k++)
        a->dim_distance[k] = -1;
    const json_t *d = NULL;
    if (!json_is_null(json_object_get(j, "distance_by")) &&
        resjson_get_object(c, j, "distance_by", &d) < 0)
        return -1;
    if (d) {
        char path[RESJSON_PATH_MAX];
        resjson_child_path(path, sizeof path, c, "distance_by");
        struct resjson_rctx sub = {c->file, path};
        for (unsigned k = 0; k < 3; k++)
            if (get_share(&sub, d, dim_names[k], &a->dim_distance[k]) < 0)
                return -1;
    }
    void *v = NULL;
    size_t n = 0;
    int rc = resjson_read_objects(c, j, "buckets", sizeof *a->buckets, &v, &n, read_bucket);
    if (rc == 0 && n > AGE_BUCKET_FIGURES)
        rc = resjson_fail(c, "buckets", "more than %d buckets", AGE_BUCKET_FIGURES);
    if (rc == 0 && n)
        memcpy(a->buckets, v, n * sizeof *a->buckets);
    a->nbuckets = rc == 0 ? n : 0;
    free(v);
    if (rc < 0 || !replay)
        return rc;
    rc = resjson_read_objects(c, j, "per_repetition", sizeof *a->reps, &v, &a->nreps, read_rep);
    a->reps = v;
    return rc;
}

/* Reads o's member key (one kind of aging) into *out when o has it. 0, or -1 after error(). */
static int read_kind(const struct resjson_rctx *c, const json_t *o, const char *key,
                     struct age_replay_result **out, bool replay)
{
    const json_t *j;
    if (resjson_get_object(c, o, key, &j) < 0)
        return -1;
    if (!j)
        return 0;
    struct age_replay_result *a = calloc(1, sizeof *a);
    if (!a)
        return error("out of memory");
    *out = a; /* freed with the phase, also when the reading fails */
    char path[RESJSON_PATH_MAX];
    resjson_child_path(path, sizeof path, c, key);
    struct resjson_rctx sub = {c->file, path};
    return read_aging(&sub, j, a, replay);
}

int resjson_read_phase_aging(const struct resjson_rctx *c, const json_t *o,
                             struct phase_result *pr)
{
    if (read_kind(c, o, "age_replay", &pr->age_replay, true) < 0)
        return -1;
    return read_kind(c, o, "age_profile", &pr->age_profile, false);
}
