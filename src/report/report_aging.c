/* report_aging.c — the text report's lines for aging by replay (--age-replay) and by a
 * profile (--age-profile): per run, what the phase's own figures (measure/results.h's
 * struct age_replay_result) hold beyond its note: for replay the bytes and the distance from
 * the profile after each repetition, so the way the distance moved (or did not) is read
 * without the JSON; for a profile the operations, the stop, the distance per dimension and
 * the free space; and for a set of --age-steps, the free space after each step beside the
 * series view. Names from a stored or imported set are printed escaped (text_shown).
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

/* "12.0% (sizes 3.1%, ages 12.0%, depths 0.0%)" or "none (no files)". */
static void print_distance(FILE *out, const struct age_replay_result *a)
{
    if (a->distance < 0) {
        fputs("none (no files)", out);
        return;
    }
    fprintf(out, "%.2f%% (sizes %.2f%%, ages %.2f%%, depths %.2f%%)", 100 * a->distance,
            100 * a->dim_distance[0], 100 * a->dim_distance[1], 100 * a->dim_distance[2]);
}

static void print_free(FILE *out, const char *when, const struct age_free_figures *f)
{
    if (!f->known) {
        fprintf(out, "%s unknown (%s)", when, text_shown(f->why));
        return;
    }
    fprintf(out, "%s %llu extents, largest %.1f MiB, %.0f%% under 1 MiB (%s)", when,
            (unsigned long long)f->extents, (double)f->largest / 1048576.0, 100 * f->small_share,
            text_shown(f->source));
}

static void print_profile(FILE *out, const struct age_replay_result *a, size_t run)
{
    fprintf(out, "  age by profile %s in run %zu: %llu ops, %.1f MiB written, %llu files, fs %.0f%% "
                 "full, stop: %s\n",
            text_shown(a->profile), run, (unsigned long long)a->ops,
            (double)a->bytes_written / 1048576.0, (unsigned long long)a->files,
            100 * a->fullness, text_shown(a->stop));
    fputs("    distance ", out);
    print_distance(out, a);
    fputs("; free space", out);
    print_free(out, " before:", &a->free_before);
    print_free(out, "; after:", &a->free_after);
    fputc('\n', out);
}

void report_aging(FILE *out, const struct run_set *rs, const char *config)
{
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *r = &rs->runs[i];
        if (strcmp(r->config, config))
            continue;
        for (size_t p = 0; p < r->nphases; p++) {
            if (r->phases[p].age_replay)
                print_one(out, r->phases[p].age_replay, i + 1);
            if (r->phases[p].age_profile)
                print_profile(out, r->phases[p].age_profile, i + 1);
        }
    }
}

/* The age phase's figures of one kind (replay, or a profile's) of config's first run that
 * has them (the later rounds of a step age no further), or NULL. */
static const struct age_replay_result *step_figures(const struct run_set *rs, const char *config,
                                                    bool replay)
{
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *r = &rs->runs[i];
        if (strcmp(r->config, config))
            continue;
        for (size_t p = 0; p < r->nphases; p++) {
            const struct phase_result *ph = &r->phases[p];
            if (replay ? ph->age_replay : ph->age_profile)
                return replay ? ph->age_replay : ph->age_profile;
        }
    }
    return NULL;
}

/* One step's row: its cells as text ("-" where the step has no figures). */
struct step_row {
    const char *step;
    char reps[32], total[24], ext[24], lg[24], sm[16], dist[16];
};

/* The rows of rs's steps in order of their first run, into rows[] (at most max): how many,
 * 0 when no run holds aging's figures. *replay: the kind of aging they show (replay where
 * any run aged by replay, else a profile's). */
static size_t step_rows(const struct run_set *rs, struct step_row *rows, size_t max, bool *replay)
{
    bool any = false, prof = false;
    for (size_t i = 0; i < rs->nruns && !any; i++)
        any = step_figures(rs, rs->runs[i].config, true) != NULL;
    for (size_t i = 0; i < rs->nruns && !any && !prof; i++)
        prof = step_figures(rs, rs->runs[i].config, false) != NULL;
    *replay = any;
    if (!any && !prof)
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
        const struct age_replay_result *a = step_figures(rs, config, *replay);
        snprintf(w->reps, sizeof w->reps, "-");
        snprintf(w->total, sizeof w->total, "-");
        snprintf(w->ext, sizeof w->ext, "-");
        snprintf(w->lg, sizeof w->lg, "-");
        snprintf(w->sm, sizeof w->sm, "-");
        snprintf(w->dist, sizeof w->dist, "-");
        if (!a)
            continue;
        if (*replay)
            snprintf(w->reps, sizeof w->reps, a->nreps ? "r%04u-r%04u" : "none", a->first,
                     a->last);
        else
            snprintf(w->reps, sizeof w->reps, "%llu", (unsigned long long)a->ops);
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
    bool replay;
    size_t n = step_rows(rs, rows, STEP_ROWS, &replay);
    if (!n)
        return;
    fprintf(out, "\naging by %s along the steps (after each step's aging; free space "
                 "measured after a syncfs):\n", replay ? "replay" : "profile");
    const char *const *h = step_heads;
    fprintf(out, "  %-14s %-11s %12s %12s %10s %12s %9s\n", h[0], replay ? h[1] : "ops", h[2],
            h[3], h[4], h[5], h[6]);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %-14s %-11s %12s %12s %10s %12s %9s\n", text_shown(rows[i].step),
                rows[i].reps, rows[i].total, rows[i].ext, rows[i].lg, rows[i].sm, rows[i].dist);
}

void report_aging_steps_html(FILE *out, const struct run_set *rs)
{
    static struct step_row rows[STEP_ROWS];
    bool replay;
    size_t n = step_rows(rs, rows, STEP_ROWS, &replay);
    if (!n)
        return;
    const char *kind = replay ? "replay" : "profile";
    fprintf(out,
            "<h2>Aging by %s along the steps</h2>\n<p>After each step's aging; the free space "
            "measured after a syncfs.</p>\n<table id=\"age-%s-steps\">\n<tr>",
            kind, kind);
    for (size_t k = 0; k < 7; k++)
        fprintf(out, "<th>%s</th>", k == 1 && !replay ? "ops" : step_heads[k]);
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
