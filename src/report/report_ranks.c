/* report_ranks.c — the per-rank part of the text report of a run set made on several MPI
 * ranks: how the ranks were placed, and per phase the aggregate rate beside the slowest
 * and the fastest rank (stragglers are what a shared file system shows first).
 *
 * For each phase the figures come from one run: the run whose aggregate wall time is the
 * median of the phase's runs (the lower middle one for an even count), named in the row.
 */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

static int cmp_wall(const void *a, const void *b)
{
    double x = (*(const struct phase_result *const *)a)->wall_s;
    double y = (*(const struct phase_result *const *)b)->wall_s;
    return (x > y) - (x < y);
}

static double kops(uint64_t ops, double wall)
{
    return wall > 0 ? (double)ops / wall / 1e3 : 0;
}

/* Prints one phase's row from its median run's figures. */
static void print_row(FILE *out, const struct phase_result *pr, size_t run)
{
    size_t slow = 0, fast = 0;
    for (size_t r = 1; r < pr->nranks; r++) {
        if (pr->ranks[r].wall_s > pr->ranks[slow].wall_s)
            slow = r;
        if (pr->ranks[r].wall_s < pr->ranks[fast].wall_s)
            fast = r;
    }
    const struct rank_result *s = &pr->ranks[slow], *f = &pr->ranks[fast];
    fprintf(out, "%-11s %4zu %9.3f %10.1f   %4zu %8.3f %8.1f   %4zu %8.3f %8.1f %7.2fx%s\n",
            pr->name, run + 1, pr->wall_s, kops(pr->ops_total, pr->wall_s), slow, s->wall_s,
            kops(s->ops_total, s->wall_s), fast, f->wall_s, kops(f->ops_total, f->wall_s),
            f->wall_s > 0 ? s->wall_s / f->wall_s : 0, pr->stonewalled ? "  stonewalled" : "");
}

void report_ranks(FILE *out, const struct run_set *rs, const char *config)
{
    const struct ranks_info *ri = &rs->ranks;
    fprintf(out, "\nranks: %u on %u node%s, %s placement%s", ri->count, ri->nodes,
            ri->nodes == 1 ? "" : "s", ri->placement,
            !strcmp(ri->placement, "shared")
                ? " (one tree, top-level directories divided among ranks)"
                : " (each rank its tree in DIR/rank.N, seed + rank)");
    if (ri->shift)
        fprintf(out, ", rank shift %u", ri->shift);
    if (ri->stonewall_s > 0)
        fprintf(out, ", stonewall %g s", ri->stonewall_s);
    fprintf(out, "\nwall: common start to the last rank's end; aggregate rate: all ranks' ops "
                 "over it; figures of each phase's median run\n");
    fprintf(out, "%-11s %4s %9s %10s   %4s %8s %8s   %4s %8s %8s %8s\n", "phase", "run",
            "wall s", "agg kops/s", "slow", "wall s", "kops/s", "fast", "wall s", "kops/s",
            "slow/fast");
    const struct phase_result **pr = calloc(rs->nruns ? rs->nruns : 1, sizeof *pr);
    size_t nph = 0;
    for (size_t i = 0; i < rs->nruns; i++)
        if (!strcmp(rs->runs[i].config, config) && rs->runs[i].nphases > nph)
            nph = rs->runs[i].nphases;
    for (size_t p = 0; pr && p < nph; p++) {
        size_t n = 0;
        for (size_t i = 0; i < rs->nruns; i++) {
            const struct run_result *r = &rs->runs[i];
            if (!strcmp(r->config, config) && p < r->nphases && r->phases[p].nranks &&
                r->phases[p].status == PHASE_OK)
                pr[n++] = &r->phases[p];
        }
        if (!n)
            continue;
        qsort(pr, n, sizeof *pr, cmp_wall);
        const struct phase_result *m = pr[(n - 1) / 2];
        size_t run = 0;
        while (run + 1 < rs->nruns &&
               !(p < rs->runs[run].nphases && &rs->runs[run].phases[p] == m))
            run++;
        print_row(out, m, run);
    }
    free(pr);
}
