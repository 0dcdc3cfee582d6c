/* test_seqtest.c — the mixture SPRT of stats/seqtest.h against closed forms and against
 * its promised error rates.
 *
 * Known answers: the likelihood ratio and the confidence sequence's radius are closed
 * forms (computed independently with awk from the formulas in seqtest.h); a horizon of a
 * single look makes the calibrated threshold the likelihood ratio at Student's t quantile
 * of the calibrated level (checked with GSL's t distribution). Error rates: null sequences
 * drawn with GSL's generator (not the module's own) must cross at most alpha of the time,
 * looking after every pair up to the horizon.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/seqtest.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void close_to(double got, double want, double rel, const char *what)
{
    double tol = want == 0 ? rel : rel * fabs(want);
    if (!(fabs(got - want) <= tol)) {
        print_error("%s: got %.17g, want %.17g (rel tol %g)\n", what, got, want, rel);
        fail();
    }
}

static void test_likelihood_ratio(void **state)
{
    close_to(seq_log_lr(3, 5, 2), 1.28243415537028, 1e-12, "log LR t=3 n=5 g=2");
    close_to(seq_log_lr(-3, 5, 2), 1.28243415537028, 1e-12, "symmetric in t");
    /* all pairs equal: the bound (1 + n g)^(v/2) */
    close_to(seq_log_lr(INFINITY, 4, 2), 3.29583686600433, 1e-12, "bound n=4");
    close_to(seq_log_lr(0, 9, 2), -0.5 * log(19), 1e-12, "t=0");
    /* grows with |t| */
    assert_true(seq_log_lr(2, 6, 2) < seq_log_lr(2.5, 6, 2));
}

static void test_ville_interval(void **state)
{
    /* no horizon: threshold 1/alpha = 20 */
    const struct seq_design dz = {SEQ_MIXTURE_VAR, 0};
    const double d[] = {0.10, 0.12, 0.08, 0.15, 0.11, 0.09};
    bool cal;
    close_to(seq_log_threshold(&dz, 6, 0.95, &cal), log(20), 1e-12, "Ville threshold");
    assert_false(cal);
    struct stats_ratio r;
    assert_int_equal(seq_test_logs(d, N_OF(d), &dz, 0.95, &r), 0);
    assert_int_equal(r.method, STATS_SEQUENTIAL);
    assert_false(r.seq_calibrated);
    close_to(r.ratio, 1.11441915653335, 1e-12, "ratio");
    close_to(r.lo, 1.0612433979232, 1e-11, "lo");
    close_to(r.hi, 1.17025939466751, 1e-11, "hi");
    close_to(r.p, 0.00557656072893367, 1e-10, "p = 1 / LR");
    assert_int_equal(seq_state_of(&r, 0.05), SEQ_DIFFERENT);
    /* wider than the fixed-n t interval of the same pairs (t 2.571 against 4.82) */
    struct stats_ratio fixed;
    const double a[] = {1, 1, 1, 1, 1, 1};
    double b[N_OF(d)];
    for (size_t i = 0; i < N_OF(d); i++)
        b[i] = exp(d[i]);
    assert_int_equal(stats_paired_log(a, b, N_OF(d), 0.95, &fixed), 0);
    assert_true(r.lo < fixed.lo && r.hi > fixed.hi);
    close_to(r.ratio, fixed.ratio, 1e-12, "same estimate");
}

static void test_unbounded_early(void **state)
{
    /* n = 3: no t reaches 20 (the bound is 7): the interval is not bounded yet */
    const struct seq_design dz = {SEQ_MIXTURE_VAR, 0};
    const double d[] = {0.5, 0.6, 0.55};
    struct stats_ratio r;
    assert_int_equal(seq_test_logs(d, 3, &dz, 0.95, &r), 0);
    assert_true(r.lo == 0);
    assert_true(isinf(r.hi));
    assert_true(r.p > 0.05);
    assert_int_equal(seq_state_of(&r, 0.05), SEQ_UNDECIDED);
}

