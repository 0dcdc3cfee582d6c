/* history_sim.c — what `fsbench history` finds, on series with a known answer, beside a
 * plain E-Divisive fed one number per label (what the anchors do); and the series it needs
 * written as JSON run sets for the real import + history path, or stored directly for the
 * scale row.
 *
 *   build/bench/history_sim [--series N] [--seed S] [--perms B] [--cov LO,HI]  the table
 *   build/bench/history_sim --json TEMPLATE.json DIR --series N [--step PCT]
 *                                                    series written as run sets (import)
 *   build/bench/history_sim --store TEMPLATE.json DB --labels L --runs R
 *                                                    a store of L labels (the scale row)
 *
 * Series (tests/unit/cpsim.h): 30 labels x 5 runs; per series a CoV drawn from 5-25 % (--cov), a
 * lag-1 autocorrelation of consecutive runs from 0-0.5, a label-level effect with sd 2 %, and
 * a whole-set shift of 10-20 % either way on 5 % of the labels; no change, or one step of 5,
 * 10 or 20 % (slower) at a label drawn from 5..25. Found: a change point within one label of
 * the step. False alarm: a series without a step given any change point.
 * The ceilings, given what no detector is given: the noise's variance (of a label's mean log,
 * from the series' parameters) and the step's label: a one-sided z test at 5 % of the two
 * sides' means (with no step, the split at label 15); the variance alone: the largest |z| over
 * the splits against its 95th percentile for Gaussian labels (found within one label as
 * above). No detector can find a step more often than these.
 * The detectors: fsbench's (stats/changepoint.h, defaults: alpha 5 %, 999 permutations,
 * segments of at least 3 labels) on every run; E-Divisive (Matteson and James 2014: energy
 * distance with exponent 1, divisive with the split's right end at the segment's end, 199
 * permutations, alpha 5 %, segments of at least 3) on each label's mean.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "results/resjson.h"
#include "results/store.h"
#include "stats/changepoint.h"
#include "../tests/unit/cpsim.h"

#define LABELS 30
#define RUNS 5

/* ------------------------------------------------------------------ E-Divisive */

static double energy_q(const double *x, size_t n, size_t t)
{
    double between = 0, left = 0, right = 0;
    for (size_t i = 0; i < t; i++)
        for (size_t j = t; j < n; j++)
            between += fabs(x[i] - x[j]);
    for (size_t i = 0; i < t; i++)
        for (size_t k = i + 1; k < t; k++)
            left += fabs(x[i] - x[k]);
    for (size_t j = t; j < n; j++)
        for (size_t k = j + 1; k < n; k++)
            right += fabs(x[j] - x[k]);
    double a = (double)t, b = (double)(n - t);
    double e = 2 * between / (a * b) - left / (a * (a - 1) / 2) - right / (b * (b - 1) / 2);
    return a * b / (a + b) * e;
}

static double energy_max(const double *x, size_t n, size_t m, size_t *at)
{
    double best = -INFINITY;
    for (size_t t = m; t + m <= n; t++) {
        double q = energy_q(x, n, t);
        if (q > best)
            best = q, *at = t;
    }
    return best;
}

/* Change points of x[0..n) into cps (count returned). */
static size_t edivisive(const double *x, size_t n, size_t m, unsigned B, double alpha,
                        struct cpsim *g, size_t *cps)
{
    size_t todo[2 * LABELS + 4], nt = 0, nc = 0;
    double perm[LABELS];
    todo[nt++] = 0, todo[nt++] = n;
    for (size_t h = 0; h < nt; h += 2) {
        size_t a = todo[h], b = todo[h + 1], len = b - a, at = 0, dummy;
        if (len < 2 * m)
            continue;
        double obs = energy_max(x + a, len, m, &at);
        unsigned ge = 0;
        memcpy(perm, x + a, len * sizeof *perm);
        for (unsigned k = 0; k < B; k++) {
            for (size_t i = len - 1; i > 0; i--) {
                size_t j = (size_t)(cpsim_u64(g) % (i + 1));
                double t = perm[i];
                perm[i] = perm[j], perm[j] = t;
            }
            ge += energy_max(perm, len, m, &dummy) >= obs;
        }
        if ((1.0 + ge) / (B + 1) > alpha)
            continue;
        cps[nc++] = a + at;
        todo[nt++] = a, todo[nt++] = a + at;
        todo[nt++] = a + at, todo[nt++] = b;
    }
    return nc;
}

