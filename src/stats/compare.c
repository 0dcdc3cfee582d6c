/* compare.c — from run sets to per-phase comparisons with verdicts (see compare.h).
 *
 * Never prints except through error() on failure; the report lives in report_compare.c.
 * Invariants: a sample holds only measured runs (no warmup, phase OK, metric available);
 * every array in a cmp_result is owned by it and freed by cmp_result_free().
 */
#include "stats/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "stats/negligible.h"

static const struct cmp_metric_info metrics[CMP_NMETRICS] = {
    [CMP_WALL] = {"wall", "s", CMP_KIND_TIME, STATS_LOWER_BETTER},
    [CMP_USER] = {"user", "s", CMP_KIND_TIME, STATS_LOWER_BETTER},
    [CMP_SYS] = {"sys", "s", CMP_KIND_TIME, STATS_LOWER_BETTER},
    [CMP_CPU] = {"cpu", "s", CMP_KIND_TIME, STATS_LOWER_BETTER},
    [CMP_OPS] = {"ops", "ops/s", CMP_KIND_RATE, STATS_HIGHER_BETTER},
    [CMP_MBPS] = {"mbps", "MB/s", CMP_KIND_RATE, STATS_HIGHER_BETTER},
    [CMP_DEV_WRITES] = {"dev-writes", "ios", CMP_KIND_COUNT, STATS_LOWER_BETTER},
    [CMP_DEV_READS] = {"dev-reads", "ios", CMP_KIND_COUNT, STATS_LOWER_BETTER},
    [CMP_DEV_WRITE_MB] = {"dev-write-mb", "MB", CMP_KIND_COUNT, STATS_LOWER_BETTER},
};

int cmp_metric_find(const char *name)
{
    for (int i = 0; i < CMP_NMETRICS; i++)
        if (strcmp(metrics[i].name, name) == 0)
            return i;
    return -1;
}

const struct cmp_metric_info *cmp_metric_get(enum cmp_metric m)
{
    return (unsigned)m < CMP_NMETRICS ? &metrics[m] : NULL;
}

int cmp_metric_value(const struct phase_result *p, enum cmp_metric m, double *out)
{
    switch (m) {
    case CMP_WALL:
        *out = p->wall_s;
        return 0;
    case CMP_USER:
        *out = p->user_s;
        return 0;
    case CMP_SYS:
        *out = p->sys_s;
        return 0;
    case CMP_CPU:
        *out = p->user_s + p->sys_s;
        return 0;
    case CMP_OPS:
        if (!(p->wall_s > 0))
            return 1;
        *out = (double)p->ops_total / p->wall_s;
        return 0;
    case CMP_MBPS:
        if (!(p->wall_s > 0))
            return 1;
        *out = (double)(p->bytes_read + p->bytes_written) / p->wall_s / 1e6;
        return 0;
    case CMP_DEV_WRITES:
    case CMP_DEV_READS:
    case CMP_DEV_WRITE_MB:
        if (!p->dev.valid)
            return 1;
        *out = m == CMP_DEV_WRITES  ? (double)p->dev.wr_ios
               : m == CMP_DEV_READS ? (double)p->dev.rd_ios
                                    : (double)p->dev.wr_sectors * 512 / 1e6;
        return 0;
    case CMP_NMETRICS:
        break;
    }
    return 1;
}

/* ------------------------------------------------------------------ groups */

static bool run_in_group(const struct run_result *run, const struct cmp_group *g)
{
    return !g->by_config || strcmp(run->config, g->config) == 0;
}

/* Distinct configuration names of rs in order of first appearance, into *cfgs
 * (pointers into rs). Returns the count, or -1 when out of memory. */
