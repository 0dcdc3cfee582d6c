/* test_html.c — the HTML report's data and page (report/html.h) on run sets built in
 * memory: groups and phases as compare makes them, every measured run once, medians with
 * their interval, the time line of the run nearest the median cut to the points asked
 * with rates between kept points, stalls and latency rows; the page inlines the chart
 * library, keeps the data from closing its script element, stays under its cap, and fails
 * with one message when the library is missing.
 */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/err.h"
#include "report/html.h"

#define NPTS 1000

/* configs a and b, 3 rounds; a's extract walls 1.0, 1.1, 1.2, b's 2.0, 2.2, 2.4; each
 * extract a time line of NPTS points at 100 ops and 1 MB per 0.1 s, a stall in run 1. */
static void make_set(struct run_set *rs)
{
    memset(rs, 0, sizeof *rs);
    snprintf(rs->label, sizeof rs->label, "lbl</script>");
    snprintf(rs->scenario, sizeof rs->scenario, "create");
    snprintf(rs->tree.profile, sizeof rs->tree.profile, "tiny");
    snprintf(rs->target.configs, sizeof rs->target.configs, "a\nb\n");
    for (unsigned round = 0; round < 3; round++)
        for (int c = 0; c < 2; c++) {
            struct run_result *r = run_set_add_run(rs, 2);
            assert_non_null(r);
            r->round = round;
            snprintf(r->config, sizeof r->config, "%s", c ? "b" : "a");
            struct phase_result *p = &r->phases[0];
            snprintf(p->name, sizeof p->name, "extract");
            p->wall_s = (c ? 2.0 : 1.0) * (1 + 0.1 * round);
            p->ops_total = 100 * NPTS;
            p->lat[OP_CREATE] = (struct lat_summary){.count = 10, .p50_ns = 1000 * (round + 1),
                                                     .p90_ns = 2000, .p99_ns = 3000,
                                                     .p999_ns = 4000, .max_ns = 9000 + round};
            p->timeline = calloc(NPTS, sizeof *p->timeline);
            assert_non_null(p->timeline);
            p->timeline_len = NPTS;
            p->timeline_dev = true;
            for (size_t i = 0; i < NPTS; i++)
                p->timeline[i] = (struct timeline_point){.t = 0.1 * (double)i, .ops = 100 * i,
                                                         .bytes = 1000000 * i,
                                                         .dev_wr_sectors = 2000 * i};
            if (r->index == 1) {
                p->stalls = calloc(1, sizeof *p->stalls);
                p->stalls[0] = (struct stall){.start_s = 5, .length_s = 1.5, .dev_busy_ms = 1500};
                p->nstalls = 1;
            }
            snprintf(r->phases[1].name, sizeof r->phases[1].name, "sync");
            r->phases[1].wall_s = 0.01;
            r->phases[1].status = round == 2 && c ? PHASE_FAILED : PHASE_OK;
        }
}

/* make_set()'s set as one input, compared. */
static void compared(struct run_set *rs, struct cmp_input *in, struct cmp_result *r)
{
    make_set(rs);
    *in = (struct cmp_input){"lbl", rs};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    memset(r, 0, sizeof *r);
    assert_int_equal(cmp_build(in, 1, &opt, r), 0);
}