/* ------------------------------------------------------------------ the table */

static double cov_lo = 0.05, cov_hi = 0.25;

static void spec_draw(struct cpsim *g, struct cpsim_spec *s, double step)
{
    memset(s, 0, sizeof *s);
    s->labels = LABELS;
    s->runs = RUNS;
    s->cov = cov_lo + (cov_hi - cov_lo) * cpsim_unif(g);
    s->r1 = 0.5 * cpsim_unif(g);
    s->tau = 0.02;
    s->shift_prob = 0.05;
    s->shift = 0.10 + 0.10 * cpsim_unif(g);
    if (step > 0) {
        s->step = step;
        s->step_at = 5 + (size_t)(cpsim_u64(g) % 21);
    }
}

/* z of the split at label k of the label means lm, their variance v known (after - before). */
static double split_z(const double *lm, size_t k, double v)
{
    double ml = 0, mr = 0;
    for (size_t i = 0; i < LABELS; i++) {
        if (i < k)
            ml += lm[i] / (double)k;
        else
            mr += lm[i] / (double)(LABELS - k);
    }
    return (mr - ml) / sqrt(v * (1.0 / (double)k + 1.0 / (double)(LABELS - k)));
}

/* The largest |z| over the splits that leave 3 labels a side, and where. */
static double max_split_z(const double *lm, double v, size_t *at)
{
    double best = -1;
    for (size_t k = 3; k + 3 <= LABELS; k++) {
        double z = fabs(split_z(lm, k, v));
        if (z > best)
            best = z, *at = k;
    }
    return best;
}

/* Its 95th percentile over independent N(0, 1) labels (20,000 series, own generator). */
static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double max_split_crit(void)
{
    enum { N = 20000 };
    static double t[N];
    struct cpsim g = {99};
    double lm[LABELS];
    size_t at;
    for (size_t s = 0; s < N; s++) {
        for (size_t i = 0; i < LABELS; i++)
            lm[i] = cpsim_normal(&g);
        t[s] = max_split_z(lm, 1, &at);
    }
    qsort(t, N, sizeof *t, cmp_dbl);
    return t[(size_t)(0.95 * N)];
}

