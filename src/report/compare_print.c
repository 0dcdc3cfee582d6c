/* compare_print.c — what `fsbench compare` prints and writes once its inputs are compared
 * (cli/cmd_compare.c reads its options and builds the comparison): the text (summary,
 * failures, verdicts in words, with -v every figure), ministat's format, and the verdicts
 * written to a file for --json and --csv (see compare_print.h).
 */
#include "report/compare_print.h"

#include <stdio.h>

#include "base/err.h"
#include "base/outfile.h"
#include "report/report_age_series.h"

/* Writes the verdicts to path ("-": standard output) with fn. 0, or -1 after error(). */
int compare_write_out(const char *path, const char *what, const struct cmp_result *res,
                      int (*fn)(FILE *, const struct cmp_result *))
{
    struct outfile o;
    if (outfile_open(&o, path, what) < 0)
        return -1;
    if (fn(o.f, res) < 0) {
        outfile_discard(&o);
        return -1;
    }
    return outfile_commit(&o);
}

/* --format ministat: one phase (--phase, else the first) as ministat prints it. Exit status. */
int compare_print_ministat(const struct cmp_result *res, const char *phase, double confidence)
{
    int p = 0;
    if (phase && (p = cmp_find_phase(res, phase)) < 0) {
        error("compare: --phase: no phase '%s' in '%s'", phase, res->groups[0].name);
        return EXIT_USAGE;
    }
    if (res->nphases == 0) {
        error("compare: '%s' has no phases", res->groups[0].name);
        return EXIT_USAGE;
    }
    if (cmp_report_ministat(stdout, res, (size_t)p, confidence * 100))
        return EXIT_USAGE;
    /* standard output is ministat's, byte for byte: what differs goes to stderr */
    cmp_report_differs(stderr, res);
    return EXIT_OK;
}

/* --format text: the summary, failures and verdicts in words (with -v every figure), and
 * one set of --age-steps as a series. Exit status. */
int compare_print_text(const struct cmp_result *res, const struct run_set *sets, size_t n,
                       const char *phase, bool verbose)
{
    int status = EXIT_OK;
    if (phase)
        warning("compare: --phase applies to --format ministat only; ignored");
    cmp_report_summary(stdout, res);
    cmp_report_failures(stdout, res);
    fputc('\n', stdout);
    cmp_report_plain(stdout, res);
    /* one set of --age-steps: its steps as a series too */
    if (n == 1 && report_age_series(stdout, &sets[0]) < 0)
        status = EXIT_RUN_FAILED;
    if (verbose) {
        fputc('\n', stdout);
        cmp_report_text(stdout, res);
    }
    return status;
}