static long distinct_configs(const struct run_set *rs, const char ***cfgs)
{
    const char **c = malloc((rs->nruns ? rs->nruns : 1) * sizeof *c);
    if (!c)
        return -1;
    long k = 0;
    /* Declared order first (the first declared is the baseline), then any others. */
    for (const char *p = rs->target.configs; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        for (size_t i = 0; i < rs->nruns; i++) {
            const char *cfg = rs->runs[i].config;
            if (strlen(cfg) != n || strncmp(cfg, p, n))
                continue;
            long j = 0;
            while (j < k && strcmp(c[j], cfg) != 0)
                j++;
            if (j == k)
                c[k++] = cfg;
            break;
        }
        p += n + (nl != NULL);
    }
    for (size_t i = 0; i < rs->nruns; i++) {
        long j = 0;
        while (j < k && strcmp(c[j], rs->runs[i].config) != 0)
            j++;
        if (j == k)
            c[k++] = rs->runs[i].config;
    }
    *cfgs = c;
    return k;
}

static int add_group(struct cmp_result *r, size_t input, const char *name, const char *config)
{
    struct cmp_group *g = realloc(r->groups, (r->ngroups + 1) * sizeof *g);
    if (!g)
        return error("out of memory");
    r->groups = g;
    g = &g[r->ngroups++];
    memset(g, 0, sizeof *g);
    g->input = input;
    text_escape(g->name, sizeof g->name, name); /* a name to print: control characters escaped */
    if (config) {
        g->by_config = true;
        snprintf(g->config, sizeof g->config, "%s", config);
    }
    return 0;
}

static int make_groups(const struct cmp_input *in, size_t nin, struct cmp_result *r)
{
    for (size_t i = 0; i < nin; i++) {
        const char **cfgs;
        long k = distinct_configs(in[i].rs, &cfgs);
        if (k < 0)
            return error("out of memory");
        int rc = 0;
        if (nin > 1 && k <= 1) {
            rc = add_group(r, i, in[i].name, NULL);
        } else {
            for (long j = 0; j < k && rc == 0; j++) {
                char name[sizeof r->groups[0].name];
                const char *cfg = cfgs[j][0] ? cfgs[j] : "default";
                if (nin > 1)
                    snprintf(name, sizeof name, "%s:%s", in[i].name, cfg);
                else
                    snprintf(name, sizeof name, "%s", cfg);
                rc = add_group(r, i, name, cfgs[j]);
            }
        }
        free(cfgs);
        if (rc)
            return -1;
    }
    if (r->ngroups < 2) {
        if (nin == 1)
            return error("compare: '%s' holds one configuration only; nothing to compare "
                         "it with (name a second label or JSON file)",
                         in[0].name);
        return error("compare: nothing to compare");
    }
    return 0;
}

/* ------------------------------------------------------------------ phases */

/* The `occ`-th phase called `name` in run, or NULL. */
static const struct phase_result *find_phase(const struct run_result *run, const char *name,
                                             unsigned occ)
{
    unsigned seen = 0;
    for (size_t i = 0; i < run->nphases; i++)
        if (strcmp(run->phases[i].name, name) == 0 && seen++ == occ)
            return &run->phases[i];
    return NULL;
}

static int make_phases(const struct cmp_input *in, struct cmp_result *r)
{
    const struct cmp_group *g0 = &r->groups[0];
    const struct run_set *rs = in[g0->input].rs;
    const struct run_result *first = NULL;
    for (size_t i = 0; i < rs->nruns && !first; i++)
        if (!rs->runs[i].warmup && run_in_group(&rs->runs[i], g0))
            first = &rs->runs[i];
    if (!first)
        return error("compare: '%s' has no measured runs (only warmup runs, or none)", g0->name);
    r->phases = calloc(first->nphases ? first->nphases : 1, sizeof *r->phases);
    if (!r->phases)
        return error("out of memory");
    for (size_t i = 0; i < first->nphases; i++) {
        struct cmp_phase *ph = &r->phases[r->nphases++];
        const char *name = first->phases[i].name;
        unsigned occ = 0;
        for (size_t j = 0; j < i; j++)
            occ += strcmp(first->phases[j].name, name) == 0;
        snprintf(ph->base, sizeof ph->base, "%s", name);
        ph->occurrence = occ;
        if (occ)
            snprintf(ph->name, sizeof ph->name, "%s (%u)", text_shown(name), occ + 1);
        else
            snprintf(ph->name, sizeof ph->name, "%s", text_shown(name));
        ph->s = calloc(r->ngroups, sizeof *ph->s);
        ph->vs = calloc(r->ngroups, sizeof *ph->vs);
        if (!ph->s || !ph->vs)
            return error("out of memory");
    }
    return 0;
}

