/* cmd_bisect.c — `fsbench bisect verdict --good G --bad B CANDIDATE`: is the candidate's
 * work like the good label's or the bad one's? For `git bisect run` (user-space code: a FUSE
 * file system, a tool) and for a kernel bisection driven by hand or by a loop (man page).
 *
 * The classification is stats/bisect.h's (the one `run --runs until-verdict --bisect-good G
 * --bisect-bad B` stops on): the phase where good and bad differ most (or --phase), the
 * candidate against each end by Welch's t on the log scale.
 *
 * Exit statuses, as git bisect run reads them: 0 good, 1 bad, 125 cannot tell (skip: run
 * more runs of the candidate and ask again); 128 for an error (bad usage, a label missing,
 * different work), which stops git bisect run instead of marking the commit.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "run/run_series.h"
#include "stats/bisect.h"

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

/* bisect verdict's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_bisect_verdict = {
    "bisect verdict", ":h",
    (const struct option[]){
        {"good", required_argument, NULL, OPT_GOOD},
        {"bad", required_argument, NULL, OPT_BAD},
        {"phase", required_argument, NULL, OPT_PHASE},
        {"metric", required_argument, NULL, OPT_METRIC},
        {"confidence", required_argument, NULL, OPT_CONF},
        {"allow-different-work", no_argument, NULL, OPT_ALLOW},
        {"db", required_argument, NULL, OPT_DB},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

static int verdict(int argc, char **argv)
{
    struct run_series_args sa = {.by = "given"};
    const char *good = NULL, *bad = NULL, *phase = NULL;
    double conf = 0.95;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_bisect_verdict.shortopts,
                            cli_opts_bisect_verdict.longopts, NULL)) != -1) {
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
    int rc = run_series_load("bisect verdict", &sa, labels, 3, &sr);
    if (rc != EXIT_OK) {
        series_free(&sr);
        return BISECT_ERROR;
    }
    /* the phase: as asked, else where good and bad differ most */
    char why[640];
    int best = bisect_pick_phase(&sr, phase, conf, why, sizeof why);
    if (best == -2) {
        error("bisect verdict: --phase: %s", why);
        series_free(&sr);
        return BISECT_ERROR;
    }
    if (best < 0) {
        fprintf(stderr, "bisect: %s\n", why);
        series_free(&sr);
        return BISECT_UNSURE;
    }
    struct bisect_judgement j;
    bisect_judge(&sr, (size_t)best, conf, &j);
    fprintf(stderr, "bisect: %s\n", j.why);
    series_free(&sr);
    return j.verdict;
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
