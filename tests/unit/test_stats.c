/* test_stats.c — the statistics against reference values computed independently.
 *
 * Expected numbers were computed once with SciPy 1.10 (Debian python3-scipy:
 * scipy.stats.t.ppf, ttest_1samp, ttest_ind(equal_var=False), median_abs_deviation,
 * gmean) and with FreeBSD ministat (Debian package ministat 20150715, `ministat -A`),
 * and are stored here; nothing is recomputed by another tool at test time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/stats.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Fails unless |got - want| <= rel * |want| (or <= rel when want is 0). */
static void close_to(double got, double want, double rel, const char *what)
{
    double tol = want == 0 ? rel : rel * fabs(want);
    if (!(fabs(got - want) <= tol)) {
        print_error("%s: got %.17g, want %.17g (rel tol %g)\n", what, got, want, rel);
        fail();
    }
}

static void test_t_quantiles(void **state)
{
    close_to(stats_t_crit(0.95, 1), 12.706204736432095, 1e-9, "t 95% df 1");
    close_to(stats_t_crit(0.95, 2), 4.302652729911275, 1e-9, "t 95% df 2");
    /* scipy.stats.t.ppf(0.995, 10) says 3.169272667175838, 1.7e-9 off: its own
     * special.betainc puts the tail at that value 4.6e-11 away from 0.005, and at this
     * one 6e-17 away, so this is the reference. */
    close_to(stats_t_crit(0.99, 10), 3.1692726726169447, 1e-12, "t 99% df 10");
    /* likewise: ppf says 1.6972608943617378, tail residual 7e-10; this one 2e-16 */
    close_to(stats_t_crit(0.90, 30), 1.6972608865939558, 1e-12, "t 90% df 30");
    close_to(stats_t_crit(0.95, 7.5), 2.333039626555376, 1e-9, "t 95% df 7.5");
    close_to(stats_t_pvalue(0, 5), 1.0, 1e-12, "p of t=0");
}

static void test_summary_odd(void **state)
{
    const double x[] = {12.1, 11.8, 13.4, 12.9, 30.2, 12.2, 11.9};
    struct stats_summary s;
    assert_int_equal(stats_summarize(x, N_OF(x), &s), 0);
    assert_int_equal(s.n, 7);
    close_to(s.min, 11.8, 0, "min");
    close_to(s.max, 30.2, 0, "max");
    close_to(s.median, 12.2, 1e-15, "median");
    close_to(s.mean, 14.928571428571429, 1e-14, "mean");
    close_to(s.sd, 6.75862764317192, 1e-12, "sd");
    close_to(s.mad, 0.3999999999999986, 1e-12, "mad");
    close_to(s.cv, 0.4527310382985975, 1e-12, "cv");
    close_to(s.r1, -0.17386616469242666, 1e-12, "lag-1");
    close_to(s.gmean, 14.052502142760842, 1e-12, "gmean");
    /* 30.2 is far out: modified z = 0.6745 * 18 / 0.4 */
    assert_int_equal(stats_count_outliers(x, N_OF(x), s.median, s.mad), 1);
}

static void test_medians(void **state)
{
    const double even[] = {4, 1, 3, 2};
    close_to(stats_median(even, 4), 2.5, 0, "even median");
    const double two[] = {7, 3};
    close_to(stats_median(two, 2), 5, 0, "n=2 median");
    const double one[] = {7};
    close_to(stats_median(one, 1), 7, 0, "n=1 median");
    assert_true(isnan(stats_median(one, 0)));
    struct stats_summary s;
    assert_int_equal(stats_summarize(even, 4, &s), 0);
    close_to(s.mad, 1.0, 0, "even mad");
    assert_int_equal(stats_summarize(one, 1, &s), 0);
    close_to(s.sd, 0, 0, "n=1 sd");
    close_to(s.r1, 0, 0, "n=1 r1");
    assert_int_equal(stats_summarize(one, 0, &s), -1);
    const double neg[] = {1, -1, 2};
    assert_int_equal(stats_summarize(neg, 3, &s), 0);
    assert_true(isnan(s.gmean));
}