static int table(unsigned nseries, uint64_t seed, unsigned perms)
{
    static const double steps[] = {0, 0.05, 0.10, 0.20};
    double crit = max_split_crit();
    printf("| series (30 labels x 5 runs) | n | fsbench history | E-Divisive on label means | "
           "ceiling: noise known | ceiling: noise and step's label known |\n");
    printf("|---|---:|---:|---:|---:|---:|\n");
    double t_ours = 0, t_ed = 0;
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        struct cpsim g = {seed + k * 1000003};
        unsigned hit_ours = 0, hit_ed = 0, hit_or = 0, hit_oru = 0;
        for (unsigned s = 0; s < nseries; s++) {
            struct cpsim_spec sp;
            spec_draw(&g, &sp, steps[k]);
            double x[LABELS * RUNS], mean[LABELS];
            struct cp_label lab[LABELS];
            cpsim_series(&g, &sp, x);
            for (size_t i = 0; i < LABELS; i++) {
                lab[i] = (struct cp_label){x + i * RUNS, RUNS};
                mean[i] = 0;
                for (size_t j = 0; j < RUNS; j++)
                    mean[i] += x[i * RUNS + j] / RUNS;
            }
            struct cp_options o;
            cp_options_default(&o);
            o.permutations = perms;
            o.seed = cpsim_u64(&g);
            struct cp_result r;
            clock_t c0 = clock();
            if (cp_detect(lab, LABELS, &o, &r) < 0)
                return error("cp_detect failed");
            clock_t c1 = clock();
            size_t cps[LABELS], nc = edivisive(mean, LABELS, 3, 199, 0.05, &g, cps);
            clock_t c2 = clock();
            t_ours += (double)(c1 - c0) / CLOCKS_PER_SEC;
            t_ed += (double)(c2 - c1) / CLOCKS_PER_SEC;
            if (steps[k] == 0) {
                hit_ours += r.nchanges > 0;
                hit_ed += nc > 0;
            } else {
                bool a = false, b = false;
                for (size_t c = 0; c < r.nchanges; c++)
                    a |= labs((long)r.changes[c].at - (long)sp.step_at) <= 1;
                for (size_t c = 0; c < nc; c++)
                    b |= labs((long)cps[c] - (long)sp.step_at) <= 1;
                hit_ours += a;
                hit_ed += b;
            }
            /* the ceilings: the noise's variance known, and the step's label too (one-sided
             * z at 5 %) or not (the largest |z| of a split, the critical value for Gaussian
             * labels): no detector that is not told them can do better */
            {
                double sig2 = log(1 + sp.cov * sp.cov), f = 1, rk = 1;
                for (size_t l = 1; l < RUNS; l++)
                    rk *= sp.r1, f += 2.0 * (double)(RUNS - l) / RUNS * rk;
                double ls = log(1 + sp.shift);
                double v = sp.tau * sp.tau + sig2 / RUNS * f + sp.shift_prob * ls * ls;
                double lm[LABELS];
                for (size_t i = 0; i < LABELS; i++) {
                    lm[i] = 0;
                    for (size_t j = 0; j < RUNS; j++)
                        lm[i] += log(x[i * RUNS + j]) / RUNS;
                }
                size_t at = sp.step_at ? sp.step_at : LABELS / 2, kat = 0;
                hit_or += split_z(lm, at, v) > 1.6449;
                double t = max_split_z(lm, v, &kat);
                if (steps[k] == 0)
                    hit_oru += t > crit;
                else
                    hit_oru += t > crit && labs((long)kat - (long)sp.step_at) <= 1;
            }
            cp_result_free(&r);
        }
        if (steps[k] == 0)
            printf("| no change: series with a false alarm | %u | %.1f %% | %.1f %% | %.1f %% | "
                   "%.1f %% |\n",
                   nseries, 100.0 * hit_ours / nseries, 100.0 * hit_ed / nseries,
                   100.0 * hit_oru / nseries, 100.0 * hit_or / nseries);
        else
            printf("| step of %.0f %%: found within one label | %u | %.1f %% | %.1f %% | %.1f %% | "
                   "%.1f %% |\n",
                   steps[k] * 100, nseries, 100.0 * hit_ours / nseries,
                   100.0 * hit_ed / nseries, 100.0 * hit_oru / nseries,
                   100.0 * hit_or / nseries);
        fflush(stdout);
    }
    printf("\nprocessor time: fsbench history's detector %.2f s, E-Divisive %.2f s (%u series "
           "each); the noise-known ceiling's critical |z|: %.2f\n",
           t_ours, t_ed, 4 * nseries, crit);
    return 0;
}

/* ------------------------------------------------------------------ run sets */

/* Fills rs (the template, loaded) with label's runs: every phase's times scaled by level and
 * each run's noise. */
static int fill_set(const struct run_set *tpl, struct run_set *rs, const char *label,
                    double created, unsigned runs, const double *factor)
{
    *rs = *tpl;
    rs->runs = NULL;
    rs->nruns = 0;
    snprintf(rs->label, sizeof rs->label, "%s", label);
    rs->created = created;
    const struct run_result *r0 = &tpl->runs[0];
    for (unsigned r = 0; r < runs; r++) {
        struct run_result *run = run_set_add_run(rs, r0->nphases);
        if (!run)
            return -1;
        run->index = r;
        run->round = r;
        run->started = created + r;
        for (size_t p = 0; p < r0->nphases; p++) {
            struct phase_result *ph = &run->phases[p];
            snprintf(ph->name, sizeof ph->name, "%s", r0->phases[p].name);
            ph->status = PHASE_OK;
            double base = r0->phases[p].wall_s > 0.01 ? r0->phases[p].wall_s : 0.01;
            ph->wall_s = base * factor[r];
            ph->user_s = 0.2 * ph->wall_s;
            ph->sys_s = 0.5 * ph->wall_s;
            ph->ops_total = r0->phases[p].ops_total;
        }
    }
    return 0;
}

/* --json: N series of 30 labels written as run sets S{s}-L{l}.json, and truth.txt (a line per
 * series: its prefix and the first label after the step, or -). */
