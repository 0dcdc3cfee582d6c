/* history.c — per phase, each label's median and interval, and the change points of the
 * series found over the labels that measured it (see history.h). */
#include "stats/history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "stats/detectable.h"
#include "stats/median_ci.h"

static int build_phase(const struct series *sr, size_t p, const struct cp_options *o,
                       struct hist_phase *hp)
{
    snprintf(hp->name, sizeof hp->name, "%s", sr->phases[p]);
    hp->rows = calloc(sr->nlabels ? sr->nlabels : 1, sizeof *hp->rows);
    struct cp_label *lab = calloc(sr->nlabels ? sr->nlabels : 1, sizeof *lab);
    size_t *used = calloc(sr->nlabels ? sr->nlabels : 1, sizeof *used);
    int rc = hp->rows && lab && used ? 0 : error("out of memory");
    size_t nu = 0;
    for (size_t i = 0; rc == 0 && i < sr->nlabels; i++) {
        struct hist_row *r = &hp->rows[i];
        const struct series_label *L = &sr->labels[i];
        r->n = L->nvals[p];
        r->median = r->lo = r->hi = NAN;
        if (!r->n)
            continue;
        struct stats_median_ci ci;
        if (stats_median_ci(L->vals[p], r->n, o->confidence, &ci) < 0) {
            rc = error("out of memory");
            break;
        }
        r->median = ci.median, r->lo = ci.lo, r->hi = ci.hi, r->reached = ci.reached;
        lab[nu] = (struct cp_label){L->vals[p], r->n};
        used[nu++] = i;
    }
    hp->nused = nu;
    struct cp_result cr;
    if (rc == 0 && cp_detect(lab, nu, o, &cr) < 0)
        rc = error("out of memory");
    if (rc == 0) {
        hp->p_first = cr.p_first;
        hp->tau2 = cr.tau2, hp->within2 = cr.within2;
        hp->detectable = NAN;
        if (cr.nchanges == 0 && isfinite(cr.p_first))
            hp->detectable = detectable_step(nu, o->min_seg, o->alpha,
                                             cr.tau2 + (isfinite(cr.within2) ? cr.within2 : 0),
                                             HIST_POWER);
        hp->changes = calloc(cr.nchanges ? cr.nchanges : 1, sizeof *hp->changes);
        if (!hp->changes)
            rc = error("out of memory");
        const struct cmp_metric_info *mi = cmp_metric_get(sr->metric);
        for (size_t c = 0; rc == 0 && c < cr.nchanges; c++) {
            const struct cp_change *cc = &cr.changes[c];
            struct hist_change *h = &hp->changes[hp->nchanges++];
            h->first = used[cc->at];
            h->last = used[cc->at - 1];
            h->p = cc->p;
            h->before = cc->before, h->after = cc->after;
            h->ratio = cc->ratio, h->lo = cc->lo, h->hi = cc->hi;
            h->worse = mi->sense == STATS_LOWER_BETTER ? cc->ratio > 1 : cc->ratio < 1;
            hp->rows[h->first].change = true;
        }
        cp_result_free(&cr);
    }
    free(lab);
    free(used);
    return rc;
}

int hist_build(const struct series *sr, const struct cp_options *o, const char *phase,
               struct hist_result *out)
{
    memset(out, 0, sizeof *out);
    struct cp_options def;
    if (!o) {
        cp_options_default(&def);
        o = &def;
    }
    out->confidence = o->confidence;
    out->alpha = o->alpha;
    out->min_seg = o->min_seg < 2 ? 2 : o->min_seg;
    out->phases = calloc(sr->nphases ? sr->nphases : 1, sizeof *out->phases);
    if (!out->phases)
        return error("out of memory");
    bool found = !phase;
    for (size_t p = 0; p < sr->nphases; p++) {
        if (phase && strcmp(phase, sr->phases[p]))
            continue;
        found = true;
        if (build_phase(sr, p, o, &out->phases[out->nphases++]) < 0)
            return -1;
    }
    return found ? 0 : 1;
}

void hist_free(struct hist_result *h)
{
    for (size_t p = 0; p < h->nphases; p++) {
        free(h->phases[p].rows);
        free(h->phases[p].changes);
    }
    free(h->phases);
    memset(h, 0, sizeof *h);
}
