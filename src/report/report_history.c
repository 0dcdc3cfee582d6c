/* report_history.c — `fsbench history` printed (see report_history.h). The table and the
 * trend fit 80 columns: labels are cut to 24 characters in the table (the summary names them
 * whole, one change point a line, so that a script can grep it), and the trend line folds
 * many labels into at most 64 columns, one character a column, its height the column's
 * median on a scale from the lowest to the highest. */
#include "report/report_history.h"

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "base/err.h"
#include "base/text.h"
#include "results/meta.h"

#define LABEL_COLS 24
#define TREND_COLS 64

static void pct_range(char *buf, size_t len, double lo, double hi)
{
    double a = (lo - 1) * 100, b = (hi - 1) * 100;
    if (a >= 0 && b >= 0)
        snprintf(buf, len, "%.1f-%.1f %%", a, b);
    else
        snprintf(buf, len, "%.1f to %.1f %%", a, b);
}

static void p_text(char *buf, size_t len, double p)
{
    if (p < 0.001)
        snprintf(buf, len, "p < 0.001");
    else
        snprintf(buf, len, "p = %.3f", p);
}

void hist_change_sentence(char *buf, size_t len, const struct series *sr,
                          const struct hist_result *h, const struct hist_phase *hp,
                          const struct hist_change *c)
{
    char range[64], p[32];
    pct_range(range, sizeof range, c->lo, c->hi);
    p_text(p, sizeof p, c->p);
    snprintf(buf, len, "%s: %+.1f %% (%.0f %% CI %s) from %s on (first %s), %s; last %s %s",
             hp->name, (c->ratio - 1) * 100, h->confidence * 100, range,
             text_shown(sr->labels[c->first].label), c->worse ? "bad" : "better", p,
             c->worse ? "good" : "before", text_shown(sr->labels[c->last].label));
}

static const char *unit_of(const struct series *sr)
{
    return cmp_metric_get(sr->metric)->unit;
}

/* The trend line: at most TREND_COLS columns, each the mean of its labels' medians. */
static void trend(FILE *out, const struct series *sr, const struct hist_phase *hp)
{
    static const char levels[] = "_.-=+*#";
    size_t n = sr->nlabels, cols = n < TREND_COLS ? n : TREND_COLS;
    double v[TREND_COLS], lo = INFINITY, hi = -INFINITY;
    bool mark[TREND_COLS] = {false};
    for (size_t c = 0; c < cols; c++) {
        size_t a = c * n / cols, b = (c + 1) * n / cols;
        double sum = 0;
        size_t k = 0;
        for (size_t i = a; i < b; i++) {
            if (hp->rows[i].n)
                sum += hp->rows[i].median, k++;
            mark[c] |= hp->rows[i].change;
        }
        v[c] = k ? sum / (double)k : NAN;
        if (k)
            lo = fmin(lo, v[c]), hi = fmax(hi, v[c]);
    }
    char line[TREND_COLS + 1], marks[TREND_COLS + 1];
    bool any = false;
    for (size_t c = 0; c < cols; c++) {
        int lv = !isfinite(v[c]) ? -1
                 : hi > lo       ? (int)floor((v[c] - lo) / (hi - lo) * 6.999)
                                 : 3;
        line[c] = lv < 0 ? ' ' : levels[lv];
        marks[c] = mark[c] ? '^' : ' ';
        any |= mark[c];
    }
    line[cols] = marks[cols] = '\0';
    fprintf(out, "  trend  %s  %.4g..%.4g %s\n", line, lo, hi, unit_of(sr));
    if (any) {
        size_t end = cols;
        while (end && marks[end - 1] == ' ')
            marks[--end] = '\0';
        fprintf(out, "         %s  <- change point\n", marks);
    }
}

