/* report_plain.c — compare's results said in words, as hyperfine says them, and what differs
 * between the groups compared (see compare.h).
 *
 *   xfs is 1.84x slower than ext4 at extract (95% CI 1.62-2.09, 6 rounds); no difference at
 *   read (within ±4%, 6 rounds); sync negligible (< 1 ms)
 *
 * One sentence per phase, joined per compared group: compare, the run's summary, `cmd` and
 * the report's first screen print the same ones. Computes nothing: every figure and the
 * verdict's mark come from cmp_result (cmp_vs_mark()).
 */
#include "stats/compare.h"

#include <math.h>
#include <string.h>

#include "base/text.h"
#include "stats/negligible.h"


/* "6 rounds" (pairs by round) or "5 and 6 runs" (batches). */
static void fmt_count(char *buf, size_t len, const struct cmp_phase *ph, size_t g)
{
    const struct cmp_vs *vs = &ph->vs[g];
    if (vs->interleaved)
        snprintf(buf, len, "%zu round%s", vs->npairs, vs->npairs == 1 ? "" : "s");
    else
        snprintf(buf, len, "%zu and %zu runs", ph->s[0].n, ph->s[g].n);
}

void cmp_plain_phase(char *buf, size_t len, const struct cmp_result *r, size_t phase, size_t g)
{
    const struct cmp_phase *ph = &r->phases[phase];
    const struct cmp_vs *vs = &ph->vs[g];
    const struct cmp_metric_info *mi = cmp_metric_get(r->opt.metric);
    const char *a = r->groups[0].name, *b = r->groups[g].name, *name = ph->name;
    int conf = (int)lround(r->opt.confidence * 100);
    char count[64], why[1024];
    if (ph->s[g].n == 0 || ph->s[0].n == 0) {
        char note[RES_NOTE_MAX * 4]; /* a note may come from an import: escaped */
        text_escape(note, sizeof note,
                    ph->s[g].note[0] ? ph->s[g].note : ph->s[0].note[0] ? ph->s[0].note
                                                                        : "not measured");
        snprintf(buf, len, "no figures at %s (%s)", name, note);
        return;
    }
    switch (vs->status) {
    case CMP_ST_UNAVAILABLE:
        snprintf(buf, len, "%s not available at %s", mi->name, name);
        return;
    case CMP_ST_TOO_FEW:
        snprintf(buf, len, "too few runs for a verdict at %s", name);
        return;
    case CMP_ST_NONPOSITIVE:
        snprintf(buf, len, "no ratio at %s (some runs measured 0)", name);
        return;
    case CMP_ST_OK:
        break;
    }
    fmt_count(count, sizeof count, ph, g);
    switch (vs->withheld) {
    case CMP_WH_DIFFERENT_WORK:
        workdiff_format(why, sizeof why, &r->diffs[g], true);
        snprintf(buf, len, "no verdict at %s: %s and %s did different work (%s)", name, b, a, why);
        return;
    case CMP_WH_NEGLIGIBLE:
        snprintf(buf, len, "%s negligible (< %g ms)", name, cmp_negligible_floor(r) * 1e3);
        return;
    case CMP_WH_FEW:
        snprintf(buf, len, "too few %s for a verdict at %s (%s; %zu needed)",
                 vs->interleaved ? "rounds" : "runs", name, count, vs->n_min);
        return;
    case CMP_WH_NONE:
        break;
    }
    const struct stats_verdict *v = &vs->verdict;
    bool countk = mi->kind == CMP_KIND_COUNT;
    const char *dir = countk ? (v->b_better ? "fewer" : "more")
                             : (v->b_better ? "faster" : "slower");
    switch (v->kind) {
    case STATS_BETTER:
    case STATS_WORSE:
    case STATS_BELOW_EFFECT:
        if (countk)
            snprintf(buf, len, "%s has %.2fx %s %s than %s at %s (%d%% CI %.2f-%.2f, %s)%s", b,
                     v->factor, dir, mi->name, a, name, conf, v->factor_lo, v->factor_hi, count,
                     v->kind == STATS_BELOW_EFFECT ? ", below the effect of interest" : "");
        else
            snprintf(buf, len, "%s is %.2fx %s than %s at %s (%d%% CI %.2f-%.2f, %s)%s", b,
                     v->factor, dir, a, name, conf, v->factor_lo, v->factor_hi, count,
                     v->kind == STATS_BELOW_EFFECT ? ", below the effect of interest" : "");
        return;
    case STATS_NO_DIFFERENCE:
        break;
    }
    if (!isfinite(vs->ratio.hi) || !isfinite(vs->ratio.lo)) {
        snprintf(buf, len, "no verdict yet at %s (%s)", name, count);
        return;
    }
    double within = fmax(vs->ratio.hi - 1, 1 - vs->ratio.lo) * 100;
    if (vs->ratio.method == STATS_SEQUENTIAL && vs->state == SEQ_FUTILE)
        snprintf(buf, len, "no difference of %.0f%% or more at %s (futile; within \u00b1%.0f%%, %s)",
                 r->opt.min_effect * 100, name, within, count);
    else if (vs->ratio.method == STATS_SEQUENTIAL)
        snprintf(buf, len, "no verdict yet at %s (within \u00b1%.0f%% so far, %s)", name, within,
                 count);
    else
        snprintf(buf, len, "no difference at %s (within \u00b1%.0f%%, %s)", name, within, count);
}

