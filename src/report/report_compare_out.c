/* report_compare_out.c — compare's verdicts for programs: `fsbench compare --json FILE` and
 * `--csv FILE` (see compare.h and docs/json-schema.md, "compare --json").
 *
 * One record per phase and compared group: the metric, both groups' estimates (the
 * geometric mean the verdict is about, and the median), the runs used, the interval of the
 * ratio B/A, the margins (the effect of interest and the negligible floor), the mark and the
 * verdict as a word, the rule that decided it, and the different-work reasons. Every field
 * comes from cmp_result, the mark from cmp_vs_mark(): these files say exactly what the text
 * matrix says. Computes nothing of its own and never prints to a terminal.
 *
 * Strings that may come from an import (labels, configurations, differs' values) go through
 * text_shown(), so the JSON is valid UTF-8; numbers that are not finite are null (JSON) or
 * empty (CSV). A CSV cell that a spreadsheet would take for a formula is quoted with a
 * leading single quote (CSV injection), as `fsbench export --csv` does.
 */
#include "stats/compare.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "base/err.h"
#include "base/text.h"

static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static int put(json_t *o, const char *k, json_t *v)
{
    return v ? json_object_set_new(o, k, v) != 0 : 1;
}

static int push(json_t *a, json_t *v)
{
    return v ? json_array_append_new(a, v) != 0 : 1;
}

const char *cmp_vs_word(const struct cmp_result *r, size_t phase, size_t g)
{
    const struct cmp_phase *ph = &r->phases[phase];
    const struct cmp_vs *vs = &ph->vs[g];
    if (ph->s[0].n == 0 || ph->s[g].n == 0)
        return "no-figures";
    switch (vs->status) {
    case CMP_ST_UNAVAILABLE:
        return "unavailable";
    case CMP_ST_TOO_FEW:
        return "too-few";
    case CMP_ST_NONPOSITIVE:
        return "no-ratio";
    case CMP_ST_OK:
        break;
    }
    switch (vs->withheld) {
    case CMP_WH_DIFFERENT_WORK:
        return "different-work";
    case CMP_WH_NEGLIGIBLE:
        return "negligible";
    case CMP_WH_FEW:
        return "too-few";
    case CMP_WH_NONE:
        break;
    }
    switch (vs->verdict.kind) {
    case STATS_BETTER:
        return "better";
    case STATS_WORSE:
        return "worse";
    case STATS_BELOW_EFFECT:
        return "below-effect";
    case STATS_NO_DIFFERENCE:
        break;
    }
    if (vs->ratio.method == STATS_SEQUENTIAL)
        return vs->state == SEQ_FUTILE ? "futile" : "undecided";
    return "no-difference";
}

const char *cmp_vs_rule(const struct cmp_result *r, size_t phase, size_t g)
{
    const struct cmp_phase *ph = &r->phases[phase];
    const struct cmp_vs *vs = &ph->vs[g];
    if (ph->s[0].n == 0 || ph->s[g].n == 0)
        return "no-figures";
    switch (vs->status) {
    case CMP_ST_UNAVAILABLE:
        return "unavailable";
    case CMP_ST_TOO_FEW:
        return "minimum-runs";
    case CMP_ST_NONPOSITIVE:
        return "no-ratio";
    case CMP_ST_OK:
        break;
    }
    switch (vs->withheld) {
    case CMP_WH_DIFFERENT_WORK:
        return "different-work";
    case CMP_WH_NEGLIGIBLE:
        return "negligible-floor";
    case CMP_WH_FEW:
        return "minimum-runs";
    case CMP_WH_NONE:
        break;
    }
    if (vs->ratio.method == STATS_SEQUENTIAL && vs->verdict.kind == STATS_NO_DIFFERENCE &&
        vs->state == SEQ_FUTILE)
        return "futility-interval";
    return "interval";
}

