/* report_aging.c — the text report's lines for aging by replay (--age-replay): per run,
 * what the phase's own figures (measure/results.h's struct age_replay_result) hold beyond
 * its note: the bytes and the distance from the profile after each repetition, so the way
 * the distance moved (or did not) is read without the JSON.
 */
#include "report/report.h"

#include <string.h>

#define SHOWN_REPS 12 /* repetitions listed; the rest are counted */

static void print_one(FILE *out, const struct age_replay_result *a, size_t run)
{
    fprintf(out, "  age by replay in run %zu: %zu repetition%s of %s, %.1f MiB in all, stop: %s",
            run, a->nreps, a->nreps == 1 ? "" : "s", a->trace, (double)a->bytes_written / 1048576.0,
            a->stop);
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
