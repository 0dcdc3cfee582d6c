/* resjson_stop.c — the JSON of a set's stopping rule: the run set's "stopping" object
 * (rule, method, metric, confidence, min_effect, mixture_var, max_rounds, negligible_s:
 * optional, 0 when absent), present only
 * for a set that stopped by looking at its results (--runs until-verdict, --runs auto),
 * so every other set
 * reads and writes exactly as before. The store keeps the same object in the target's
 * JSON, as it keeps "ranks". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "results/resjson.h"
#include "results/resjson_internal.h"

json_t *resjson_from_stop(const struct stop_rule *st)
{
    json_t *o = json_object();
    if (!o)
        return resjson_done(o, 1);
    int bad = 0;
    bad |= RESJSON_PUT_STR(o, "rule", st->rule);
    bad |= RESJSON_PUT_STR(o, "method", st->method);
    bad |= RESJSON_PUT_STR(o, "metric", st->metric);
    bad |= resjson_put(o, "confidence", resjson_real(st->confidence));
    bad |= resjson_put(o, "min_effect", resjson_real(st->min_effect));
    bad |= resjson_put(o, "mixture_var", resjson_real(st->mixture_var));
    bad |= resjson_put(o, "negligible_s", resjson_real(st->negligible_s));
    bad |= resjson_put(o, "max_rounds", json_integer(st->max_rounds));
    return resjson_done(o, bad);
}

int resjson_read_stop(const struct resjson_rctx *c, const json_t *o, struct stop_rule *st)
{
    if (RESJSON_GET_NAME(c, o, "rule", st->rule) < 0 ||
        RESJSON_GET_NAME(c, o, "method", st->method) < 0 ||
        RESJSON_GET_NAME(c, o, "metric", st->metric) < 0 ||
        resjson_get_double(c, o, "confidence", &st->confidence) < 0 ||
        resjson_get_double(c, o, "min_effect", &st->min_effect) < 0 ||
        resjson_get_double(c, o, "mixture_var", &st->mixture_var) < 0 ||
        resjson_get_uint(c, o, "max_rounds", &st->max_rounds) < 0)
        return -1;
    /* optional: a set made before the floor has none (0) */
    st->negligible_s = 0;
    if (json_object_get(o, "negligible_s") &&
        resjson_get_double(c, o, "negligible_s", &st->negligible_s) < 0)
        return -1;
    if (!(st->negligible_s >= 0 && st->negligible_s <= 3600))
        return resjson_fail(c, "negligible_s", "expected a number of seconds from 0 to 3600");
    /* data from elsewhere: numbers a design can have, or it is no design */
    if (strcmp(st->rule, "until-verdict") && strcmp(st->rule, "auto"))
        return resjson_fail(c, "rule", "expected \"until-verdict\" or \"auto\"");
    if (strcmp(st->method, "mixture-sprt"))
        return resjson_fail(c, "method", "expected \"mixture-sprt\"");
    if (!(st->confidence >= 0.5 && st->confidence < 1))
        return resjson_fail(c, "confidence", "expected a number from 0.5 to below 1");
    if (!(st->min_effect >= 0 && st->min_effect < 1))
        return resjson_fail(c, "min_effect", "expected a number from 0 to below 1");
    if (!(st->mixture_var > 0 && st->mixture_var <= 1e6))
        return resjson_fail(c, "mixture_var", "expected a positive number");
    return 0;
}

int resjson_to_stop(const json_t *j, struct stop_rule *st, const char *where)
{
    struct resjson_rctx c = {NULL, where ? where : ""};
    if (!json_is_object(j))
        return error("%s: expected an object", *c.where ? c.where : "stopping");
    return resjson_read_stop(&c, j, st);
}
