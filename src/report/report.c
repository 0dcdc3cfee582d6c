/* report.c — the text reports of a run set (see report.h): a header describing tree, target
 * and machine; one row per phase with the median and range over the runs; notes for skipped
 * and failed phases; and the seeds' compact "extract: 1.23 real 0.10 user 1.00 sys" form.
 * Every string in a run set may have come from someone else (an import): each is printed
 * through S(), control characters escaped, so none can forge a line or drive a terminal.
 */
#include "base/units.h"
#include "report/report.h"

#include "base/text.h"
#include "measure/stall.h"

#define S(s) text_shown(s)

#define SCENARIO_PHASES_MAX 64

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const format_names[] = {[REPORT_TABLE] = "table", [REPORT_SEEDS] = "seeds"};

int report_format_find(const char *name)
{
    for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++)
        if (strcmp(format_names[i], name) == 0)
            return (int)i;
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) (sorts v); mean of the middle two for even n. */
static double median(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void human_bytes(char *buf, size_t len, double b)
{
    units_bytes(buf, len, b);
}

/* The phase results of phase slot p over the runs that count (not warm-up, status ok). */
static size_t collect(const struct run_set *rs, const char *config, size_t p,
                      const struct phase_result **out)
{
    size_t n = 0;
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *r = &rs->runs[i];
        if (r->warmup || strcmp(r->config, config) || p >= r->nphases)
            continue;
        if (r->phases[p].status == PHASE_OK)
            out[n++] = &r->phases[p];
    }
    return n;
}

static double rate(double amount, double wall)
{
    return wall > 0 ? amount / wall : 0;
}

/* Getters of the figures the table shows as medians. */
static double get_user(const struct phase_result *p) { return p->user_s; }
static double get_sys(const struct phase_result *p) { return p->sys_s; }
static double get_ops(const struct phase_result *p) { return (double)p->ops_total; }
static double get_kops(const struct phase_result *p)
{
    return rate((double)p->ops_total, p->wall_s) / 1000;
}
static double get_mbps(const struct phase_result *p)
{
    return rate((double)(p->bytes_read + p->bytes_written), p->wall_s) / 1e6;
}
static double get_stall(const struct phase_result *p) { return p->longest_stall_s; }
static double get_dev_rd(const struct phase_result *p) { return (double)p->dev.rd_ios; }
static double get_dev_wr(const struct phase_result *p) { return (double)p->dev.wr_ios; }

/* Median of get(pr[i]) over n results, using v (n doubles) as scratch. */
static double median_by(const struct phase_result **pr, size_t n, double *v,
                        double (*get)(const struct phase_result *))
{
    for (size_t i = 0; i < n; i++)
        v[i] = get(pr[i]);
    return median(v, n);
}

/* The header is laid out in phrases: on one line each when width is 0 (-v), else a line
 * is broken between phrases before it passes width columns (the next line indented by two
 * blanks), and a phrase too long for a line of its own is cut, "..." saying so. */
struct hline {
    FILE *out;
    unsigned width, at;
};

/* Bytes of s that fit in cols columns (a byte a column, never a UTF-8 sequence split). */
static size_t fit_bytes(const char *s, size_t cols)
{
    size_t n = strlen(s);
    if (n <= cols)
        return n;
    while (cols > 0 && ((unsigned char)s[cols] & 0xC0) == 0x80)
        cols--;
    return cols;
}

/* Phrase text after sep (", " and the like; none at a line's start). */
static void hline_put(struct hline *h, const char *sep, const char *text)
{
    size_t sl = h->at ? strlen(sep) : 0, tl = strlen(text);
    if (h->width && h->at > 2 && h->at + sl + tl > h->width) {
        fputs(strchr(sep, ',') ? ",\n  " : "\n  ", h->out);
        h->at = 2;
        sl = 0;
    }
    if (sl)
        fputs(sep, h->out);
    h->at += (unsigned)sl;
    if (h->width && h->at + tl > h->width && h->width > h->at + 3) {
        size_t n = fit_bytes(text, h->width - h->at - 3);
        fprintf(h->out, "%.*s...", (int)n, text);
        h->at = h->width;
        return;
    }
    fputs(text, h->out);
    h->at += (unsigned)tl;
}