/* The test that made the ratio and its interval; NULL when there is no ratio. */
static const char *method_word(const struct cmp_vs *vs)
{
    if (vs->status != CMP_ST_OK)
        return NULL;
    switch (vs->ratio.method) {
    case STATS_SEQUENTIAL:
        return "sequential";
    case STATS_PAIRED:
        return "paired";
    case STATS_BATCH:
        return "batch";
    }
    return NULL;
}

/* The different-work items between group g and the baseline that withheld its verdicts
 * (or would have, with --allow-different-work), as "scale 0.3 vs 0.1". */
static json_t *reasons_json(const struct cmp_result *r, size_t g)
{
    json_t *a = json_array();
    const struct workdiff *d = &r->diffs[g];
    bool separate = r->groups[g].input != r->groups[0].input;
    for (size_t i = 0; a && separate && i < d->n; i++) {
        if (!d->item[i].work)
            continue;
        char s[3 * WORKDIFF_VALUE_MAX + RES_NAME_MAX + 32];
        snprintf(s, sizeof s, "%s %s vs %s", d->item[i].what, d->item[i].a, d->item[i].b);
        if (push(a, json_string(text_shown(s)))) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

/* The measured figures of one verdict, shared by the JSON and the CSV. */
struct row {
    const struct cmp_phase *ph;
    const struct cmp_vs *vs;
    bool ok;              /* a ratio */
    double ea, eb, ma, mb; /* geometric means and medians; NAN when no runs */
    size_t na, nb;
    double lo, hi, ratio, p;
    double fut_lo, fut_hi;
};

static void fill_row(const struct cmp_result *r, size_t phase, size_t g, struct row *w)
{
    w->ph = &r->phases[phase];
    w->vs = &w->ph->vs[g];
    const struct cmp_sample *a = &w->ph->s[0], *b = &w->ph->s[g];
    w->ea = a->n ? a->sum.gmean : NAN;
    w->eb = b->n ? b->sum.gmean : NAN;
    w->ma = a->n ? a->sum.median : NAN;
    w->mb = b->n ? b->sum.median : NAN;
    w->na = a->n;
    w->nb = b->n;
    w->ok = w->vs->status == CMP_ST_OK;
    w->ratio = w->ok ? w->vs->ratio.ratio : NAN;
    w->lo = w->ok ? w->vs->ratio.lo : NAN;
    w->hi = w->ok ? w->vs->ratio.hi : NAN;
    w->p = w->ok ? w->vs->ratio.p : NAN;
    bool seq = w->ok && w->vs->ratio.method == STATS_SEQUENTIAL;
    w->fut_lo = seq ? w->vs->ratio.fut_lo : NAN;
    w->fut_hi = seq ? w->vs->ratio.fut_hi : NAN;
}

static json_t *verdict_json(const struct cmp_result *r, size_t phase, size_t g)
{
    struct row w;
    fill_row(r, phase, g, &w);
    char letter[16], plain[2048];
    cmp_group_letter(letter, sizeof letter, g);
    cmp_plain_phase(plain, sizeof plain, r, phase, g);
    const char *method = method_word(w.vs);
    json_t *o = json_object();
    int bad = !o;
    bad |= put(o, "phase", json_string(text_shown(w.ph->name)));
    bad |= put(o, "group", json_string(letter));
    bad |= put(o, "a", json_string(text_shown(r->groups[0].name)));
    bad |= put(o, "b", json_string(text_shown(r->groups[g].name)));
    bad |= put(o, "metric", json_string(cmp_metric_get(r->opt.metric)->name));
    bad |= put(o, "a_estimate", jnum(w.ea));
    bad |= put(o, "b_estimate", jnum(w.eb));
    bad |= put(o, "a_median", jnum(w.ma));
    bad |= put(o, "b_median", jnum(w.mb));
    bad |= put(o, "a_runs", json_integer((json_int_t)w.na));
    bad |= put(o, "b_runs", json_integer((json_int_t)w.nb));
    bad |= put(o, "pairs", w.ok && w.vs->interleaved ? json_integer((json_int_t)w.vs->npairs)
                                                      : json_null());
    bad |= put(o, "ratio", jnum(w.ratio));
    bad |= put(o, "ratio_lo", jnum(w.lo));
    bad |= put(o, "ratio_hi", jnum(w.hi));
    bad |= put(o, "p", jnum(w.p));
    bad |= put(o, "futility_lo", jnum(w.fut_lo));
    bad |= put(o, "futility_hi", jnum(w.fut_hi));
    bad |= put(o, "confidence", json_real(r->opt.confidence));
    bad |= put(o, "min_effect", json_real(r->opt.min_effect));
    bad |= put(o, "negligible_s", json_real(cmp_negligible_floor(r)));
    bad |= put(o, "mark", json_string(cmp_vs_mark(w.vs)));
    bad |= put(o, "verdict", json_string(cmp_vs_word(r, phase, g)));
    bad |= put(o, "rule", json_string(cmp_vs_rule(r, phase, g)));
    bad |= put(o, "method", method ? json_string(method) : json_null());
    bad |= put(o, "min_runs", w.ok ? json_integer((json_int_t)w.vs->n_min) : json_null());
    bad |= put(o, "different_work", reasons_json(r, g));
    bad |= put(o, "plain", json_string(text_shown(plain)));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *differs_json(const struct cmp_result *r)
{
    json_t *a = json_array();
    for (size_t g = 1; a && g < r->ngroups; g++) {
        const struct workdiff *d = &r->diffs[g];
        char letter[16];
        cmp_group_letter(letter, sizeof letter, g);
        json_t *items = json_array(), *o = json_object();
        int bad = !items || !o;
        for (size_t i = 0; !bad && i < d->n; i++)
            bad |= push(items, json_pack("{s:s, s:s, s:s, s:b}", "what", text_shown(d->item[i].what),
                                         "a", text_shown(d->item[i].a), "b",
                                         text_shown(d->item[i].b), "work", d->item[i].work));
        bool separate = r->groups[g].input != r->groups[0].input;
        bad |= put(o, "group", json_string(letter));
        bad |= put(o, "separate_sets", json_boolean(separate));
        bad |= put(o, "different_work", json_boolean(d->work));
        bad |= put(o, "verdicts_withheld",
                   json_boolean(d->work && separate && !r->policy.allow_different_work));
        bad |= put(o, "items", items);
        items = NULL;
        bad |= push(a, o);
        o = NULL;
        if (bad) {
            json_decref(items);
            json_decref(o);
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

int cmp_report_json(FILE *out, const struct cmp_result *r)
{
    const struct cmp_metric_info *mi = cmp_metric_get(r->opt.metric);
    json_t *o = json_object(), *groups = json_array(), *verdicts = json_array();
    int bad = !o || !groups || !verdicts;
    for (size_t g = 0; !bad && g < r->ngroups; g++) {
        char letter[16];
        cmp_group_letter(letter, sizeof letter, g);
        const struct cmp_group *gr = &r->groups[g];
        bad |= push(groups, json_pack("{s:s, s:s, s:s?, s:b}", "letter", letter, "name",
                                      text_shown(gr->name), "config",
                                      gr->by_config ? text_shown(gr->config) : NULL, "baseline",
                                      g == 0));
    }
    for (size_t p = 0; !bad && p < r->nphases; p++)
        for (size_t g = 1; !bad && g < r->ngroups; g++)
            bad |= push(verdicts, verdict_json(r, p, g));
    bad |= put(o, "compare_version", json_integer(1));
    bad |= put(o, "metric", json_pack("{s:s, s:s, s:b}", "name", mi->name, "unit", mi->unit,
                                      "lower_better", mi->sense == STATS_LOWER_BETTER));
    bad |= put(o, "statistic", json_string("geometric mean"));
    bad |= put(o, "confidence", json_real(r->opt.confidence));
    bad |= put(o, "min_effect", json_real(r->opt.min_effect));
    bad |= put(o, "negligible_s", json_real(cmp_negligible_floor(r)));
    bad |= put(o, "allow_different_work", json_boolean(r->policy.allow_different_work));
    bad |= put(o, "groups", groups);
    groups = NULL;
    bad |= put(o, "differs", differs_json(r));
    bad |= put(o, "verdicts", verdicts);
    verdicts = NULL;
    if (!bad)
        bad = json_dumpf(o, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) != 0 || fputc('\n', out) == EOF;
    json_decref(groups);
    json_decref(verdicts);
    json_decref(o);
    if (bad)
        return error("compare: --json: the verdicts could not be written (out of memory?)");
    return 0;
}

/* ------------------------------------------------------------------ CSV */

/* A string field after its separator, quoted and guarded as every CSV of fsbench's
 * (base/csv.h), its control characters shown escaped. */
static void csv_str(FILE *f, const char *s, bool first)
{
    if (!first)
        fputc(',', f);
    csv_put_field(f, text_shown(s));
}

static void csv_num(FILE *f, double v)
{
    fputc(',', f);
    if (isfinite(v))
        fprintf(f, "%.9g", v);
}

static void csv_count(FILE *f, size_t v, bool na)
{
    fputc(',', f);
    if (!na)
        fprintf(f, "%zu", v);
}

static const char csv_header[] =
    "phase,group,a,b,metric,unit,a_estimate,b_estimate,a_median,b_median,a_runs,b_runs,pairs,"
    "ratio,ratio_lo,ratio_hi,p,futility_lo,futility_hi,confidence,min_effect,negligible_s,mark,"
    "verdict,rule,method,min_runs,different_work\n";

int cmp_report_csv(FILE *out, const struct cmp_result *r)
{
    const struct cmp_metric_info *mi = cmp_metric_get(r->opt.metric);
    fputs(csv_header, out);
    for (size_t p = 0; p < r->nphases; p++)
        for (size_t g = 1; g < r->ngroups; g++) {
            struct row w;
            fill_row(r, p, g, &w);
            char letter[16], why[WORKDIFF_MAX_ITEMS * (2 * WORKDIFF_VALUE_MAX + RES_NAME_MAX + 32)];
            cmp_group_letter(letter, sizeof letter, g);
            why[0] = '\0';
            if (r->groups[g].input != r->groups[0].input)
                workdiff_format(why, sizeof why, &r->diffs[g], true);
            const char *method = method_word(w.vs);
            csv_str(out, w.ph->name, true);
            csv_str(out, letter, false);
            csv_str(out, r->groups[0].name, false);
            csv_str(out, r->groups[g].name, false);
            csv_str(out, mi->name, false);
            csv_str(out, mi->unit, false);
            csv_num(out, w.ea);
            csv_num(out, w.eb);
            csv_num(out, w.ma);
            csv_num(out, w.mb);
            csv_count(out, w.na, false);
            csv_count(out, w.nb, false);
            csv_count(out, w.vs->npairs, !(w.ok && w.vs->interleaved));
            csv_num(out, w.ratio);
            csv_num(out, w.lo);
            csv_num(out, w.hi);
            csv_num(out, w.p);
            csv_num(out, w.fut_lo);
            csv_num(out, w.fut_hi);
            csv_num(out, r->opt.confidence);
            csv_num(out, r->opt.min_effect);
            csv_num(out, cmp_negligible_floor(r));
            csv_str(out, cmp_vs_mark(w.vs), false);
            csv_str(out, cmp_vs_word(r, p, g), false);
            csv_str(out, cmp_vs_rule(r, p, g), false);
            csv_str(out, method ? method : "", false);
            csv_count(out, w.vs->n_min, !w.ok);
            csv_str(out, why, false);
            fputc('\n', out);
        }
    return ferror(out) ? error("compare: --csv: the verdicts could not be written") : 0;
}
