/* cmd_bisect.c — `fsbench bisect verdict --good G --bad B CANDIDATE`: is the candidate's
 * work like the good label's or the bad one's? For `git bisect run` (user-space code: a FUSE
 * file system, a tool) and for a kernel bisection driven by hand or by a loop (man page).
 *
 * The phase judged is --phase, else the one where good and bad differ most (the interval
 * of their ratio excludes 1; the largest log ratio). The candidate is compared with each end
 * by Welch's t on the log scale: like bad when it differs from good and not from bad (or
 * lies beyond bad), like good the other way round; else it cannot tell yet.
 *
 * Exit statuses, as git bisect run reads them: 0 good, 1 bad, 125 cannot tell (skip: run
 * more runs of the candidate and ask again); 128 for an error (bad usage, a label missing,
 * different work), which stops git bisect run instead of marking the commit.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "cli/cli.h"
#include "cli/cli_series.h"
#include "stats/stats.h"

#define BISECT_GOOD 0
#define BISECT_BAD 1
#define BISECT_UNSURE 125
#define BISECT_ERROR 128

static const char bisect_usage[] =
    "usage: fsbench bisect verdict --good LABEL --bad LABEL [OPTIONS] CANDIDATE\n"
    "  compares the candidate's runs with the good and the bad label's and exits\n"
    "  0 like good, 1 like bad, 125 cannot tell yet (run more), 128 on an error;\n"
    "  the reason goes to stderr (for git bisect run; see the man page for kernels)\n"
    "  --good LABEL      a label known good (the runs before the change)\n"
    "  --bad LABEL       a label known bad (the runs after it)\n"
    "  --phase NAME      judge this phase (default: where good and bad differ most)\n"
    "  --metric M        wall (default), user, sys, cpu, ops, mbps, dev-writes, ...\n"
    "  --confidence C    90, 95 (default) or 99\n"
    "  --allow-different-work  take labels that did different work (tree, scale,\n"
    "                    phases, threads: what compare calls different work)\n"
    "  --db FILE         results store (default $XDG_DATA_HOME/fsbench/results.db)\n";

enum { OPT_GOOD = 256, OPT_BAD, OPT_PHASE, OPT_METRIC, OPT_CONF, OPT_ALLOW, OPT_DB };

static double median_of(const double *x, size_t n)
{
    return stats_median(x, n);
}

/* Welch's t on the logs of b against a (both n >= 2, values > 0) into *r: ratio b/a, its
 * interval and p. Runs of one label ran one after another, so this is a batch comparison;
 * with the handful of runs a bisection step makes, the lag-1 correction of compare's batch
 * method is too noisy to use. 0, or -1 when it cannot be made. */
static int welch_log(const double *a, size_t na, const double *b, size_t nb, double conf,
                     struct stats_ratio *r)
{
    if (na < 2 || nb < 2)
        return -1;
    double ma = 0, mb = 0, va = 0, vb = 0;
    for (size_t i = 0; i < na; i++) {
        if (!(a[i] > 0))
            return -1;
        ma += log(a[i]) / (double)na;
    }
    for (size_t i = 0; i < nb; i++) {
        if (!(b[i] > 0))
            return -1;
        mb += log(b[i]) / (double)nb;
    }
    for (size_t i = 0; i < na; i++)
        va += (log(a[i]) - ma) * (log(a[i]) - ma) / (double)(na - 1);
    for (size_t i = 0; i < nb; i++)
        vb += (log(b[i]) - mb) * (log(b[i]) - mb) / (double)(nb - 1);
    memset(r, 0, sizeof *r);
    r->confidence = conf;
    r->mean_log = mb - ma;
    double qa = va / (double)na, qb = vb / (double)nb;
    r->se_log = sqrt(qa + qb);
    r->ratio = exp(r->mean_log);
    if (!(r->se_log > 0)) {
        r->lo = r->hi = r->ratio;
        r->p = r->mean_log == 0 ? 1 : 0;
        return 0;
    }
    r->df = (qa + qb) * (qa + qb) /
            (qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1) + 1e-300);
    double t = stats_t_crit(conf, r->df);
    r->lo = exp(r->mean_log - t * r->se_log);
    r->hi = exp(r->mean_log + t * r->se_log);
    r->p = stats_t_pvalue(r->mean_log / r->se_log, r->df);
    return 0;
}