void hist_report_text(FILE *out, const struct series *sr, const struct hist_result *h,
                      const char *order)
{
    const struct cmp_metric_info *mi = cmp_metric_get(sr->metric);
    fprintf(out, "history of %zu label%s by %s: %s (%s), each label's median and %.0f %% "
                 "interval\n",
            sr->nlabels, sr->nlabels == 1 ? "" : "s", order, mi->name, mi->unit,
            h->confidence * 100);
    for (size_t p = 0; p < h->nphases; p++) {
        const struct hist_phase *hp = &h->phases[p];
        fprintf(out, "\n%s\n", hp->name);
        fprintf(out, "    %-*s %10s  %-23s %4s\n", LABEL_COLS, "label", "median",
                "interval", "runs");
        for (size_t i = 0; i < sr->nlabels; i++) {
            const struct hist_row *r = &hp->rows[i];
            char name[LABEL_COLS + 8], med[32], iv[64] = "-", chg[32] = "";
            snprintf(name, sizeof name, "%s", text_shown(sr->labels[i].label));
            if (strlen(name) > LABEL_COLS)
                snprintf(name + LABEL_COLS - 3, 4, "...");
            if (r->n) {
                snprintf(med, sizeof med, "%.4g", r->median);
                snprintf(iv, sizeof iv, "%.4g-%.4g%s", r->lo, r->hi, r->reached ? "" : " ~");
            } else {
                snprintf(med, sizeof med, "-");
            }
            for (size_t c = 0; c < hp->nchanges; c++)
                if (hp->changes[c].first == i)
                    snprintf(chg, sizeof chg, "%+.1f %%", (hp->changes[c].ratio - 1) * 100);
            fprintf(out, "  %c %-*s %10s  %-23s %4zu%s%s\n", r->change ? '*' : ' ', LABEL_COLS,
                    name, med, iv, r->n, *chg ? "  " : "", chg);
        }
        trend(out, sr, hp);
    }
    fprintf(out, "\nchange points (*; %.0f %% false alarms a series and phase, >= %zu labels a "
                 "level):\n",
            h->alpha * 100, h->min_seg);
    for (size_t p = 0; p < h->nphases; p++) {
        const struct hist_phase *hp = &h->phases[p];
        char line[1024], pt[32];
        for (size_t c = 0; c < hp->nchanges; c++) {
            hist_change_sentence(line, sizeof line, sr, h, hp, &hp->changes[c]);
            fprintf(out, "  %s\n", line);
        }
        if (hp->nchanges)
            continue;
        if (isfinite(hp->p_first)) {
            p_text(pt, sizeof pt, hp->p_first);
            fprintf(out, "  %s: none (%s over %zu labels)\n", hp->name, pt, hp->nused);
            if (isfinite(hp->detectable))
                fprintf(out, "    at this noise a step of %.0f %% mid-series is found %.0f times "
                             "in 10\n",
                        (hp->detectable - 1) * 100, HIST_POWER * 10);
        } else {
            fprintf(out, "  %s: none looked for (%zu labels with values; %zu needed)\n",
                    hp->name, hp->nused, 2 * h->min_seg);
        }
    }
    bool few = false;
    for (size_t p = 0; p < h->nphases; p++)
        for (size_t i = 0; i < sr->nlabels; i++)
            few |= h->phases[p].rows[i].n && !h->phases[p].rows[i].reached;
    if (few)
        fprintf(out, "~ the interval is the runs' range: too few runs for %.0f %%\n",
                h->confidence * 100);
}

static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *hist_json(const struct series *sr, const struct hist_result *h, const char *order)
{
    json_t *o = json_object(), *labels = json_array(), *phases = json_array();
    int bad = !o || !labels || !phases;
    for (size_t i = 0; !bad && i < sr->nlabels; i++) {
        const struct series_label *L = &sr->labels[i];
        json_t *l = json_pack("{s:s, s:f}", "label", L->label, "created", L->created);
        if (l && L->key[0])
            bad |= json_object_set_new(l, "key", json_string(L->key)) != 0;
        for (unsigned m = 0; l && !bad && m < L->nmeta; m++) { /* its --meta notes */
            json_t *mo = json_object_get(l, "meta");
            if (!mo) {
                mo = json_object();
                bad |= !mo || json_object_set_new(l, "meta", mo) != 0;
            }
            bad |= bad || json_object_set_new(mo, L->meta[m].key,
                                              json_string(L->meta[m].value)) != 0;
        }
        bad |= !l || json_array_append_new(labels, l) != 0;
    }
    for (size_t p = 0; !bad && p < h->nphases; p++) {
        const struct hist_phase *hp = &h->phases[p];
        json_t *rows = json_array(), *cps = json_array();
        bad |= !rows || !cps;
        for (size_t i = 0; !bad && i < sr->nlabels; i++) {
            const struct hist_row *r = &hp->rows[i];
            json_t *row = json_pack("{s:s, s:I, s:o, s:o, s:o, s:b, s:b}", "label",
                                    sr->labels[i].label, "runs", (json_int_t)r->n, "median",
                                    real_or_null(r->median), "lo", real_or_null(r->lo), "hi",
                                    real_or_null(r->hi), "interval_reached", r->reached,
                                    "change", r->change);
            bad |= !row || json_array_append_new(rows, row) != 0;
        }
        for (size_t c = 0; !bad && c < hp->nchanges; c++) {
            const struct hist_change *ch = &hp->changes[c];
            char line[1024];
            hist_change_sentence(line, sizeof line, sr, h, hp, ch);
            json_t *cp = json_pack(
                "{s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:s}", "first",
                sr->labels[ch->first].label, "last_before", sr->labels[ch->last].label,
                "ratio", ch->ratio, "percent", (ch->ratio - 1) * 100, "lo", ch->lo, "hi", ch->hi,
                "p", ch->p, "before", ch->before, "after", ch->after, "slowdown", ch->worse,
                "text", line);
            bad |= !cp || json_array_append_new(cps, cp) != 0;
        }
        json_t *ph = json_pack("{s:s, s:o, s:o, s:o, s:f, s:o}", "phase", hp->name, "labels",
                               rows, "change_points", cps, "p_first", real_or_null(hp->p_first),
                               "between_label_var", hp->tau2, "detectable_pct",
                               real_or_null((hp->detectable - 1) * 100));
        bad |= !ph || json_array_append_new(phases, ph) != 0;
    }
    const struct cmp_metric_info *mi = cmp_metric_get(sr->metric);
    if (!bad) {
        bad |= json_object_set_new(o, "metric", json_string(mi->name)) != 0;
        bad |= json_object_set_new(o, "unit", json_string(mi->unit)) != 0;
        bad |= json_object_set_new(o, "order", json_string(order)) != 0;
        bad |= json_object_set_new(o, "confidence", json_real(h->confidence)) != 0;
        bad |= json_object_set_new(o, "alpha", json_real(h->alpha)) != 0;
        bad |= json_object_set_new(o, "min_segment", json_integer((json_int_t)h->min_seg)) != 0;
        bad |= json_object_set_new(o, "method",
                                   json_string("circular binary segmentation on label centres, "
                                               "permutation test, random-effects weights")) != 0;
        bad |= json_object_set(o, "series", labels) != 0;
        bad |= json_object_set(o, "phases", phases) != 0;
    }
    json_decref(labels);
    json_decref(phases);
    if (bad) {
        json_decref(o);
        error("history: cannot build the JSON (out of memory)");
        return NULL;
    }
    return o;
}

