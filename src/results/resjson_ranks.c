/* resjson_ranks.c — the JSON of runs made on several MPI ranks: the run set's "ranks"
 * object (count, nodes, placement, rank_shift, stonewall_s) and each phase's "ranks"
 * array of per-rank figures plus "stonewalled". Both are absent for one process, so a
 * single-process run set reads and writes exactly as before (schema_version 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "results/resjson.h"
#include "results/resjson_internal.h"

json_t *resjson_from_ranks(const struct ranks_info *ri)
{
    json_t *o = json_object();
    if (!o)
        return resjson_done(o, 1);
    int bad = 0;
    bad |= resjson_put(o, "count", json_integer(ri->count));
    bad |= resjson_put(o, "nodes", json_integer(ri->nodes));
    bad |= RESJSON_PUT_STR(o, "placement", ri->placement);
    bad |= resjson_put(o, "rank_shift", json_integer(ri->shift));
    bad |= resjson_put(o, "stonewall_s", ri->stonewall_s > 0 ? resjson_real(ri->stonewall_s)
                                                             : json_null());
    return resjson_done(o, bad);
}

int resjson_read_ranks(const struct resjson_rctx *c, const json_t *o, struct ranks_info *ri)
{
    double sw = 0;
    if (resjson_get_uint(c, o, "count", &ri->count) < 0 ||
        resjson_get_uint(c, o, "nodes", &ri->nodes) < 0 ||
        RESJSON_GET_STR(c, o, "placement", ri->placement) < 0 ||
        resjson_get_uint(c, o, "rank_shift", &ri->shift) < 0 ||
        resjson_get_seconds(c, o, "stonewall_s", &sw) < 0)
        return -1;
    ri->stonewall_s = sw > 0 ? sw : 0; /* null reads as NAN: none */
    return 0;
}

int resjson_to_ranks(const json_t *j, struct ranks_info *ri, const char *where)
{
    struct resjson_rctx c = {NULL, where ? where : ""};
    if (!json_is_object(j))
        return error("%s: expected an object", *c.where ? c.where : "ranks");
    return resjson_read_ranks(&c, j, ri);
}

static const char *const status_names[] = {"ok", "skipped", "failed"};

int resjson_put_phase_ranks(json_t *o, const struct phase_result *pr)
{
    if (!pr->nranks)
        return 0;
    int bad = 0;
    json_t *a = json_array();
    for (size_t i = 0; a && i < pr->nranks; i++) {
        const struct rank_result *r = &pr->ranks[i];
        json_t *e = json_object();
        if (!e) {
            bad = 1;
            break;
        }
        unsigned st = (unsigned)r->status;
        bad |= resjson_put(e, "rank", json_integer((json_int_t)i));
        bad |= resjson_put(e, "status", json_string(st < 3 ? status_names[st] : "failed"));
        bad |= resjson_put(e, "wall_s", resjson_real(r->wall_s));
        bad |= resjson_put(e, "ops_total", resjson_u64(r->ops_total));
        bad |= resjson_put(e, "ops_per_s",
                           resjson_real(r->wall_s > 0 ? (double)r->ops_total / r->wall_s : NAN));
        bad |= resjson_put(e, "bytes", resjson_u64(r->bytes));
        bad |= resjson_put(e, "entries", resjson_u64(r->entries));
        bad |= json_array_append_new(a, e) != 0;
    }
    bad |= resjson_put(o, "ranks", a);
    bad |= resjson_put(o, "stonewalled", json_boolean(pr->stonewalled));
    return bad;
}

/* One element of a phase's "ranks" (resjson_read_objects' callback). */
static int read_rank(const struct resjson_rctx *sub, const json_t *e, void *elem)
{
    struct rank_result *r = elem;
    char st[16] = "ok";
    if (resjson_get_seconds(sub, e, "wall_s", &r->wall_s) < 0 ||
        resjson_get_u64(sub, e, "ops_total", &r->ops_total) < 0 ||
        resjson_get_u64(sub, e, "bytes", &r->bytes) < 0 ||
        resjson_get_u64(sub, e, "entries", &r->entries) < 0 ||
        RESJSON_GET_STR(sub, e, "status", st) < 0)
        return -1;
    r->status = PHASE_FAILED;
    for (int k = 0; k < 3; k++)
        if (!strcmp(st, status_names[k]))
            r->status = (enum phase_status)k;
    return 0;
}

int resjson_read_phase_ranks(const struct resjson_rctx *c, const json_t *o,
                             struct phase_result *pr)
{
    if (resjson_get_bool(c, o, "stonewalled", &pr->stonewalled) < 0)
        return -1;
    void *v;
    int rc = resjson_read_objects(c, o, "ranks", sizeof *pr->ranks, &v, &pr->nranks, read_rank);
    pr->ranks = v;
    return rc;
}