static void pct_ci(char *buf, size_t len, const struct stats_ratio *r)
{
    snprintf(buf, len, "%+.1f %%, %.0f %% CI %+.1f to %+.1f %%", (r->ratio - 1) * 100,
             r->confidence * 100, (r->lo - 1) * 100, (r->hi - 1) * 100);
}

static bool includes_one(const struct stats_ratio *r)
{
    return r->lo <= 1 && r->hi >= 1;
}

/* Judges the candidate on phase p; returns the exit status and says why on stderr. */
static int judge(const struct series *sr, size_t p, double conf)
{
    const struct series_label *g = &sr->labels[0], *b = &sr->labels[1], *c = &sr->labels[2];
    const char *ph = sr->phases[p];
    const char *unit = cmp_metric_get(sr->metric)->unit;
    struct stats_ratio cg, cb;
    if (c->nvals[p] < 2) {
        fprintf(stderr, "bisect: %s: %s has %zu run%s with a value: cannot tell (run more: at "
                        "least 2)\n",
                ph, text_shown(c->label), c->nvals[p], c->nvals[p] == 1 ? "" : "s");
        return BISECT_UNSURE;
    }
    if (welch_log(g->vals[p], g->nvals[p], c->vals[p], c->nvals[p], conf, &cg) < 0 ||
        welch_log(b->vals[p], b->nvals[p], c->vals[p], c->nvals[p], conf, &cb) < 0) {
        fprintf(stderr, "bisect: %s: cannot compare (a value of 0?): cannot tell\n", ph);
        return BISECT_UNSURE;
    }
    double mg = median_of(g->vals[p], g->nvals[p]), mb = median_of(b->vals[p], b->nvals[p]),
           mc = median_of(c->vals[p], c->nvals[p]);
    char vg[96], vb[96];
    pct_ci(vg, sizeof vg, &cg);
    pct_ci(vb, sizeof vb, &cb);
    bool like_g = includes_one(&cg), like_b = includes_one(&cb);
    /* where the candidate lies on the good -> bad line: 0 at good, 1 at bad */
    double t = log(mc / mg) / log(mb / mg);
    int v;
    const char *why;
    if (like_g && !like_b)
        v = BISECT_GOOD, why = "is like good";
    else if (like_b && !like_g)
        v = BISECT_BAD, why = "is like bad";
    else if (like_g && like_b)
        v = BISECT_UNSURE, why = "cannot be told yet (like both: run more)";
    else if (t > 1)
        v = BISECT_BAD, why = "is like bad (beyond it)";
    else if (t < 0)
        v = BISECT_GOOD, why = "is like good (beyond it)";
    else
        v = BISECT_UNSURE, why = "lies between good and bad (a part of the change?)";
    fprintf(stderr, "bisect: %s: %s %s: %.4g %s against good %s %.4g %s (%s) and bad %s "
                    "%.4g %s (%s)\n",
            ph, text_shown(c->label), why, mc, unit, text_shown(g->label), mg, unit, vg,
            text_shown(b->label), mb, unit, vb);
    return v;
}

