/* report_summary.c — compare's compact summary (see compare.h): one matrix, phases x
 * groups, the baseline's geometric mean then each group's geometric-mean ratio to it (the
 * statistic the interval and the verdict are about) with a mark when a difference is
 * shown, as mmtests' compare-kernels prints it; then each kind of warning once, naming the
 * phases and groups it concerns, and the advice for it once.
 *
 *   compare wall (s, lower is better), 95% confidence, baseline ext4:defaults
 *   phase      ext4:defaults  ext4:sync  xfs:defaults
 *   extract          1.234 s     1.52 *        0.91 ~
 *
 * The baseline's cell is its geometric mean, not its median: the ratio is exp(mean of
 * ln B - ln A), which is the ratio of the two geometric means (of the paired runs when
 * interleaved), so that the baseline's figure times a cell is the group's figure.
 *
 * Computes nothing: ratios and verdicts come from cmp_result.
 */
#include "stats/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/negligible.h"

#define SUMMARY_WIDE 110 /* wider than this: columns are letters, named below */
#define CELL_MIN 9

/* A ratio with enough digits to tell it from zero and from its neighbours: "1.52",
 * "0.005", "0.012" (two significant digits below 0.1). */
static void fmt_ratio(char *buf, size_t len, double x)
{
    if (x < 0.095)
        snprintf(buf, len, "%.2g", x);
    else
        snprintf(buf, len, "%.2f", x);
}

static void cell(char *buf, size_t len, const struct cmp_phase *ph, size_t g)
{
    const struct cmp_vs *vs = &ph->vs[g];
    if (g == 0) {
        snprintf(buf, len, "-");
        return;
    }
    if (ph->s[g].n == 0)
        snprintf(buf, len, "- ?"); /* no figures: no verdict */
    else if (vs->status != CMP_ST_OK)
        snprintf(buf, len, "n/a ?");
    else
    {
        char x[32];
        fmt_ratio(x, sizeof x, vs->ratio.ratio);
        snprintf(buf, len, "%s %s", x, cmp_vs_mark(vs));
    }
}

/* The baseline's cell: its geometric mean with the unit ("n/a" when a value is 0). */
static void baseline_cell(char *buf, size_t len, const struct cmp_phase *ph,
                          const struct cmp_metric_info *mi)
{
    if (!ph->s[0].n)
        snprintf(buf, len, "-");
    else if (isfinite(ph->s[0].sum.gmean))
        snprintf(buf, len, "%.4g %s", ph->s[0].sum.gmean, mi->unit);
    else
        snprintf(buf, len, "n/a");
}

void cmp_summary_cell(char *buf, size_t len, const struct cmp_result *r, size_t phase, size_t g)
{
    if (g == 0)
        baseline_cell(buf, len, &r->phases[phase], cmp_metric_get(r->opt.metric));
    else
        cell(buf, len, &r->phases[phase], g);
}

void cmp_summary_legend(char *buf, size_t len, const struct cmp_result *r)
{
    int conf = (int)lround(r->opt.confidence * 100);
    char eq[64];
    snprintf(eq, sizeof eq, " = no difference of %.0f%% or more (futile),",
             r->opt.min_effect * 100);
    snprintf(buf, len,
             "cells: the baseline's geometric mean, then each group's geometric-mean ratio to "
             "it (exp of the mean log ratio, over the pairs of a round when interleaved); * a "
             "difference shown at %d%%, ~ one below the %.0f%% of interest, o no difference "
             "shown,%s ? no verdict (fewer than %zu pairs in rounds or %zu runs a group as "
             "batches, or no ratio), _ negligible (both sides under %g ms), ! different work "
             "(separate sets; see 'differs')",
             conf, r->opt.min_effect * 100, r->sequential ? eq : "",
             stats_min_runs(STATS_PAIRED, r->opt.confidence),
             stats_min_runs(STATS_BATCH, r->opt.confidence),
             cmp_negligible_floor(r) * 1e3);
}