static void hline_end(struct hline *h)
{
    fputc('\n', h->out);
    h->at = 0;
}

/* The header (width: see struct hline). The mount options are phrases of their own,
 * one an option, so that a long list breaks at its commas. */
static void print_header(FILE *out, const struct run_set *rs, unsigned width)
{
    const struct machine_info *m = &rs->machine;
    struct hline h = {.out = out, .width = width};
    char buf[1024];
    if (!rs->tree.profile[0]) {
        /* fsbench cmd: no tree and no target, only commands */
        snprintf(buf, sizeof buf, "scenario %s", S(rs->scenario));
        hline_put(&h, "", buf);
        snprintf(buf, sizeof buf, "label %s", S(rs->label));
        hline_put(&h, ", ", buf);
        snprintf(buf, sizeof buf, "%zu run%s", rs->nruns, rs->nruns == 1 ? "" : "s");
        hline_put(&h, ", ", buf);
        hline_end(&h);
    } else {
        char bytes[32];
        human_bytes(bytes, sizeof bytes, (double)rs->tree.bytes);
        snprintf(buf, sizeof buf, "scenario %s", S(rs->scenario));
        hline_put(&h, "", buf);
        if (rs->label[0]) {
            snprintf(buf, sizeof buf, "label %s", S(rs->label));
            hline_put(&h, ", ", buf);
        }
        size_t n = (size_t)snprintf(buf, sizeof buf, "tree %s", S(rs->tree.profile));
        if (strncmp(rs->tree.profile, "tar:", 4) && n < sizeof buf) /* an archive has none */
            snprintf(buf + n, sizeof buf - n, " x%g seed %llu", rs->tree.scale,
                     (unsigned long long)rs->tree.seed);
        hline_put(&h, ", ", buf);
        snprintf(buf, sizeof buf, "%llu files", (unsigned long long)rs->tree.files);
        hline_put(&h, ": ", buf);
        snprintf(buf, sizeof buf, "%llu dirs", (unsigned long long)rs->tree.dirs);
        hline_put(&h, ", ", buf);
        if (rs->tree.symlinks) {
            snprintf(buf, sizeof buf, "%llu symlinks", (unsigned long long)rs->tree.symlinks);
            hline_put(&h, ", ", buf);
        }
        hline_put(&h, ", ", bytes);
        hline_end(&h);
        const struct target_info *t = &rs->target;
        snprintf(buf, sizeof buf, "target %s", S(t->path));
        hline_put(&h, "", buf);
        snprintf(buf, sizeof buf, "(%s", t->fstype[0] ? S(t->fstype) : "?");
        hline_put(&h, " ", buf);
        /* the options, one phrase each (a '(' inside one, "(per configuration; ...)", is
         * kept with what follows it up to its ')') */
        const char *o = t->mount_opts[0] ? S(t->mount_opts) : "?";
        const char *sep = ", ";
        while (*o) {
            size_t k = 0;
            int depth = 0;
            for (; o[k] && (depth > 0 || o[k] != ','); k++)
                depth += o[k] == '(' ? 1 : o[k] == ')' ? -1 : 0;
            snprintf(buf, sizeof buf, "%.*s", (int)k, o);
            hline_put(&h, sep, buf);
            sep = ",";
            o += k + (o[k] == ',');
        }
        snprintf(buf, sizeof buf, "device %s)", t->blockdev[0] ? S(t->blockdev) : "n/a");
        hline_put(&h, "; ", buf);
        snprintf(buf, sizeof buf, "engine %s", S(rs->engine));
        hline_put(&h, ", ", buf);
        snprintf(buf, sizeof buf, "%zu run%s", rs->nruns, rs->nruns == 1 ? "" : "s");
        hline_put(&h, ", ", buf);
        hline_end(&h);
    }
    snprintf(buf, sizeof buf, "machine %s", S(m->hostname));
    hline_put(&h, "", buf);
    snprintf(buf, sizeof buf, "Linux %s %s", S(m->kernel), S(m->arch));
    hline_put(&h, ": ", buf);
    snprintf(buf, sizeof buf, "%d CPUs", m->ncpu);
    hline_put(&h, ", ", buf);
    snprintf(buf, sizeof buf, "%.1f GiB RAM", (double)m->ram_bytes / (1u << 30));
    hline_put(&h, ", ", buf);
    snprintf(buf, sizeof buf, "dirty_ratio %ld", m->dirty_ratio);
    hline_put(&h, ", ", buf);
    hline_end(&h);
    if (rs->nmeta) { /* --meta KEY=VALUE */
        hline_put(&h, "", "meta");
        for (unsigned i = 0; i < rs->nmeta && i < RES_META_MAX; i++) {
            snprintf(buf, sizeof buf, "%s=%s", S(rs->meta[i].key), S(rs->meta[i].value));
            hline_put(&h, " ", buf);
        }
        hline_end(&h);
    }
}

