/* bisect.c — the candidate like good or like bad (see bisect.h). */
#include "stats/bisect.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "stats/compare.h"

int bisect_welch_log(const double *a, size_t na, const double *b, size_t nb, double conf,
                     struct stats_ratio *r)
{
    if (na < 2 || nb < 2)
        return -1;
    double ma = 0, mb = 0, va = 0, vb = 0;
    for (size_t i = 0; i < na; i++) {
        if (!(a[i] > 0))
            return -1;
        ma += log(a[i]) / (double)na;
    }
    for (size_t i = 0; i < nb; i++) {
        if (!(b[i] > 0))
            return -1;
        mb += log(b[i]) / (double)nb;
    }
    for (size_t i = 0; i < na; i++)
        va += (log(a[i]) - ma) * (log(a[i]) - ma) / (double)(na - 1);
    for (size_t i = 0; i < nb; i++)
        vb += (log(b[i]) - mb) * (log(b[i]) - mb) / (double)(nb - 1);
    memset(r, 0, sizeof *r);
    r->confidence = conf;
    r->mean_log = mb - ma;
    double qa = va / (double)na, qb = vb / (double)nb;
    r->se_log = sqrt(qa + qb);
    r->ratio = exp(r->mean_log);
    if (!(r->se_log > 0)) {
        r->lo = r->hi = r->ratio;
        r->p = r->mean_log == 0 ? 1 : 0;
        return 0;
    }
    r->df = (qa + qb) * (qa + qb) /
            (qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1) + 1e-300);
    double t = stats_t_crit(conf, r->df);
    r->lo = exp(r->mean_log - t * r->se_log);
    r->hi = exp(r->mean_log + t * r->se_log);
    r->p = stats_t_pvalue(r->mean_log / r->se_log, r->df);
    return 0;
}

static void pct_ci(char *buf, size_t len, const struct stats_ratio *r)
{
    snprintf(buf, len, "%+.1f %%, %.0f %% CI %+.1f to %+.1f %%", (r->ratio - 1) * 100,
             r->confidence * 100, (r->lo - 1) * 100, (r->hi - 1) * 100);
}

static bool includes_one(const struct stats_ratio *r)
{
    return r->lo <= 1 && r->hi >= 1;
}

int bisect_pick_phase(const struct series *sr, const char *phase, double conf, char *why,
                      size_t len)
{
    const struct series_label *g = &sr->labels[0], *b = &sr->labels[1];
    int best = -1;
    double most = 0;
    bool known = false;
    why[0] = '\0';
    for (size_t p = 0; p < sr->nphases; p++) {
        if (phase && strcmp(phase, sr->phases[p]))
            continue;
        known = true;
        struct stats_ratio gb;
        if (bisect_welch_log(g->vals[p], g->nvals[p], b->vals[p], b->nvals[p], conf, &gb) < 0 ||
            includes_one(&gb)) {
            if (phase) {
                snprintf(why, len,
                         "%s: good %s and bad %s show no difference%s: cannot tell (run more "
                         "of both ends)",
                         sr->phases[p], text_shown(g->label), text_shown(b->label),
                         g->nvals[p] < 2 || b->nvals[p] < 2 ? " (fewer than 2 runs)" : "");
                return -1;
            }
            continue;
        }
        if (fabs(gb.mean_log) > most) {
            most = fabs(gb.mean_log);
            best = (int)p;
        }
    }
    if (phase && !known) {
        snprintf(why, len, "no phase '%s' in '%s'", text_shown(phase), text_shown(g->label));
        return -2;
    }
    if (best < 0)
        snprintf(why, len,
                 "good %s and bad %s show no difference in any phase: cannot tell (run more "
                 "of both ends, or check they are good and bad)",
                 text_shown(g->label), text_shown(b->label));
    return best;
}

void bisect_judge(const struct series *sr, size_t p, double conf, struct bisect_judgement *j)
{
    const struct series_label *g = &sr->labels[0], *b = &sr->labels[1], *c = &sr->labels[2];
    const char *ph = sr->phases[p];
    const char *unit = cmp_metric_get(sr->metric)->unit;
    struct stats_ratio cg, cb;
    memset(j, 0, sizeof *j);
    j->verdict = BISECT_UNSURE;
    if (c->nvals[p] < 2) {
        j->cls = BISECT_TOO_FEW;
        snprintf(j->why, sizeof j->why,
                 "%s: %s has %zu run%s with a value: cannot tell (run more: at least 2)", ph,
                 text_shown(c->label), c->nvals[p], c->nvals[p] == 1 ? "" : "s");
        return;
    }
    if (bisect_welch_log(g->vals[p], g->nvals[p], c->vals[p], c->nvals[p], conf, &cg) < 0 ||
        bisect_welch_log(b->vals[p], b->nvals[p], c->vals[p], c->nvals[p], conf, &cb) < 0) {
        j->cls = BISECT_NO_RATIO;
        snprintf(j->why, sizeof j->why, "%s: cannot compare (a value of 0?): cannot tell", ph);
        return;
    }
    double mg = stats_median(g->vals[p], g->nvals[p]), mb = stats_median(b->vals[p], b->nvals[p]),
           mc = stats_median(c->vals[p], c->nvals[p]);
    char vg[96], vb[96];
    pct_ci(vg, sizeof vg, &cg);
    pct_ci(vb, sizeof vb, &cb);
    bool like_g = includes_one(&cg), like_b = includes_one(&cb);
    /* where the candidate lies on the good -> bad line: 0 at good, 1 at bad */
    double t = log(mc / mg) / log(mb / mg);
    const char *what;
    if (like_g && !like_b)
        j->cls = BISECT_LIKE_GOOD, what = "is like good";
    else if (like_b && !like_g)
        j->cls = BISECT_LIKE_BAD, what = "is like bad";
    else if (like_g && like_b)
        j->cls = BISECT_LIKE_BOTH, what = "cannot be told yet (like both: run more)";
    else if (t > 1)
        j->cls = BISECT_BEYOND_BAD, what = "is like bad (beyond it)";
    else if (t < 0)
        j->cls = BISECT_BEYOND_GOOD, what = "is like good (beyond it)";
    else
        j->cls = BISECT_BETWEEN, what = "lies between good and bad (a part of the change?)";
    j->verdict = j->cls == BISECT_LIKE_GOOD || j->cls == BISECT_BEYOND_GOOD ? BISECT_GOOD
                 : j->cls == BISECT_LIKE_BAD || j->cls == BISECT_BEYOND_BAD ? BISECT_BAD
                                                                             : BISECT_UNSURE;
    j->settled = j->cls != BISECT_LIKE_BOTH;
    snprintf(j->why, sizeof j->why,
             "%s: %s %s: %.4g %s against good %s %.4g %s (%s) and bad %s %.4g %s (%s)", ph,
             text_shown(c->label), what, mc, unit, text_shown(g->label), mg, unit, vg,
             text_shown(b->label), mb, unit, vb);
}
