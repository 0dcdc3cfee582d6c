/* test_compare.c — grouping, pairing and verdicts of compare.c, and the reports of
 * report_compare.c, on run sets built in memory.
 *
 * The ministat expectation was captured from /usr/bin/ministat (Debian 20150715,
 * `ministat -A -c 95 old-dirpref new-dirpref`, files holding the samples below, one per
 * line); -A is that version's spelling of newer ministat's -q.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/compare.h"
#include "base/err.h"

static const char *const phase_names[] = {"extract", "sync", "walk", "sync"};
#define NPH 4

/* Adds a run whose phases take `wall` times `factor[i]` seconds. */
static struct run_result *add_run(struct run_set *rs, const char *config, unsigned round,
                                  bool warmup, double wall)
{
    struct run_result *r = run_set_add_run(rs, NPH);
    assert_non_null(r);
    snprintf(r->config, sizeof r->config, "%s", config);
    r->round = round;
    r->warmup = warmup;
    for (size_t i = 0; i < NPH; i++) {
        struct phase_result *p = &r->phases[i];
        snprintf(p->name, sizeof p->name, "%s", phase_names[i]);
        p->wall_s = wall * (double)(i + 1);
        p->user_s = 0.1 * wall;
        p->sys_s = 0.2 * wall;
        p->ops_total = 1000;
        p->bytes_written = 4000000;
    }
    return r;
}

/* Deterministic small noise, +-3%. */
static double jitter(unsigned i)
{
    static const double j[] = {1.00, 1.02, 0.98, 1.03, 0.97, 1.01, 0.99, 1.025, 0.985, 1.005};
    return j[i % 10];
}

static void test_two_labels_batch(void **state)
{
    struct run_set a = {0}, b = {0};
    for (unsigned i = 0; i < 8; i++) {
        add_run(&a, "", 0, false, 10 * jitter(i));
        add_run(&b, "", 0, false, 5 * jitter(i + 3));
    }
    struct cmp_input in[] = {{"old", &a}, {"new", &b}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build(in, 2, &opt, &r), 0);
    assert_int_equal(r.ngroups, 2);
    assert_string_equal(r.groups[0].name, "old");
    assert_string_equal(r.groups[1].name, "new");
    assert_int_equal(r.nphases, NPH);
    assert_string_equal(r.phases[1].name, "sync");
    assert_string_equal(r.phases[3].name, "sync (2)");
    assert_int_equal(cmp_find_phase(&r, "sync (2)"), 3);
    assert_true(r.any_batch);
    const struct cmp_vs *vs = &r.phases[0].vs[1];
    assert_int_equal(vs->status, CMP_ST_OK);
    assert_false(vs->interleaved);
    assert_int_equal(vs->ratio.method, STATS_BATCH);
    assert_int_equal(vs->verdict.kind, STATS_BETTER);
    assert_true(fabs(vs->verdict.factor - 2) < 0.1);
    assert_int_equal(r.phases[0].s[0].n, 8);
    assert_true(fabs(r.phases[3].s[0].sum.median - 40) < 1.5);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cmp_report_text(f, &r);
    fclose(f);
    assert_non_null(strstr(buf, "new vs old: new is 2."));
    assert_non_null(strstr(buf, "x faster than old (95% CI "));
    assert_non_null(strstr(buf, "batches, not interleaved"));
    assert_non_null(strstr(buf, "were not interleaved in rounds"));
    free(buf);

    /* a rate: higher is better, still "faster" */
    cmp_result_free(&r);
    opt.metric = CMP_OPS;
    assert_int_equal(cmp_build(in, 2, &opt, &r), 0);
    assert_int_equal(r.phases[0].vs[1].verdict.kind, STATS_BETTER);
    assert_true(r.phases[0].vs[1].ratio.ratio > 1.8);
    cmp_result_free(&r);
    run_set_free(&a);
    run_set_free(&b);
}

