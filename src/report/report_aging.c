/* report_aging.c — the text report's lines for aging by replay (--age-replay): per run,
 * what the phase's own figures (measure/results.h's struct age_replay_result) hold beyond
 * its note: the bytes and the distance from the profile after each repetition, so the way
 * the distance moved (or did not) is read without the JSON; and for a set of --age-steps
 * aged by replay, the free space after each step beside the series view. Names from a
 * stored or imported set are printed escaped (text_shown).
 */
#include "report/report.h"

#include <string.h>

#include "base/text.h"
#include "report/html.h"

#define SHOWN_REPS 12 /* repetitions listed; the rest are counted */

static void print_one(FILE *out, const struct age_replay_result *a, size_t run)
{
    fprintf(out, "  age by replay in run %zu: %zu repetition%s of %s, %.1f MiB in all, stop: %s",
            run, a->nreps, a->nreps == 1 ? "" : "s", text_shown(a->trace),
            (double)a->bytes_written / 1048576.0, text_shown(a->stop));
    if (a->free_before.known && a->free_after.known)
        fprintf(out, "; free space in extents under 1 MiB %.0f%% -> %.0f%%, largest %.1f -> %.1f MiB",
                100 * a->free_before.small_share, 100 * a->free_after.small_share,
                (double)a->free_before.largest / 1048576.0,
                (double)a->free_after.largest / 1048576.0);
    fputc('\n', out);
    if (!a->nreps)
        return;
    bool dist = a->profile[0] && a->reps[0].distance >= 0;
    fprintf(out, "    per repetition (r%04u-), MiB%s:", a->first, dist ? " / distance" : "");
    for (size_t i = 0; i < a->nreps && i < SHOWN_REPS; i++) {
        fprintf(out, " %.1f", (double)a->reps[i].bytes_written / 1048576.0);
        if (dist && a->reps[i].distance >= 0)
            fprintf(out, "/%.1f%%", 100 * a->reps[i].distance);
    }
    if (a->nreps > SHOWN_REPS) {
        const struct age_rep_figure *l = &a->reps[a->nreps - 1];
        fprintf(out, " ... (%zu more) last %.1f", a->nreps - SHOWN_REPS,
                (double)l->bytes_written / 1048576.0);
        if (dist && l->distance >= 0)
            fprintf(out, "/%.1f%%", 100 * l->distance);
    }
    fputc('\n', out);
}

void report_aging(FILE *out, const struct run_set *rs, const char *config)
{
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *r = &rs->runs[i];
        if (strcmp(r->config, config))
            continue;
        for (size_t p = 0; p < r->nphases; p++)
            if (r->phases[p].age_replay)
                print_one(out, r->phases[p].age_replay, i + 1);
    }
}

/* The age phase's figures of config's first run that has them (the later rounds of a step
 * age no further), or NULL. */
static const struct age_replay_result *step_figures(const struct run_set *rs, const char *config)
{
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *r = &rs->runs[i];
        if (strcmp(r->config, config))
            continue;
        for (size_t p = 0; p < r->nphases; p++)
            if (r->phases[p].age_replay)
                return r->phases[p].age_replay;
    }
    return NULL;
}

/* One step's row: its cells as text ("-" where the step has no figures). */
struct step_row {
    const char *step;
    char reps[32], total[24], ext[24], lg[24], sm[16], dist[16];
};

/* The rows of rs's steps in order of their first run, into rows[] (at most max): how many,
 * 0 when no run holds aging by replay's figures. */
static size_t step_rows(const struct run_set *rs, struct step_row *rows, size_t max)
{
    bool any = false;
    for (size_t i = 0; i < rs->nruns && !any; i++)
        any = step_figures(rs, rs->runs[i].config) != NULL;
    if (!any)
        return 0;
    size_t n = 0;
    double total = 0;
    for (size_t i = 0; i < rs->nruns && n < max; i++) {
        const char *config = rs->runs[i].config;
        size_t j = 0;
        while (j < i && strcmp(rs->runs[j].config, config))
            j++;
        if (j < i)
            continue; /* a row at its first run */
        struct step_row *w = &rows[n++];
        w->step = config;
        const struct age_replay_result *a = step_figures(rs, config);
        snprintf(w->reps, sizeof w->reps, "-");
        snprintf(w->total, sizeof w->total, "-");
        snprintf(w->ext, sizeof w->ext, "-");
        snprintf(w->lg, sizeof w->lg, "-");
        snprintf(w->sm, sizeof w->sm, "-");
        snprintf(w->dist, sizeof w->dist, "-");
        if (!a)
            continue;
        snprintf(w->reps, sizeof w->reps, a->nreps ? "r%04u-r%04u" : "none", a->first, a->last);
        total += (double)a->bytes_written;
        snprintf(w->total, sizeof w->total, "%.1f", total / 1048576.0);
        if (a->free_after.known) {
            snprintf(w->ext, sizeof w->ext, "%llu", (unsigned long long)a->free_after.extents);
            snprintf(w->lg, sizeof w->lg, "%.1f MiB", (double)a->free_after.largest / 1048576.0);
            snprintf(w->sm, sizeof w->sm, "%.0f%%", 100 * a->free_after.small_share);
        } else {
            snprintf(w->ext, sizeof w->ext, "unknown");
        }
        if (a->distance >= 0)
            snprintf(w->dist, sizeof w->dist, "%.2f%%", 100 * a->distance);
    }
    return n;
}

#define STEP_ROWS 64

static const char *const step_heads[] = {"step",    "repetitions", "MiB in all", "free extents",
                                         "largest", "under 1 MiB", "distance"};

void report_aging_steps(FILE *out, const struct run_set *rs)
{
    static struct step_row rows[STEP_ROWS];
    size_t n = step_rows(rs, rows, STEP_ROWS);
    if (!n)
        return;
    fprintf(out, "\naging by replay along the steps (after each step's aging; free space "
                 "measured after a syncfs):\n");
    const char *const *h = step_heads;
    fprintf(out, "  %-14s %-11s %12s %12s %10s %12s %9s\n", h[0], h[1], h[2], h[3], h[4], h[5],
            h[6]);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %-14s %-11s %12s %12s %10s %12s %9s\n", text_shown(rows[i].step),
                rows[i].reps, rows[i].total, rows[i].ext, rows[i].lg, rows[i].sm, rows[i].dist);
}

void report_aging_steps_html(FILE *out, const struct run_set *rs)
{
    static struct step_row rows[STEP_ROWS];
    size_t n = step_rows(rs, rows, STEP_ROWS);
    if (!n)
        return;
    fputs("<h2>Aging by replay along the steps</h2>\n<p>After each step's aging; the free space "
          "measured after a syncfs.</p>\n<table id=\"age-replay-steps\">\n<tr>",
          out);
    for (size_t k = 0; k < 7; k++)
        fprintf(out, "<th>%s</th>", step_heads[k]);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < n; i++) {
        const char *cells[] = {rows[i].step, rows[i].reps, rows[i].total, rows[i].ext,
                               rows[i].lg,   rows[i].sm,   rows[i].dist};
        fputs("<tr>", out);
        for (size_t k = 0; k < 7; k++) {
            fputs("<td>", out);
            html_put_escaped(out, cells[k]);
            fputs("</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}