static void test_model(void **state)
{
    struct run_set rs;
    struct cmp_input in;
    struct cmp_result r;
    compared(&rs, &in, &r);
    json_t *m = html_model(&in, 1, &r, 64);
    assert_non_null(m);
    json_t *groups = json_object_get(m, "groups");
    assert_int_equal(json_array_size(groups), 2);
    assert_string_equal(json_string_value(json_array_get(groups, 0)), "a");
    json_t *ph = json_object_get(m, "phases");
    assert_int_equal(json_array_size(ph), 2);
    json_t *ex = json_array_get(ph, 0);
    assert_string_equal(json_string_value(json_object_get(ex, "name")), "extract");
    assert_int_equal(json_array_size(json_object_get(ex, "runs")), 6);
    assert_int_equal(json_array_size(json_object_get(json_array_get(ph, 1), "runs")), 5);
    /* medians: b's is 2.2 with the range as its interval (3 runs) */
    json_t *med = json_array_get(json_object_get(ex, "med"), 1);
    assert_int_equal(json_integer_value(json_array_get(med, 0)), 1);
    assert_true(fabs(json_number_value(json_array_get(med, 1)) - 2.2) < 1e-9);
    assert_true(fabs(json_number_value(json_array_get(med, 2)) - 2.0) < 1e-9);
    assert_true(fabs(json_number_value(json_array_get(med, 3)) - 2.4) < 1e-9);
    assert_true(json_is_false(json_array_get(med, 4)));
    /* time lines: per group, cut to at most 64 points, rates exact */
    json_t *tl = json_object_get(ex, "tl");
    assert_int_equal(json_array_size(tl), 2);
    json_t *t0 = json_array_get(tl, 0);
    size_t n = json_array_size(json_object_get(t0, "t"));
    assert_true(n >= 32 && n <= 64);
    for (size_t i = 0; i < n; i++) {
        assert_true(fabs(json_number_value(json_array_get(json_object_get(t0, "ops"), i)) - 1000) < 1e-6);
        assert_true(fabs(json_number_value(json_array_get(json_object_get(t0, "mb"), i)) - 10) < 1e-6);
        assert_true(fabs(json_number_value(json_array_get(json_object_get(t0, "wr"), i)) - 10.24) < 1e-6);
    }
    /* the run nearest a's median (1.1) is its round 1: run index 2 or 3 */
    json_int_t run = json_integer_value(json_object_get(t0, "run"));
    assert_true(rs.runs[run].round == 1 && !strcmp(rs.runs[run].config, "a"));
    /* the stall of run 1 (b, round 0), device busy */
    json_t *st = json_array_get(json_object_get(ex, "stalls"), 0);
    assert_non_null(st);
    assert_int_equal(json_array_size(json_object_get(ex, "stalls")), 1);
    assert_int_equal(json_integer_value(json_array_get(st, 1)), 1);
    assert_int_equal(json_integer_value(json_array_get(st, 4)), 1);
    /* latency: one create row per group, median p50 2 us, max the largest */
    json_t *lat = json_array_get(json_object_get(ex, "lat"), 0);
    assert_string_equal(json_string_value(json_object_get(lat, "kind")), "create");
    json_t *row = json_array_get(json_object_get(lat, "rows"), 0);
    assert_true(json_number_value(json_array_get(row, 1)) == 2000);
    assert_int_equal(json_integer_value(json_array_get(row, 5)), 9002);
    /* verdicts: b against a for both phases */
    assert_int_equal(json_array_size(json_object_get(m, "verdicts")), 2);
    json_decref(m);
    cmp_result_free(&r);
    run_set_free(&rs);
}

/* The overview's data: compare's matrix cell for cell with its legend, each verdict's
 * class as the matrix marks it, the words of the metric's verdicts, and latency kinds in
 * order of the time they took. */
static void test_overview_model(void **state)
{
    struct run_set rs;
    struct cmp_input in;
    struct cmp_result r;
    compared(&rs, &in, &r);
    /* writes: more time than the creates (1000 x 5 us against 10 x about 2 us) */
    for (size_t i = 0; i < rs.nruns; i++)
        rs.runs[i].phases[0].lat[OP_WRITE] =
            (struct lat_summary){.count = 1000, .p50_ns = 4000, .p90_ns = 6000, .p99_ns = 8000,
                                 .p999_ns = 9000, .max_ns = 10000, .mean_ns = 5000};
    json_t *m = html_model(&in, 1, &r, 64);
    assert_non_null(m);
    json_t *mx = json_object_get(m, "matrix");
    char want[512];
    cmp_summary_legend(want, sizeof want, &r);
    assert_string_equal(json_string_value(json_object_get(mx, "legend")), want);
    assert_non_null(strstr(want, "geometric-mean ratio"));
    json_t *rows = json_object_get(mx, "rows");
    assert_int_equal(json_array_size(rows), r.nphases);
    for (size_t p = 0; p < r.nphases; p++)
        for (size_t g = 0; g < r.ngroups; g++) {
            cmp_summary_cell(want, sizeof want, &r, p, g);
            assert_string_equal(json_string_value(json_array_get(json_array_get(rows, p), g)),
                                want);
        }
    /* extract: b is exactly twice a, round for round: slower; sync: 2 pairs, too few */
    json_t *vs = json_object_get(m, "verdicts");
    assert_string_equal(json_string_value(json_object_get(json_array_get(vs, 0), "cls")), "worse");
    assert_true(fabs(json_number_value(json_object_get(json_array_get(vs, 0), "ratio")) - 2) <
                1e-9);
    assert_string_equal(json_string_value(json_object_get(json_array_get(vs, 1), "cls")), "few");
    json_t *metric = json_object_get(m, "metric");
    assert_string_equal(json_string_value(json_object_get(metric, "better")), "faster");
    assert_string_equal(json_string_value(json_object_get(metric, "worse")), "slower");
    /* latency: writes first (most time), then creates */
    json_t *lat = json_object_get(json_array_get(json_object_get(m, "phases"), 0), "lat");
    assert_int_equal(json_array_size(lat), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(lat, 0), "kind")),
                        "write");
    assert_string_equal(json_string_value(json_object_get(json_array_get(lat, 1), "kind")),
                        "create");
    assert_true(json_number_value(json_object_get(json_array_get(lat, 0), "ns")) >
                json_number_value(json_object_get(json_array_get(lat, 1), "ns")));
    json_decref(m);
    cmp_result_free(&r);
    run_set_free(&rs);
}