static void test_configs_interleaved(void **state)
{
    struct run_set rs = {0};
    /* round 0 is warmup; then 10 rounds, order alternating within rounds */
    for (unsigned round = 0; round < 11; round++) {
        bool w = round == 0;
        double regime = round < 5 ? 1.0 : 1.3; /* the machine changes state midway */
        if (round % 2) {
            add_run(&rs, "vanilla", round, w, 10 * regime * jitter(round));
            add_run(&rs, "metaclustering", round, w, 9.6 * regime * jitter(round + 1));
        } else {
            add_run(&rs, "metaclustering", round, w, 9.6 * regime * jitter(round + 1));
            add_run(&rs, "vanilla", round, w, 10 * regime * jitter(round));
        }
    }
    /* an unpaired run: round 11 of one configuration only */
    add_run(&rs, "metaclustering", 11, false, 9.6);
    struct cmp_input in[] = {{"dirs", &rs}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build(in, 1, &opt, &r), 0);
    assert_int_equal(r.ngroups, 2);
    assert_string_equal(r.groups[0].name, "metaclustering");
    assert_string_equal(r.groups[1].name, "vanilla");
    assert_false(r.any_batch);
    const struct cmp_phase *ph = &r.phases[0];
    assert_int_equal(ph->s[0].n, 11);
    assert_int_equal(ph->s[0].warmup, 1);
    const struct cmp_vs *vs = &ph->vs[1];
    assert_true(vs->interleaved);
    assert_int_equal(vs->npairs, 10);
    assert_int_equal(vs->ratio.method, STATS_PAIRED);
    /* vanilla / metaclustering = 1/0.96 * jitter ratio: about 4%, below the 5% of interest
     * or not shown; never a full "slower" verdict */
    assert_true(vs->verdict.kind == STATS_BELOW_EFFECT || vs->verdict.kind == STATS_NO_DIFFERENCE);
    /* With 2% effect of interest, the same data says vanilla is slower (if shown). */
    cmp_result_free(&r);
    opt.min_effect = 0.02;
    assert_int_equal(cmp_build(in, 1, &opt, &r), 0);
    vs = &r.phases[0].vs[1];
    assert_true(vs->verdict.kind == STATS_WORSE || vs->verdict.kind == STATS_NO_DIFFERENCE);
    cmp_result_free(&r);
    run_set_free(&rs);
}

/* Configurations run one after the other ("no interleave"): each batch numbers its runs
 * 0, 1, 2, ... too, but they must not be paired. */
static void test_configs_not_interleaved(void **state)
{
    struct run_set rs = {0};
    for (unsigned i = 0; i < 6; i++)
        add_run(&rs, "ext4", i, false, 10 * jitter(i));
    for (unsigned i = 0; i < 6; i++)
        add_run(&rs, "xfs", i, false, 10 * jitter(i + 4));
    struct cmp_input in[] = {{"fs", &rs}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build(in, 1, &opt, &r), 0);
    assert_false(r.phases[0].vs[1].interleaved);
    assert_int_equal(r.phases[0].vs[1].ratio.method, STATS_BATCH);
    assert_true(r.any_batch);
    cmp_result_free(&r);
    run_set_free(&rs);
}

/* A label merging two interleaved run sets: rounds restart at 0 in the second set and
 * still pair with their own set's runs. */
static void test_merged_sets_pair(void **state)
{
    struct run_set rs = {0};
    for (unsigned set = 0; set < 2; set++)
        for (unsigned round = 0; round < 4; round++) {
            double base = set ? 20 : 10; /* the second set ran on a slower day */
            add_run(&rs, "a", round, false, base * jitter(round));
            add_run(&rs, "b", round, false, base * 0.5 * jitter(round + 1));
        }
    struct cmp_input in[] = {{"both", &rs}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build(in, 1, &opt, &r), 0);
    const struct cmp_vs *vs = &r.phases[0].vs[1];
    assert_true(vs->interleaved);
    assert_int_equal(vs->npairs, 8);
    assert_int_equal(vs->verdict.kind, STATS_BETTER);
    assert_true(fabs(vs->verdict.factor - 2) < 0.1);
    cmp_result_free(&r);
    run_set_free(&rs);
}