/* The op kind that took most of the phase's time (count x mean latency; the median where
 * no mean was kept), for its latency column: copy's copy_file_range calls, not its many
 * quick setattr calls. Ties go to the more frequent kind. */
static int dominant_op(const struct phase_result *pr)
{
    int best = -1;
    double most = -1;
    uint64_t most_n = 0;
    for (int k = 0; k < OP_KINDS; k++) {
        const struct lat_summary *l = &pr->lat[k];
        if (!l->count)
            continue;
        double each = l->mean_ns > 0 && isfinite(l->mean_ns) ? l->mean_ns : (double)l->p50_ns;
        double total = (double)l->count * each;
        if (total > most || (total == most && l->count > most_n)) {
            most = total;
            most_n = l->count;
            best = k;
        }
    }
    return best;
}

static void fmt_latency(char *buf, size_t len, uint64_t ns)
{
    if (ns < 1000)
        snprintf(buf, len, "%llu ns", (unsigned long long)ns);
    else if (ns < 1000000)
        snprintf(buf, len, "%.1f us", (double)ns / 1e3);
    else if (ns < 1000000000)
        snprintf(buf, len, "%.1f ms", (double)ns / 1e6);
    else
        snprintf(buf, len, "%.2f s", (double)ns / 1e9);
}

/* The columns a table may leave out to fit its width, in the order they are given up
 * (latency first); phase, runs, wall s, [min-max], user s and sys s are always there. */
enum {
    COL_OPS = 1u << 0,
    COL_KOPS = 1u << 1,
    COL_MBPS = 1u << 2,
    COL_DEV = 1u << 3,
    COL_STALL = 1u << 4,
    COL_LAT = 1u << 5,
    COL_ALL = (1u << 6) - 1,
};
#define COLS_FIXED 60 /* "%-11s %4s %9s %-17s %7s %7s" */

/* The optional columns that fit in width beside the fixed ones, the most wanted first:
 * MB/s and kops/s fit 80 columns. */
static unsigned fit_columns(unsigned width)
{
    static const struct {
        unsigned col, w;
    } want[] = {{COL_MBPS, 9}, {COL_KOPS, 9}, {COL_OPS, 11}, {COL_DEV, 14}, {COL_STALL, 8},
                {COL_LAT, 28}};
    unsigned cols = 0, used = COLS_FIXED;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (used + want[i].w > width)
            break;
        cols |= want[i].col;
        used += want[i].w;
    }
    return cols;
}

