/* html_model.c — the data the HTML report draws, as one JSON object (see html.h):
 *
 *   inputs    [{label, scenario, engine, created, runs, command_line}]
 *   machine, target, tree   of the first input; machines_differ when inputs disagree
 *   groups    [name]        compare's groups, the baseline first
 *   phases    [{name,
 *               runs   [[group, wall s, run index, round]]      every measured run
 *               med    [[group, median, lo, hi, reached, n]]    95 % interval of the median
 *               tl     [{g, run, dev, t[], ops[], mb[], rd[], wr[], inf[]}]  per group, the
 *                      run nearest the median: ops/s, MB/s, device MB/s read and written,
 *                      requests in flight, between kept points
 *               stalls [[group, run, start s, length s, busy (1, 0, -1 no device), ops]]
 *               lat    [{kind, ns, rows [[group, p50, p90, p99, p99.9, max]]}]  ns, medians
 *                      over the runs (max: the largest); kinds in order of the time they
 *                      took (ns: count x mean latency summed over every run)}]
 *   verdicts  [{phase, group, cls, text, ratio, lo, hi, p, method, warn [indices]}]; cls
 *             better, worse, small, same or few, as compare's matrix marks the cell
 *   matrix    {legend, rows [[cell per group]]}  compare's matrix, as it prints it
 *   warnings  [{text, places}], advice [text], metric {name, unit, lower_better, better,
 *             worse}, confidence, min_effect
 *
 * Strings from the run sets go through U() (text_shown: control characters and bytes that
 * are not UTF-8 escaped), so every one is valid UTF-8 for jansson whatever was stored, and
 * numbers that are not finite become null: the page's data is built from any run set.
 */
#include "report/html.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "measure/stall.h"
#include "stats/median_ci.h"
#include "stats/stats.h"

#define U(s) text_shown(s)

struct phase_ref {
    char name[RES_NAME_MAX + 16];
    char base[RES_NAME_MAX];
    unsigned occ;
};

struct model {
    const struct cmp_input *in;
    size_t nin;
    const struct cmp_result *r;
    struct cmp_group one; /* the group when r is NULL */
    size_t ngroups;
    const struct cmp_group *groups;
    struct phase_ref *ph;
    size_t nph;
    size_t points;
    int bad;
};

static int put(json_t *o, const char *k, json_t *v)
{
    return v ? json_object_set_new(o, k, v) != 0 : 1;
}

static int push(json_t *a, json_t *v)
{
    return v ? json_array_append_new(a, v) != 0 : 1;
}

/* A number rounded to 5 significant digits (the page shows 3-4; keeps the file small). */
static json_t *num(double v)
{
    if (!isfinite(v))
        return json_null();
    if (v == 0)
        return json_integer(0);
    double m = pow(10, 4 - floor(log10(fabs(v))));
    return json_real(round(v * m) / m);
}

static const struct phase_result *run_phase(const struct run_result *run,
                                            const struct phase_ref *p)
{
    unsigned seen = 0;
    for (size_t k = 0; k < run->nphases; k++)
        if (!strcmp(run->phases[k].name, p->base) && seen++ == p->occ)
            return &run->phases[k];
    return NULL;
}

static bool in_group(const struct cmp_group *g, const struct run_result *run)
{
    return !g->by_config || !strcmp(run->config, g->config);
}

/* The phase list when there is no comparison: the first measured run's, with
 * occurrences numbered as compare numbers them. */
static int own_phases(struct model *m)
{
    const struct run_set *rs = m->in[0].rs;
    const struct run_result *first = NULL;
    for (size_t i = 0; i < rs->nruns && !first; i++)
        if (!rs->runs[i].warmup && rs->runs[i].nphases)
            first = &rs->runs[i];
    if (!first)
        return 0;
    m->ph = calloc(first->nphases, sizeof *m->ph);
    if (!m->ph)
        return error("out of memory");
    for (size_t k = 0; k < first->nphases; k++) {
        struct phase_ref *p = &m->ph[m->nph++];
        snprintf(p->base, sizeof p->base, "%s", first->phases[k].name);
        for (size_t j = 0; j < k; j++)
            p->occ += !strcmp(first->phases[j].name, p->base);
        if (p->occ)
            snprintf(p->name, sizeof p->name, "%s (%u)", U(p->base), p->occ + 1);
        else
            snprintf(p->name, sizeof p->name, "%s", U(p->base));
    }
    return 0;
}