void cmp_plain_group(char *buf, size_t len, const struct cmp_result *r, size_t g)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t p = 0; p < r->nphases; p++) {
        char s[2048];
        cmp_plain_phase(s, sizeof s, r, p, g);
        int n = snprintf(buf + used, len - used, "%s%s", used ? "; " : "", s);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
}

/* Prints "lead" then the phases' sentences joined with "; ", wrapping before 100 columns
 * at a sentence's edge (a sentence longer than a line stays whole). */
static void print_wrapped(FILE *out, const char *lead, const struct cmp_result *r, size_t g)
{
    int col = fprintf(out, "%s", lead);
    for (size_t p = 0; p < r->nphases; p++) {
        char s[2048];
        cmp_plain_phase(s, sizeof s, r, p, g);
        int l = (int)strlen(s) + (p + 1 < r->nphases ? 1 : 0);
        if (p == 0 && col > 12 && col + l > 100) { /* a long lead: the sentence below it */
            fputs("\n   ", out);
            col = 3;
        } else if (p > 0) {
            if (col + 1 + l > 100) {
                fputs("\n   ", out);
                col = 3;
            } else {
                fputc(' ', out);
                col++;
            }
        }
        col += fprintf(out, "%s%s", s, p + 1 < r->nphases ? ";" : "");
    }
    fputc('\n', out);
}

void cmp_report_plain(FILE *out, const struct cmp_result *r)
{
    for (size_t g = 1; g < r->ngroups; g++) {
        char lead[2 * sizeof r->groups[0].name + 32];
        if (r->ngroups > 2)
            snprintf(lead, sizeof lead, "summary: %s against %s: ", r->groups[g].name,
                     r->groups[0].name);
        else
            snprintf(lead, sizeof lead, "summary: ");
        print_wrapped(out, lead, r, g);
    }
}

void cmp_report_differs(FILE *out, const struct cmp_result *r)
{
    bool any = false;
    for (size_t g = 1; g < r->ngroups; g++)
        any |= r->diffs[g].n > 0;
    if (!any)
        return;
    for (size_t g = 1; g < r->ngroups; g++) {
        const struct workdiff *d = &r->diffs[g];
        if (!d->n)
            continue;
        char shown[WORKDIFF_MAX_ITEMS * (2 * WORKDIFF_VALUE_MAX + RES_NAME_MAX + 32)];
        workdiff_format(shown, sizeof shown, d, false); /* its values escaped already */
        bool separate = r->groups[g].input != r->groups[0].input;
        fprintf(out, "differs: %s vs %s: %s%s\n", r->groups[g].name, r->groups[0].name, shown,
                !d->work     ? ""
                : !separate  ? " (configurations of one set: verdicts kept)"
                : r->policy.allow_different_work
                    ? " (different work: verdicts given, --allow-different-work)"
                    : " (different work: no verdict, marked !; --allow-different-work to judge "
                      "anyway)");
    }
}