static int verdict(int argc, char **argv)
{
    static const struct option opts[] = {
        {"good", required_argument, NULL, OPT_GOOD},
        {"bad", required_argument, NULL, OPT_BAD},
        {"phase", required_argument, NULL, OPT_PHASE},
        {"metric", required_argument, NULL, OPT_METRIC},
        {"confidence", required_argument, NULL, OPT_CONF},
        {"allow-different-work", no_argument, NULL, OPT_ALLOW},
        {"db", required_argument, NULL, OPT_DB},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct cli_series_args sa = {.by = "given"};
    const char *good = NULL, *bad = NULL, *phase = NULL;
    double conf = 0.95;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_GOOD: good = optarg; break;
        case OPT_BAD: bad = optarg; break;
        case OPT_PHASE: phase = optarg; break;
        case OPT_METRIC: sa.metric = optarg; break;
        case OPT_ALLOW: sa.allow_different = true; break;
        case OPT_DB: sa.db = optarg; break;
        case OPT_CONF:
            if (!strcmp(optarg, "90") || !strcmp(optarg, "95") || !strcmp(optarg, "99"))
                conf = atoi(optarg) / 100.0;
            else
                return error("bisect: --confidence: '%s' is not 90, 95 or 99",
                             text_shown(optarg)),
                       BISECT_ERROR;
            break;
        case 'h': fputs(bisect_usage, stdout); return EXIT_OK;
        default: cli_bad_option("bisect verdict", c, argv); return BISECT_ERROR;
        }
    }
    if (!good || !bad || argc - optind != 1)
        return error("bisect verdict: give --good LABEL, --bad LABEL and one CANDIDATE label; "
                     "try 'fsbench bisect --help'"),
               BISECT_ERROR;
    const char *cand = argv[optind];
    if (!strcmp(good, bad) || !strcmp(cand, good) || !strcmp(cand, bad))
        return error("bisect verdict: the good, bad and candidate labels must be three"),
               BISECT_ERROR;
    char *labels[3] = {(char *)good, (char *)bad, (char *)cand};
    for (int i = 0; i < 3; i++)
        if (strpbrk(labels[i], "*?["))
            return error("bisect verdict: '%s' is a pattern: name one label each",
                         text_shown(labels[i])),
                   BISECT_ERROR;
    struct series sr;
    int rc = cli_series_load("bisect verdict", &sa, labels, 3, &sr);
    if (rc != EXIT_OK) {
        series_free(&sr);
        return BISECT_ERROR;
    }
    /* the phase: as asked, else where good and bad differ most */
    int best = -1;
    double most = 0;
    for (size_t p = 0; p < sr.nphases; p++) {
        if (phase && strcmp(phase, sr.phases[p]))
            continue;
        struct stats_ratio gb;
        if (welch_log(sr.labels[0].vals[p], sr.labels[0].nvals[p], sr.labels[1].vals[p],
                            sr.labels[1].nvals[p], conf, &gb) < 0 ||
            includes_one(&gb)) {
            if (phase)
                fprintf(stderr, "bisect: %s: good %s and bad %s show no difference%s: cannot "
                                "tell (run more of both ends)\n",
                        sr.phases[p], text_shown(good), text_shown(bad),
                        sr.labels[0].nvals[p] < 2 || sr.labels[1].nvals[p] < 2
                            ? " (fewer than 2 runs)"
                            : "");
            if (phase) {
                series_free(&sr);
                return BISECT_UNSURE;
            }
            continue;
        }
        if (fabs(gb.mean_log) > most) {
            most = fabs(gb.mean_log);
            best = (int)p;
        }
    }
    if (phase && best < 0) {
        bool known = false;
        for (size_t p = 0; p < sr.nphases; p++)
            known |= !strcmp(phase, sr.phases[p]);
        if (!known) {
            error("bisect verdict: --phase: no phase '%s' in '%s'", text_shown(phase),
                  text_shown(good));
            series_free(&sr);
            return BISECT_ERROR;
        }
    }
    if (best < 0) {
        fprintf(stderr, "bisect: good %s and bad %s show no difference in any phase: cannot "
                        "tell (run more of both ends, or check they are good and bad)\n",
                text_shown(good), text_shown(bad));
        series_free(&sr);
        return BISECT_UNSURE;
    }
    rc = judge(&sr, (size_t)best, conf);
    series_free(&sr);
    return rc;
}

int cmd_bisect(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "verdict"))
        return verdict(argc - 1, argv + 1);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(bisect_usage, stdout);
        return EXIT_OK;
    }
    error("bisect: expected 'verdict' (fsbench bisect verdict --good G --bad B CANDIDATE)");
    return BISECT_ERROR;
}