/* The page begins with the overview; the verdict table is collapsed below it. */
static void test_page_overview_first(void **state)
{
    struct run_set rs;
    struct cmp_input in;
    struct cmp_result r;
    compared(&rs, &in, &r);
    char lib[] = "/tmp/fsbench-html-lib.XXXXXX";
    int fd = mkstemp(lib);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "/* lib */", 9), 9);
    close(fd);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(report_html(f, &in, 1, &r, &(struct html_opts){.chartjs = lib}), 0);
    fclose(f);
    unlink(lib);
    char *body = strstr(buf, "<body>");
    assert_non_null(body);
    char *ov = strstr(body, "<section id=\"overview\">");
    char *h2 = strstr(body, "<h2>");
    char *det = strstr(body, "<details id=\"verdicts\">");
    char *cmpdiv = strstr(body, "<div id=\"compare\">");
    assert_non_null(ov);
    assert_non_null(det);
    assert_non_null(cmpdiv);
    assert_true(ov < h2 && h2 == strstr(ov, "<h2>Overview</h2>"));
    assert_true(ov < det && det < cmpdiv && cmpdiv < strstr(det, "</details>"));
    free(buf);
    cmp_result_free(&r);
    run_set_free(&rs);
}

static void test_page(void **state)
{
    char lib[] = "/tmp/fsbench-html-lib.XXXXXX";
    int fd = mkstemp(lib);
    assert_true(fd >= 0);
    const char js[] = "/* a chart library */ window.Chart = function () {};";
    assert_int_equal(write(fd, js, sizeof js - 1), (ssize_t)(sizeof js - 1));
    close(fd);

    struct run_set rs;
    struct cmp_input in;
    struct cmp_result r;
    compared(&rs, &in, &r);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    struct html_opts o = {.chartjs = lib};
    assert_int_equal(report_html(out, &in, 1, &r, &o), 0);
    fclose(out);
    assert_non_null(strstr(buf, js));
    assert_non_null(strstr(buf, "<title>fsbench report: lbl&lt;/script&gt;</title>"));
    /* the label's "</script>" inside the data cannot end the element early */
    const char *data = strstr(buf, "<script type=\"application/json\" id=\"data\">");
    assert_non_null(data);
    const char *end = strstr(data, "</script>");
    assert_non_null(strstr(data, "lbl\\u003c\\/script>"));
    assert_true(strstr(data, "\"verdicts\"") < end);
    size_t full = len;
    free(buf);

    /* a cap the page cannot meet with 600 points: the time lines are cut until it fits */
    buf = NULL;
    out = open_memstream(&buf, &len);
    o.max_bytes = full - 20000;
    assert_int_equal(report_html(out, &in, 1, &r, &o), 0);
    fclose(out);
    assert_true(len <= o.max_bytes);
    assert_non_null(strstr(buf, "cut to stay under the size cap"));
    free(buf);

    /* no library: one message, nothing written */
    unlink(lib);
    buf = NULL;
    out = open_memstream(&buf, &len);
    err_set_quiet(1);
    assert_int_equal(report_html(out, &in, 1, &r, &o), -1);
    err_set_quiet(0);
    fclose(out);
    assert_int_equal(len, 0);
    free(buf);
    cmp_result_free(&r);
    run_set_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model),
        cmocka_unit_test(test_overview_model),
        cmocka_unit_test(test_page_overview_first),
        cmocka_unit_test(test_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
