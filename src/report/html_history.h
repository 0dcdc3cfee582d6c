/* html_history.h — `fsbench report --history`: one self-contained HTML page of a series:
 * per phase each label's median with its interval as a band, the level of each segment, the
 * change points as vertical markers with the medians before and after, and a table below.
 * The data is history's JSON (report_history.h); the chart library is inlined as for the
 * run-set page (html.h). For tests the script writes on #status data-errors, data-charts
 * and data-done, and on each chart data-points / data-expect-points (labels drawn) and
 * data-markers / data-expect-markers (change points drawn).
 */
#ifndef FSBENCH_HTML_HISTORY_H
#define FSBENCH_HTML_HISTORY_H

#include <stdio.h>

#include "stats/series.h"
#include "stats/history.h"

/* Writes the page; chartjs NULL: HTML_CHARTJS_PATH. 0, or -1 after error(). */
int report_html_history(FILE *out, const struct series *sr, const struct hist_result *h,
                        const char *order, const char *chartjs);
/* The same for a set of --age-steps (steps: the set; NULL as above): aged by replay, the
 * table of each step's free space (report_aging_steps_html) comes before the charts. */
struct run_set;
int report_html_history_steps(FILE *out, const struct series *sr, const struct hist_result *h,
                              const char *order, const char *chartjs,
                              const struct run_set *steps);

#endif