static int write_json(const char *tplpath, const char *dir, unsigned nseries, double step,
                      uint64_t seed)
{
    struct run_set *tpl = calloc(1, sizeof *tpl), *rs = calloc(1, sizeof *rs);
    if (!tpl || !rs || resjson_read_file(tplpath, tpl) < 0 || tpl->nruns == 0)
        return error("%s: cannot read a run set", tplpath);
    char path[4096];
    snprintf(path, sizeof path, "%s/truth.txt", dir);
    FILE *truth = fopen(path, "w");
    if (!truth)
        return error_errno("%s", path);
    struct cpsim g = {seed};
    for (unsigned s = 0; s < nseries; s++) {
        struct cpsim_spec sp;
        spec_draw(&g, &sp, step);
        double x[LABELS * RUNS];
        cpsim_series(&g, &sp, x);
        fprintf(truth, "s%03u-", s);
        if (sp.step_at)
            fprintf(truth, " s%03u-l%02zu\n", s, sp.step_at);
        else
            fprintf(truth, " -\n");
        for (size_t l = 0; l < LABELS; l++) {
            char label[64];
            snprintf(label, sizeof label, "s%03u-l%02zu", s, l);
            if (fill_set(tpl, rs, label, tpl->created + 60.0 * (double)l, RUNS, x + l * RUNS) < 0)
                return -1;
            snprintf(path, sizeof path, "%s/%s.json", dir, label);
            int rc = resjson_write_file(rs, path);
            rs->nmeta = 0;
            run_set_free(rs);
            if (rc < 0)
                return -1;
        }
    }
    fclose(truth);
    run_set_free(tpl);
    free(tpl);
    free(rs);
    return 0;
}

/* --store: L labels of R runs each, stored directly (the scale row). */
static int write_store(const char *tplpath, const char *db, unsigned nlabels, unsigned runs)
{
    struct run_set *tpl = calloc(1, sizeof *tpl), *rs = calloc(1, sizeof *rs);
    if (!tpl || !rs || resjson_read_file(tplpath, tpl) < 0 || tpl->nruns == 0)
        return error("%s: cannot read a run set", tplpath);
    struct store *s = store_open(db);
    if (!s)
        return -1;
    struct cpsim g = {42};
    double f[1000];
    for (unsigned l = 0; l < nlabels; l++) {
        char label[64];
        snprintf(label, sizeof label, "L-%05u", l);
        for (unsigned r = 0; r < runs && r < 1000; r++)
            f[r] = exp(0.05 * cpsim_normal(&g)) * (l >= nlabels / 2 ? 1.1 : 1.0);
        if (fill_set(tpl, rs, label, tpl->created + 60.0 * l, runs, f) < 0 ||
            store_save_set(s, rs, NULL) < 0)
            return -1;
        run_set_free(rs);
    }
    store_close(s);
    run_set_free(tpl);
    free(tpl);
    free(rs);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned nseries = 500, perms = 999, labels = 1000, runs = 10;
    uint64_t seed = 1;
    double step = 0;
    const char *json_tpl = NULL, *json_dir = NULL, *store_tpl = NULL, *store_db = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--series") && i + 1 < argc)
            nseries = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--perms") && i + 1 < argc)
            perms = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cov") && i + 1 < argc &&
                 sscanf(argv[i + 1], "%lf,%lf", &cov_lo, &cov_hi) == 2)
            i++, cov_lo /= 100, cov_hi /= 100;
        else if (!strcmp(argv[i], "--step") && i + 1 < argc)
            step = atof(argv[++i]) / 100;
        else if (!strcmp(argv[i], "--labels") && i + 1 < argc)
            labels = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json") && i + 2 < argc)
            json_tpl = argv[++i], json_dir = argv[++i];
        else if (!strcmp(argv[i], "--store") && i + 2 < argc)
            store_tpl = argv[++i], store_db = argv[++i];
        else
            return error("history_sim: unknown argument '%s'", argv[i]), 2;
    }
    if (json_tpl)
        return write_json(json_tpl, json_dir, nseries, step, seed) < 0;
    if (store_tpl)
        return write_store(store_tpl, store_db, labels, runs) < 0;
    return table(nseries, seed, perms) < 0;
}