static void print_table_head(FILE *out, unsigned cols)
{
    fprintf(out, "%-11s %4s %9s %-17s %7s %7s", "phase", "runs", "wall s", "[min-max]", "user s",
            "sys s");
    if (cols & COL_OPS)
        fprintf(out, " %10s", "ops");
    if (cols & COL_KOPS)
        fprintf(out, " %8s", "kops/s");
    if (cols & COL_MBPS)
        fprintf(out, " %8s", "MB/s");
    if (cols & COL_DEV)
        fprintf(out, " %13s", "dev rd/wr io");
    if (cols & COL_STALL)
        fprintf(out, " %7s", "stall s");
    if (cols & COL_LAT)
        fprintf(out, "  %s", "latency p50 / p99");
    fputc('\n', out);
}

static void print_phase_row(FILE *out, const struct phase_result **pr, size_t n,
                            const char *name, unsigned cols)
{
    double *v = calloc(n, sizeof *v);
    if (!v)
        return;
    double wmin = pr[0]->wall_s, wmax = pr[0]->wall_s;
    for (size_t i = 0; i < n; i++) {
        v[i] = pr[i]->wall_s;
        if (v[i] < wmin)
            wmin = v[i];
        if (v[i] > wmax)
            wmax = v[i];
    }
    double wall = median(v, n);
    double user = median_by(pr, n, v, get_user);
    double sys = median_by(pr, n, v, get_sys);
    double ops = median_by(pr, n, v, get_ops);
    /* a zero-length phase has no rate: "-", never an infinite one */
    const struct phase_result **timed = calloc(n, sizeof *timed);
    size_t nt = 0;
    for (size_t i = 0; timed && i < n; i++)
        if (pr[i]->wall_s > 0)
            timed[nt++] = pr[i];
    char kops[16] = "-", mbps[16] = "-";
    if (nt) {
        snprintf(kops, sizeof kops, "%8.1f", median_by(timed, nt, v, get_kops));
        snprintf(mbps, sizeof mbps, "%8.1f", median_by(timed, nt, v, get_mbps));
    }
    free(timed);
    double stall = median_by(pr, n, v, get_stall);
    char dev[32] = "n/a";
    if (pr[0]->dev.valid)
        snprintf(dev, sizeof dev, "%.0f/%.0f", median_by(pr, n, v, get_dev_rd),
                 median_by(pr, n, v, get_dev_wr));
    /* Latency of the dominant op, from the run whose wall time is nearest the median. */
    const struct phase_result *mid = pr[0];
    for (size_t i = 1; i < n; i++)
        if (fabs(pr[i]->wall_s - wall) < fabs(mid->wall_s - wall))
            mid = pr[i];
    char lat[64] = "-";
    int k = dominant_op(mid);
    if (k >= 0) {
        char p50[24], p99[24];
        fmt_latency(p50, sizeof p50, mid->lat[k].p50_ns);
        fmt_latency(p99, sizeof p99, mid->lat[k].p99_ns);
        snprintf(lat, sizeof lat, "%s %s / %s", op_kind_name((enum op_kind)k), p50, p99);
    }
    char range[48];
    snprintf(range, sizeof range, "[%.3f-%.3f]", wmin, wmax);
    fprintf(out, "%-11s %4zu %9.3f %-17s %7.2f %7.2f", S(name), n, wall, range, user, sys);
    if (cols & COL_OPS)
        fprintf(out, " %10.0f", ops);
    if (cols & COL_KOPS)
        fprintf(out, " %8s", kops);
    if (cols & COL_MBPS)
        fprintf(out, " %8s", mbps);
    if (cols & COL_DEV)
        fprintf(out, " %13s", dev);
    if (cols & COL_STALL)
        fprintf(out, " %7.2f", stall);
    if (cols & COL_LAT)
        fprintf(out, "  %s", lat);
    fputc('\n', out);
    free(v);
}

/* "  extract stalls in run 2: 3, longest 1.4 s at 12.3 s, device busy", per phase and run
 * with stalls. */