void cmp_options_for_set(struct cmp_options *opt, const struct run_set *rs, bool conf_given,
                         bool effect_given)
{
    if (!rs->stop.method[0])
        return;
    if (!conf_given)
        opt->confidence = rs->stop.confidence;
    if (!effect_given)
        opt->min_effect = rs->stop.min_effect;
}

int cmp_find_phase(const struct cmp_result *r, const char *name)
{
    for (size_t i = 0; i < r->nphases; i++)
        if (strcmp(r->phases[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* ------------------------------------------------------------------ samples */

static int fill_sample(const struct run_set *rs, const struct cmp_group *g, struct cmp_phase *ph,
                       enum cmp_metric metric, struct cmp_sample *s)
{
    size_t cap = rs->nruns ? rs->nruns : 1;
    s->values = malloc(cap * sizeof *s->values);
    s->rounds = malloc(cap * sizeof *s->rounds);
    s->occ = malloc(cap * sizeof *s->occ);
    unsigned *seen_rounds = malloc(cap * sizeof *seen_rounds);
    if (!s->values || !s->rounds || !s->occ || !seen_rounds) {
        free(seen_rounds);
        return error("out of memory");
    }
    size_t nseen = 0;
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *run = &rs->runs[i];
        if (!run_in_group(run, g))
            continue;
        /* k-th run of this round within the group, counting every run of the group */
        unsigned occ = 0;
        for (size_t j = 0; j < nseen; j++)
            occ += seen_rounds[j] == run->round;
        seen_rounds[nseen++] = run->round;
        if (run->warmup) {
            s->warmup++;
            continue;
        }
        const struct phase_result *p = find_phase(run, ph->base, ph->occurrence);
        if (!p || p->status != PHASE_OK) {
            bool failed = p && p->status == PHASE_FAILED;
            if (failed)
                s->failed++;
            else
                s->skipped++;
            /* a failure says more than a skip: it replaces a skip's note */
            if (!s->note[0] || (failed && s->failed == 1))
                snprintf(s->note, sizeof s->note, "%s",
                         p && p->note[0] ? p->note
                         : failed        ? "failed"
                         : p             ? "skipped"
                                         : "phase missing in a run");
            continue;
        }
        double v;
        if (cmp_metric_value(p, metric, &v)) {
            s->unavailable++;
            continue;
        }
        s->values[s->n] = v;
        s->rounds[s->n] = run->round;
        s->occ[s->n] = occ;
        s->n++;
    }
    free(seen_rounds);
    if (s->n)
        stats_summarize(s->values, s->n, &s->sum);
    return 0;
}

static bool all_positive(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0) || !isfinite(x[i]))
            return false;
    return true;
}

/* k-th run of the round of rs->runs[i] within group g (counting every run of g). */
static unsigned round_occurrence(const struct run_set *rs, const struct cmp_group *g, size_t i)
{
    unsigned occ = 0;
    for (size_t j = 0; j < i; j++)
        occ += run_in_group(&rs->runs[j], g) && rs->runs[j].round == rs->runs[i].round;
    return occ;
}

/* Whether groups ga and gb of one run set ran interleaved in rounds: taking their runs in
 * stored (time) order, the key (occurrence, round) never goes back. Sharing round numbers
 * is not enough: a runner told not to interleave numbers each configuration's batch
 * 0, 1, 2, ... as well, and pairing those would pair runs made far apart. */
static bool runs_interleaved(const struct run_set *rs, const struct cmp_group *ga,
                             const struct cmp_group *gb)
{
    unsigned prev_occ = 0, prev_round = 0;
    bool first = true;
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct cmp_group *g = run_in_group(&rs->runs[i], ga)   ? ga
                                    : run_in_group(&rs->runs[i], gb) ? gb
                                                                     : NULL;
        if (!g)
            continue;
        unsigned occ = round_occurrence(rs, g, i), round = rs->runs[i].round;
        if (!first && (occ < prev_occ || (occ == prev_occ && round < prev_round)))
            return false;
        first = false;
        prev_occ = occ;
        prev_round = round;
    }
    return true;
}