/* A real as it is (a timestamp, a scale), or null when not finite. */
static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *machine_json(const struct machine_info *mi)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:i, s:f, s:I, s:I, s:I, s:I}", "hostname",
                     U(mi->hostname), "kernel", U(mi->kernel), "arch", U(mi->arch), "cpu",
                     U(mi->cpu),
                     "cpus", mi->ncpu, "ram_gib", (double)mi->ram_bytes / (1u << 30),
                     "dirty_ratio", (json_int_t)mi->dirty_ratio, "dirty_background_ratio",
                     (json_int_t)mi->dirty_background_ratio, "dirty_expire_centisecs",
                     (json_int_t)mi->dirty_expire_centisecs, "vfs_cache_pressure",
                     (json_int_t)mi->vfs_cache_pressure);
}

static json_t *describe(struct model *m, json_t *o)
{
    const struct run_set *rs = m->in[0].rs;
    json_t *inputs = json_array();
    bool differ = false;
    for (size_t i = 0; inputs && i < m->nin; i++) {
        const struct run_set *s = m->in[i].rs;
        /* the label, not the argument: a label and its exported JSON give one page */
        m->bad |= push(inputs, json_pack("{s:s, s:s, s:s, s:o, s:I, s:s}", "label",
                                         U(s->label[0] ? s->label : m->in[i].name), "scenario",
                                         U(s->scenario), "engine", U(s->engine), "created",
                                         real_or_null(s->created), "runs", (json_int_t)s->nruns,
                                         "command_line", U(s->command_line)));
        differ |= strcmp(s->machine.hostname, rs->machine.hostname) ||
                  strcmp(s->machine.kernel, rs->machine.kernel);
    }
    m->bad |= put(o, "inputs", inputs);
    m->bad |= put(o, "machine", machine_json(&rs->machine));
    m->bad |= put(o, "machines_differ", json_boolean(differ));
    const struct target_info *t = &rs->target;
    m->bad |= put(o, "target", json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "path", U(t->path),
                                         "fstype", U(t->fstype), "mount_opts", U(t->mount_opts),
                                         "device", U(t->device), "blockdev", U(t->blockdev),
                                         "configs", t->configs));
    const struct tree_info *ti = &rs->tree;
    m->bad |= put(o, "tree", json_pack("{s:s, s:o, s:I, s:I, s:I, s:I, s:I}", "profile",
                                       U(ti->profile), "scale", real_or_null(ti->scale), "seed",
                                       (json_int_t)ti->seed, "files", (json_int_t)ti->files,
                                       "dirs", (json_int_t)ti->dirs, "symlinks",
                                       (json_int_t)ti->symlinks, "bytes", (json_int_t)ti->bytes));
    return o;
}

/* The measured results of phase p in group g, with their run indices. */
static size_t collect(struct model *m, size_t g, const struct phase_ref *p,
                      const struct phase_result **out, size_t *idx)
{
    const struct cmp_group *grp = &m->groups[g];
    const struct run_set *rs = m->in[grp->input].rs;
    size_t n = 0;
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *run = &rs->runs[i];
        if (run->warmup || !in_group(grp, run))
            continue;
        const struct phase_result *pr = run_phase(run, p);
        if (pr && pr->status == PHASE_OK) {
            out[n] = pr;
            idx[n++] = i;
        }
    }
    return n;
}