static void print_stalls(FILE *out, const struct run_set *rs, const char *config, size_t nph)
{
    for (size_t p = 0; p < nph; p++) {
        for (size_t i = 0; i < rs->nruns; i++) {
            const struct run_result *r = &rs->runs[i];
            if (strcmp(r->config, config) || p >= r->nphases || !r->phases[p].nstalls)
                continue;
            const struct phase_result *ph = &r->phases[p];
            const struct stall *lo = &ph->stalls[0];
            for (size_t k = 1; k < ph->nstalls; k++)
                if (ph->stalls[k].length_s > lo->length_s)
                    lo = &ph->stalls[k];
            fprintf(out, "  %s stalls in run %zu: %zu, longest %.1f s at %.1f s, %s\n", S(ph->name),
                    i + 1, ph->nstalls, lo->length_s, lo->start_s,
                    !ph->timeline_dev       ? "no device"
                    : stall_device_busy(lo) ? "device busy"
                                            : "device idle");
        }
    }
}

/* A configuration's rows (and its notes and stalls), under the table's head. */
static void print_rows(FILE *out, const struct run_set *rs, const char *config, unsigned cols)
{
    size_t nph = 0;
    for (size_t i = 0; i < rs->nruns; i++)
        if (!strcmp(rs->runs[i].config, config) && rs->runs[i].nphases > nph)
            nph = rs->runs[i].nphases;
    const struct phase_result **pr = calloc(rs->nruns ? rs->nruns : 1, sizeof *pr);
    if (!pr)
        return;
    for (size_t p = 0; p < nph; p++) {
        const char *name = NULL;
        for (size_t i = 0; i < rs->nruns && !name; i++)
            if (!strcmp(rs->runs[i].config, config) && p < rs->runs[i].nphases)
                name = rs->runs[i].phases[p].name;
        size_t n = collect(rs, config, p, pr);
        if (n)
            print_phase_row(out, pr, n, name, cols);
        else
            fprintf(out, "%-11s %4d %9s\n", S(name), 0, "-");
    }
    /* Notes: every distinct skip or failure reason once. */
    for (size_t p = 0; p < nph; p++) {
        const char *last = NULL;
        for (size_t i = 0; i < rs->nruns; i++) {
            const struct run_result *r = &rs->runs[i];
            if (strcmp(r->config, config) || p >= r->nphases)
                continue;
            const struct phase_result *ph = &r->phases[p];
            if (!ph->note[0] || (last && !strcmp(last, ph->note)))
                continue;
            fprintf(out, "  %s %s in run %zu: %s\n", S(ph->name),
                    ph->status == PHASE_SKIPPED  ? "skipped"
                    : ph->status == PHASE_FAILED ? "FAILED"
                                                 : "note",
                    i + 1, S(ph->note));
            last = ph->note;
        }
    }
    print_stalls(out, rs, config, nph);
    report_aging(out, rs, config);
    free(pr);
}

/* Configurations in their declared order (the command line's, target.configs: the first
 * is compare's baseline), then any other in order of first appearance (a set without the
 * list): their names into cfg[], count returned. */
static size_t list_configs(const struct run_set *rs, const char **cfg, size_t max)
{
    size_t n = 0;
    const char *d = rs->target.configs;
    while (*d && n < max) {
        size_t len = strcspn(d, "\n");
        for (size_t i = 0; i < rs->nruns; i++) {
            const char *c = rs->runs[i].config;
            if (strlen(c) != len || strncmp(c, d, len))
                continue;
            size_t j = 0;
            while (j < n && strcmp(cfg[j], c))
                j++;
            if (j == n)
                cfg[n++] = c;
            break;
        }
        d += len + (d[len] == '\n');
    }
    for (size_t i = 0; i < rs->nruns && n < max; i++) {
        size_t j = 0;
        while (j < n && strcmp(cfg[j], rs->runs[i].config))
            j++;
        if (j == n)
            cfg[n++] = rs->runs[i].config;
    }
    return n;
}

#define MAX_CONFIGS 64

