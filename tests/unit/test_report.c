/* test_report.c — unit tests of the text reports (report.c) on run sets built in memory:
 * the seeds' form exactly, the table's medians, ranges and columns, configuration blocks
 * and the grid, notes of skipped and failed phases, and the format registry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "measure/results.h"

/* One phase of a run as a test describes it. */
struct ph {
    const char *name;
    double wall, user, sys;
    uint64_t ops;
    enum phase_status status;
    const char *note;
};

static void set_init(struct run_set *rs)
{
    memset(rs, 0, sizeof *rs);
    rs->schema_version = RESULTS_SCHEMA_VERSION;
    snprintf(rs->scenario, sizeof rs->scenario, "basic");
    snprintf(rs->engine, sizeof rs->engine, "posix");
    snprintf(rs->tree.profile, sizeof rs->tree.profile, "tiny");
    rs->tree.scale = 0.2;
    rs->tree.seed = 3;
    rs->tree.files = 200;
    rs->tree.dirs = 25;
    rs->tree.bytes = 1464908;
    snprintf(rs->target.path, sizeof rs->target.path, "/tmp/x");
    snprintf(rs->machine.hostname, sizeof rs->machine.hostname, "host");
}

static struct run_result *add_run(struct run_set *rs, const char *config, const struct ph *p,
                                  size_t n)
{
    struct run_result *r = run_set_add_run(rs, n);
    assert_non_null(r);
    snprintf(r->config, sizeof r->config, "%s", config);
    for (size_t i = 0; i < n; i++) {
        struct phase_result *pr = &r->phases[i];
        snprintf(pr->name, sizeof pr->name, "%s", p[i].name);
        pr->wall_s = p[i].wall;
        pr->user_s = p[i].user;
        pr->sys_s = p[i].sys;
        pr->ops_total = p[i].ops;
        pr->status = p[i].status;
        if (p[i].note)
            snprintf(pr->note, sizeof pr->note, "%s", p[i].note);
    }
    return r;
}

/* The report as a string (caller frees). */
static char *render(const struct run_set *rs, enum report_format fmt)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    report_run_set(out, rs, fmt);
    assert_int_equal(fclose(out), 0);
    assert_non_null(text);
    return text;
}

/* The report laid out for width columns (wide: every column), as a string (caller frees). */
static char *render_fit(const struct run_set *rs, unsigned width, bool wide)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    const struct report_layout lo = {.width = width, .wide = wide};
    report_run_set_fit(out, rs, REPORT_TABLE, &lo);
    assert_int_equal(fclose(out), 0);
    assert_non_null(text);
    return text;
}

/* Splits the first line of text that starts with `prefix` followed by a blank into
 * whitespace-separated tokens (into buf); returns the count, 0 if there is no such line. */
static int row_tokens(const char *text, const char *prefix, char *buf, size_t len, char **tok,
                      int max)
{
    size_t pl = strlen(prefix);
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t ll = end ? (size_t)(end - line) : strlen(line);
        if (ll > pl && !strncmp(line, prefix, pl) && (line[pl] == ' ')) {
            assert_true(ll < len);
            memcpy(buf, line, ll);
            buf[ll] = '\0';
            int n = 0;
            for (char *save, *t = strtok_r(buf, " ", &save); t && n < max;
                 t = strtok_r(NULL, " ", &save))
                tok[n++] = t;
            return n;
        }
        line = end ? end + 1 : NULL;
    }
    return 0;
}