static bool sample_hit(const struct cmp_result *r, const struct cmp_phase *ph, size_t g,
                       unsigned flag)
{
    if (ph->s[g].n && (ph->s[g].warn.flags & flag))
        return true;
    return flag == STATS_W_FEW_RUNS && g > 0 && ph->vs[g].status == CMP_ST_OK && ph->vs[g].few;
}

/* Appends text to the line being built, wrapping before WRAP columns with an indent. */
#define WRAP 100
static void wrapped(FILE *out, int *col, const char *text)
{
    /* a separator stays at the end of the line it follows */
    if ((text[0] == ',' || text[0] == ';') && text[1] == ' ') {
        fputc(text[0], out);
        *col += 1;
        text++;
    }
    int l = (int)strlen(text);
    if (*col > 4 && *col + l > WRAP) {
        fputs("\n   ", out);
        *col = 3;
        while (*text == ' ') {
            text++;
            l--;
        }
    }
    fputs(text, out);
    *col += l;
}

/* Lists, for one warning flag, where it was raised: "phase (group, group)", "phase (all)"
 * when every group of the phase, "every phase and group" when everywhere. */
static void print_warning_places(FILE *out, const struct cmp_result *r, unsigned flag, int col)
{
    size_t full = 0;
    for (size_t p = 0; p < r->nphases; p++) {
        size_t n = 0;
        for (size_t g = 0; g < r->ngroups; g++)
            n += sample_hit(r, &r->phases[p], g, flag);
        full += n == r->ngroups;
    }
    if (full == r->nphases) {
        wrapped(out, &col, "every phase and group");
        fputc('\n', out);
        return;
    }
    const char *sep = "";
    char buf[2 * RES_NAME_MAX + 600];
    for (size_t p = 0; p < r->nphases; p++) {
        const struct cmp_phase *ph = &r->phases[p];
        size_t n = 0;
        for (size_t g = 0; g < r->ngroups; g++)
            n += sample_hit(r, ph, g, flag);
        if (!n)
            continue;
        if (n == r->ngroups) {
            snprintf(buf, sizeof buf, "%s%s (all)", sep, ph->name);
            wrapped(out, &col, buf);
        } else {
            const char *inner = " (";
            snprintf(buf, sizeof buf, "%s%s", sep, ph->name);
            wrapped(out, &col, buf);
            for (size_t g = 0; g < r->ngroups; g++) {
                if (!sample_hit(r, ph, g, flag))
                    continue;
                snprintf(buf, sizeof buf, "%s%s", inner, r->groups[g].name);
                wrapped(out, &col, buf);
                inner = ", ";
            }
            wrapped(out, &col, ")");
        }
        sep = "; ";
    }
    fputc('\n', out);
}

static unsigned flags_seen(const struct cmp_result *r)
{
    unsigned seen = 0;
    for (size_t p = 0; p < r->nphases; p++)
        for (size_t g = 0; g < r->ngroups; g++) {
            if (r->phases[p].s[g].n)
                seen |= r->phases[p].s[g].warn.flags;
            if (g > 0 && r->phases[p].vs[g].status == CMP_ST_OK && r->phases[p].vs[g].few)
                seen |= STATS_W_FEW_RUNS;
        }
    return seen;
}