static void test_single_look_horizon(void **state)
{
    /* horizon 3: one look, so the threshold is LR_3 at t_{2, 1 - q/2}, q the calibrated
     * level (alpha less two Monte Carlo standard errors) */
    const struct seq_design dz = {SEQ_MIXTURE_VAR, 3};
    bool cal;
    double c = seq_log_threshold(&dz, 3, 0.95, &cal);
    assert_true(cal);
    double q = 0.05 - 2 * sqrt(0.05 * 0.95 / SEQ_NULL_PATHS);
    /* the t whose LR is c, by bisection, and its two-sided tail */
    double lo = 0, hi = 1e3;
    for (int i = 0; i < 200; i++) {
        double mid = (lo + hi) / 2;
        if (seq_log_lr(mid, 3, SEQ_MIXTURE_VAR) < c)
            lo = mid;
        else
            hi = mid;
    }
    double tail = 2 * gsl_cdf_tdist_Q(lo, 2);
    /* within four Monte Carlo standard errors of q */
    double se = sqrt(q * (1 - q) / SEQ_NULL_PATHS);
    if (!(fabs(tail - q) <= 4 * se)) {
        print_error("tail %.5f, want %.5f +- %.5f\n", tail, q, 4 * se);
        fail();
    }
}

static void test_horizon_threshold(void **state)
{
    bool cal;
    const struct seq_design h30 = {SEQ_MIXTURE_VAR, 30};
    double c30 = seq_log_threshold(&h30, 10, 0.95, &cal);
    assert_true(cal);
    /* below Ville's, and a later horizon allows less */
    assert_true(c30 < log(20));
    const struct seq_design h10 = {SEQ_MIXTURE_VAR, 10};
    assert_true(seq_log_threshold(&h10, 10, 0.95, &cal) < c30);
    /* past the horizon, and for horizons too long to simulate: Ville's again */
    close_to(seq_log_threshold(&h10, 11, 0.95, &cal), log(20), 1e-12, "past horizon");
    assert_false(cal);
    const struct seq_design far = {SEQ_MIXTURE_VAR, SEQ_HORIZON_MAX + 1};
    close_to(seq_log_threshold(&far, 10, 0.95, &cal), log(20), 1e-12, "long horizon");
    assert_false(cal);
    /* a higher confidence asks more */
    assert_true(seq_log_threshold(&h30, 10, 0.99, &cal) > c30);
}

/* The p-value, the interval and the state agree on random data at several looks. */
static void test_agreement(void **state)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 7);
    const struct seq_design designs[] = {{SEQ_MIXTURE_VAR, 0}, {SEQ_MIXTURE_VAR, 20}};
    double d[20];
    for (int trial = 0; trial < 400; trial++) {
        double effect = (trial % 4) * 0.05;
        for (size_t i = 0; i < N_OF(d); i++)
            d[i] = effect + gsl_ran_gaussian(rng, 0.1);
        for (size_t k = 0; k < N_OF(designs); k++)
            for (size_t n = 3; n <= 20; n += 3) {
                struct stats_ratio r;
                assert_int_equal(seq_test_logs(d, n, &designs[k], 0.95, &r), 0);
                bool out = r.lo > 1 || r.hi < 1;
                if (fabs(r.p - 0.05) > 1e-6)
                    assert_int_equal(out, r.p <= 0.05);
                assert_true(r.lo <= r.ratio && r.ratio <= r.hi);
            }
    }
    gsl_rng_free(rng);
}

static void test_zero_spread(void **state)
{
    const struct seq_design dz = {SEQ_MIXTURE_VAR, 0};
    const double same[] = {0.2, 0.2, 0.2, 0.2, 0.2};
    struct stats_ratio r;
    assert_int_equal(seq_test_logs(same, 5, &dz, 0.95, &r), 0);
    assert_true(r.zero_var);
    /* n = 5: the bound 11^2 = 121 > 20: a point interval, a difference */
    close_to(r.lo, exp(0.2), 1e-12, "point lo");
    close_to(r.hi, exp(0.2), 1e-12, "point hi");
    assert_true(r.p < 0.05);
    assert_int_equal(seq_state_of(&r, 0.05), SEQ_DIFFERENT);
    /* all equal to 0: a point futility interval once it is bounded (the horizon's) */
    const struct seq_design h20 = {SEQ_MIXTURE_VAR, 20};
    const double zero[] = {0, 0, 0, 0, 0};
    assert_int_equal(seq_test_logs(zero, 5, &h20, 0.95, &r), 0);
    assert_int_equal(seq_state_of(&r, 0.05), SEQ_FUTILE);
    close_to(r.fut_lo, 1, 1e-12, "point futility lo");
    assert_true(r.p > 0.5);
}

