/* runner_stop.c — when a set that looks at its results after every round has seen enough:
 * --runs auto (every phase's median, or its ratio to the first configuration, precise
 * enough) and --runs until-verdict (every comparison settled). It reads the set's runs and
 * never runs anything; runner.c asks it after each round (or each run of a batch).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/runner_internal.h"
#include "stats/seqstop.h"
#include "stats/stats.h"

/* Wall time of phase slot p of run r if it counts (not warm-up, status ok), else -1. */
static double counted_wall(const struct run_result *r, const char *cfg, size_t p)
{
    if (r->warmup || strcmp(r->config, cfg) || p >= r->nphases ||
        r->phases[p].status != PHASE_OK || r->phases[p].wall_s <= 0)
        return -1;
    return r->phases[p].wall_s;
}

double runner_half_width(const struct run_set *rs, const char *base, const char *cfg,
                         size_t phase, double confidence)
{
    double *d = calloc(rs->nruns ? rs->nruns : 1, sizeof *d);
    size_t n = 0;
    if (!d)
        return -1;
    for (size_t i = 0; i < rs->nruns; i++) {
        double x = counted_wall(&rs->runs[i], cfg, phase);
        if (x < 0)
            continue;
        if (!base) {
            d[n++] = log(x);
            continue;
        }
        /* the base configuration's run of the same round */
        for (size_t j = 0; j < rs->nruns; j++) {
            double y = counted_wall(&rs->runs[j], base, phase);
            if (y > 0 && rs->runs[j].round == rs->runs[i].round) {
                d[n++] = log(x / y);
                break;
            }
        }
    }
    double hw = -1;
    if (n >= 2) {
        double mean = 0, ss = 0;
        for (size_t i = 0; i < n; i++)
            mean += d[i];
        mean /= (double)n;
        for (size_t i = 0; i < n; i++)
            ss += (d[i] - mean) * (d[i] - mean);
        double sd = sqrt(ss / (double)(n - 1));
        hw = expm1(stats_t_crit(confidence, (double)(n - 1)) * sd / sqrt((double)n));
    }
    free(d);
    return hw;
}

/* The configurations' answer, or on several ranks rank 0's (it holds the aggregate
 * figures), which is then every rank's. */
static bool decided(const struct runner_opts *o, bool ok)
{
    const struct phase_hooks *hk = o->hooks;
    return hk && hk->decide ? hk->decide(hk->arg, ok) : ok;
}

static bool precise_local(const struct runner_opts *o, const struct run_set *rs,
                          const bool *failed, const bool *failed_before, struct runner_auto *ra)
{
    size_t n = o->nconfigs ? o->nconfigs : 1;
    bool all = true;
    ra->half_width = 0;
    ra->limiting[0] = '\0';
    for (size_t c = 0; c < n; c++) {
        const char *cfg = o->nconfigs ? o->configs[c].name : "";
        /* one configuration: its own median; several: each one's ratio to the first */
        if ((n > 1 && c == 0) || (c < RUNNER_MAX_CONFIGS && (failed[c] || failed_before[c])))
            continue;
        const char *base = n > 1 ? o->configs[0].name : NULL;
        for (size_t p = 0; p < o->nphases; p++) {
            double hw = runner_half_width(rs, base, cfg, p, o->confidence);
            /* fewer than 3 counted values cannot be judged yet */
            size_t counted = 0;
            for (size_t i = 0; i < rs->nruns; i++)
                counted += counted_wall(&rs->runs[i], cfg, p) > 0;
            bool ok = counted >= 3 && hw >= 0 && hw <= o->precision;
            if (!ok)
                all = false;
            if (hw < 0 || hw > ra->half_width || (!ok && ra->limiting[0] == '\0')) {
                ra->half_width = hw < 0 ? INFINITY : hw;
                snprintf(ra->limiting, sizeof ra->limiting, "%s%s%s", o->phases[p]->name,
                         cfg[0] ? " of " : "", cfg);
            }
        }
    }
    ra->precise = all;
    return all;
}

bool runner_precise_enough(const struct runner_opts *o, const struct run_set *rs,
                           const bool *failed, const bool *failed_before, struct runner_auto *ra)
{
    return decided(o, precise_local(o, rs, failed, failed_before, ra));
}

bool runner_config_precise(const struct runner_opts *o, const struct run_set *rs,
                           const char *cfg)
{
    bool ok = true;
    for (size_t p = 0; p < o->nphases && ok; p++) {
        double hw = runner_half_width(rs, NULL, cfg, p, o->confidence);
        ok = hw >= 0 && hw <= o->precision;
    }
    return decided(o, ok);
}

bool runner_verdicts_reached(const struct runner_opts *o, const struct run_set *rs)
{
    struct seqstop_status st;
    bool ok = seqstop_check(rs, &st) == 0 && st.settled;
    return decided(o, ok);
}