/* Compares group g's sample with the baseline's for one phase. */
static int compare_one(const struct cmp_input *in, struct cmp_result *r, struct cmp_phase *ph,
                       size_t g)
{
    const struct cmp_sample *a = &ph->s[0], *b = &ph->s[g];
    struct cmp_vs *vs = &ph->vs[g];
    double conf = r->opt.confidence;
    if (a->n == 0 && a->unavailable) {
        vs->status = CMP_ST_UNAVAILABLE;
        return 0;
    }
    if (b->n == 0 && b->unavailable) {
        vs->status = CMP_ST_UNAVAILABLE;
        return 0;
    }
    /* Pairs by (round, occurrence); only groups of the same input can pair. */
    size_t np = 0;
    double *pa = NULL, *pb = NULL;
    const struct cmp_group *ga = &r->groups[0], *gb = &r->groups[g];
    if (ga->input == gb->input && a->n && b->n && runs_interleaved(in[ga->input].rs, ga, gb)) {
        pa = malloc(a->n * sizeof *pa);
        pb = malloc(a->n * sizeof *pb);
        if (!pa || !pb) {
            free(pa);
            free(pb);
            return error("out of memory");
        }
        for (size_t i = 0; i < a->n; i++)
            for (size_t j = 0; j < b->n; j++)
                if (a->rounds[i] == b->rounds[j] && a->occ[i] == b->occ[j]) {
                    pa[np] = a->values[i];
                    pb[np] = b->values[j];
                    np++;
                    break;
                }
    }
    int rc;
    /* a set that stopped by looking after every round: the sequential method, whose
     * interval and p-value allow for the looking (seqtest.h) */
    const struct stop_rule *stop = &in[ga->input].rs->stop;
    if (np >= 2) {
        vs->interleaved = true;
        vs->npairs = np;
        vs->n_min = stats_min_runs(STATS_PAIRED, conf);
        vs->few = np < vs->n_min;
        if (!all_positive(pa, np) || !all_positive(pb, np))
            vs->status = CMP_ST_NONPOSITIVE;
        if (vs->status != CMP_ST_OK) {
            rc = 0;
        } else if (stop->method[0]) {
            struct seq_design dz = {stop->mixture_var, stop->max_rounds};
            rc = seq_paired_log(pa, pb, np, &dz, conf, &vs->ratio);
            r->sequential = true;
        } else {
            rc = stats_paired_log(pa, pb, np, conf, &vs->ratio);
        }
    } else {
        vs->interleaved = false;
        r->any_batch = true;
        vs->n_min = stats_min_runs(STATS_BATCH, conf);
        vs->few = a->n < vs->n_min || b->n < vs->n_min;
        if (a->n < 2 || b->n < 2)
            vs->status = CMP_ST_TOO_FEW;
        else if (!all_positive(a->values, a->n) || !all_positive(b->values, b->n))
            vs->status = CMP_ST_NONPOSITIVE;
        rc = vs->status == CMP_ST_OK
                 ? stats_batch_log(a->values, a->n, b->values, b->n, conf, &vs->ratio)
                 : 0;
    }
    free(pa);
    free(pb);
    if (rc)
        vs->status = CMP_ST_TOO_FEW;
    if (vs->status == CMP_ST_OK) {
        stats_verdict(&vs->ratio, cmp_metric_get(r->opt.metric)->sense, r->opt.min_effect,
                      &vs->verdict);
        vs->state = seq_state_of(&vs->ratio, r->opt.min_effect);
    }
    return 0;
}

