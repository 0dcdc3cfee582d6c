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

void report_aging_steps(FILE *out, const struct run_set *rs)
{
    bool any = false;
    for (size_t i = 0; i < rs->nruns && !any; i++)
        any = step_figures(rs, rs->runs[i].config) != NULL;
    if (!any)
        return;
    fprintf(out, "\naging by replay along the steps (after each step's aging; free space "
                 "measured after a syncfs):\n");
    fprintf(out, "  %-14s %-11s %12s %12s %10s %12s %9s\n", "step", "repetitions",
                 "MiB in all", "free extents", "largest", "under 1 MiB", "distance");
    double total = 0;
    for (size_t i = 0; i < rs->nruns; i++) {
        const char *config = rs->runs[i].config;
        size_t j = 0;
        while (j < i && strcmp(rs->runs[j].config, config))
            j++;
        if (j < i)
            continue; /* said at its first run */
        const struct age_replay_result *a = step_figures(rs, config);
        if (!a) {
            fprintf(out, "  %-14s %-11s %12s %12s %10s %12s %9s\n", text_shown(config), "-", "-",
                    "-", "-", "-", "-");
            continue;
        }
        char reps[32], dist[16] = "-", ext[24] = "?", lg[24] = "?", sm[16] = "?";
        snprintf(reps, sizeof reps, a->nreps ? "r%04u-r%04u" : "none", a->first, a->last);
        total += (double)a->bytes_written;
        if (a->free_after.known) {
            snprintf(ext, sizeof ext, "%llu", (unsigned long long)a->free_after.extents);
            snprintf(lg, sizeof lg, "%.1f MiB", (double)a->free_after.largest / 1048576.0);
            snprintf(sm, sizeof sm, "%.0f%%", 100 * a->free_after.small_share);
        }
        if (a->distance >= 0)
            snprintf(dist, sizeof dist, "%.2f%%", 100 * a->distance);
        fprintf(out, "  %-14s %-11s %12.1f %12s %10s %12s %9s\n", text_shown(config), reps,
                total / 1048576.0, ext, lg, sm, dist);
    }
}
