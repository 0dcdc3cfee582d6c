/* report_compare.c — prints comparisons built by compare.c: the verdict table with its
 * warnings, and FreeBSD ministat's format (see compare.h).
 *
 * Computes nothing it does not print: every number comes from cmp_result or from
 * stats_ministat_*(). All wording of verdicts and warnings lives here.
 */
#include "stats/compare.h"

#include <math.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"

/* "95%", "99.5%" */
static void fmt_pct(char *buf, size_t len, double frac)
{
    double pct = frac * 100;
    if (fabs(pct - round(pct)) < 1e-9)
        snprintf(buf, len, "%.0f%%", pct);
    else
        snprintf(buf, len, "%g%%", pct);
}

static void fmt_p(char *buf, size_t len, double p)
{
    if (p < 0.001)
        snprintf(buf, len, "p<0.001");
    else
        snprintf(buf, len, "p=%.3f", p);
}

/* "faster"/"slower" for times and rates, "fewer"/"more" for counts. */
static const char *direction_word(const struct cmp_metric_info *mi, bool better)
{
    if (mi->kind == CMP_KIND_COUNT)
        return better ? "fewer" : "more";
    return better ? "faster" : "slower";
}

static void print_effect(FILE *out, const struct cmp_metric_info *mi, const char *b, const char *a,
                         const struct stats_verdict *v, const char *conf)
{
    if (mi->kind == CMP_KIND_COUNT)
        fprintf(out, "%s has %.2fx %s %s than %s (%s CI %.2f-%.2f)", b, v->factor,
                direction_word(mi, v->b_better), mi->name, a, conf, v->factor_lo, v->factor_hi);
    else
        fprintf(out, "%s is %.2fx %s than %s (%s CI %.2f-%.2f)", b, v->factor,
                direction_word(mi, v->b_better), a, conf, v->factor_lo, v->factor_hi);
}

/* "ratio 1.003, 95% CI 0.971-1.036", or "... CI not bounded yet" (a sequential interval
 * after too few pairs). */
static void print_ratio_ci(FILE *out, const struct stats_ratio *ra, const char *conf)
{
    if (isfinite(ra->hi))
        fprintf(out, "geometric-mean ratio %.3f, %s CI %.3f-%.3f", ra->ratio, conf, ra->lo, ra->hi);
    else
        fprintf(out, "geometric-mean ratio %.3f, %s CI not bounded yet", ra->ratio, conf);
}

