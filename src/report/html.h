/* html.h — `fsbench report`: one self-contained HTML file with charts of one or more run
 * sets, readable offline (the chart library is read from its installed path and inlined).
 *
 * The page shows the machine, target and tree; per phase every run as a point and each
 * group's median with its 95 % distribution-free interval; compare's verdicts as a table
 * with each warning once; per phase the time line (ops/s, MB/s, device I/O) of the run
 * nearest the median of each group, stalls shaded, and every stall listed; latency
 * percentiles per operation kind. Groups are compare's (stats/compare.h): with one input
 * its configurations, with several each input.
 *
 * Size: time lines are cut to at most `points` points each (cumulative counters are
 * subsampled, so rates between kept points stay exact averages); when the page would
 * pass max_bytes, points is halved until it fits (down to 16).
 *
 * Files: html_model.c builds the data (JSON), html_page.c writes the page, html_script.c
 * holds the page's script. Compute apart from presentation: numbers come from results,
 * stats and compare; the script only draws them.
 */
#ifndef FSBENCH_HTML_H
#define FSBENCH_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "measure/results.h"
#include "stats/compare.h"

#define HTML_CHARTJS_PATH "/usr/share/javascript/chart.js/chart.min.js"
#define HTML_MAX_BYTES (10u * 1000 * 1000)
#define HTML_POINTS 600

struct html_opts {
    const char *chartjs;   /* path of Chart.js; NULL: HTML_CHARTJS_PATH */
    size_t max_bytes;      /* 0: HTML_MAX_BYTES */
    size_t points;         /* most points per time line; 0: HTML_POINTS */
};

/* Writes the page for the inputs and their comparison r (built by cmp_build; NULL when
 * there is one group only, then the inputs' runs are one group) to out. 0, or -1 after
 * error() (Chart.js unreadable, out of memory, a write failed). */
int report_html(FILE *out, const struct cmp_input *in, size_t nin, const struct cmp_result *r,
                const struct html_opts *o);

/* ---- html_page.c: what every page of fsbench's shares ---- */
/* Chart.js from path (NULL: HTML_CHARTJS_PATH), checked to be inlinable; *len its size.
 * Free it. NULL after error(). */
char *html_chartjs_load(const char *path, size_t *len);
/* s as HTML element content or attribute text (< > & " escaped). */
void html_put_escaped(FILE *out, const char *s);
/* Ends a page whose last written text opened <script type="application/json" id="data">:
 * the JSON data ('<' escaped), Chart.js, the page's script, the closing tags. Frees data
 * and chartjs. 0, or -1 after error() (a write failed). */
int html_page_end(FILE *out, char *data, char *chartjs, size_t jslen, const char *script);

/* ---- html_model.c ---- */
struct json_t;
/* The page's data: a JSON object (see html_model.c), time lines cut to `points`. NULL
 * after error(). */
struct json_t *html_model(const struct cmp_input *in, size_t nin, const struct cmp_result *r,
                          size_t points);

/* ---- html_script.c ---- */
/* The page's own script (draws html_model()'s data with Chart.js) and style sheet. */
extern const char html_script[];
extern const char html_style[];

#endif
