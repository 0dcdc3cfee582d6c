/* report_page.c — the pages `fsbench report` writes (see report_page.h): a series of the
 * store's sets (--history), or the sets and their comparison, or one set of --age-steps as
 * its steps' series. The page is written to a temporary file beside FILE and renamed over
 * it when whole (base/outfile.h): a failure removes nothing fsbench did not make.
 */
#include "report/report_page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/outfile.h"
#include "report/html_history.h"
#include "run/age_steps.h"
#include "stats/history.h"

/* The page written (rc 0): renamed over FILE; or not (rc < 0): only fsbench's temporary
 * goes, FILE is as it was. The command's exit status. */
static int page_done(struct outfile *of, int rc)
{
    if (rc < 0) {
        outfile_discard(of);
        return EXIT_RUN_FAILED;
    }
    return outfile_commit(of) < 0 ? EXIT_RUN_FAILED : EXIT_OK;
}

/* report --history: the series of the pattern and the labels after it, as one page. */
int report_page_history(const char *db, const char *outpath, const char *pattern, char **more,
                        size_t nmore, const struct run_series_args *sa, const char *phase)
{
    if (!outpath)
        return error("report: -o FILE.html is needed (- for stdout)"), EXIT_USAGE;
    if (store_check_output(db, outpath, "report: -o") < 0)
        return EXIT_USAGE;
    char **args = calloc(nmore + 1, sizeof *args);
    if (!args)
        return error("out of memory"), EXIT_RUN_FAILED;
    args[0] = (char *)pattern;
    for (size_t i = 0; i < nmore; i++)
        args[i + 1] = more[i];
    struct series sr;
    struct hist_result h;
    memset(&h, 0, sizeof h);
    int status = run_series_load("report", sa, args, nmore + 1, &sr);
    free(args);
    if (status == EXIT_OK && sr.nphases == 0) {
        error("report: the series holds no measured run");
        status = EXIT_USAGE;
    }
    if (status == EXIT_OK) {
        int hr = hist_build(&sr, NULL, phase, &h);
        if (hr > 0)
            error("report: --phase: no phase '%s' in the series", phase);
        status = hr == 0 ? EXIT_OK : hr > 0 ? EXIT_USAGE : EXIT_RUN_FAILED;
    }
    struct outfile of;
    if (status == EXIT_OK)
        status = outfile_open(&of, outpath, "report") < 0
                     ? EXIT_RUN_FAILED
                     : page_done(&of, report_html_history(of.f, &sr, &h, run_series_order(sa),
                                                          NULL));
    hist_free(&h);
    series_free(&sr);
    return status;
}

int report_page_write(const char *outpath, const struct run_set *sets,
                      const struct cmp_input *in, size_t n, const struct cmp_result *res,
                      const struct html_opts *ho)
{
    /* one set of --age-steps: the page of its steps as a series (performance vs age) */
    struct series steps_sr = {0};
    struct hist_result steps_h = {0};
    bool steps = n == 1 && age_steps_of(&sets[0]) &&
                 age_steps_series(&sets[0], &steps_sr, &steps_h) == 0;
    struct outfile of;
    int status;
    if (outfile_open(&of, outpath, "report") < 0)
        status = EXIT_RUN_FAILED;
    else if (steps)
        status = page_done(&of, report_html_history_steps(of.f, &steps_sr, &steps_h,
                                                          "age step", NULL, &sets[0]));
    else
        status = page_done(&of, report_html(of.f, in, n, res, ho));
    hist_free(&steps_h);
    series_free(&steps_sr);
    return status;
}