/* Variance from raw sums loses everything here; two passes do not. */
static void test_large_offset(void **state)
{
    const double x[] = {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
    struct stats_summary s;
    stats_summarize(x, 4, &s);
    close_to(s.sd, sqrt(30.0), 1e-9, "sd with offset 1e9");
}

static void test_paired(void **state)
{
    const double a[] = {10.2, 11.0, 9.8, 10.5, 10.9, 10.1, 10.4, 9.9};
    const double b[] = {8.1, 9.0, 7.7, 8.6, 8.8, 8.0, 8.5, 7.9};
    struct stats_ratio r;
    assert_int_equal(stats_paired_log(a, b, 8, 0.95, &r), 0);
    assert_int_equal(r.method, STATS_PAIRED);
    close_to(r.ratio, 0.8038755929771103, 1e-12, "paired ratio");
    close_to(r.lo, 0.7928852485240067, 1e-10, "paired lo");
    close_to(r.hi, 0.8150182768405166, 1e-10, "paired hi");
    close_to(r.p, 2.493807234582312e-09, 1e-6, "paired p");
    close_to(r.sd_log, 0.016466114788128563, 1e-10, "paired sd");
    close_to(r.df, 7, 0, "paired df");
    assert_int_equal(stats_paired_log(a, b, 8, 0.99, &r), 0);
    close_to(r.lo, 0.7876641178998948, 1e-10, "paired 99 lo");
    close_to(r.hi, 0.8204207279459048, 1e-10, "paired 99 hi");
}

static void test_paired_small(void **state)
{
    const double a[] = {10.0, 12.0}, b[] = {11.0, 12.5};
    struct stats_ratio r;
    assert_int_equal(stats_paired_log(a, b, 2, 0.95, &r), 0);
    close_to(r.ratio, 1.070436048222094, 1e-12, "n=2 ratio");
    close_to(r.lo, 0.7572188755966476, 1e-9, "n=2 lo");
    close_to(r.hi, 1.5132128506839964, 1e-9, "n=2 hi");
    close_to(r.p, 0.24238024336003358, 1e-8, "n=2 p");
    assert_int_equal(stats_paired_log(a, b, 1, 0.95, &r), -1);
    const double z[] = {0.0, 1.0};
    assert_int_equal(stats_paired_log(z, b, 2, 0.95, &r), -1);
}

static void test_zero_variance(void **state)
{
    /* Every pair the same ratio: the interval collapses, p is 0 (or 1 at ratio 1). */
    const double a[] = {10, 20, 30}, b[] = {5, 10, 15};
    struct stats_ratio r;
    assert_int_equal(stats_paired_log(a, b, 3, 0.95, &r), 0);
    assert_true(r.zero_var);
    close_to(r.ratio, 0.5, 1e-14, "constant ratio");
    close_to(r.lo, 0.5, 1e-14, "constant lo");
    close_to(r.hi, 0.5, 1e-14, "constant hi");
    close_to(r.p, 0, 0, "constant p");
    assert_int_equal(stats_paired_log(a, a, 3, 0.95, &r), 0);
    assert_true(r.zero_var);
    close_to(r.ratio, 1, 0, "equal ratio");
    close_to(r.p, 1, 0, "equal p");
    struct stats_verdict v;
    stats_verdict(&r, STATS_LOWER_BETTER, 0.05, &v);
    assert_int_equal(v.kind, STATS_NO_DIFFERENCE);

    const double c[] = {7, 7, 7, 7, 7};
    assert_int_equal(stats_batch_log(c, 5, c, 5, 0.95, &r), 0);
    assert_true(r.zero_var);
    close_to(r.ratio, 1, 0, "batch equal ratio");
    close_to(r.p, 1, 0, "batch equal p");
    assert_false(isnan(r.lo) || isnan(r.hi) || isnan(r.df));

    /* Zero spread needs no more runs, and is precise enough. */
    assert_int_equal(stats_runs_needed(c, NULL, 5, 0.95, 0.05), 5);
    assert_true(stats_precise_enough(c, NULL, 5, 0.95, 0.05));
    struct stats_summary s;
    stats_summarize(c, 5, &s);
    close_to(s.cv, 0, 0, "constant cv");
    assert_int_equal(stats_count_outliers(c, 5, s.median, s.mad), 0);
}

static void test_welch_iid(void **state)
{
    /* The corrected lag-1 autocorrelations are negative here, so n_eff = n and the
     * batch method is Welch's test on the logs. */
    const double a[] = {10.3, 9.7, 10.9, 10.1, 9.5, 10.6, 10.0, 9.9};
    const double b[] = {11.2, 10.8, 11.9, 10.4, 11.5, 11.0};
    struct stats_ratio r;
    assert_int_equal(stats_batch_log(a, 8, b, 6, 0.95, &r), 0);
    assert_int_equal(r.method, STATS_BATCH);
    close_to(r.r1_a, 0, 0, "r1 a clamped");
    close_to(r.r1_b, 0, 0, "r1 b clamped");
    close_to(r.neff_a, 8, 0, "neff a");
    close_to(r.neff_b, 6, 0, "neff b");
    close_to(r.ratio, 1.0995527787368886, 1e-12, "welch ratio");
    close_to(r.lo, 1.0401613441219177, 1e-9, "welch lo");
    close_to(r.hi, 1.1623353627399402, 1e-9, "welch hi");
    close_to(r.p, 0.0032434914395831444, 1e-7, "welch p");
    close_to(r.df, 10.64103766584853, 1e-9, "welch df");
}

static void test_batch_autocorrelated(void **state)
{
    /* Strongly autocorrelated: n_eff falls to its floor of 2 on both sides. */
    const double a[] = {10.0, 10.4, 10.9, 11.3, 11.0, 10.6, 10.2, 10.1, 10.5, 11.0};
    const double b[] = {10.8, 11.1, 11.6, 12.0, 11.7, 11.2, 11.0, 10.9, 11.3, 11.8};
    struct stats_ratio r;
    assert_int_equal(stats_batch_log(a, 10, b, 10, 0.95, &r), 0);
    close_to(r.r1_a, 0.7703798992125951, 1e-10, "r1 a corrected");
    close_to(r.r1_b, 0.7261978776715922, 1e-10, "r1 b corrected");
    close_to(r.neff_a, 2, 0, "neff a");
    close_to(r.df, 1.966978376987481, 1e-9, "df");
    close_to(r.ratio, 1.0699978688647538, 1e-12, "ratio");
    close_to(r.lo, 0.903206867183956, 1e-9, "lo");
    close_to(r.hi, 1.2675893872958501, 1e-9, "hi");
    close_to(r.p, 0.2250648416143798, 1e-8, "p");
    /* n = 2 and 3: no autocorrelation estimate, still an answer */
    assert_int_equal(stats_batch_log(a, 2, b, 3, 0.95, &r), 0);
    close_to(r.r1_a, 0, 0, "n=2 r1");
    assert_int_equal(stats_batch_log(a, 1, b, 3, 0.95, &r), -1);
}

static void test_ministat_table(void **state)
{
    close_to(stats_ministat_t(4, 2), 2.776, 0, "t 95 df4");
    close_to(stats_ministat_t(100, 2), 1.984, 0, "t 95 df100");
    close_to(stats_ministat_t(101, 2), 1.960, 0, "t 95 inf");
    close_to(stats_ministat_t(7, 5), 4.782, 0, "t 99.5 df7 as printed");
    close_to(stats_ministat_t(13, 5), 3.852, 0, "t 99.5 df13");
    close_to(stats_ministat_t(101, 5), 3.090, 0, "t 99.5 inf");
    close_to(stats_ministat_t(1, 0), 3.078, 0, "t 80 df1");
    assert_int_equal(stats_ministat_conf_index(99.5), 5);
    assert_int_equal(stats_ministat_conf_index(97), -1);
}

/* Formats a diff block's numbers as ministat prints them. */
static void ministat_lines(const double *a, size_t na, const double *b, size_t nb, double pct,
                           char *buf, size_t len)
{
    struct stats_ministat_row ra, rb;
    struct stats_ministat_diff d;
    stats_ministat_row(a, na, &ra);
    stats_ministat_row(b, nb, &rb);
    assert_int_equal(stats_ministat_diff(&ra, &rb, stats_ministat_conf_index(pct), &d), 0);
    if (d.different)
        snprintf(buf, len, "%g +/- %g|%g%% +/- %g%%|%g", d.diff, d.halfwidth, d.pct,
                 d.pct_halfwidth, d.pooled_s);
    else
        snprintf(buf, len, "none");
}

static void test_ministat_numbers(void **state)
{
    const double a[] = {12.31, 12.05, 12.77, 12.40, 12.12};
    const double b[] = {11.90, 12.20, 11.70, 12.02, 11.85, 12.10};
    char buf[256];
    struct stats_ministat_row r;
    stats_ministat_row(b, 6, &r);
    snprintf(buf, sizeof buf, "%13.8g %13.8g %13.8g %13.8g %13.8g", r.min, r.max, r.median, r.mean,
             r.sd);
    assert_string_equal(buf,
                        "         11.7          12.2         12.02     11.961667    0.18115371");
    ministat_lines(a, 5, b, 6, 95, buf, sizeof buf);
    assert_string_equal(buf, "-0.368333 +/- 0.318122|-2.98729% +/- 2.58007%|0.232255");
    ministat_lines(a, 5, b, 6, 80, buf, sizeof buf);
    assert_string_equal(buf, "-0.368333 +/- 0.194502|-2.98729% +/- 1.57747%|0.232255");
    ministat_lines(a, 5, b, 6, 99, buf, sizeof buf);
    assert_string_equal(buf, "none");

    const double x3[] = {245.98, 251.10, 239.44}, y4[] = {101.2, 99.8, 100.5, 102.0};
    const double w3[] = {150.0, 150.0, 150.0};
    ministat_lines(x3, 3, y4, 4, 99.5, buf, sizeof buf);
    assert_string_equal(buf, "-144.632 +/- 16.9583|-58.9115% +/- 6.90747%|3.76779");
    ministat_lines(x3, 3, w3, 3, 99.5, buf, sizeof buf);
    assert_string_equal(buf, "-95.5067 +/- 24.2036|-38.9019% +/- 9.85863%|4.13261");
    ministat_lines(x3, 3, y4, 4, 98, buf, sizeof buf);
    assert_string_equal(buf, "-144.632 +/- 9.68346|-58.9115% +/- 3.94428%|3.76779");
    /* equal, zero variance: no difference, no division by zero */
    ministat_lines(w3, 3, w3, 3, 95, buf, sizeof buf);
    assert_string_equal(buf, "none");

    /* df 118 > 100: ministat's limit row */
    double big1[60], big3[60];
    for (int i = 0; i < 60; i++) {
        big1[i] = 100 + (i * 37 % 17) * 0.25;
        big3[i] = 100.9 + (i * 29 % 13) * 0.25;
    }
    ministat_lines(big1, 60, big3, 60, 95, buf, sizeof buf);
    assert_string_equal(buf, "0.45 +/- 0.393597|0.441447% +/- 0.386116%|1.09991");
}

static void verdict_of(double ratio, double lo, double hi, enum stats_sense sense,
                       struct stats_verdict *v)
{
    struct stats_ratio r = {.ratio = ratio, .lo = lo, .hi = hi};
    stats_verdict(&r, sense, 0.05, v);
}

static void test_verdicts(void **state)
{
    struct stats_verdict v;
    verdict_of(1 / 2.41, 1 / 2.52, 1 / 2.30, STATS_LOWER_BETTER, &v);
    assert_int_equal(v.kind, STATS_BETTER);
    close_to(v.factor, 2.41, 1e-12, "factor");
    close_to(v.factor_lo, 2.30, 1e-12, "factor lo");
    close_to(v.factor_hi, 2.52, 1e-12, "factor hi");
    verdict_of(1.31, 1.2, 1.4, STATS_LOWER_BETTER, &v);
    assert_int_equal(v.kind, STATS_WORSE);
    verdict_of(1.31, 1.2, 1.4, STATS_HIGHER_BETTER, &v);
    assert_int_equal(v.kind, STATS_BETTER);
    verdict_of(0.98, 0.9, 1.07, STATS_LOWER_BETTER, &v);
    assert_int_equal(v.kind, STATS_NO_DIFFERENCE);
    verdict_of(1.02, 1.01, 1.03, STATS_LOWER_BETTER, &v);
    assert_int_equal(v.kind, STATS_BELOW_EFFECT);
    assert_false(v.effect_in_ci);
    verdict_of(1.03, 1.01, 1.09, STATS_LOWER_BETTER, &v);
    assert_int_equal(v.kind, STATS_BELOW_EFFECT);
    assert_true(v.effect_in_ci);
    /* symmetric on the log scale: 1/1.06 is 1.06x faster, beyond 5% */
    verdict_of(1 / 1.06, 1 / 1.08, 1 / 1.04, STATS_LOWER_BETTER, &v);
    assert_int_equal(v.kind, STATS_BETTER);
}

static void test_warnings(void **state)
{
    const double x[] = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
    struct stats_summary s;
    struct stats_warnings w;
    stats_summarize(x, 10, &s);
    stats_check(x, 10, &s, 5, &w);
    /* a steady climb: strongly autocorrelated (0.7 > 2/sqrt(10)) and noisy (cv 0.21) */
    assert_true(w.flags & STATS_W_AUTOCORR);
    assert_true(w.flags & STATS_W_NOISY);
    assert_false(w.flags & STATS_W_OUTLIERS);
    assert_false(w.flags & STATS_W_FEW_RUNS);
    const double q[] = {10.0, 10.1, 9.9, 10.05};
    stats_summarize(q, 4, &s);
    stats_check(q, 4, &s, 5, &w);
    assert_int_equal(w.flags, STATS_W_FEW_RUNS);
    assert_int_equal(stats_min_runs(STATS_PAIRED, 0.95), 3);
    assert_int_equal(stats_min_runs(STATS_BATCH, 0.95), 5);
    assert_int_equal(stats_min_runs(STATS_BATCH, 0.99), 6);
    /* MAD of zero: the mean absolute deviation stands in */
    const double m[] = {5, 5, 5, 5, 5, 5, 9};
    stats_summarize(m, 7, &s);
    assert_int_equal(stats_count_outliers(m, 7, s.median, s.mad), 1);
}

/* The MAD of 3 or 4 values is one of their own distances: outliers are looked for only
 * from 5 runs on, where the same far value is still caught. */
static void test_outliers_from_five_runs(void **state)
{
    (void)state;
    struct stats_summary s;
    struct stats_warnings w;
    const double three[] = {1.00, 1.01, 3.0};
    stats_summarize(three, 3, &s);
    assert_int_equal(stats_count_outliers(three, 3, s.median, s.mad), 1);
    stats_check(three, 3, &s, 5, &w);
    assert_false(w.flags & STATS_W_OUTLIERS);
    assert_int_equal(w.outliers, 0);
    const double four[] = {1.00, 1.01, 0.99, 3.0};
    stats_summarize(four, 4, &s);
    stats_check(four, 4, &s, 3, &w);
    assert_false(w.flags & STATS_W_OUTLIERS);
    const double five[] = {1.00, 1.01, 0.99, 1.02, 3.0};
    stats_summarize(five, 5, &s);
    stats_check(five, 5, &s, 5, &w);
    assert_true(w.flags & STATS_W_OUTLIERS);
    assert_int_equal(w.outliers, 1);
    assert_int_equal(STATS_OUTLIER_MIN_RUNS, 5);
}

static void test_runs_needed(void **state)
{
    const double e[] = {10.0, 12.0, 9.0, 11.0, 13.0};
    assert_int_equal(stats_runs_needed(e, NULL, 5, 0.95, 0.05), 37);
    assert_false(stats_precise_enough(e, NULL, 5, 0.95, 0.05));
    const double a[] = {10.2, 11.0, 9.8, 10.5, 10.9, 10.1, 10.4, 9.9};
    const double b[] = {8.1, 9.0, 7.7, 8.6, 8.8, 8.0, 8.5, 7.9};
    /* paired log ratios have sd 0.0165: 3 pairs would do, 8 are already enough */
    assert_int_equal(stats_runs_needed(a, b, 8, 0.95, 0.05), 8);
    assert_int_equal(stats_runs_needed(a, b, 3, 0.95, 0.05) <= 4, 1);
    assert_true(stats_precise_enough(a, b, 8, 0.95, 0.05));
    assert_false(stats_precise_enough(a, b, 8, 0.95, 0.01));
    assert_false(stats_precise_enough(a, b, 2, 0.95, 0.05));
    assert_int_equal(stats_runs_needed(a, b, 1, 0.95, 0.05), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t_quantiles),
        cmocka_unit_test(test_summary_odd),
        cmocka_unit_test(test_medians),
        cmocka_unit_test(test_large_offset),
        cmocka_unit_test(test_paired),
        cmocka_unit_test(test_paired_small),
        cmocka_unit_test(test_zero_variance),
        cmocka_unit_test(test_welch_iid),
        cmocka_unit_test(test_batch_autocorrelated),
        cmocka_unit_test(test_ministat_table),
        cmocka_unit_test(test_ministat_numbers),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_warnings),
        cmocka_unit_test(test_outliers_from_five_runs),
        cmocka_unit_test(test_runs_needed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