/* The seeds' form, run by run: "Mode: cfg" blocks when there are configurations. */
static void print_seeds(FILE *out, const struct run_set *rs)
{
    const char *cfg[MAX_CONFIGS];
    size_t nc = list_configs(rs, cfg, MAX_CONFIGS);
    int first = 1;
    for (size_t c = 0; c < nc; c++) {
        unsigned k = 0;
        for (size_t i = 0; i < rs->nruns; i++) {
            const struct run_result *r = &rs->runs[i];
            if (strcmp(r->config, cfg[c]))
                continue;
            if (!first)
                fputc('\n', out);
            first = 0;
            k++;
            if (cfg[c][0])
                fprintf(out, "Mode: %s (run %u)\n", S(cfg[c]), k);
            else
                fprintf(out, "run %u\n", k);
            for (size_t p = 0; p < r->nphases; p++) {
                const struct phase_result *ph = &r->phases[p];
                if (ph->status == PHASE_SKIPPED)
                    fprintf(out, "%s: skipped (%s)\n", S(ph->name), S(ph->note));
                else
                    fprintf(out, "%s: %.2f real %.2f user %.2f sys%s\n", S(ph->name), ph->wall_s,
                            ph->user_s, ph->sys_s, ph->status == PHASE_FAILED ? " FAILED" : "");
            }
        }
    }
}

/* The phase names of a configuration's longest run. */
static size_t phase_names(const struct run_set *rs, const char *config, const char **names,
                          size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *r = &rs->runs[i];
        if (strcmp(r->config, config) || r->nphases <= n)
            continue;
        for (n = 0; n < r->nphases && n < max; n++)
            names[n] = r->phases[n].name;
    }
    return n;
}

static double get_wall(const struct phase_result *p) { return p->wall_s; }

/* How many phases before names[p] carry its name. */
static unsigned occurrence(const char **names, size_t p)
{
    unsigned k = 0;
    for (size_t i = 0; i < p; i++)
        k += !strcmp(names[i], names[p]);
    return k;
}

/* Seed 000's matrix: one block per configuration, one line per phase (medians), then a grid
 * with configurations as rows and phases as columns (median wall seconds). */
static void print_matrix(FILE *out, const struct run_set *rs, const char **cfg, size_t nc,
                         unsigned width)
{
    const struct phase_result **pr = calloc(rs->nruns ? rs->nruns : 1, sizeof *pr);
    double *v = calloc(rs->nruns ? rs->nruns : 1, sizeof *v);
    const char *names[SCENARIO_PHASES_MAX];
    if (!pr || !v)
        goto out;
    for (size_t c = 0; c < nc; c++) {
        fprintf(out, "\nMode: %s\n", S(cfg[c]));
        size_t np = phase_names(rs, cfg[c], names, SCENARIO_PHASES_MAX);
        for (size_t p = 0; p < np; p++) {
            size_t n = collect(rs, cfg[c], p, pr);
            if (!n) {
                fprintf(out, "%s: -\n", S(names[p]));
                continue;
            }
            fprintf(out, "%s: %.2f real %.2f user %.2f sys\n", S(names[p]),
                    median_by(pr, n, v, get_wall), median_by(pr, n, v, get_user),
                    median_by(pr, n, v, get_sys));
        }
    }
    /* the grid's columns: every configuration's phases, by name and occurrence (jobs in
     * rounds may run different phase lists: a column is never another job's phase) */
    const char *cols[SCENARIO_PHASES_MAX];
    unsigned col_occ[SCENARIO_PHASES_MAX];
    size_t ncols = 0;
    for (size_t c = 0; c < nc; c++) {
        size_t n = phase_names(rs, cfg[c], names, SCENARIO_PHASES_MAX);
        for (size_t p = 0; p < n; p++) {
            unsigned occ = occurrence(names, p);
            size_t k = 0;
            while (k < ncols && (strcmp(cols[k], names[p]) || col_occ[k] != occ))
                k++;
            if (k == ncols && ncols < SCENARIO_PHASES_MAX) {
                cols[ncols] = names[p];
                col_occ[ncols++] = occ;
            }
        }
    }
    size_t w = 14;
    for (size_t c = 0; c < nc; c++)
        if (strlen(cfg[c]) + 1 > w)
            w = strlen(cfg[c]) + 1;
    /* as many columns a block as fit the width (at least one): a row never wraps */
    size_t per = ncols ? ncols : 1;
    if (width && width > w + 11 && (width - w) / 11 < per)
        per = (width - w) / 11;
    else if (width && width <= w + 11)
        per = 1;
    fprintf(out, "\nmedian wall seconds\n");
    for (size_t k0 = 0; k0 < ncols; k0 += per) {
        size_t k1 = k0 + per < ncols ? k0 + per : ncols;
        if (k0)
            fputc('\n', out);
        fprintf(out, "%-*s", (int)w, "configuration");
        for (size_t k = k0; k < k1; k++)
            fprintf(out, " %10.10s", S(cols[k]));
        fputc('\n', out);
        for (size_t c = 0; c < nc; c++) {
            fprintf(out, "%-*s", (int)w, S(cfg[c]));
            size_t np = phase_names(rs, cfg[c], names, SCENARIO_PHASES_MAX);
            for (size_t k = k0; k < k1; k++) {
                size_t p = 0; /* this configuration's own position of the column's phase */
                while (p < np &&
                       (strcmp(names[p], cols[k]) || occurrence(names, p) != col_occ[k]))
                    p++;
                size_t n = p < np ? collect(rs, cfg[c], p, pr) : 0;
                if (n)
                    fprintf(out, " %10.3f", median_by(pr, n, v, get_wall));
                else
                    fprintf(out, " %10s", "-");
            }
            fputc('\n', out);
        }
    }
out:
    free(v);
    free(pr);
}