const char *cmp_vs_mark(const struct cmp_vs *vs)
{
    if (vs->status != CMP_ST_OK)
        return "?";
    switch (vs->withheld) {
    case CMP_WH_DIFFERENT_WORK:
        return "!";
    case CMP_WH_NEGLIGIBLE:
        return "_";
    case CMP_WH_FEW:
        return "?";
    case CMP_WH_NONE:
        break;
    }
    switch (vs->verdict.kind) {
    case STATS_BETTER:
    case STATS_WORSE:
        return "*";
    case STATS_BELOW_EFFECT:
        return "~";
    case STATS_NO_DIFFERENCE:
        break;
    }
    if (vs->ratio.method == STATS_SEQUENTIAL)
        return vs->state == SEQ_FUTILE ? "=" : "?";
    return "o";
}

bool cmp_vs_shown(const struct cmp_vs *vs)
{
    return !strcmp(cmp_vs_mark(vs), "*");
}

void cmp_group_letter(char *buf, size_t len, size_t g)
{
    if (g < 26)
        snprintf(buf, len, "%c", (int)('A' + g));
    else if (g < 26 + 26 * 26)
        snprintf(buf, len, "%c%c", (int)('A' + (g - 26) / 26), (int)('A' + (g - 26) % 26));
    else
        snprintf(buf, len, "G%zu", g + 1);
}

/* Why group g's verdict for phase ph is withheld, if it is. */
static enum cmp_withheld withheld(const struct cmp_result *r, const struct cmp_phase *ph, size_t g)
{
    const struct cmp_vs *vs = &ph->vs[g];
    if (r->groups[g].input != r->groups[0].input && r->diffs[g].work &&
        !r->policy.allow_different_work)
        return CMP_WH_DIFFERENT_WORK;
    double floor = cmp_negligible_floor(r);
    if (cmp_metric_get(r->opt.metric)->kind == CMP_KIND_TIME && ph->s[0].n && ph->s[g].n &&
        stats_negligible(ph->s[0].sum.median, ph->s[g].sum.median, floor))
        return CMP_WH_NEGLIGIBLE;
    if (vs->few)
        return CMP_WH_FEW;
    return CMP_WH_NONE;
}

/* Refuses a group that ran none of the baseline's phases: there is nothing to compare. */
static int check_common_phases(const struct cmp_input *in, const struct cmp_result *r)
{
    for (size_t g = 1; g < r->ngroups; g++) {
        const struct cmp_group *gg = &r->groups[g];
        const struct run_set *rs = in[gg->input].rs;
        bool common = false, any = false;
        for (size_t i = 0; i < rs->nruns && !common; i++) {
            if (rs->runs[i].warmup || !run_in_group(&rs->runs[i], gg))
                continue;
            any = true;
            for (size_t p = 0; p < r->nphases && !common; p++)
                common = find_phase(&rs->runs[i], r->phases[p].base, 0) != NULL;
        }
        if (any && !common)
            return error("compare: '%s' and '%s' have no phase in common: nothing to compare "
                         "(phases of %s: %s)",
                         gg->name, r->groups[0].name, r->groups[0].name,
                         r->nphases ? r->phases[0].name : "none");
    }
    return 0;
}

/* What differs between each group and the baseline, into out->diffs. */
static int find_diffs(const struct cmp_input *in, struct cmp_result *out)
{
    out->diffs = calloc(out->ngroups, sizeof *out->diffs);
    if (!out->diffs)
        return error("out of memory");
    const struct cmp_group *g0 = &out->groups[0];
    struct workdiff_side a = {in[g0->input].rs, g0->by_config ? g0->config : NULL};
    for (size_t g = 1; g < out->ngroups; g++) {
        const struct cmp_group *gg = &out->groups[g];
        struct workdiff_side b = {in[gg->input].rs, gg->by_config ? gg->config : NULL};
        bool same = gg->input == g0->input;
        workdiff_compare(&a, &b, same, &out->diffs[g]);
        out->any_different_work |= !same && out->diffs[g].work;
    }
    return 0;
}

