/* test_stats_sim.c — simulated A/A and A/B trials of the two comparison paths.
 *
 * Noise models, on the log scale, marginal CV 25% (sigma = sqrt(ln(1 + 0.25^2))):
 *   iid: independent lognormal runs;
 *   ar:  AR(1) with rho = 0.5 (regimes lasting a few runs, as measured on a 2-vCPU VM)
 *        plus a slow linear drift of 10% over the trial's whole sequence of runs.
 * Orders: interleaved (each round runs A and B once in a random order; paired path) and
 * batch (all of A, then all of B; batch path). 12 runs of each per trial.
 *
 * A trial claims a difference when the verdict is not "no difference shown", i.e. the
 * 95% interval of B/A excludes 1. The false-positive rate of each path must stay within
 * 5% + 3 standard errors of a rate estimated from the trials. The 20% shift (B takes
 * 20% less time: B/A = 0.8) with 12 pairs must be detected at least 80% of the time by
 * the paired path under the machine-like (ar) noise. Other detection rates are printed
 * as diagnostics only: with independent noise of CV 25%, 12 pairs cannot reach 80% power
 * for any test (the log-ratio sd is 0.35; about 25 pairs are needed).
 * Fixed seed: the numbers are the same on every run of the same GSL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/stats.h"

#define NRUNS 12 /* runs of each of A and B per trial (pairs when interleaved) */
#define TRIALS_FP 10000
#define TRIALS_POWER 10000
#define SEED 20240601UL

enum noise { NOISE_IID, NOISE_AR };
enum order { ORDER_INTERLEAVED, ORDER_BATCH };

static gsl_rng *rng;

/* The run sequence of one trial: 2 * NRUNS log-scale noise values, in time order. */
static void noise_sequence(enum noise nz, double *e)
{
    const double sigma = sqrt(log(1 + 0.25 * 0.25));
    const size_t len = 2 * NRUNS;
    if (nz == NOISE_IID) {
        for (size_t i = 0; i < len; i++)
            e[i] = gsl_ran_gaussian(rng, sigma);
        return;
    }
    const double rho = 0.5, drift = 0.10;
    double innov = sigma * sqrt(1 - rho * rho);
    double x = gsl_ran_gaussian(rng, sigma);
    for (size_t i = 0; i < len; i++) {
        if (i)
            x = rho * x + gsl_ran_gaussian(rng, innov);
        e[i] = x + drift * (double)i / (double)(len - 1);
    }
}

/* One trial; true when the method claims a difference. `ratio` is the true B/A. */
static bool trial(enum noise nz, enum order ord, double ratio)
{
    double e[2 * NRUNS], a[NRUNS], b[NRUNS];
    noise_sequence(nz, e);
    struct stats_ratio r;
    if (ord == ORDER_INTERLEAVED) {
        for (size_t i = 0; i < NRUNS; i++) {
            unsigned first_b = (unsigned)gsl_rng_uniform_int(rng, 2);
            a[i] = 10 * exp(e[2 * i + first_b]);
            b[i] = 10 * ratio * exp(e[2 * i + 1 - first_b]);
        }
        assert_int_equal(stats_paired_log(a, b, NRUNS, 0.95, &r), 0);
    } else {
        for (size_t i = 0; i < NRUNS; i++) {
            a[i] = 10 * exp(e[i]);
            b[i] = 10 * ratio * exp(e[NRUNS + i]);
        }
        assert_int_equal(stats_batch_log(a, NRUNS, b, NRUNS, 0.95, &r), 0);
    }
    struct stats_verdict v;
    stats_verdict(&r, STATS_LOWER_BETTER, 0.05, &v);
    return v.kind != STATS_NO_DIFFERENCE;
}

static double rate(enum noise nz, enum order ord, double ratio, int trials)
{
    int hits = 0;
    for (int t = 0; t < trials; t++)
        hits += trial(nz, ord, ratio);
    return (double)hits / trials;
}

static const char *noise_name(enum noise nz)
{
    return nz == NOISE_IID ? "independent noise" : "AR(1) rho 0.5 + drift";
}

static void check_false_positives(enum noise nz, enum order ord)
{
    double fp = rate(nz, ord, 1.0, TRIALS_FP);
    double limit = 0.05 + 3 * sqrt(0.05 * 0.95 / TRIALS_FP);
    printf("# %s A/A false-positive rate %.3f (%d trials, %d runs each, %s; limit %.3f)\n",
           ord == ORDER_INTERLEAVED ? "paired" : "batch", fp, TRIALS_FP, NRUNS, noise_name(nz),
           limit);
    fflush(stdout);
    assert_true(fp <= limit);
}

static void test_aa_paired_iid(void **state)
{
    check_false_positives(NOISE_IID, ORDER_INTERLEAVED);
}

static void test_aa_paired_ar(void **state)
{
    check_false_positives(NOISE_AR, ORDER_INTERLEAVED);
}

static void test_aa_batch_iid(void **state)
{
    check_false_positives(NOISE_IID, ORDER_BATCH);
}

static void test_aa_batch_ar(void **state)
{
    check_false_positives(NOISE_AR, ORDER_BATCH);
}

static void test_ab_detection(void **state)
{
    static const struct {
        enum noise nz;
        enum order ord;
        double ratio;
        bool asserted;
    } cases[] = {
        {NOISE_AR, ORDER_INTERLEAVED, 0.8, true},   {NOISE_AR, ORDER_INTERLEAVED, 1.2, false},
        {NOISE_IID, ORDER_INTERLEAVED, 0.8, false}, {NOISE_IID, ORDER_INTERLEAVED, 1.2, false},
        {NOISE_AR, ORDER_BATCH, 0.8, false},        {NOISE_IID, ORDER_BATCH, 0.8, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double p = rate(cases[i].nz, cases[i].ord, cases[i].ratio, TRIALS_POWER);
        printf("# %s A/B (B/A = %.1f) detection rate %.3f (%d trials, %d %s, %s)%s\n",
               cases[i].ord == ORDER_INTERLEAVED ? "paired" : "batch", cases[i].ratio, p,
               TRIALS_POWER, NRUNS, cases[i].ord == ORDER_INTERLEAVED ? "pairs" : "runs each",
               noise_name(cases[i].nz), cases[i].asserted ? "; must be >= 0.80" : "");
        fflush(stdout);
        if (cases[i].asserted)
            assert_true(p >= 0.80);
    }
}

static int setup(void **state)
{
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return -1;
    gsl_rng_set(rng, SEED);
    return 0;
}

static int teardown(void **state)
{
    gsl_rng_free(rng);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aa_paired_iid), cmocka_unit_test(test_aa_paired_ar),
        cmocka_unit_test(test_aa_batch_iid),  cmocka_unit_test(test_aa_batch_ar),
        cmocka_unit_test(test_ab_detection),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