/* One comparison's verdict line; `lead` goes first ("  ", or "  extract: "). */
static void print_verdict(FILE *out, const struct cmp_result *r, const struct cmp_phase *ph,
                          size_t g, const char *lead)
{
    const struct cmp_vs *vs = &ph->vs[g];
    const struct cmp_metric_info *mi = cmp_metric_get(r->opt.metric);
    const char *a = r->groups[0].name, *b = r->groups[g].name;
    char conf[16], eff[16], p[32];
    fmt_pct(conf, sizeof conf, r->opt.confidence);
    fmt_pct(eff, sizeof eff, r->opt.min_effect);

    fprintf(out, "%s%s vs %s: ", lead, b, a);
    switch (vs->status) {
    case CMP_ST_UNAVAILABLE:
        fprintf(out, "%s not available for this phase%s\n", mi->name,
                mi->kind == CMP_KIND_COUNT ? " (no block device behind the target)" : "");
        return;
    case CMP_ST_TOO_FEW:
        fprintf(out, "too few measured runs to compare (at least 2 %s needed)\n",
                vs->interleaved ? "pairs" : "runs on each side");
        return;
    case CMP_ST_NONPOSITIVE:
        fprintf(out,
                "no ratio: some runs measured 0 %s; --format ministat compares the "
                "raw values\n",
                mi->name);
        return;
    case CMP_ST_OK:
        break;
    }
    const struct stats_verdict *v = &vs->verdict;
    if (vs->withheld != CMP_WH_NONE) {
        char why[1024];
        if (vs->withheld == CMP_WH_DIFFERENT_WORK)
            workdiff_format(why, sizeof why, &r->diffs[g], true);
        if (vs->withheld == CMP_WH_DIFFERENT_WORK)
            fprintf(out, "no verdict: different work (%s; --allow-different-work to judge) (",
                    why);
        else if (vs->withheld == CMP_WH_NEGLIGIBLE)
            fprintf(out, "no verdict: negligible, both under %g ms (",
                    cmp_negligible_floor(r) * 1e3);
        else
            fprintf(out, "no verdict: %zu %s, %zu needed (",
                    vs->interleaved ? vs->npairs
                    : ph->s[g].n < ph->s[0].n ? ph->s[g].n
                                              : ph->s[0].n,
                    vs->interleaved ? "pairs" : "runs a group", vs->n_min);
        print_ratio_ci(out, &vs->ratio, conf);
        fputc(')', out);
    } else switch (v->kind) {
    case STATS_BETTER:
    case STATS_WORSE:
        print_effect(out, mi, b, a, v, conf);
        break;
    case STATS_BELOW_EFFECT:
        fprintf(out, "difference below the %s of interest (", eff);
        print_effect(out, mi, b, a, v, conf);
        fputc(')', out);
        break;
    case STATS_NO_DIFFERENCE:
        if (vs->ratio.method == STATS_SEQUENTIAL && vs->state == SEQ_FUTILE)
            fprintf(out, "no difference of %s or more (futile: effect < %s shown, CS %+.1f..%+.1f %%; ",
                    eff, eff, (vs->ratio.fut_lo - 1) * 100, (vs->ratio.fut_hi - 1) * 100);
        else if (vs->ratio.method == STATS_SEQUENTIAL)
            fprintf(out, "no verdict yet: neither a difference nor one below %s shown (", eff);
        else
            fprintf(out, "no difference shown at %s (", conf);
        print_ratio_ci(out, &vs->ratio, conf);
        fputc(')', out);
        break;
    }
    fmt_p(p, sizeof p, vs->ratio.p);
    if (vs->ratio.method == STATS_SEQUENTIAL)
        fprintf(out, ", %s, sequential: mixture SPRT over %zu pairs by round\n", p, vs->npairs);
    else if (vs->interleaved)
        fprintf(out, ", %s, paired by round (%zu pairs)\n", p, vs->npairs);
    else
        fprintf(out, ", %s, batches, not interleaved\n", p);
}

void cmp_report_method(FILE *out, const struct cmp_result *r)
{
    if (!r->sequential)
        return;
    fprintf(out, "method: sequential. The set looked at its results after every round "
                 "(--runs until-verdict) and stopped when it knew; its intervals and p-values "
                 "are the mixture SPRT's, which allow for that looking (a fixed-n interval "
                 "would be too narrow after a stop the data chose).\n");
}

void cmp_report_verdicts(FILE *out, const struct cmp_result *r)
{
    for (size_t p = 0; p < r->nphases; p++) {
        char lead[RES_NAME_MAX + 32];
        snprintf(lead, sizeof lead, "  %s: ", r->phases[p].name);
        for (size_t g = 1; g < r->ngroups; g++)
            print_verdict(out, r, &r->phases[p], g, lead);
    }
}

/* Prints one phase's warnings for a sample, briefly; *seen collects the kinds so that
 * the advice is given once at the end of the report. */
static void print_sample_warnings(FILE *out, const struct cmp_result *r, const char *name,
                                  const struct cmp_sample *s, unsigned *seen)
{
    const struct stats_warnings *w = &s->warn;
    char conf[16];
    fmt_pct(conf, sizeof conf, r->opt.confidence);
    if (s->n == 0)
        return;
    *seen |= w->flags;
    if (w->flags & STATS_W_FEW_RUNS)
        fprintf(out, "  warning: %s: only %zu measured run%s; %zu are needed for a verdict at %s\n",
                name, w->n, w->n == 1 ? "" : "s", w->n_min, conf);
    if (w->flags & STATS_W_OUTLIERS)
        fprintf(out,
                "  warning: %s: %zu of %zu runs are outliers (modified z-score above 3.5, looked "
                "for from 5 runs on)\n",
                name, w->outliers, w->n);
    if (w->flags & STATS_W_NOISY)
        fprintf(out, "  warning: %s: runs vary by %.0f%% (coefficient of variation above 10%%)\n",
                name, w->cv * 100);
    if (w->flags & STATS_W_AUTOCORR)
        fprintf(out,
                "  warning: %s: consecutive runs are correlated (lag-1 autocorrelation %.2f, "
                "above %.2f)\n",
                name, w->r1, w->r1_limit);
}