static void test_states(void **state)
{
    /* a ratio of another method: its own interval is the futility interval */
    struct stats_ratio r = {.lo = 0.97, .hi = 1.04, .ratio = 1};
    assert_int_equal(seq_state_of(&r, 0.05), SEQ_FUTILE);
    assert_int_equal(seq_state_of(&r, 0.03), SEQ_UNDECIDED);
    assert_int_equal(seq_state_of(&r, 0), SEQ_UNDECIDED);
    r.lo = 1.01;
    assert_int_equal(seq_state_of(&r, 0.05), SEQ_DIFFERENT);
    r.lo = 0.5, r.hi = 0.99;
    assert_int_equal(seq_state_of(&r, 0.05), SEQ_DIFFERENT);
}

/* A known zero-effect series (log ratios +-0.06, mean 0, sd 0.064): twelve pairs rule out
 * 10% (the futility interval about 0.96-1.04) though the two-sided interval reaches past
 * 5% (the rule before futility would go on); with a 20% effect under the same noise no
 * look is futile, it is found instead. */
static void test_futility_stops(void **state)
{
    const struct seq_design dz = {SEQ_MIXTURE_VAR, 20};
    double d[20];
    for (size_t i = 0; i < N_OF(d); i++)
        d[i] = (i % 2 ? 0.06 : -0.06) * (i % 3 ? 1 : 1.1);
    struct stats_ratio r;
    assert_int_equal(seq_test_logs(d, 12, &dz, 0.95, &r), 0);
    assert_int_equal(seq_state_of(&r, 0.10), SEQ_FUTILE);
    assert_true(r.fut_lo > 1 / 1.10 && r.fut_hi < 1.10);
    assert_true(r.lo < 1 / 1.05 || r.hi > 1.05); /* not "within 5%" by the old rule */
    assert_true(r.fut_lo > r.lo && r.fut_hi < r.hi);
    /* no margin: never futile */
    assert_int_equal(seq_state_of(&r, 0), SEQ_UNDECIDED);
    /* too few pairs: not yet */
    assert_int_equal(seq_test_logs(d, 4, &dz, 0.95, &r), 0);
    assert_int_equal(seq_state_of(&r, 0.10), SEQ_UNDECIDED);
    /* the same noise around a 20% effect: never futile, and found */
    double e[20];
    for (size_t i = 0; i < N_OF(e); i++)
        e[i] = log(1.2) + d[i];
    for (size_t n = SEQ_FIRST_LOOK; n <= N_OF(e); n++) {
        assert_int_equal(seq_test_logs(e, n, &dz, 0.95, &r), 0);
        assert_int_not_equal(seq_state_of(&r, 0.10), SEQ_FUTILE);
    }
    assert_int_equal(seq_state_of(&r, 0.10), SEQ_DIFFERENT);
}

/* The futility claim's error: with the true effect at the margin (B 10% slower, or
 * faster), the share of sequences ever called futile, looking after every pair up to the
 * horizon, is at most alpha. */
