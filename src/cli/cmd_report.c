/* cmd_report.c — `fsbench report`: one self-contained HTML page with charts of run sets
 * (labels from the store, or JSON files), their comparison and their time lines.
 *
 *   fsbench report [--db FILE] [--metric M] [--confidence 90|95|99] [--points N]
 *                  -o FILE.html A [B ...]
 *
 * Exit statuses: 0; 2 for bad options and unknown labels; 1 when the store, a file or the
 * chart library cannot be read or the page cannot be written.
 *
 * This file reads the options and builds the comparison; the page is written by
 * report/report_page.c, to a temporary file beside FILE and renamed over it when whole
 * (base/outfile.h): a failure removes nothing fsbench did not make, and FILE is never the
 * results database itself.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/outfile.h"
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_inputs.h"
#include "report/html.h"
#include "report/report_page.h"
#include "run/run_series.h"
#include "results/store.h"
#include "stats/compare.h"

static const char report_usage[] =
    "usage: fsbench report [--db FILE] [--metric M] [--confidence 90|95|99]\n"
    "                      [--points N] [--force] -o FILE.html A [B ...]\n"
    "       fsbench report --history PATTERN [LABEL...] [--by KEY] [--phase NAME]\n"
    "                      [--metric M] [--allow-different-work] -o FILE.html\n"
    "  --history   a series (as fsbench history): per phase the medians with interval\n"
    "              bands, change points as markers with the medians before and after\n"
    "  --by KEY    the series' order: a --meta key's value in version order (default:\n"
    "              creation time)\n"
    "  --phase NAME  with --history: this phase only\n"
    "  --allow-different-work  with --history: take labels whose work differs\n"
    "  A, B: labels in the results database, or JSON files (*.json)\n"
    "  -o, --output FILE  the page to write (- for stdout); one file, nothing fetched\n"
    "              to view it\n"
    "  --metric    compare's metric for the verdict table (default wall)\n"
    "  --confidence C  the confidence of intervals and verdicts, in % (default 95)\n"
    "  --db FILE   the results store (default $XDG_DATA_HOME/fsbench/results.db)\n"
    "  --points N  most points per time line (default 600; fewer when the page would pass\n"
    "              10 MB)\n"
    "  --force     replace -o FILE even when it is a results store (SQLite) or spooled run\n";

/* Whether the inputs hold more than one group (compare.h's rule). */
static bool several_groups(const struct run_set *sets, size_t n)
{
    if (n > 1)
        return true;
    for (size_t i = 1; i < sets[0].nruns; i++)
        if (strcmp(sets[0].runs[i].config, sets[0].runs[0].config))
            return true;
    return false;
}

/* report's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_report = {
    "report", ":ho:",
    (const struct option[]){
        {"db", required_argument, NULL, 'd'},
        {"output", required_argument, NULL, 'o'},
        {"metric", required_argument, NULL, 'm'},
        {"confidence", required_argument, NULL, 'c'},
        {"points", required_argument, NULL, 'p'},
        {"help", no_argument, NULL, 'h'},
        {"force", no_argument, NULL, 'F'},
        {"history", required_argument, NULL, 'H'},
        {"by", required_argument, NULL, 'B'},
        {"phase", required_argument, NULL, 'P'},
        {"allow-different-work", no_argument, NULL, 'A'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_report(int argc, char **argv)
{
    const char *history = NULL, *by = NULL, *phase = NULL, *metric = NULL;
    bool allow = false;
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct html_opts ho = {0};
    const char *db = NULL, *outpath = NULL;
    static const struct num_range points = {16, 100000, NUM_WHOLE, NULL, NULL};
    bool conf_given = false;
    double d;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_report.shortopts, cli_opts_report.longopts,
                            NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'o': outpath = optarg; break;
        case 'F': outfile_set_force(true); break;
        case 'H': history = optarg; break;
        case 'B': by = optarg; break;
        case 'P': phase = optarg; break;
        case 'A': allow = true; break;
        case 'm': {
            metric = optarg;
            int m = cmp_metric_find(optarg);
            if (m < 0)
                return error("report: --metric: unknown metric '%s' (wall, user, sys, cpu, "
                             "ops, mbps, dev-writes, dev-reads, dev-write-mb)",
                             optarg),
                       EXIT_USAGE;
            opt.metric = (enum cmp_metric)m;
            break;
        }
        case 'c':
            conf_given = true;
            if (!strcmp(optarg, "90") || !strcmp(optarg, "95") || !strcmp(optarg, "99"))
                opt.confidence = atoi(optarg) / 100.0;
            else
                return error("report: --confidence: '%s' is not 90, 95 or 99", optarg),
                       EXIT_USAGE;
            break;
        case 'p':
            if (num_option("report: --points", optarg, &points, &d) < 0)
                return EXIT_USAGE;
            ho.points = (unsigned long)d;
            break;
        case 'h': fputs(report_usage, stdout); return EXIT_OK;
        default: return cli_bad_option("report", c, argv);
        }
    }
    size_t n = (size_t)(argc - optind);
    if (history)
        return report_page_history(db, outpath, history, argv + optind, n,
                              &(struct run_series_args){db, by, metric, allow}, phase);
    if (by || phase || allow)
        return error("report: --by, --phase and --allow-different-work go with --history"),
               EXIT_USAGE;
    if (n == 0)
        return error("report: name at least one label or JSON file (see fsbench report "
                     "--help)"),
               EXIT_USAGE;
    if (!outpath)
        return error("report: -o FILE.html is needed (- for stdout)"), EXIT_USAGE;
    if (store_check_output(db, outpath, "report: -o") < 0 || outfile_check(outpath, "report: -o") < 0)
        return EXIT_USAGE;
    char **args = argv + optind;
    struct run_set *sets;
    struct cmp_input *in;
    struct cmp_result res;
    memset(&res, 0, sizeof res);
    bool have_cmp = false;
    int status = cli_inputs_open("report", args, n, db, &sets, &in);
    for (size_t i = 0; status == EXIT_OK && i < n; i++) {
        if (sets[i].nruns == 0) {
            error("report: '%s' holds no runs", args[i]);
            status = EXIT_USAGE;
        }
    }
    if (status == EXIT_OK && several_groups(sets, n)) {
        /* a set made with --runs until-verdict: its own confidence and margin */
        cmp_options_for_set(&opt, &sets[0], conf_given, false);
        if (cmp_build(in, n, &opt, &res))
            status = EXIT_USAGE;
        else
            have_cmp = true;
    }
    if (status == EXIT_OK)
        status = report_page_write(outpath, sets, in, n, have_cmp ? &res : NULL, &ho);
    cmp_result_free(&res);
    cli_inputs_free(sets, in, n);
    return status;
}
