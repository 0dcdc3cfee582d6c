/* report_page.h — the HTML pages `fsbench report` writes (report_page.c), once
 * cli/cmd_report.c has read its options (and built the comparison).
 */
#ifndef FSBENCH_REPORT_PAGE_H
#define FSBENCH_REPORT_PAGE_H

#include <stddef.h>

#include "measure/results.h"
#include "report/html.h"
#include "run/run_series.h"
#include "stats/compare.h"

/* report --history: the series of pattern and the labels after it (more, nmore), as sa
 * says (phase: only that one, NULL every phase), as one page in outpath ("-": stdout) of
 * the store db (NULL: the default). The process exit status. */
int report_page_history(const char *db, const char *outpath, const char *pattern, char **more,
                        size_t nmore, const struct run_series_args *sa, const char *phase);

/* The page of the sets (n of them, in their inputs) and their comparison (res; NULL when
 * there is one group), or of one set of --age-steps its steps as a series (performance vs
 * age), in outpath. The process exit status. */
int report_page_write(const char *outpath, const struct run_set *sets,
                      const struct cmp_input *in, size_t n, const struct cmp_result *res,
                      const struct html_opts *ho);

#endif