static void test_futility_error_rate(void **state)
{
    const struct seq_design dz = {SEQ_MIXTURE_VAR, 20};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 13);
    int trials = 4000, futile = 0;
    double d[20];
    for (int t = 0; t < trials; t++) {
        double sigma = 0.02 + 0.1 * gsl_rng_uniform(rng), mu = (t % 2 ? 1 : -1) * log(1.1);
        for (size_t i = 0; i < N_OF(d); i++)
            d[i] = mu + gsl_ran_gaussian(rng, sigma);
        for (size_t n = SEQ_FIRST_LOOK; n <= N_OF(d); n++) {
            struct stats_ratio r;
            assert_int_equal(seq_test_logs(d, n, &dz, 0.95, &r), 0);
            if (seq_state_of(&r, 0.10) == SEQ_FUTILE) {
                futile++;
                break;
            }
        }
    }
    gsl_rng_free(rng);
    double rate = (double)futile / trials;
    print_message("futile at the margin, horizon 20: %.4f\n", rate);
    assert_true(rate <= 0.05 + 3 * sqrt(0.05 * 0.95 / trials));
    /* the one-sided threshold is below the two-sided one */
    bool cal;
    assert_true(seq_log_threshold_one_sided(&dz, 10, 0.95, &cal) <
                seq_log_threshold(&dz, 10, 0.95, &cal));
}

static void test_bad_arguments(void **state)
{
    const struct seq_design dz = {SEQ_MIXTURE_VAR, 0}, bad = {0, 0};
    const double d[] = {0.1, 0.2, 0.3}, a[] = {1, 2, 0}, b[] = {1, 2, 3};
    struct stats_ratio r;
    assert_int_equal(seq_test_logs(d, 1, &dz, 0.95, &r), -1);
    assert_int_equal(seq_test_logs(d, 3, &bad, 0.95, &r), -1);
    assert_int_equal(seq_test_logs(d, 3, &dz, 1, &r), -1);
    assert_int_equal(seq_paired_log(a, b, 3, &dz, 0.95, &r), -1);
    const double inf[] = {0.1, INFINITY, 0.2};
    assert_int_equal(seq_test_logs(inf, 3, &dz, 0.95, &r), -1);
}

/* Fraction of null sequences (no difference, any noise level) that ever cross when
 * looked at after every pair up to n_max. */
static double crossing_rate(const struct seq_design *dz, unsigned n_max, int trials,
                            unsigned long seed)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    double d[128];
    int crossed = 0;
    for (int t = 0; t < trials; t++) {
        double sigma = 0.05 + 0.3 * gsl_rng_uniform(rng);
        for (unsigned i = 0; i < n_max; i++)
            d[i] = gsl_ran_gaussian(rng, sigma);
        for (unsigned n = SEQ_FIRST_LOOK; n <= n_max; n++) {
            struct stats_ratio r;
            assert_int_equal(seq_test_logs(d, n, dz, 0.95, &r), 0);
            if (r.p <= 0.05) {
                crossed++;
                break;
            }
        }
    }
    gsl_rng_free(rng);
    return (double)crossed / trials;
}

static void test_error_rate_calibrated(void **state)
{
    /* at most 5% + 3 standard errors, and the calibration uses most of the 5% */
    const struct seq_design dz = {SEQ_MIXTURE_VAR, 20};
    int trials = 6000;
    double rate = crossing_rate(&dz, 20, trials, 11);
    double se = sqrt(0.05 * 0.95 / trials);
    print_message("calibrated, horizon 20: %.4f cross\n", rate);
    assert_true(rate <= 0.05 + 3 * se);
    assert_true(rate >= 0.03);
}

static void test_error_rate_ville(void **state)
{
    /* no horizon: Ville's bound, conservative; also looked at past any plan */
    const struct seq_design dz = {SEQ_MIXTURE_VAR, 0};
    int trials = 4000;
    double rate = crossing_rate(&dz, 60, trials, 12);
    print_message("Ville, 60 looks: %.4f cross\n", rate);
    assert_true(rate <= 0.05 + 3 * sqrt(0.05 * 0.95 / trials));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_likelihood_ratio),  cmocka_unit_test(test_ville_interval),
        cmocka_unit_test(test_unbounded_early),   cmocka_unit_test(test_single_look_horizon),
        cmocka_unit_test(test_horizon_threshold), cmocka_unit_test(test_agreement),
        cmocka_unit_test(test_zero_spread),       cmocka_unit_test(test_states),
        cmocka_unit_test(test_bad_arguments),     cmocka_unit_test(test_error_rate_calibrated),
        cmocka_unit_test(test_futility_stops),    cmocka_unit_test(test_futility_error_rate),
        cmocka_unit_test(test_error_rate_ville),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