static int count_substr(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void assert_contains(const char *text, const char *needle)
{
    if (!strstr(text, needle))
        fail_msg("expected \"%s\" in report:\n%s", needle, text);
}

/* The basic set: 2 runs of extract and delete, one (default) configuration. */
static void basic_set(struct run_set *rs)
{
    set_init(rs);
    const struct ph r1[] = {{"extract", 1.5, 0.1, 1.2, 1000, PHASE_OK, NULL},
                            {"delete", 0.75, 0.05, 0.5, 400, PHASE_OK, NULL}};
    const struct ph r2[] = {{"extract", 2.5, 0.2, 1.4, 3000, PHASE_OK, NULL},
                            {"delete", 0.25, 0.01, 0.3, 600, PHASE_OK, NULL}};
    add_run(rs, "", r1, 2);
    add_run(rs, "", r2, 2);
}

static void test_format_find(void **state)
{
    (void)state;
    assert_int_equal(report_format_find("seeds"), REPORT_SEEDS);
    assert_int_equal(report_format_find("table"), REPORT_TABLE);
    assert_int_equal(report_format_find("nope"), -1);
    assert_int_equal(report_format_find(""), -1);
    assert_int_equal(report_format_find("Seeds"), -1);
}

static void test_seeds_exact(void **state)
{
    (void)state;
    struct run_set rs;
    basic_set(&rs);
    char *text = render(&rs, REPORT_SEEDS);
    assert_string_equal(text, "run 1\n"
                              "extract: 1.50 real 0.10 user 1.20 sys\n"
                              "delete: 0.75 real 0.05 user 0.50 sys\n"
                              "\n"
                              "run 2\n"
                              "extract: 2.50 real 0.20 user 1.40 sys\n"
                              "delete: 0.25 real 0.01 user 0.30 sys\n");
    free(text);
    run_set_free(&rs);
}

static void test_seeds_skipped_failed_configs(void **state)
{
    (void)state;
    struct run_set rs;
    set_init(&rs);
    const struct ph a[] = {{"extract", 1, 0, 0.5, 1, PHASE_OK, NULL},
                           {"dropcaches", 0, 0, 0, 0, PHASE_SKIPPED, "needs root"}};
    const struct ph b[] = {{"extract", 3, 0.25, 1.5, 1, PHASE_FAILED, "create tree/a: x"},
                           {"dropcaches", 0, 0, 0, 0, PHASE_SKIPPED, "needs root"}};
    add_run(&rs, "ext4:defaults", a, 2);
    add_run(&rs, "ext4:sync", b, 2);
    add_run(&rs, "ext4:defaults", a, 2);
    char *text = render(&rs, REPORT_SEEDS);
    assert_string_equal(text, "Mode: ext4:defaults (run 1)\n"
                              "extract: 1.00 real 0.00 user 0.50 sys\n"
                              "dropcaches: skipped (needs root)\n"
                              "\n"
                              "Mode: ext4:defaults (run 2)\n"
                              "extract: 1.00 real 0.00 user 0.50 sys\n"
                              "dropcaches: skipped (needs root)\n"
                              "\n"
                              "Mode: ext4:sync (run 1)\n"
                              "extract: 3.00 real 0.25 user 1.50 sys FAILED\n"
                              "dropcaches: skipped (needs root)\n");
    free(text);
    run_set_free(&rs);
}

static void test_table_medians_and_ranges(void **state)
{
    (void)state;
    struct run_set rs;
    basic_set(&rs);
    char *text = render(&rs, REPORT_TABLE);
    char buf[512], *tok[16];
    int n = row_tokens(text, "extract", buf, sizeof buf, tok, 16);
    if (n < 11)
        fail_msg("no extract row in:\n%s", text);
    assert_string_equal(tok[1], "2");     /* runs */
    assert_string_equal(tok[2], "2.000"); /* median wall of 1.5 and 2.5 */
    assert_string_equal(tok[3], "[1.500-2.500]");
    assert_string_equal(tok[4], "0.15");  /* user */
    assert_string_equal(tok[5], "1.30");  /* sys */
    assert_string_equal(tok[6], "2000");  /* ops */
    assert_string_equal(tok[7], "0.9");   /* kops/s: median of 0.667 and 1.2 */
    assert_string_equal(tok[9], "n/a");   /* no device counters */
    assert_string_equal(tok[n - 1], "-"); /* no latency recorded */

    n = row_tokens(text, "delete", buf, sizeof buf, tok, 16);
    if (n < 11)
        fail_msg("no delete row in:\n%s", text);
    assert_string_equal(tok[2], "0.500");
    assert_string_equal(tok[3], "[0.250-0.750]");
    assert_string_equal(tok[6], "500");
    assert_string_equal(tok[9], "n/a");

    /* The header describes the tree, no configuration blocks without configurations. */
    assert_contains(text, "scenario basic, tree tiny x0.2 seed 3: 200 files, 25 dirs");
    assert_null(strstr(text, "Mode:"));
    assert_null(strstr(text, "median wall seconds"));
    assert_null(strstr(text, "warm-cache"));
    free(text);
    run_set_free(&rs);
}

/* With three runs the median is the middle value, not the mean. */
static void test_table_odd_median(void **state)
{
    (void)state;
    struct run_set rs;
    basic_set(&rs);
    const struct ph r3[] = {{"extract", 9.0, 0.1, 1.2, 1000, PHASE_OK, NULL},
                            {"delete", 0.5, 0.05, 0.5, 400, PHASE_OK, NULL}};
    add_run(&rs, "", r3, 2);
    char *text = render(&rs, REPORT_TABLE);
    char buf[512], *tok[16];
    assert_true(row_tokens(text, "extract", buf, sizeof buf, tok, 16) >= 11);
    assert_string_equal(tok[1], "3");
    assert_string_equal(tok[2], "2.500");
    assert_string_equal(tok[3], "[1.500-9.000]");
    free(text);
    run_set_free(&rs);
}

static void test_table_device_and_latency(void **state)
{
    (void)state;
    struct run_set rs;
    basic_set(&rs);
    for (size_t i = 0; i < rs.nruns; i++) {
        struct phase_result *pr = &rs.runs[i].phases[0];
        pr->dev.valid = true;
        pr->dev.rd_ios = 10 + 20 * i;
        pr->dev.wr_ios = 100 + 200 * i;
        pr->lat[OP_CREATE].count = 100;
        pr->lat[OP_CREATE].p50_ns = 1500;
        pr->lat[OP_CREATE].p99_ns = 2500000;
        pr->lat[OP_CLOSE].count = 1000; /* many closes of no time: time counts, not number */
        pr->bytes_written = 3000000;
    }
    char *text = render(&rs, REPORT_TABLE);
    char buf[512], *tok[16];
    int n = row_tokens(text, "extract", buf, sizeof buf, tok, 16);
    assert_true(n >= 11);
    assert_string_equal(tok[8], "1.6"); /* MB/s: median of 3e6/1.5 and 3e6/2.5 */
    assert_string_equal(tok[9], "20/200");
    char *row = strstr(text, "\nextract ");
    assert_non_null(row);
    char *eol = strchr(row + 1, '\n');
    assert_non_null(eol);
    *eol = '\0';
    assert_non_null(strstr(row, "create 1.5 us / 2.5 ms"));
    free(text);
    run_set_free(&rs);
}

/* The latency column shows the kind that took most of the phase's time: a copy's
 * copy_file_range calls, not its more numerous and quicker setattr calls. */
static void test_table_latency_of_most_time(void **state)
{
    (void)state;
    struct run_set rs;
    basic_set(&rs);
    for (size_t i = 0; i < rs.nruns; i++) {
        struct phase_result *pr = &rs.runs[i].phases[0];
        pr->lat[OP_SETATTR].count = 3000;
        pr->lat[OP_SETATTR].p50_ns = 367;
        pr->lat[OP_SETATTR].p99_ns = 900;
        pr->lat[OP_SETATTR].mean_ns = 400;
        pr->lat[OP_COPY].count = 1000;
        pr->lat[OP_COPY].p50_ns = 40000;
        pr->lat[OP_COPY].p99_ns = 90000;
        pr->lat[OP_COPY].mean_ns = 45000;
    }
    char *text = render(&rs, REPORT_TABLE);
    char *row = strstr(text, "\nextract ");
    assert_non_null(row);
    char *eol = strchr(row + 1, '\n');
    assert_non_null(eol);
    *eol = '\0';
    assert_non_null(strstr(row, "copy 40.0 us / 90.0 us"));
    assert_null(strstr(row, "setattr"));
    free(text);
    run_set_free(&rs);
}

static void test_table_skipped_and_failed_notes(void **state)
{
    (void)state;
    struct run_set rs;
    set_init(&rs);
    const struct ph r1[] = {{"extract", 1.5, 0.1, 1.2, 1000, PHASE_OK, NULL},
                            {"dropcaches", 0, 0, 0, 0, PHASE_SKIPPED, "needs root: warm"},
                            {"delete", 0.75, 0.05, 0.5, 400, PHASE_OK, NULL}};
    const struct ph r2[] = {
        {"extract", 2.5, 0.2, 1.4, 3000, PHASE_OK, NULL},
        {"dropcaches", 0, 0, 0, 0, PHASE_SKIPPED, "needs root: warm"},
        {"delete", 9, 0.01, 0.3, 600, PHASE_FAILED, "unlink tree/a: Permission denied"}};
    add_run(&rs, "", r1, 3);
    add_run(&rs, "", r2, 3);
    /* A warm-up run counts for nothing. */
    struct run_result *w = add_run(&rs, "", r1, 3);
    w->warmup = true;
    w->phases[0].wall_s = 100;
    rs.warm_cache = true;
    char *text = render(&rs, REPORT_TABLE);

    char buf[512], *tok[16];
    assert_true(row_tokens(text, "extract", buf, sizeof buf, tok, 16) >= 11);
    assert_string_equal(tok[1], "2");
    assert_string_equal(tok[3], "[1.500-2.500]");
    int n = row_tokens(text, "dropcaches", buf, sizeof buf, tok, 16);
    assert_int_equal(n, 3);
    assert_string_equal(tok[1], "0");
    assert_string_equal(tok[2], "-");
    assert_true(row_tokens(text, "delete", buf, sizeof buf, tok, 16) >= 11);
    assert_string_equal(tok[1], "1");
    assert_string_equal(tok[2], "0.750");

    assert_int_equal(count_substr(text, "needs root: warm"), 1);
    assert_contains(text, "  dropcaches skipped in run 1: needs root: warm\n");
    assert_contains(text, "  delete FAILED in run 2: unlink tree/a: Permission denied\n");
    assert_contains(text, "warm-cache");
    free(text);
    run_set_free(&rs);
}

static void two_config_set(struct run_set *rs)
{
    set_init(rs);
    const struct ph d1[] = {{"extract", 1, 0.1, 0.5, 10, PHASE_OK, NULL},
                            {"delete", 0.5, 0, 0.25, 10, PHASE_OK, NULL}};
    const struct ph d2[] = {{"extract", 3, 0.3, 0.7, 10, PHASE_OK, NULL},
                            {"delete", 0.5, 0, 0.25, 10, PHASE_OK, NULL}};
    const struct ph s1[] = {{"extract", 5, 0.1, 2, 10, PHASE_OK, NULL},
                            {"delete", 1.5, 0, 1, 10, PHASE_OK, NULL}};
    const struct ph s2[] = {{"extract", 7, 0.1, 2, 10, PHASE_OK, NULL},
                            {"delete", 2.5, 0, 1, 10, PHASE_OK, NULL}};
    /* Interleaved by rounds, as the runner makes them. */
    add_run(rs, "ext4:defaults", d1, 2)->round = 0;
    add_run(rs, "ext4:sync", s1, 2)->round = 0;
    add_run(rs, "ext4:sync", s2, 2)->round = 1;
    add_run(rs, "ext4:defaults", d2, 2)->round = 1;
}

/* At 80 columns (no terminal): one table, rows within 80 columns, the configurations as
 * its groups in their declared order (not the first round's), no Mode block and no grid
 * unless wide; wide at 80 columns: every column, the grid cut into blocks that fit. */
/* The header fits too: a long label and long mount options are broken between phrases
 * (the options at their commas), nothing lost; --wide keeps each on one line. */
static void test_header_fits_80_columns(void **state)
{
    (void)state;
    struct run_set rs;
    two_config_set(&rs);
    snprintf(rs.label, sizeof rs.label, "%s",
             "a-label-long-enough-to-matter-in-every-table-of-fsbench-0123456");
    snprintf(rs.target.path, sizeof rs.target.path, "/tmp/fsbench-target.abcdef/mnt");
    snprintf(rs.target.mount_opts, sizeof rs.target.mount_opts,
             "rw,relatime,discard,resv_strict,resuid=65534,resgid=65534,commit=30");
    char *text = render_fit(&rs, 80, false);
    for (const char *l = text; *l && *l != '\n';) { /* the header: up to the blank line */
        size_t n = strcspn(l, "\n");
        if (n > 80)
            fail_msg("a header line of %zu columns: %.*s", n, (int)n, l);
        l += n + (l[n] == '\n');
    }
    assert_contains(text, "label a-label-long-enough-to-matter-in-every-table-of-fsbench-0123456");
    assert_contains(text, "resv_strict,\n  resuid=65534,resgid=65534,commit=30; device");
    free(text);
    text = render_fit(&rs, 80, true);
    assert_contains(text, "target /tmp/fsbench-target.abcdef/mnt (");
    assert_contains(text, "rw,relatime,discard,resv_strict,resuid=65534,resgid=65534,commit=30; device");
    free(text);
    run_set_free(&rs);
}

static void test_table_fits_80_columns(void **state)
{
    (void)state;
    struct run_set rs;
    two_config_set(&rs);
    snprintf(rs.target.configs, sizeof rs.target.configs, "ext4:sync\next4:defaults");
    char *text = render_fit(&rs, 80, false);
    assert_null(strstr(text, "Mode: "));
    assert_null(strstr(text, "median wall seconds"));
    assert_int_equal(count_substr(text, "phase       runs"), 1);
    const char *cs = strstr(text, "\n[ext4:sync]\n"), *cd = strstr(text, "\n[ext4:defaults]\n");
    assert_true(cs && cd && cs < cd); /* declared order */
    const char *table = strstr(text, "phase       runs");
    for (const char *l = table; l && *l;) {
        size_t n = strcspn(l, "\n");
        if (n > 80)
            fail_msg("a row of %zu columns: %.*s", n, (int)n, l);
        l += n + (l[n] == '\n');
    }
    assert_contains(text, "kops/s     MB/s\n");
    assert_null(strstr(text, "latency p50"));
    free(text);

    text = render_fit(&rs, 80, true);
    assert_contains(text, "\nMode: ext4:sync\n");
    assert_contains(text, "latency p50 / p99");
    const char *ms = strstr(text, "Mode: ext4:sync"), *md = strstr(text, "Mode: ext4:defaults");
    assert_true(ms && md && ms < md);
    free(text);

    /* a grid of 9 phases at 80 columns: blocks of 5 phases, no row over 80 */
    struct run_set big;
    set_init(&big);
    struct ph many[9];
    static const char *const names[] = {"extract", "sync", "dropcaches", "walk", "statwalk",
                                        "read", "copy", "delete", "sync"};
    for (size_t i = 0; i < 9; i++)
        many[i] = (struct ph){names[i], 1, 0.1, 0.2, 10, PHASE_OK, NULL};
    add_run(&big, "ext4:defaults", many, 9);
    add_run(&big, "xfs:defaults", many, 9);
    text = render_fit(&big, 80, true);
    const char *grid = strstr(text, "median wall seconds\n");
    assert_non_null(grid);
    for (const char *l = grid; *l && strncmp(l, "\nconfiguration ", 15);) {
        size_t n = strcspn(l, "\n");
        if (n > 80)
            fail_msg("a grid row of %zu columns: %.*s", n, (int)n, l);
        l += n + (l[n] == '\n');
    }
    assert_int_equal(count_substr(grid, "\nxfs:defaults "), 2);
    free(text);
    run_set_free(&big);
    run_set_free(&rs);
}

static void test_table_two_configs(void **state)
{
    (void)state;
    struct run_set rs;
    two_config_set(&rs);
    char *text = render(&rs, REPORT_TABLE);
    /* Seed 000's blocks: medians per configuration. */
    assert_contains(text, "\nMode: ext4:defaults\n"
                          "extract: 2.00 real 0.20 user 0.60 sys\n"
                          "delete: 0.50 real 0.00 user 0.25 sys\n");
    assert_contains(text, "\nMode: ext4:sync\n"
                          "extract: 6.00 real 0.10 user 2.00 sys\n"
                          "delete: 2.00 real 0.00 user 1.00 sys\n");
    const char *grid = strstr(text, "median wall seconds\n");
    assert_non_null(grid);
    char buf[512], *tok[16];
    assert_int_equal(row_tokens(grid, "configuration", buf, sizeof buf, tok, 16), 3);
    assert_string_equal(tok[1], "extract");
    assert_string_equal(tok[2], "delete");
    assert_int_equal(row_tokens(grid, "ext4:defaults", buf, sizeof buf, tok, 16), 3);
    assert_string_equal(tok[1], "2.000");
    assert_string_equal(tok[2], "0.500");
    assert_int_equal(row_tokens(grid, "ext4:sync", buf, sizeof buf, tok, 16), 3);
    assert_string_equal(tok[1], "6.000");
    assert_string_equal(tok[2], "2.000");
    /* The grid lists each configuration once, in order of first appearance. */
    const char *gd = strstr(grid, "\next4:defaults "), *gs = strstr(grid, "\next4:sync ");
    assert_true(gd && gs && gd < gs);

    /* Then one table per configuration, each over its own runs only. */
    const char *cd = strstr(text, "\nconfiguration ext4:defaults\n");
    const char *cs = strstr(text, "\nconfiguration ext4:sync\n");
    assert_true(cd && cs && cd < cs);
    assert_true(row_tokens(cd, "extract", buf, sizeof buf, tok, 16) >= 11);
    assert_string_equal(tok[1], "2");
    assert_string_equal(tok[2], "2.000");
    assert_string_equal(tok[3], "[1.000-3.000]");
    assert_true(row_tokens(cs, "extract", buf, sizeof buf, tok, 16) >= 11);
    assert_string_equal(tok[2], "6.000");
    assert_string_equal(tok[3], "[5.000-7.000]");
    free(text);
    run_set_free(&rs);
}

/* Jobs in rounds with different phase lists: the grid's columns are every job's phases, each
 * under its own name (readjob's read never under walk, its delete never under statwalk). */
static void test_grid_phases_by_name(void **state)
{
    (void)state;
    struct run_set rs;
    set_init(&rs);
    const struct ph a[] = {{"extract", 1, 0, 0, 10, PHASE_OK, NULL},
                           {"walk", 2, 0, 0, 10, PHASE_OK, NULL},
                           {"statwalk", 3, 0, 0, 10, PHASE_OK, NULL}};
    const struct ph b[] = {{"extract", 4, 0, 0, 10, PHASE_OK, NULL},
                           {"read", 5, 0, 0, 10, PHASE_OK, NULL},
                           {"delete", 6, 0, 0, 10, PHASE_OK, NULL}};
    add_run(&rs, "walkjob", a, 3);
    add_run(&rs, "readjob", b, 3);
    char *text = render(&rs, REPORT_TABLE);
    const char *grid = strstr(text, "median wall seconds\n");
    assert_non_null(grid);
    char buf[512], *tok[16];
    assert_int_equal(row_tokens(grid, "configuration", buf, sizeof buf, tok, 16), 6);
    assert_string_equal(tok[1], "extract");
    assert_string_equal(tok[2], "walk");
    assert_string_equal(tok[3], "statwalk");
    assert_string_equal(tok[4], "read");
    assert_string_equal(tok[5], "delete");
    assert_int_equal(row_tokens(grid, "readjob", buf, sizeof buf, tok, 16), 6);
    assert_string_equal(tok[1], "4.000");
    assert_string_equal(tok[2], "-"); /* no walk */
    assert_string_equal(tok[3], "-"); /* no statwalk */
    assert_string_equal(tok[4], "5.000");
    assert_string_equal(tok[5], "6.000");
    assert_int_equal(row_tokens(grid, "walkjob", buf, sizeof buf, tok, 16), 6);
    assert_string_equal(tok[2], "2.000");
    assert_string_equal(tok[4], "-");
    free(text);
    run_set_free(&rs);
}

static void test_empty_set(void **state)
{
    (void)state;
    struct run_set rs;
    set_init(&rs);
    char *text = render(&rs, REPORT_SEEDS);
    assert_string_equal(text, "");
    free(text);
    text = render(&rs, REPORT_TABLE);
    assert_contains(text, "scenario basic");
    assert_null(strstr(text, "Mode:"));
    free(text);
    run_set_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_find),
        cmocka_unit_test(test_seeds_exact),
        cmocka_unit_test(test_seeds_skipped_failed_configs),
        cmocka_unit_test(test_table_medians_and_ranges),
        cmocka_unit_test(test_table_odd_median),
        cmocka_unit_test(test_table_device_and_latency),
        cmocka_unit_test(test_table_latency_of_most_time),
        cmocka_unit_test(test_table_skipped_and_failed_notes),
        cmocka_unit_test(test_table_two_configs),
        cmocka_unit_test(test_grid_phases_by_name),
        cmocka_unit_test(test_table_fits_80_columns),
        cmocka_unit_test(test_header_fits_80_columns),
        cmocka_unit_test(test_empty_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