static void test_skipped_and_unavailable(void **state)
{
    struct run_set a = {0}, b = {0};
    for (unsigned i = 0; i < 6; i++) {
        struct run_result *ra = add_run(&a, "", i, false, 10 * jitter(i));
        struct run_result *rb = add_run(&b, "", i, false, 10 * jitter(i + 5));
        if (i == 2) {
            rb->phases[2].status = PHASE_FAILED;
            snprintf(rb->phases[2].note, sizeof rb->phases[2].note,
                     "open tree/a/b: Permission denied");
        }
        if (i == 4)
            ra->phases[2].status = PHASE_SKIPPED;
        ra->phases[0].dev.valid = false;
    }
    struct cmp_input in[] = {{"a", &a}, {"b", &b}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build(in, 2, &opt, &r), 0);
    const struct cmp_phase *walk = &r.phases[2];
    assert_int_equal(walk->s[0].n, 5);
    assert_int_equal(walk->s[0].skipped, 1);
    assert_int_equal(walk->s[1].n, 5);
    assert_int_equal(walk->s[1].failed, 1);
    assert_string_equal(walk->s[1].note, "open tree/a/b: Permission denied");
    assert_string_equal(walk->s[0].note, "skipped");
    assert_int_equal(walk->vs[1].status, CMP_ST_OK);
    assert_int_equal(walk->vs[1].verdict.kind, STATS_NO_DIFFERENCE);
    cmp_result_free(&r);

    opt.metric = CMP_DEV_WRITES;
    assert_int_equal(cmp_build(in, 2, &opt, &r), 0);
    assert_int_equal(r.phases[0].vs[1].status, CMP_ST_UNAVAILABLE);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cmp_report_text(f, &r);
    fclose(f);
    assert_non_null(strstr(buf, "dev-writes not available"));
    free(buf);
    cmp_result_free(&r);
    run_set_free(&a);
    run_set_free(&b);
}

