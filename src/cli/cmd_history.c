/* cmd_history.c — `fsbench history`: a series of labels, every phase over it, the change
 * points found and the first bad label named.
 *
 *   fsbench history [--db FILE] [--phase NAME] [--metric M] [--by KEY|created|given]
 *                   [--allow-different-work] [--alpha P] [--min-segment N]
 *                   [--json | --csv] [--fail-on regression[=PCT]] PATTERN|LABEL...
 *
 * Exit statuses: 0; 1 when --fail-on regression holds (the last change point of a phase is
 * a slowdown past PCT) or the store cannot be read; 2 for bad usage, unknown labels and
 * different work.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "run/run_series.h"
#include "report/report_history.h"
#include "stats/history.h"

static const char history_usage[] =
    "usage: fsbench history [OPTIONS] PATTERN|LABEL...\n"
    "  a series of labels ('k-*' or k-1 k-2 ...): per phase each label's median and 95 %\n"
    "  interval, a trend line, and the change points found, naming the first bad label\n"
    "  --by KEY          order by a --meta key in version order (--by kernel: the kernel\n"
    "                    recorded with each set unless a kernel key was given), or\n"
    "                    created (default: each label's first set), or given\n"
    "  --phase NAME      only this phase\n"
    "  --metric M        wall (default), user, sys, cpu, ops, mbps, dev-writes, dev-reads,\n"
    "                    dev-write-mb\n"
    "  --alpha P         false alarms per series and phase (default 5%)\n"
    "  --min-segment N   fewest labels a level may hold (default 3)\n"
    "  --allow-different-work  take labels that did different work (tree, scale,\n"
    "                    phases, threads: what compare calls different work)\n"
    "  --json, --csv     the same as JSON or CSV (with each label's --meta notes)\n"
    "  --fail-on regression[=PCT]  exit 1 when the last change point of a phase is a\n"
    "                    slowdown of more than PCT (default 0)\n"
    "  --db FILE         results store (default $XDG_DATA_HOME/fsbench/results.db)\n";

enum { OPT_DB = 256, OPT_PHASE, OPT_METRIC, OPT_BY, OPT_ALLOW, OPT_ALPHA, OPT_MINSEG, OPT_JSON,
       OPT_CSV, OPT_FAIL_ON };

/* --fail-on regression[=PCT]: the threshold as a fraction into *pct. 0, or -1 after error(). */
static int parse_fail_on(const char *s, double *pct)
{
    static const struct num_range r = {0, 1000, NUM_PERCENT, NULL, NULL};
    if (!strcmp(s, "regression")) {
        *pct = 0;
        return 0;
    }
    if (!strncmp(s, "regression=", 11))
        return num_option("history: --fail-on regression=PCT", s + 11, &r, pct);
    return error("history: --fail-on: '%s' is not regression or regression=PCT",
                 text_shown(s));
}

/* The phases whose last change point is a slowdown past pct, each said on stderr: how many. */
static int regressions(const struct series *sr, const struct hist_result *h, double pct)
{
    int n = 0;
    for (size_t p = 0; p < h->nphases; p++) {
        const struct hist_phase *hp = &h->phases[p];
        if (!hp->nchanges)
            continue;
        const struct hist_change *c = &hp->changes[hp->nchanges - 1];
        double worse = c->ratio > 1 ? c->ratio - 1 : 1 / c->ratio - 1;
        if (!c->worse || !(worse > pct))
            continue;
        char line[1024];
        hist_change_sentence(line, sizeof line, sr, h, hp, c);
        error("history: --fail-on regression=%g%%: %s", pct * 100, line);
        n++;
    }
    return n;
}

/* history's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_history = {
    "history", ":h",
    (const struct option[]){
        {"db", required_argument, NULL, OPT_DB},
        {"phase", required_argument, NULL, OPT_PHASE},
        {"metric", required_argument, NULL, OPT_METRIC},
        {"by", required_argument, NULL, OPT_BY},
        {"allow-different-work", no_argument, NULL, OPT_ALLOW},
        {"alpha", required_argument, NULL, OPT_ALPHA},
        {"min-segment", required_argument, NULL, OPT_MINSEG},
        {"json", no_argument, NULL, OPT_JSON},
        {"csv", no_argument, NULL, OPT_CSV},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_history(int argc, char **argv)
{
    static const struct num_range alpha_r = {0, 50, NUM_LO_OPEN | NUM_PERCENT, NULL, NULL};
    static const struct num_range seg_r = {2, 1000, NUM_WHOLE, NULL, NULL};
    struct run_series_args sa = {0};
    struct cp_options cpo;
    cp_options_default(&cpo);
    const char *phase = NULL;
    bool json = false, csv = false, fail_on = false;
    double fail_pct = 0, d;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_history.shortopts, cli_opts_history.longopts,
                            NULL)) != -1) {
        switch (c) {
        case OPT_DB: sa.db = optarg; break;
        case OPT_PHASE: phase = optarg; break;
        case OPT_METRIC: sa.metric = optarg; break;
        case OPT_BY: sa.by = optarg; break;
        case OPT_ALLOW: sa.allow_different = true; break;
        case OPT_ALPHA:
            if (num_option("history: --alpha", optarg, &alpha_r, &cpo.alpha) < 0)
                return EXIT_USAGE;
            break;
        case OPT_MINSEG:
            if (num_option("history: --min-segment", optarg, &seg_r, &d) < 0)
                return EXIT_USAGE;
            cpo.min_seg = (size_t)d;
            break;
        case OPT_JSON: json = true; break;
        case OPT_CSV: csv = true; break;
        case OPT_FAIL_ON:
            if (parse_fail_on(optarg, &fail_pct) < 0)
                return EXIT_USAGE;
            fail_on = true;
            break;
        case 'h': fputs(history_usage, stdout); return EXIT_OK;
        default: return cli_bad_option("history", c, argv);
        }
    }
    if (json && csv)
        return error("history: --json and --csv exclude each other"), EXIT_USAGE;
    if (optind >= argc)
        return error("history: name the labels: a pattern ('k-*') or a list; try 'fsbench "
                     "history --help'"),
               EXIT_USAGE;
    struct series sr;
    struct hist_result h;
    memset(&h, 0, sizeof h);
    int rc = run_series_load("history", &sa, argv + optind, (size_t)(argc - optind), &sr);
    if (rc == EXIT_OK && sr.nphases == 0) {
        error("history: '%s' holds no measured run", text_shown(sr.labels[0].label));
        rc = EXIT_USAGE;
    }
    if (rc == EXIT_OK) {
        int hr = hist_build(&sr, &cpo, phase, &h);
        if (hr > 0)
            error("history: --phase: no phase '%s' in the series", text_shown(phase));
        rc = hr == 0 ? EXIT_OK : hr > 0 ? EXIT_USAGE : EXIT_RUN_FAILED;
    }
    if (rc == EXIT_OK) {
        if (json)
            rc = hist_report_json(stdout, &sr, &h, run_series_order(&sa)) < 0 ? EXIT_RUN_FAILED
                                                                             : EXIT_OK;
        else if (csv)
            hist_report_csv(stdout, &sr, &h);
        else
            hist_report_text(stdout, &sr, &h, run_series_order(&sa));
        fflush(stdout);
    }
    if (rc == EXIT_OK && fail_on && regressions(&sr, &h, fail_pct) > 0)
        rc = EXIT_RUN_FAILED;
    hist_free(&h);
    series_free(&sr);
    return rc;
}
