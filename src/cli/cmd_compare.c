/* cmd_compare.c — `fsbench compare`: loads run sets (labels from the store, or JSON
 * files), builds the comparison and prints it as a verdict table or in ministat's format
 * (what it prints and writes: report/compare_print.c).
 *
 *   fsbench compare [--db FILE] [--metric M] [--confidence 90|95|99] [--min-effect PCT]
 *                   [--format text|ministat] [--phase NAME] [--verbose]
 *                   [--json FILE|-] [--csv FILE|-] A [B ...]
 *
 * An argument naming an existing file that ends in ".json" is read as JSON; anything
 * else is a label. Exit statuses: 0; 2 for bad options, unknown labels and nothing to
 * compare; 1 when the database or a file cannot be read or an output not written.
 * --json and --csv write every verdict for programs (report_compare_out.c); given "-", that
 * is standard output's only content (the matrix is not printed).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "report/compare_print.h"
#include "run/age_steps.h"
#include "cli/cli_inputs.h"
#include "stats/compare.h"
#include "base/err.h"
#include "base/outcheck.h"
#include "base/outfile.h"
#include "results/resjson.h"
#include "results/store.h"

static const char compare_usage[] =
    "usage: fsbench compare [--db FILE] [--metric M] [--confidence 90|95|99]\n"
    "                       [--min-effect PCT] [--format text|ministat] [--phase NAME]\n"
    "                       [--allow-different-work] [-v|--verbose] A [B ...]\n"
    "  prints one matrix (phases x groups: ratio to the baseline A, * for a shown\n"
    "  difference) and each warning once, what differs between the groups, and the\n"
    "  verdicts in words; --verbose adds every phase's detail\n"
    "  --allow-different-work: a verdict between separate sets that did different work\n"
    "            (tree, scale, seed, phases, file counts, threads, trace); without it\n"
    "            their cells are marked ! and say why\n"
    "  A, B: labels in the results database, or JSON files (*.json)\n"
    "  --metric: wall (default), user, sys, cpu, ops, mbps, dev-writes, dev-reads,\n"
    "            dev-write-mb\n"
    "  a set made with --runs until-verdict is compared by its sequential method, at its\n"
    "  own confidence and --min-effect unless given here\n"
    "  --db FILE          the results store (default\n"
    "                     $XDG_DATA_HOME/fsbench/results.db)\n"
    "  --confidence C     the confidence of intervals and verdicts, in % (default 95)\n"
    "  --min-effect PCT   a difference smaller than PCT either way counts as none\n"
    "  --format F         text (default) or ministat (FreeBSD ministat's output, for\n"
    "                     one --phase)\n"
    "  --phase NAME       only this phase\n"
    "  -v, --verbose      every phase's detail after the matrix\n"
    "  --json FILE        every verdict as JSON (- for standard output, then the matrix\n"
    "                     is not printed): per phase and group the estimates, the\n"
    "                     interval, the margins, the mark, the verdict, its rule, the\n"
    "                     runs used and the different-work reasons\n"
    "  --csv FILE         the same, one CSV line a verdict (- for standard output)\n";

/* --json and --csv: at most one on standard output, not with ministat's, not the same
 * file, each a file that can be written. 0, or -1 after error(). */
static int check_outputs(const char *json, const char *csv, bool ministat)
{
    bool json_out = json && !strcmp(json, "-"), csv_out = csv && !strcmp(csv, "-");
    if (json_out && csv_out) {
        error("compare: --json - and --csv - both name standard output: give one of them a file");
        return -1;
    }
    if ((json_out || csv_out) && ministat) {
        error("compare: --format ministat prints on standard output: give --%s a file",
              json_out ? "json" : "csv");
        return -1;
    }
    if (json && csv && outfile_same(json, csv) && !json_out) {
        error("compare: --json and --csv name the same file '%s'", json);
        return -1;
    }
    if ((json && outfile_check(json, "compare: --json") < 0) ||
        (csv && outfile_check(csv, "compare: --csv") < 0))
        return -1;
    return 0;
}