int hist_report_json(FILE *out, const struct series *sr, const struct hist_result *h,
                     const char *order)
{
    json_t *o = hist_json(sr, h, order);
    if (!o)
        return -1;
    int rc = json_dumpf(o, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(o);
    if (rc < 0)
        return error("history: cannot write the JSON");
    fputc('\n', out);
    return 0;
}

/* The --meta keys of the series' labels, each once, in the order first met: the CSV's
 * meta.KEY columns. *n of them; NULL when none (or out of memory: the columns are left out). */
static const char **meta_keys(const struct series *sr, size_t *n)
{
    size_t cap = 0;
    for (size_t i = 0; i < sr->nlabels; i++)
        cap += sr->labels[i].nmeta;
    *n = 0;
    const char **k = cap ? malloc(cap * sizeof *k) : NULL;
    for (size_t i = 0; k && i < sr->nlabels; i++)
        for (unsigned m = 0; m < sr->labels[i].nmeta; m++) {
            const char *key = sr->labels[i].meta[m].key;
            size_t j = 0;
            while (j < *n && strcmp(k[j], key))
                j++;
            if (j == *n)
                k[(*n)++] = key;
        }
    return k;
}

void hist_report_csv(FILE *out, const struct series *sr, const struct hist_result *h)
{
    size_t nkeys;
    const char **keys = meta_keys(sr, &nkeys);
    fprintf(out, "phase,label,runs,median,lo,hi,change,change_pct,change_lo_pct,change_hi_pct,"
                 "p");
    for (size_t j = 0; j < nkeys; j++) /* keys are letters, digits, '.', '_', '-' */
        fprintf(out, ",meta.%s", keys[j]);
    fputc('\n', out);
    for (size_t p = 0; p < h->nphases; p++) {
        const struct hist_phase *hp = &h->phases[p];
        for (size_t i = 0; i < sr->nlabels; i++) {
            const struct hist_row *r = &hp->rows[i];
            csv_put_field(out, hp->name);
            fputc(',', out);
            csv_put_field(out, sr->labels[i].label);
            if (r->n)
                fprintf(out, ",%zu,%.9g,%.9g,%.9g", r->n, r->median, r->lo, r->hi);
            else
                fprintf(out, ",0,,,");
            const struct hist_change *ch = NULL;
            for (size_t c = 0; c < hp->nchanges; c++)
                if (hp->changes[c].first == i)
                    ch = &hp->changes[c];
            if (ch)
                fprintf(out, ",1,%.4f,%.4f,%.4f,%.4g", (ch->ratio - 1) * 100,
                        (ch->lo - 1) * 100, (ch->hi - 1) * 100, ch->p);
            else
                fprintf(out, ",0,,,,");
            const struct series_label *L = &sr->labels[i];
            for (size_t j = 0; j < nkeys; j++) {
                fputc(',', out);
                const char *v = meta_find(L->meta, L->nmeta, keys[j]);
                if (v)
                    csv_put_field(out, v);
            }
            fputc('\n', out);
        }
    }
    free(keys);
}