/* The first failed run of each group, into out->failures. 0, or -1 after error(). */
static int find_failures(const struct cmp_input *in, struct cmp_result *out)
{
    out->failures = calloc(out->ngroups ? out->ngroups : 1, sizeof *out->failures);
    if (!out->failures)
        return error("out of memory");
    for (size_t g = 0; g < out->ngroups; g++) {
        const struct run_set *rs = in[out->groups[g].input].rs;
        bool found = false;
        for (size_t i = 0; i < rs->nruns && !found; i++) {
            const struct run_result *run = &rs->runs[i];
            if (run->interrupted || !run_in_group(run, &out->groups[g]))
                continue;
            for (size_t p = 0; p < run->nphases && !found; p++) {
                const struct phase_result *ph = &run->phases[p];
                if (ph->status != PHASE_FAILED)
                    continue;
                struct cmp_failure *f = &out->failures[out->nfailures++];
                f->group = g;
                f->round = run->round;
                f->run = (unsigned)i;
                snprintf(f->phase, sizeof f->phase, "%s", ph->name);
                snprintf(f->note, sizeof f->note, "%s", ph->note);
                found = true;
            }
        }
    }
    return 0;
}

int cmp_build(const struct cmp_input *in, size_t nin, const struct cmp_options *opt,
              struct cmp_result *out)
{
    return cmp_build_with(in, nin, opt, NULL, out);
}

double cmp_negligible_floor(const struct cmp_result *r)
{
    double f = r->policy.negligible_s;
    return f == 0 ? STATS_NEGLIGIBLE_DEFAULT_S : f < 0 ? 0 : f;
}

int cmp_build_with(const struct cmp_input *in, size_t nin, const struct cmp_options *opt,
                   const struct cmp_policy *policy, struct cmp_result *out)
{
    memset(out, 0, sizeof *out);
    out->opt = *opt;
    if (policy)
        out->policy = *policy;
    if (nin == 0)
        return error("compare: nothing to compare");
    if ((unsigned)opt->metric >= CMP_NMETRICS)
        return error("compare: unknown metric");
    if (make_groups(in, nin, out) || make_phases(in, out) || find_failures(in, out) ||
        check_common_phases(in, out) || find_diffs(in, out))
        return -1;
    for (size_t p = 0; p < out->nphases; p++) {
        struct cmp_phase *ph = &out->phases[p];
        for (size_t g = 0; g < out->ngroups; g++)
            if (fill_sample(in[out->groups[g].input].rs, &out->groups[g], ph, opt->metric,
                            &ph->s[g]))
                return -1;
        bool batch_involved[out->ngroups];
        memset(batch_involved, 0, sizeof batch_involved);
        for (size_t g = 1; g < out->ngroups; g++) {
            if (compare_one(in, out, ph, g))
                return -1;
            if (ph->vs[g].status == CMP_ST_OK)
                ph->vs[g].withheld = withheld(out, ph, g);
            if (!ph->vs[g].interleaved)
                batch_involved[0] = batch_involved[g] = true;
        }
        for (size_t g = 0; g < out->ngroups; g++) {
            struct cmp_sample *s = &ph->s[g];
            if (s->n == 0)
                continue;
            size_t n_min =
                stats_min_runs(batch_involved[g] ? STATS_BATCH : STATS_PAIRED, opt->confidence);
            stats_check(s->values, s->n, &s->sum, n_min, &s->warn);
        }
    }
    return 0;
}

void cmp_result_free(struct cmp_result *r)
{
    for (size_t p = 0; p < r->nphases; p++) {
        struct cmp_phase *ph = &r->phases[p];
        for (size_t g = 0; ph->s && g < r->ngroups; g++) {
            free(ph->s[g].values);
            free(ph->s[g].rounds);
            free(ph->s[g].occ);
        }
        free(ph->s);
        free(ph->vs);
    }
    free(r->phases);
    free(r->groups);
    free(r->failures);
    free(r->diffs);
    memset(r, 0, sizeof *r);
}