/* compare's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_compare = {
    "compare", ":hv",
    (const struct option[]){
        {"db", required_argument, NULL, 'd'},
        {"metric", required_argument, NULL, 'm'},
        {"confidence", required_argument, NULL, 'c'},
        {"min-effect", required_argument, NULL, 'e'},
        {"format", required_argument, NULL, 'f'},
        {"phase", required_argument, NULL, 'p'},
        {"verbose", no_argument, NULL, 'v'},
        {"allow-different-work", no_argument, NULL, 'W'},
        {"json", required_argument, NULL, 'J'},
        {"csv", required_argument, NULL, 'C'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_compare(int argc, char **argv)
{
    static const struct num_range min_effect = {0, 100, NUM_HI_OPEN | NUM_PERCENT, NULL, NULL};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_policy policy = {0};
    const char *db = NULL, *phase = NULL, *json = NULL, *csv = NULL;
    bool ministat = false, verbose = false, conf_given = false, effect_given = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_compare.shortopts, cli_opts_compare.longopts,
                            NULL)) != -1) {
        switch (c) {
        case 'd':
            db = optarg;
            break;
        case 'm': {
            int m = cmp_metric_find(optarg);
            if (m < 0) {
                error("compare: --metric: unknown metric '%s' (wall, user, sys, cpu, ops, "
                      "mbps, dev-writes, dev-reads, dev-write-mb)",
                      optarg);
                return EXIT_USAGE;
            }
            opt.metric = (enum cmp_metric)m;
            break;
        }
        case 'c':
            conf_given = true;
            if (strcmp(optarg, "90") == 0)
                opt.confidence = 0.90;
            else if (strcmp(optarg, "95") == 0)
                opt.confidence = 0.95;
            else if (strcmp(optarg, "99") == 0)
                opt.confidence = 0.99;
            else {
                error("compare: --confidence: '%s' is not 90, 95 or 99", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'e':
            effect_given = true;
            if (num_option("compare: --min-effect", optarg, &min_effect,
                                  &opt.min_effect) < 0)
                return EXIT_USAGE;
            break;
        case 'f':
            if (strcmp(optarg, "text") == 0)
                ministat = false;
            else if (strcmp(optarg, "ministat") == 0)
                ministat = true;
            else {
                error("compare: --format: '%s' is not text or ministat", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'p':
            phase = optarg;
            break;
        case 'v':
            verbose = true;
            break;
        case 'W':
            policy.allow_different_work = true;
            break;
        case 'J':
            json = optarg;
            break;
        case 'C':
            csv = optarg;
            break;
        case 'h':
            fputs(compare_usage, stdout);
            return EXIT_OK;
        case ':':
            error("compare: option '%s' needs a value", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            error("compare: unknown option '%s'", argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    size_t n = (size_t)(argc - optind);
    if (n == 0) {
        error("compare: name at least one label or JSON file (see fsbench compare --help)");
        return EXIT_USAGE;
    }
    bool json_out = json && !strcmp(json, "-"), csv_out = csv && !strcmp(csv, "-");
    if (check_outputs(json, csv, ministat) < 0)
        return EXIT_USAGE;
    struct run_set *sets;
    struct cmp_input *in;
    struct cmp_result res;
    memset(&res, 0, sizeof res);
    int status = cli_inputs_open("compare", argv + optind, n, db, &sets, &in);
    if (status == EXIT_OK) {
        /* a set made with --runs until-verdict: its own confidence and margin, unless given */
        cmp_options_for_set(&opt, &sets[0], conf_given, effect_given);
        if (cmp_build_with(in, n, &opt, &policy, &res))
            status = EXIT_USAGE;
    }
    if (status == EXIT_OK && ministat)
        status = compare_print_ministat(&res, phase, opt.confidence);
    else if (status == EXIT_OK && !json_out && !csv_out)
        status = compare_print_text(&res, sets, n, phase, verbose);
    if (status == EXIT_OK && json && compare_write_out(json, "compare: --json", &res, cmp_report_json) < 0)
        status = EXIT_RUN_FAILED;
    if (status == EXIT_OK && csv && compare_write_out(csv, "compare: --csv", &res, cmp_report_csv) < 0)
        status = EXIT_RUN_FAILED;
    if (status == EXIT_OK && outcheck_stdout(NULL) < 0)
        status = EXIT_RUN_FAILED;
    cmp_result_free(&res);
    cli_inputs_free(sets, in, n);
    return status;
}