void cmp_report_summary(FILE *out, const struct cmp_result *r)
{
    const struct cmp_metric_info *mi = cmp_metric_get(r->opt.metric);
    int conf = (int)lround(r->opt.confidence * 100);
    fprintf(out, "compare %s (%s, %s is better), %d%% confidence, baseline %s\n", mi->name,
            mi->unit, mi->sense == STATS_LOWER_BETTER ? "lower" : "higher", conf,
            r->groups[0].name);
    char legend[512];
    cmp_summary_legend(legend, sizeof legend, r);
    /* word by word, wrapped as the warnings are */
    int lcol = 0;
    for (char *w = legend, *sp; *w; w = sp) {
        sp = strchr(w + 1, ' ');
        if (!sp)
            sp = w + strlen(w);
        char word[128];
        snprintf(word, sizeof word, "%.*s", (int)(sp - w), w);
        wrapped(out, &lcol, word);
    }
    fputc('\n', out);
    if (r->sequential)
        fprintf(out,
                "method: sequential, the mixture SPRT (the set stopped by --runs "
                "until-verdict; its intervals allow for looking after every round): = "
                "no difference of %.0f%% or more (futile), ? no verdict yet\n",
                r->opt.min_effect * 100);
    fputc('\n', out);

    int pw = 5;
    for (size_t p = 0; p < r->nphases; p++)
        if ((int)strlen(r->phases[p].name) > pw)
            pw = (int)strlen(r->phases[p].name);
    size_t ng = r->ngroups;
    int *cw = calloc(2 * ng, sizeof *cw), *vw = cw + ng;
    if (!cw)
        return;
    int total = pw;
    for (size_t g = 0; g < ng; g++) {
        cw[g] = (int)strlen(r->groups[g].name);
        if (cw[g] < CELL_MIN)
            cw[g] = CELL_MIN;
        total += 2 + cw[g];
    }
    bool letters = total > SUMMARY_WIDE;
    /* A column is as wide as its widest cell too (a median such as "0.006358 s"). */
    for (size_t g = 0; g < ng; g++) {
        vw[g] = CELL_MIN;
        for (size_t p = 0; p < r->nphases; p++) {
            char buf[64];
            cmp_summary_cell(buf, sizeof buf, r, p, g);
            if ((int)strlen(buf) > vw[g])
                vw[g] = (int)strlen(buf);
        }
        if (vw[g] > cw[g])
            cw[g] = vw[g];
    }
    fprintf(out, "%-*s", pw, "phase");
    for (size_t g = 0; g < ng; g++) {
        if (letters) {
            char l[16];
            cmp_group_letter(l, sizeof l, g);
            cw[g] = vw[g];
            fprintf(out, "  %*s", cw[g], l);
        } else {
            fprintf(out, "  %*s", cw[g], r->groups[g].name);
        }
    }
    fputc('\n', out);
    for (size_t p = 0; p < r->nphases; p++) {
        const struct cmp_phase *ph = &r->phases[p];
        fprintf(out, "%-*s", pw, ph->name);
        char buf[64];
        baseline_cell(buf, sizeof buf, ph, mi);
        fprintf(out, "  %*s", cw[0], buf);
        for (size_t g = 1; g < ng; g++) {
            cell(buf, sizeof buf, ph, g);
            fprintf(out, "  %*s", cw[g], buf);
        }
        fputc('\n', out);
    }
    if (letters)
        for (size_t g = 0; g < ng; g++) {
            char l[16];
            cmp_group_letter(l, sizeof l, g);
            fprintf(out, "  %s = %s\n", l, r->groups[g].name);
        }
    free(cw);
    for (size_t g = 1; g < r->ngroups; g++)
        if (r->diffs[g].n) { /* what differs, below the matrix */
            fputc('\n', out);
            cmp_report_differs(out, r);
            break;
        }

    unsigned seen = flags_seen(r);
    static const struct {
        unsigned flag;
        const char *what;
    } kinds[] = {
        {STATS_W_FEW_RUNS, "too few runs for a verdict"},
        {STATS_W_OUTLIERS, "outliers (modified z-score above 3.5, from 5 runs on)"},
        {STATS_W_NOISY, "runs vary by more than 10%"},
        {STATS_W_AUTOCORR, "consecutive runs are correlated"},
    };
    if (seen || r->any_batch)
        fputc('\n', out);
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        if (!(seen & kinds[k].flag))
            continue;
        int col = fprintf(out, "warning: %s: ", kinds[k].what);
        print_warning_places(out, r, kinds[k].flag, col);
    }
    cmp_report_advice(out, seen);
    if (r->any_batch)
        fputs("note: some groups ran as batches, not interleaved in rounds: a drift between "
              "the batches looks like a difference (--verbose says more).\n",
              out);
}