/* What to do about each kind of warning seen, once per report. */
void cmp_report_advice(FILE *out, unsigned seen)
{
    if (seen & STATS_W_FEW_RUNS)
        fputs("advice: too few runs for a verdict: use --runs 5 or more (pairs: 3 or more "
              "rounds), or --runs auto to repeat until the answer is precise.\n",
              out);
    if (seen & STATS_W_OUTLIERS)
        fputs("advice: outliers: something else ran on the machine, or a cache was warm; "
              "look at the runs with `fsbench show LABEL`, and rerun on a quiet machine.\n",
              out);
    if (seen & STATS_W_NOISY)
        fputs("advice: noisy runs: stop other work on the machine, use a dedicated device, "
              "make the tree larger than the page cache, or use --runs auto to repeat until "
              "the answer is precise.\n",
              out);
    if (seen & STATS_W_AUTOCORR)
        fputs("advice: correlated runs: the machine drifts or changes state between runs; "
              "run the configurations interleaved in rounds (one `fsbench run` with "
              "configurations) so that each pair sees the same conditions.\n",
              out);
}

static void print_phase(FILE *out, const struct cmp_result *r, const struct cmp_phase *ph,
                        unsigned *seen)
{
    const struct cmp_metric_info *mi = cmp_metric_get(r->opt.metric);
    int w = 5;
    for (size_t g = 0; g < r->ngroups; g++) {
        int l = (int)strlen(r->groups[g].name);
        if (l > w)
            w = l;
    }
    fprintf(out, "%s (%s, %s)\n", ph->name, mi->name, mi->unit);
    /* both figures, each named: the geometric mean is what the matrix and the verdicts
     * are about, the median what run and show print */
    fprintf(out, "  %-*s %4s %12s %12s %12s %12s\n", w, "group", "n", "geo-mean", "median",
            "mean", "sd");
    for (size_t g = 0; g < r->ngroups; g++) {
        const struct cmp_sample *s = &ph->s[g];
        if (s->n == 0)
            fprintf(out, "  %-*s %4zu %12s %12s %12s %12s\n", w, r->groups[g].name, s->n, "-",
                    "-", "-", "-");
        else
            fprintf(out, "  %-*s %4zu %12.6g %12.6g %12.6g %12.6g\n", w, r->groups[g].name, s->n,
                    s->sum.gmean, s->sum.median, s->sum.mean, s->sum.sd);
    }
    for (size_t g = 1; g < r->ngroups; g++)
        print_verdict(out, r, ph, g, "  ");
    for (size_t g = 1; g < r->ngroups; g++) {
        const struct cmp_vs *vs = &ph->vs[g];
        if (vs->status == CMP_ST_OK && vs->few && vs->interleaved) {
            fprintf(out, "  warning: %s vs %s: only %zu pairs; %zu are needed for a verdict\n",
                    r->groups[g].name, r->groups[0].name, vs->npairs, vs->n_min);
            *seen |= STATS_W_FEW_RUNS;
        }
    }
    for (size_t g = 0; g < r->ngroups; g++)
        print_sample_warnings(out, r, r->groups[g].name, &ph->s[g], seen);
    for (size_t g = 0; g < r->ngroups; g++) {
        const struct cmp_sample *s = &ph->s[g];
        if (s->skipped + s->failed)
            fprintf(out, "  note: %s: %zu run%s skipped, %zu failed this phase, excluded (%s)\n",
                    r->groups[g].name, s->skipped, s->skipped == 1 ? "" : "s", s->failed, s->note);
        if (s->unavailable && s->n)
            fprintf(out, "  note: %s: %s not available in %zu run%s, excluded\n", r->groups[g].name,
                    mi->name, s->unavailable, s->unavailable == 1 ? "" : "s");
    }
}

