/* report_history.h — a series' history as text (one block per phase: a row per label, a
 * trend line, the change points in words), JSON and CSV; and the sentence naming one change
 * point, which bisect and the HTML page share. Prints only: stats/history.h computes.
 */
#ifndef FSBENCH_REPORT_HISTORY_H
#define FSBENCH_REPORT_HISTORY_H

#include <stdio.h>

#include "stats/series.h"
#include "stats/history.h"

/* "extract: +11.8 % (95 % CI 7.9-15.9 %) from k-6.19-rc3 on (first bad), p = 0.002; last
 * good k-6.19-rc2", into buf. */
void hist_change_sentence(char *buf, size_t len, const struct series *sr,
                          const struct hist_result *h, const struct hist_phase *hp,
                          const struct hist_change *c);
/* The text report; width: the columns to fit (80). */
void hist_report_text(FILE *out, const struct series *sr, const struct hist_result *h,
                      const char *order);
/* The JSON object of the history (what --json prints and the HTML page draws); NULL after
 * error(). */
struct json_t;
struct json_t *hist_json(const struct series *sr, const struct hist_result *h,
                         const char *order);
/* The same as JSON (one object) or CSV (a row per phase and label). 0, or -1 after error(). */
int hist_report_json(FILE *out, const struct series *sr, const struct hist_result *h,
                     const char *order);
void hist_report_csv(FILE *out, const struct series *sr, const struct hist_result *h);

#endif