/* Rates between kept points of a time line cut to at most `points` points. */
static json_t *timeline_json(struct model *m, size_t g, size_t run, const struct phase_result *pr)
{
    size_t len = pr->timeline_len, step = 1;
    if (len > m->points)
        step = (len + m->points - 1) / m->points;
    json_t *t = json_array(), *ops = json_array(), *mb = json_array(), *rd = json_array(),
           *wr = json_array(), *inf = json_array();
    int bad = !t || !ops || !mb || !rd || !wr || !inf;
    size_t prev = 0;
    for (size_t i = step; !bad && len && prev < len - 1; i += step) {
        if (i > len - 1)
            i = len - 1;
        const struct timeline_point *a = &pr->timeline[prev], *b = &pr->timeline[i];
        double dt = b->t - a->t;
        prev = i;
        if (dt <= 0)
            continue;
        bad |= push(t, num(b->t));
        bad |= push(ops, num((double)(b->ops - a->ops) / dt));
        bad |= push(mb, num((double)(b->bytes - a->bytes) / dt / 1e6));
        if (pr->timeline_dev) {
            bad |= push(rd, num((double)(b->dev_rd_sectors - a->dev_rd_sectors) * 512 / dt / 1e6));
            bad |= push(wr, num((double)(b->dev_wr_sectors - a->dev_wr_sectors) * 512 / dt / 1e6));
            bad |= push(inf, json_integer((json_int_t)b->dev_inflight));
        }
    }
    json_t *o = json_pack("{s:I, s:I, s:b, s:o, s:o, s:o, s:o, s:o, s:o}", "g", (json_int_t)g,
                          "run", (json_int_t)run, "dev", pr->timeline_dev, "t", t, "ops", ops,
                          "mb", mb, "rd", rd, "wr", wr, "inf", inf);
    if (!o || bad) {
        m->bad = 1;
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *latency_json(struct model *m, const struct phase_ref *p,
                            const struct phase_result ***per, const size_t *counts)
{
    json_t *lat = json_array();
    size_t most = 0;
    for (size_t g = 0; g < m->ngroups; g++)
        most = counts[g] > most ? counts[g] : most;
    double *v = malloc((most ? most : 1) * sizeof *v);
    if (!lat || !v) {
        free(v);
        json_decref(lat);
        m->bad = 1;
        return NULL;
    }
    /* the kinds in order of the time they took, the main one first */
    double tot[OP_KINDS];
    int order[OP_KINDS];
    for (int k = 0; k < OP_KINDS; k++) {
        tot[k] = 0;
        for (size_t g = 0; g < m->ngroups; g++)
            for (size_t i = 0; i < counts[g]; i++) {
                const struct lat_summary *l = &per[g][i]->lat[k];
                double each =
                    l->mean_ns > 0 && isfinite(l->mean_ns) ? l->mean_ns : (double)l->p50_ns;
                tot[k] += (double)l->count * each;
            }
        int j = k;
        for (; j > 0 && tot[order[j - 1]] < tot[k]; j--)
            order[j] = order[j - 1];
        order[j] = k;
    }
    for (int oi = 0; oi < OP_KINDS; oi++) {
        int k = order[oi];
        json_t *rows = json_array();
        for (size_t g = 0; rows && g < m->ngroups; g++) {
            const struct phase_result **pr = per[g];
            size_t n = 0;
            uint64_t max = 0;
            for (size_t i = 0; i < counts[g]; i++)
                if (pr[i]->lat[k].count) {
                    n++;
                    max = pr[i]->lat[k].max_ns > max ? pr[i]->lat[k].max_ns : max;
                }
            if (!n)
                continue;
            json_t *row = json_array();
            m->bad |= push(row, json_integer((json_int_t)g));
            for (int q = 0; q < 4; q++) {
                size_t c = 0;
                for (size_t i = 0; i < counts[g]; i++) {
                    const struct lat_summary *l = &pr[i]->lat[k];
                    if (!l->count)
                        continue;
                    uint64_t x = q == 0 ? l->p50_ns : q == 1 ? l->p90_ns : q == 2 ? l->p99_ns
                                                                                 : l->p999_ns;
                    v[c++] = (double)x;
                }
                m->bad |= push(row, num(stats_median(v, c)));
            }
            m->bad |= push(row, json_integer((json_int_t)max));
            m->bad |= push(rows, row);
        }
        if (rows && json_array_size(rows))
            m->bad |= push(lat, json_pack("{s:s, s:o, s:o}", "kind", op_kind_name((enum op_kind)k),
                                          "ns", num(tot[k]), "rows", rows));
        else
            json_decref(rows);
    }
    free(v);
    return lat;
}

static json_t *phase_json(struct model *m, const struct phase_ref *p)
{
    json_t *runs = json_array(), *med = json_array(), *tl = json_array(), *st = json_array();
    const struct phase_result ***per = calloc(m->ngroups, sizeof *per);
    size_t *counts = calloc(m->ngroups, sizeof *counts);
    size_t cap = 1;
    for (size_t g = 0; g < m->ngroups; g++)
        cap = m->in[m->groups[g].input].rs->nruns > cap ? m->in[m->groups[g].input].rs->nruns : cap;
    size_t *idx = calloc(cap, sizeof *idx);
    double *v = calloc(cap, sizeof *v);
    json_t *lat = NULL;
    bool ok = runs && med && tl && st && per && counts && idx && v;
    for (size_t g = 0; ok && g < m->ngroups; g++) {
        per[g] = calloc(cap, sizeof **per);
        if (!per[g]) {
            ok = false;
            break;
        }
        size_t n = counts[g] = collect(m, g, p, per[g], idx);
        for (size_t i = 0; i < n; i++) {
            const struct phase_result *pr = per[g][i];
            const struct run_result *run = &m->in[m->groups[g].input].rs->runs[idx[i]];
            v[i] = pr->wall_s;
            m->bad |= push(runs, json_pack("[I, o, I, I]", (json_int_t)g, num(pr->wall_s),
                                           (json_int_t)idx[i], (json_int_t)run->round));
            for (size_t s = 0; s < pr->nstalls; s++) {
                const struct stall *x = &pr->stalls[s];
                int busy = !pr->timeline_dev ? -1 : stall_device_busy(x) ? 1 : 0;
                m->bad |= push(st, json_pack("[I, I, o, o, i, I]", (json_int_t)g,
                                             (json_int_t)idx[i], num(x->start_s),
                                             num(x->length_s), busy, (json_int_t)x->ops));
            }
        }
        if (!n)
            continue;
        struct stats_median_ci c;
        if (stats_median_ci(v, n, 0.95, &c) < 0) {
            ok = false;
            break;
        }
        m->bad |= push(med, json_pack("[I, o, o, o, b, I]", (json_int_t)g, num(c.median),
                                      num(c.lo), num(c.hi), c.reached, (json_int_t)n));
        /* the time line of the run nearest the median */
        size_t best = 0;
        for (size_t i = 1; i < n; i++)
            if (fabs(per[g][i]->wall_s - c.median) < fabs(per[g][best]->wall_s - c.median))
                best = i;
        const struct phase_result *mid = per[g][best];
        if (mid->timeline_len > 2 && (mid->timeline_dev || mid->timeline[mid->timeline_len - 1].ops))
            m->bad |= push(tl, timeline_json(m, g, idx[best], per[g][best]));
    }
    if (ok)
        lat = latency_json(m, p, per, counts);
    json_t *o = NULL;
    if (ok && lat)
        o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "name", p->name, "runs", runs, "med", med,
                      "tl", tl, "stalls", st, "lat", lat);
    else {
        json_decref(runs), json_decref(med), json_decref(tl), json_decref(st);
        json_decref(lat);
    }
    for (size_t g = 0; per && g < m->ngroups; g++)
        free(per[g]);
    free(per), free(counts), free(idx), free(v);
    if (!o)
        m->bad = 1;
    return o;
}

static const struct {
    unsigned flag;
    const char *text;
} warn_kinds[] = {
    {STATS_W_FEW_RUNS, "too few runs for a verdict: use --runs 5 or more, or --runs auto"},
    {STATS_W_OUTLIERS,
     "outliers (modified z-score above 3.5, looked for from 5 runs on): something else ran, "
     "or a cache was warm; look at the runs with fsbench show"},
    {STATS_W_NOISY, "runs vary by more than 10 %: stop other work, use a dedicated device, or "
                    "--runs auto"},
    {STATS_W_AUTOCORR, "consecutive runs are correlated: the machine drifts; run the "
                       "configurations interleaved in rounds"},
};
#define NWARN (sizeof warn_kinds / sizeof *warn_kinds)

static unsigned sample_flags(const struct cmp_phase *ph, size_t g)
{
    unsigned f = ph->s[g].n ? ph->s[g].warn.flags : 0;
    if (g > 0 && ph->vs[g].status == CMP_ST_OK && ph->vs[g].few)
        f |= STATS_W_FEW_RUNS;
    return f;
}

static void verdict_text(char *buf, size_t len, const struct cmp_result *r, const struct cmp_vs *vs)
{
    const struct cmp_metric_info *mi = cmp_metric_get(r->opt.metric);
    bool count = mi->kind == CMP_KIND_COUNT;
    switch (vs->status) {
    case CMP_ST_UNAVAILABLE:
        snprintf(buf, len, "%s not available", mi->name);
        return;
    case CMP_ST_TOO_FEW:
        snprintf(buf, len, "too few runs to compare");
        return;
    case CMP_ST_NONPOSITIVE:
        snprintf(buf, len, "no ratio: some runs measured 0");
        return;
    case CMP_ST_OK:
        break;
    }
    const struct stats_verdict *v = &vs->verdict;
    const char *dir = count ? (v->b_better ? "fewer" : "more") : (v->b_better ? "faster" : "slower");
    switch (v->kind) {
    case STATS_BETTER:
    case STATS_WORSE:
        snprintf(buf, len, "%.2fx %s", v->factor, dir);
        break;
    case STATS_BELOW_EFFECT:
        snprintf(buf, len, "%.2fx %s, below the %.0f%% of interest", v->factor, dir,
                 r->opt.min_effect * 100);
        break;
    case STATS_NO_DIFFERENCE:
        if (vs->ratio.method == STATS_SEQUENTIAL)
            snprintf(buf, len,
                     vs->state == SEQ_FUTILE ? "no difference of %.0f%% or more"
                                                 : "no verdict yet (%.0f%%)",
                     r->opt.min_effect * 100);
        else
            snprintf(buf, len, "no difference shown");
        break;
    }
}

/* The verdict's class, as the matrix marks it: "better" or "worse" (* a difference shown),
 * "small" (~ below the effect of interest), "few" (? too few runs, or no ratio), "same"
 * (no difference shown). */
static const char *verdict_class(const struct cmp_vs *vs)
{
    const char *m = cmp_vs_mark(vs);
    if (!strcmp(m, "*"))
        return vs->verdict.kind == STATS_BETTER ? "better" : "worse";
    if (!strcmp(m, "~"))
        return "small";
    if (!strcmp(m, "o") || !strcmp(m, "="))
        return "same";
    if (!strcmp(m, "_"))
        return "negligible";
    if (!strcmp(m, "!"))
        return "different";
    return "few";
}

/* compare's matrix as it prints it: the legend, and per phase one cell per group. */
static json_t *matrix_json(struct model *m)
{
    const struct cmp_result *r = m->r;
    char legend[512], c[64];
    cmp_summary_legend(legend, sizeof legend, r);
    json_t *rows = json_array();
    for (size_t p = 0; rows && p < r->nphases; p++) {
        json_t *row = json_array();
        for (size_t g = 0; row && g < r->ngroups; g++) {
            cmp_summary_cell(c, sizeof c, r, p, g);
            m->bad |= push(row, json_string(c));
        }
        m->bad |= push(rows, row);
    }
    return json_pack("{s:s, s:o}", "legend", legend, "rows", rows);
}

/* Which method made a verdict, as the page names it. */
static const char *method_text(const struct cmp_vs *v)
{
    if (v->status == CMP_ST_OK && v->ratio.method == STATS_SEQUENTIAL)
        return "sequential (mixture SPRT)";
    return v->interleaved ? "paired by round" : "batches";
}

static void verdicts(struct model *m, json_t *o)
{
    const struct cmp_result *r = m->r;
    json_t *vs = json_array(), *warns = json_array(), *advice = json_array();
    if (!vs || !warns || !advice) {
        m->bad = 1;
        json_decref(vs), json_decref(warns), json_decref(advice);
        return;
    }
    unsigned seen = 0;
    for (size_t p = 0; r && p < r->nphases; p++)
        for (size_t g = 0; g < r->ngroups; g++)
            seen |= sample_flags(&r->phases[p], g);
    int widx[NWARN];
    for (size_t k = 0, n = 0; k < NWARN; k++) {
        widx[k] = -1;
        if (!(seen & warn_kinds[k].flag))
            continue;
        widx[k] = (int)n++;
        /* where: "phase (group, group); phase (all)", or everywhere */
        char places[2048] = "";
        size_t used = 0, full = 0;
        for (size_t p = 0; p < r->nphases; p++) {
            size_t hits = 0;
            for (size_t g = 0; g < r->ngroups; g++)
                hits += (sample_flags(&r->phases[p], g) & warn_kinds[k].flag) != 0;
            full += hits == r->ngroups;
            if (!hits || used >= sizeof places)
                continue;
            used += (size_t)snprintf(places + used, sizeof places - used, "%s%s (",
                                     used ? "; " : "", r->phases[p].name);
            const char *sep = "";
            for (size_t g = 0; g < r->ngroups && used < sizeof places; g++) {
                if (hits == r->ngroups) {
                    used += (size_t)snprintf(places + used, sizeof places - used, "all");
                    break;
                }
                if (!(sample_flags(&r->phases[p], g) & warn_kinds[k].flag))
                    continue;
                used += (size_t)snprintf(places + used, sizeof places - used, "%s%s", sep,
                                         r->groups[g].name);
                sep = ", ";
            }
            if (used < sizeof places)
                used += (size_t)snprintf(places + used, sizeof places - used, ")");
        }
        if (full == r->nphases)
            snprintf(places, sizeof places, "every phase and group");
        m->bad |= push(warns, json_pack("{s:s, s:s}", "text", warn_kinds[k].text, "places",
                                        places));
    }
    for (size_t p = 0; r && p < r->nphases; p++) {
        const struct cmp_phase *ph = &r->phases[p];
        for (size_t g = 1; g < r->ngroups; g++) {
            const struct cmp_vs *v = &ph->vs[g];
            char text[128];
            verdict_text(text, sizeof text, r, v);
            json_t *w = json_array();
            unsigned f = sample_flags(ph, 0) | sample_flags(ph, g);
            for (size_t k = 0; w && k < NWARN; k++)
                if ((f & warn_kinds[k].flag) && widx[k] >= 0)
                    m->bad |= push(w, json_integer(widx[k]));
            bool okst = v->status == CMP_ST_OK;
            /* a sequential interval not bounded yet has no ends to show */
            bool bounded = okst && isfinite(v->ratio.hi);
            m->bad |= push(vs, json_pack("{s:I, s:I, s:s, s:s, s:o, s:o, s:o, s:o, s:s, s:b, s:o}",
                                         "phase", (json_int_t)p, "group", (json_int_t)g, "cls",
                                         verdict_class(v), "text", text, "ratio",
                                         okst ? num(v->ratio.ratio) : json_null(), "lo",
                                         bounded ? num(v->ratio.lo) : json_null(), "hi",
                                         bounded ? num(v->ratio.hi) : json_null(), "p",
                                         okst ? num(v->ratio.p) : json_null(), "method",
                                         method_text(v), "shown",
                                         okst && cmp_vs_shown(v),
                                         "warn", w));
        }
    }
    if (r && r->any_batch)
        m->bad |= push(advice, json_string("Some groups ran as batches, not interleaved in "
                                           "rounds: a drift between the batches looks exactly "
                                           "like a difference. Run them in one fsbench run with "
                                           "configurations for a verdict you can trust."));
    m->bad |= put(o, "verdicts", vs);
    m->bad |= put(o, "warnings", warns);
    m->bad |= put(o, "advice", advice);
    if (r) {
        const struct cmp_metric_info *mi = cmp_metric_get(r->opt.metric);
        bool count = mi->kind == CMP_KIND_COUNT;
        m->bad |= put(o, "metric",
                      json_pack("{s:s, s:s, s:b, s:s, s:s}", "name", mi->name, "unit", mi->unit,
                                "lower_better", mi->sense == STATS_LOWER_BETTER, "better",
                                count ? "fewer" : "faster", "worse", count ? "more" : "slower"));
        m->bad |= put(o, "matrix", matrix_json(m));
        /* compare's verdicts in words, and what differs between the groups */
        json_t *plain = json_array(), *differs = json_array();
        for (size_t g = 1; plain && differs && g < r->ngroups; g++) {
            char buf[16384], what[4096];
            cmp_plain_group(buf, sizeof buf, r, g);
            if (r->ngroups > 2) {
                char line[sizeof buf + 2 * sizeof r->groups[0].name];
                snprintf(line, sizeof line, "%s against %s: %s", r->groups[g].name,
                         r->groups[0].name, buf);
                m->bad |= push(plain, json_string(U(line)));
            } else {
                m->bad |= push(plain, json_string(U(buf)));
            }
            if (r->diffs[g].n) {
                workdiff_format(what, sizeof what, &r->diffs[g], false);
                snprintf(buf, sizeof buf, "%s vs %s: %s%s", r->groups[g].name, r->groups[0].name,
                         what,
                         r->diffs[g].work && r->groups[g].input != r->groups[0].input &&
                                 !r->policy.allow_different_work
                             ? " (different work: no verdict)"
                             : "");
                m->bad |= push(differs, json_string(U(buf)));
            }
        }
        m->bad |= put(o, "plain", plain);
        m->bad |= put(o, "differs", differs);
        m->bad |= put(o, "confidence", num(r->opt.confidence * 100));
        m->bad |= put(o, "min_effect", num(r->opt.min_effect * 100));
    }
}

json_t *html_model(const struct cmp_input *in, size_t nin, const struct cmp_result *r,
                   size_t points)
{
    struct model m = {.in = in, .nin = nin, .r = r, .points = points ? points : HTML_POINTS};
    if (r) {
        m.groups = r->groups;
        m.ngroups = r->ngroups;
        m.ph = calloc(r->nphases ? r->nphases : 1, sizeof *m.ph);
        if (!m.ph) {
            error("out of memory");
            return NULL;
        }
        for (size_t p = 0; p < r->nphases; p++) {
            snprintf(m.ph[p].name, sizeof m.ph[p].name, "%s", r->phases[p].name);
            snprintf(m.ph[p].base, sizeof m.ph[p].base, "%s", r->phases[p].base);
            m.ph[p].occ = r->phases[p].occurrence;
        }
        m.nph = r->nphases;
    } else {
        const struct run_set *rs = in[0].rs;
        snprintf(m.one.name, sizeof m.one.name, "%s",
                 U(rs->nruns && rs->runs[0].config[0] ? rs->runs[0].config : in[0].name));
        m.groups = &m.one;
        m.ngroups = 1;
        if (own_phases(&m) < 0)
            return NULL;
    }
    json_t *o = json_object();
    json_t *groups = json_array(), *phases = json_array();
    if (!o || !groups || !phases) {
        json_decref(o), json_decref(groups), json_decref(phases);
        free(m.ph);
        error("out of memory");
        return NULL;
    }
    describe(&m, o);
    for (size_t g = 0; g < m.ngroups; g++)
        m.bad |= push(groups, json_string(m.groups[g].name));
    m.bad |= put(o, "groups", groups);
    for (size_t p = 0; p < m.nph; p++)
        m.bad |= push(phases, phase_json(&m, &m.ph[p]));
    m.bad |= put(o, "phases", phases);
    verdicts(&m, o);
    free(m.ph);
    if (m.bad) {
        json_decref(o);
        error("report: cannot build the page's data: out of memory");
        return NULL;
    }
    return o;
}