void cmp_report_text(FILE *out, const struct cmp_result *r)
{
    const struct cmp_metric_info *mi = cmp_metric_get(r->opt.metric);
    char conf[16], eff[16];
    fmt_pct(conf, sizeof conf, r->opt.confidence);
    fmt_pct(eff, sizeof eff, r->opt.min_effect);
    fprintf(out,
            "compare %s (%s, %s is better), %s confidence, effect of interest %s, "
            "baseline %s\n",
            mi->name, mi->unit, mi->sense == STATS_LOWER_BETTER ? "lower" : "higher", conf, eff,
            r->groups[0].name);
    cmp_report_method(out, r);
    unsigned seen = 0;
    for (size_t p = 0; p < r->nphases; p++) {
        fputc('\n', out);
        print_phase(out, r, &r->phases[p], &seen);
    }
    if (seen || r->any_batch)
        fputc('\n', out);
    cmp_report_advice(out, seen);
    if (r->any_batch) {
        fprintf(out, "note: runs compared as batches were not interleaved in rounds (all of A, "
                     "then all of B). A slow drift or a change of the machine's state between the "
                     "batches (reboot, kernel, caches, temperature, background work) looks exactly "
                     "like a difference: on a noisy machine batch A/A comparisons claim one in "
                     "16-25%% of trials. The batch method widens the interval for autocorrelation "
                     "but cannot remove a drift. For a verdict you can trust, run A and B "
                     "interleaved in rounds: one `fsbench run` with both configurations.\n");
    }
}

void cmp_report_failures(FILE *out, const struct cmp_result *r)
{
    for (size_t i = 0; i < r->nfailures; i++) {
        const struct cmp_failure *f = &r->failures[i];
        char note[RES_NOTE_MAX * 4];
        text_escape(note, sizeof note, f->note);
        fprintf(out,
                "failed: %s in round %u (run %u), phase %s: %s; its later rounds were not "
                "run, and its figures are of the rounds before\n",
                r->groups[f->group].name, f->round + 1, f->run + 1, f->phase, note);
    }
}

/* ------------------------------------------------------------------ ministat */

static const char ministat_symbol[] = " x+*%#@O";

static void ministat_row(FILE *out, int sym, const struct stats_ministat_row *row)
{
    fprintf(out, "%c %3d %13.8g %13.8g %13.8g %13.8g %13.8g\n", sym, (int)row->n, row->min,
            row->max, row->median, row->mean, row->sd);
}

int cmp_report_ministat(FILE *out, const struct cmp_result *r, size_t phase, double percent)
{
    int ci = stats_ministat_conf_index(percent);
    if (ci < 0)
        return error("compare: --format ministat: confidence %g%% is not one of ministat's "
                     "(80, 90, 95, 98, 99, 99.5)",
                     percent);
    if (phase >= r->nphases)
        return error("compare: --format ministat: no such phase");
    if (r->ngroups > sizeof ministat_symbol - 2)
        return error("compare: --format ministat: at most %zu groups", sizeof ministat_symbol - 2);
    const struct cmp_phase *ph = &r->phases[phase];
    struct stats_ministat_row rows[sizeof ministat_symbol];
    for (size_t g = 0; g < r->ngroups; g++) {
        const struct cmp_sample *s = &ph->s[g];
        if (s->n < 3)
            return error("compare: --format ministat: '%s' has %zu value%s for phase %s; "
                         "ministat needs at least 3",
                         r->groups[g].name, s->n, s->n == 1 ? "" : "s", ph->name);
        if (stats_ministat_row(s->values, s->n, &rows[g]))
            return error("out of memory");
    }
    for (size_t g = 0; g < r->ngroups; g++)
        fprintf(out, "%c %s\n", ministat_symbol[g + 1], r->groups[g].name);
    fprintf(out, "    N           Min           Max        Median           Avg        Stddev\n");
    ministat_row(out, ministat_symbol[1], &rows[0]);
    for (size_t g = 1; g < r->ngroups; g++) {
        ministat_row(out, ministat_symbol[g + 1], &rows[g]);
        struct stats_ministat_diff d;
        stats_ministat_diff(&rows[0], &rows[g], ci, &d);
        if (d.different) {
            fprintf(out, "Difference at %.1f%% confidence\n", d.percent);
            fprintf(out, "\t%g +/- %g\n", d.diff, d.halfwidth);
            fprintf(out, "\t%g%% +/- %g%%\n", d.pct, d.pct_halfwidth);
            fprintf(out, "\t(Student's t, pooled s = %g)\n", d.pooled_s);
        } else {
            fprintf(out, "No difference proven at %.1f%% confidence\n", d.percent);
        }
    }
    return 0;
}