static void test_nothing_to_compare(void **state)
{
    struct run_set a = {0};
    for (unsigned i = 0; i < 3; i++)
        add_run(&a, "", i, false, 10);
    struct cmp_input in[] = {{"only", &a}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    err_set_quiet(1);
    assert_int_equal(cmp_build(in, 1, &opt, &r), -1);
    err_set_quiet(0);
    cmp_result_free(&r);
    run_set_free(&a);
}

static void test_metrics(void **state)
{
    assert_int_equal(cmp_metric_find("wall"), CMP_WALL);
    assert_int_equal(cmp_metric_find("dev-write-mb"), CMP_DEV_WRITE_MB);
    assert_int_equal(cmp_metric_find("nope"), -1);
    struct phase_result p = {0};
    p.wall_s = 2;
    p.user_s = 0.5;
    p.sys_s = 0.25;
    p.ops_total = 100;
    p.bytes_read = 3000000;
    p.bytes_written = 1000000;
    double v;
    assert_int_equal(cmp_metric_value(&p, CMP_CPU, &v), 0);
    assert_true(v == 0.75);
    assert_int_equal(cmp_metric_value(&p, CMP_OPS, &v), 0);
    assert_true(v == 50);
    assert_int_equal(cmp_metric_value(&p, CMP_MBPS, &v), 0);
    assert_true(v == 2);
    assert_int_equal(cmp_metric_value(&p, CMP_DEV_READS, &v), 1);
    p.dev.valid = true;
    p.dev.wr_sectors = 2048;
    assert_int_equal(cmp_metric_value(&p, CMP_DEV_WRITE_MB, &v), 0);
    assert_true(fabs(v - 1.048576) < 1e-12);
}

static const char ministat_expected[] =
    "x old-dirpref\n"
    "+ new-dirpref\n"
    "    N           Min           Max        Median           Avg        Stddev\n"
    "x   5         12.05         12.77         12.31         12.33    0.28346076\n"
    "+   6          11.7          12.2         12.02     11.961667    0.18115371\n"
    "Difference at 95.0% confidence\n"
    "\t-0.368333 +/- 0.318122\n"
    "\t-2.98729% +/- 2.58007%\n"
    "\t(Student's t, pooled s = 0.232255)\n";

static void test_ministat_format(void **state)
{
    const double old[] = {12.31, 12.05, 12.77, 12.40, 12.12};
    const double new[] = {11.90, 12.20, 11.70, 12.02, 11.85, 12.10};
    struct run_set a = {0}, b = {0};
    for (size_t i = 0; i < 5; i++)
        add_run(&a, "", 0, false, old[i]);
    for (size_t i = 0; i < 6; i++)
        add_run(&b, "", 0, false, new[i]);
    struct cmp_input in[] = {{"old-dirpref", &a}, {"new-dirpref", &b}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build(in, 2, &opt, &r), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(cmp_report_ministat(f, &r, 0, 95), 0);
    fclose(f);
    assert_string_equal(buf, ministat_expected);
    free(buf);
    err_set_quiet(1);
    f = open_memstream(&buf, &len);
    assert_int_equal(cmp_report_ministat(f, &r, 0, 97), -1);
    fclose(f);
    free(buf);
    err_set_quiet(0);
    cmp_result_free(&r);
    run_set_free(&a);
    run_set_free(&b);
}

/* The matrix names its statistic truthfully: on a set whose medians' ratio (2.00) and
 * geometric-mean ratio (1.59) differ clearly, the cell is the geometric-mean ratio, the
 * baseline's cell its geometric mean (2, where its median is 1), and the legend says so. */
static void test_summary_cell_is_named_statistic(void **state)
{
    struct run_set rs = {0};
    const double a[] = {1, 1, 8}, b[] = {1, 2, 16};
    for (unsigned round = 0; round < 3; round++) {
        add_run(&rs, "a", round, false, a[round]);
        add_run(&rs, "b", round, false, b[round]);
    }
    struct cmp_input in[] = {{"set", &rs}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build(in, 1, &opt, &r), 0);
    const struct cmp_phase *ph = &r.phases[0];
    double gm = exp((log(1.0) + log(2.0) + log(2.0)) / 3);
    assert_true(fabs(ph->vs[1].ratio.ratio - gm) < 1e-12);
    assert_true(fabs(ph->s[1].sum.median / ph->s[0].sum.median - 2) < 1e-12);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cmp_report_summary(f, &r);
    fclose(f);
    const char *row = strstr(buf, "\nextract ");
    assert_non_null(row);
    char base[32], cellv[32];
    assert_int_equal(sscanf(row, " extract %31s s %31s", base, cellv), 2);
    /* the cell is exp(mean of the log ratios), not the medians' ratio */
    assert_true(fabs(strtod(cellv, NULL) - gm) < 0.005);
    assert_false(fabs(strtod(cellv, NULL) - 2) < 0.05);
    /* the baseline's figure is its geometric mean: figure x cell = the group's */
    assert_true(fabs(strtod(base, NULL) - 2) < 1e-9);
    assert_non_null(strstr(buf, "the baseline's geometric mean, then each group's"));
    assert_non_null(strstr(buf, "geometric-mean ratio"));
    assert_null(strstr(buf, "median"));
    char legend[512], c[64];
    cmp_summary_legend(legend, sizeof legend, &r);
    assert_non_null(strstr(legend, "(exp of the mean log ratio"));
    cmp_summary_cell(c, sizeof c, &r, 0, 1);
    assert_string_equal(c, "1.59 o"); /* 3 pairs: no difference shown, and marked so */
    free(buf);
    cmp_result_free(&r);
    run_set_free(&rs);
}

/* Builds "a" and "b" configurations of one set, interleaved, b = factor x a. */
static void paired_set(struct run_set *rs, unsigned rounds, double factor)
{
    memset(rs, 0, sizeof *rs);
    for (unsigned round = 0; round < rounds; round++) {
        add_run(rs, "a", round, false, 1.0 * jitter(round));
        add_run(rs, "b", round, false, factor * jitter(round + 5));
    }
}

static void cell_of(char *c, size_t len, const struct run_set *a, const struct run_set *b,
                    size_t phase, const struct cmp_policy *pol)
{
    struct cmp_input in[] = {{"A", a}, {"B", b}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build_with(in, b ? 2 : 1, &opt, pol, &r), 0);
    cmp_summary_cell(c, len, &r, phase, 1);
    cmp_result_free(&r);
}

/* The documented minimum: 3 pairs in rounds, 5 runs a group as batches (stats_min_runs());
 * below it no mark but "?", at it the verdict's mark; the same rule for every report. */
static void test_minimum_at_the_boundary(void **state)
{
    char c[64];
    struct run_set rs;
    assert_int_equal(stats_min_runs(STATS_PAIRED, 0.95), 3);
    assert_int_equal(stats_min_runs(STATS_BATCH, 0.95), 5);
    paired_set(&rs, 2, 2.0);
    cell_of(c, sizeof c, &rs, NULL, 0, NULL);
    assert_string_equal(c + strlen(c) - 2, " ?"); /* 2 pairs: a ratio, no verdict's mark */
    run_set_free(&rs);
    paired_set(&rs, 3, 2.0);
    cell_of(c, sizeof c, &rs, NULL, 0, NULL);
    assert_string_equal(c + strlen(c) - 2, " *"); /* 3 pairs: the verdict */
    run_set_free(&rs);

    struct run_set a = {0}, b = {0};
    for (unsigned i = 0; i < 4; i++) {
        add_run(&a, "", 0, false, 1.0 * jitter(i));
        add_run(&b, "", 0, false, 2.0 * jitter(i + 3));
    }
    cell_of(c, sizeof c, &a, &b, 0, NULL);
    assert_true(strstr(c, " ?") != NULL); /* 4 runs a group as batches */
    add_run(&a, "", 0, false, 1.0 * jitter(7));
    add_run(&b, "", 0, false, 2.0 * jitter(8));
    cell_of(c, sizeof c, &a, &b, 0, NULL);
    assert_true(strstr(c, " *") != NULL); /* 5 runs a group */
    run_set_free(&a);
    run_set_free(&b);
}

/* Every cell carries a mark of the legend; no difference is "o", and the legend names it. */
static void test_every_cell_marked(void **state)
{
    char c[64], legend[1024];
    struct run_set rs;
    paired_set(&rs, 6, 1.0);
    cell_of(c, sizeof c, &rs, NULL, 0, NULL);
    assert_string_equal(c + strlen(c) - 2, " o");
    struct cmp_input in[] = {{"set", &rs}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build(in, 1, &opt, &r), 0);
    cmp_summary_legend(legend, sizeof legend, &r);
    for (const char *m = "*~o?_!"; *m; m++) {
        char want[4] = {*m, ' ', 0};
        assert_non_null(strstr(legend, want));
    }
    cmp_result_free(&r);
    run_set_free(&rs);
}

/* A ratio of 0.005 is told from zero; a phase under the negligible floor gets "_". */
static void test_small_ratio_and_negligible(void **state)
{
    char c[64];
    struct run_set rs;
    paired_set(&rs, 6, 0.005);
    cell_of(c, sizeof c, &rs, NULL, 0, NULL);
    assert_string_equal(c + strlen(c) - 2, " *");
    assert_true(c[0] == '0' && c[1] == '.' && c[2] == '0' && c[3] == '0' && c[4] >= '4' &&
                c[4] <= '6'); /* "0.0049" .. "0.0051", not "0.00" */
    run_set_free(&rs);
    paired_set(&rs, 6, 2.0);
    for (size_t i = 0; i < rs.nruns; i++)
        for (size_t k = 0; k < rs.runs[i].nphases; k++)
            rs.runs[i].phases[k].wall_s *= 1e-4; /* 0.1 ms and 0.2 ms */
    cell_of(c, sizeof c, &rs, NULL, 0, NULL);
    assert_string_equal(c + strlen(c) - 2, " _");
    struct cmp_policy off = {.negligible_s = -1};
    cell_of(c, sizeof c, &rs, NULL, 0, &off);
    assert_string_equal(c + strlen(c) - 2, " *");
    run_set_free(&rs);
}

/* Separate sets that did different work: no mark but "!", the cell's reason in words; the
 * same sets with --allow-different-work get their verdict; configurations of one set that
 * differ keep theirs, the difference listed. */
static void test_different_work(void **state)
{
    struct run_set a = {0}, b = {0};
    for (unsigned i = 0; i < 6; i++) {
        add_run(&a, "", 0, false, 1.0 * jitter(i));
        add_run(&b, "", 0, false, 0.3 * jitter(i + 3));
    }
    snprintf(a.tree.profile, sizeof a.tree.profile, "pkgsrc");
    snprintf(b.tree.profile, sizeof b.tree.profile, "pkgsrc");
    a.tree.scale = 0.3;
    b.tree.scale = 0.1;
    snprintf(a.target.fstype, sizeof a.target.fstype, "ext4");
    snprintf(b.target.fstype, sizeof b.target.fstype, "xfs");
    char c[64];
    cell_of(c, sizeof c, &a, &b, 0, NULL);
    assert_string_equal(c + strlen(c) - 2, " !");
    struct cmp_policy allow = {.allow_different_work = true};
    cell_of(c, sizeof c, &a, &b, 0, &allow);
    assert_string_equal(c + strlen(c) - 2, " *");

    struct cmp_input in[] = {{"A", &a}, {"B", &b}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build(in, 2, &opt, &r), 0);
    assert_true(r.any_different_work);
    assert_true(r.diffs[1].work);
    char buf[4096];
    workdiff_format(buf, sizeof buf, &r.diffs[1], false);
    assert_string_equal(buf, "scale 0.3 vs 0.1; file system ext4 vs xfs");
    workdiff_format(buf, sizeof buf, &r.diffs[1], true);
    assert_string_equal(buf, "scale 0.3 vs 0.1");
    cmp_plain_phase(buf, sizeof buf, &r, 0, 1);
    assert_string_equal(buf, "no verdict at extract: B and A did different work (scale 0.3 vs 0.1)");
    cmp_result_free(&r);

    /* the same work, another file system: listed, judged */
    b.tree.scale = 0.3;
    assert_int_equal(cmp_build(in, 2, &opt, &r), 0);
    assert_false(r.diffs[1].work);
    assert_true(cmp_vs_shown(&r.phases[0].vs[1]));
    cmp_plain_phase(buf, sizeof buf, &r, 0, 1);
    assert_non_null(strstr(buf, "B is 3."));
    assert_non_null(strstr(buf, "x faster than A at extract (95% CI "));
    assert_non_null(strstr(buf, ", 6 and 6 runs)"));
    cmp_result_free(&r);
    run_set_free(&a);
    run_set_free(&b);

    /* configurations of one set whose phases handle different file counts: kept, listed */
    struct run_set rs;
    paired_set(&rs, 4, 2.0);
    for (size_t i = 0; i < rs.nruns; i++)
        for (size_t k = 0; k < rs.runs[i].nphases; k++)
            rs.runs[i].phases[k].files = strcmp(rs.runs[i].config, "a") ? 100 : 300;
    struct cmp_input one[] = {{"set", &rs}};
    assert_int_equal(cmp_build(one, 1, &opt, &r), 0);
    assert_true(r.diffs[1].work);
    assert_false(r.any_different_work);
    assert_true(cmp_vs_shown(&r.phases[0].vs[1]));
    workdiff_format(buf, sizeof buf, &r.diffs[1], false);
    assert_string_equal(buf, "extract files 300 vs 100; sync files 300 vs 100; walk files 300 vs 100");
    cmp_result_free(&r);
    run_set_free(&rs);
}

/* Two sets with no phase in common: an error, not an empty matrix. */
static void test_no_common_phase(void **state)
{
    struct run_set a = {0}, b = {0};
    for (unsigned i = 0; i < 3; i++) {
        add_run(&a, "", 0, false, 1.0);
        struct run_result *r = add_run(&b, "", 0, false, 1.0);
        for (size_t k = 0; k < r->nphases; k++)
            snprintf(r->phases[k].name, sizeof r->phases[k].name, "cmd");
    }
    struct cmp_input in[] = {{"A", &a}, {"B", &b}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    char why[512];
    err_capture_begin(why, sizeof why);
    int rc = cmp_build(in, 2, &opt, &r);
    err_capture_end();
    assert_int_equal(rc, -1);
    assert_non_null(strstr(why, "'B' and 'A' have no phase in common"));
    cmp_result_free(&r);
    run_set_free(&a);
    run_set_free(&b);
}

/* Column letters go on past Z: AA, AB, ...; none repeats. */
static void test_group_letters(void **state)
{
    char l[16];
    cmp_group_letter(l, sizeof l, 0);
    assert_string_equal(l, "A");
    cmp_group_letter(l, sizeof l, 25);
    assert_string_equal(l, "Z");
    cmp_group_letter(l, sizeof l, 26);
    assert_string_equal(l, "AA");
    cmp_group_letter(l, sizeof l, 27);
    assert_string_equal(l, "AB");
    cmp_group_letter(l, sizeof l, 26 + 26 * 26 - 1);
    assert_string_equal(l, "ZZ");
}

/* More than 64 groups: every one in the matrix, each under its own letter (AA after Z). */
static void test_many_groups(void **state)
{
    struct run_set rs = {0};
    char cfg[32];
    for (unsigned round = 0; round < 3; round++)
        for (unsigned g = 0; g < 70; g++) {
            snprintf(cfg, sizeof cfg, "configuration-number-%02u", g);
            add_run(&rs, cfg, round, false, 1.0 + 0.01 * g);
        }
    struct cmp_input in[] = {{"set", &rs}};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build(in, 1, &opt, &r), 0);
    assert_int_equal(r.ngroups, 70);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cmp_report_summary(f, &r);
    fclose(f);
    assert_non_null(strstr(buf, "\n  A = configuration-number-00\n"));
    assert_non_null(strstr(buf, "\n  AA = configuration-number-26\n"));
    assert_non_null(strstr(buf, "\n  BR = configuration-number-69\n"));
    /* the extract row has 70 cells */
    const char *row = strstr(buf, "\nextract ");
    assert_non_null(row);
    int cells = 0;
    for (const char *c = row + 1; *c && *c != '\n'; c++)
        cells += (c[0] == ' ' && c[1] != ' ' && c[-1] == ' ');
    assert_true(cells >= 70);
    free(buf);
    cmp_result_free(&r);
    run_set_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_labels_batch),
        cmocka_unit_test(test_configs_interleaved),
        cmocka_unit_test(test_configs_not_interleaved),
        cmocka_unit_test(test_merged_sets_pair),
        cmocka_unit_test(test_skipped_and_unavailable),
        cmocka_unit_test(test_nothing_to_compare),
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_ministat_format),
        cmocka_unit_test(test_summary_cell_is_named_statistic),
        cmocka_unit_test(test_minimum_at_the_boundary),
        cmocka_unit_test(test_every_cell_marked),
        cmocka_unit_test(test_small_ratio_and_negligible),
        cmocka_unit_test(test_different_work),
        cmocka_unit_test(test_no_common_phase),
        cmocka_unit_test(test_group_letters),
        cmocka_unit_test(test_many_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
