/* html_page.c — writes the self-contained HTML report (see html.h): the page skeleton,
 * the data as JSON in a script element, Chart.js read from its installed path and inlined,
 * and the page's own script. Nothing is fetched when the page is viewed.
 */
#include "report/html.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/infile.h"

/* The chart library is a system file, but read as every input is: a regular file, with a
 * limit (Chart.js 3 is about 200 KB). */
#define CHARTJS_MAX ((size_t)16 << 20)

/* Reads a whole file into a new NUL-terminated buffer; NULL after error(). */
char *html_chartjs_load(const char *path, size_t *len)
{
    char *buf, why[256];
    if (!path)
        path = HTML_CHARTJS_PATH;
    if (infile_read(path, CHARTJS_MAX, &buf, len, why, sizeof why) < 0) {
        error("report: cannot read the chart library %s (Debian package libjs-chart.js): %s",
              path, why);
        return NULL;
    }
    if (strstr(buf, "</script")) {
        free(buf);
        error("report: %s contains '</script' and cannot be inlined", path);
        return NULL;
    }
    return buf;
}

void html_put_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

static void put_title(FILE *out, const struct cmp_input *in, size_t nin)
{
    for (size_t i = 0; i < nin; i++) {
        if (i)
            fputs(", ", out);
        html_put_escaped(out, in[i].rs->label[0] ? in[i].rs->label : in[i].name);
    }
}

int report_html(FILE *out, const struct cmp_input *in, size_t nin, const struct cmp_result *r,
                const struct html_opts *o)
{
    size_t jslen = 0;
    const char *path = o && o->chartjs ? o->chartjs : HTML_CHARTJS_PATH;
    size_t cap = o && o->max_bytes ? o->max_bytes : HTML_MAX_BYTES;
    size_t points = o && o->points ? o->points : HTML_POINTS;
    char *chartjs = html_chartjs_load(path, &jslen);
    if (!chartjs)
        return -1;
    /* The data, its time lines cut until the page fits under the cap. */
    size_t fixed = jslen + strlen(html_script) + strlen(html_style) + 4096;
    char *data = NULL;
    bool cut = false;
    for (;;) {
        json_t *m = html_model(in, nin, r, points);
        if (!m) {
            free(chartjs);
            return -1;
        }
        data = json_dumps(m, JSON_COMPACT | JSON_ESCAPE_SLASH);
        json_decref(m);
        if (!data) {
            free(chartjs);
            return error("out of memory");
        }
        if (fixed + strlen(data) <= cap || points <= 16)
            break;
        free(data);
        points /= 2;
        cut = true;
    }
    if (fixed + strlen(data) > cap)
        warning("report: the page is %zu bytes, over the %zu-byte cap even with time lines "
                "of %zu points",
                fixed + strlen(data), cap, points);

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
          "fsbench report: ",
          out);
    put_title(out, in, nin);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>fsbench report: ",
            html_style);
    put_title(out, in, nin);
    fputs("</h1>\n<div id=\"status\" data-errors=\"0\"></div>\n<ul id=\"errors\"></ul>\n", out);
    /* first what compare says, at a glance; the details below */
    fputs("<section id=\"overview\">\n<h2>Overview</h2>\n<div id=\"overview-chart\"></div>\n"
          "<div id=\"matrix\"></div>\n</section>\n<h2>Set-up</h2>\n<div id=\"setup\"></div>\n"
          "<details id=\"verdicts\">\n<summary>Every verdict (<span id=\"verdict-count\">0</span> "
          "rows: ratio, interval, p, design, warnings)</summary>\n<div id=\"compare\"></div>\n"
          "</details>\n",
          out);
    fprintf(out, "<p class=\"note\">Time lines: the run nearest each group's median, %s%zu "
                 "points at most.</p>\n",
            cut ? "cut to stay under the size cap: " : "", points);
    fputs("<div id=\"legend\"></div>\n<div id=\"phases\"></div>\n"
          "<script type=\"application/json\" id=\"data\">",
          out);
    return html_page_end(out, data, chartjs, jslen, html_script);
}

int html_page_end(FILE *out, char *data, char *chartjs, size_t jslen, const char *script)
{
    /* '<' only occurs inside JSON strings: as \u003c no "</script" or "<!--" can end
     * or confuse the element */
    for (const char *c = data; *c; c++) {
        if (*c == '<')
            fputs("\\u003c", out);
        else
            fputc(*c, out);
    }
    fputs("</script>\n<script>\n", out);
    fwrite(chartjs, 1, jslen, out);
    fprintf(out, "\n</script>\n<script>\n%s</script>\n</body>\n</html>\n", script);
    free(data);
    free(chartjs);
    if (ferror(out))
        return error_errno("report: writing the page failed");
    return 0;
}