void report_run_set(FILE *out, const struct run_set *rs, enum report_format f)
{
    const struct report_layout lo = {.width = 0, .wide = true};
    report_run_set_fit(out, rs, f, &lo);
}

void report_run_set_fit(FILE *out, const struct run_set *rs, enum report_format f,
                        const struct report_layout *lo)
{
    if (f == REPORT_SEEDS) {
        print_seeds(out, rs);
        return;
    }
    print_header(out, rs, lo->wide ? 0 : lo->width);
    const char *cfg[MAX_CONFIGS];
    size_t nc = list_configs(rs, cfg, MAX_CONFIGS);
    unsigned cols = lo->wide || !lo->width ? COL_ALL : fit_columns(lo->width);
    if (lo->wide) {
        if (nc > 1 || (nc == 1 && cfg[0][0]))
            print_matrix(out, rs, cfg, nc, lo->width);
        for (size_t c = 0; c < nc; c++) {
            if (cfg[c][0])
                fprintf(out, "\nconfiguration %s\n", S(cfg[c]));
            else
                fputc('\n', out);
            print_table_head(out, cols);
            print_rows(out, rs, cfg[c], cols);
            if (rs->ranks.count > 1)
                report_ranks(out, rs, cfg[c]);
        }
    } else {
        /* one table; a matrix's configurations are its groups, in the declared order */
        fputc('\n', out);
        print_table_head(out, cols);
        for (size_t c = 0; c < nc; c++) {
            if (nc > 1 || cfg[c][0])
                fprintf(out, "[%s]\n", S(cfg[c]));
            print_rows(out, rs, cfg[c], cols);
            if (rs->ranks.count > 1)
                report_ranks(out, rs, cfg[c]);
        }
        if (cols != COL_ALL || nc > 1)
            fprintf(out, "(-v: every column%s)\n", nc > 1 ? ", Mode blocks and the grid of medians" : "");
    }
    if (rs->warm_cache)
        fprintf(out, "note: caches could not be dropped; figures after dropcaches are "
                     "warm-cache\n");
    if (rs->nruns > 0)
        fprintf(out, "figures: the median of the runs [fastest-slowest];\n"
                     "compare and report judge geometric means (compare --verbose: both)\n");
}
