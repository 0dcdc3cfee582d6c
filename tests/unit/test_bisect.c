/* test_bisect.c — the candidate like good or like bad (stats/bisect.h): the phase where good
 * and bad differ most, each class from series of known values, and when a class is settled
 * (what `run --runs until-verdict --bisect-good` stops on). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/bisect.h"

#define NPH 2
#define NMAX 8

/* A series of good, bad and candidate over phases "extract" and "sync": each label's runs
 * are level * (1 + spread * k) for k = -1, 0, 1, ... (n values). */
struct fixture {
    struct series sr;
    struct series_label L[3];
    double v[3][NPH][NMAX];
    double *vp[3][NPH];
    size_t nv[3][NPH];
    char phases[NPH][RES_NAME_MAX + 16];
};

static void fill(struct fixture *f, int label, int phase, double level, double spread, size_t n)
{
    static const double k[NMAX] = {-1, 0, 1, -0.5, 0.5, -0.25, 0.25, 0};
    for (size_t i = 0; i < n; i++)
        f->v[label][phase][i] = level * (1 + spread * k[i]);
    f->nv[label][phase] = n;
}

static void build(struct fixture *f)
{
    static const char *const names[3] = {"k-good", "k-bad", "k-cand"};
    f->sr.metric = CMP_WALL;
    f->sr.nlabels = 3;
    f->sr.labels = f->L;
    f->sr.nphases = NPH;
    snprintf(f->phases[0], sizeof f->phases[0], "extract");
    snprintf(f->phases[1], sizeof f->phases[1], "sync");
    f->sr.phases = f->phases;
    for (int l = 0; l < 3; l++) {
        memset(&f->L[l], 0, sizeof f->L[l]);
        snprintf(f->L[l].label, sizeof f->L[l].label, "%s", names[l]);
        for (int p = 0; p < NPH; p++)
            f->vp[l][p] = f->v[l][p];
        f->L[l].vals = f->vp[l];
        f->L[l].nvals = f->nv[l];
    }
}

/* good 1.0, bad 1.3 on extract; sync the same at both ends */
static void ends(struct fixture *f)
{
    memset(f, 0, sizeof *f);
    fill(f, 0, 0, 1.0, 0.02, 5);
    fill(f, 1, 0, 1.3, 0.02, 5);
    fill(f, 0, 1, 0.5, 0.02, 5);
    fill(f, 1, 1, 0.5, 0.02, 5);
    build(f);
}

static void test_pick_phase(void **state)
{
    (void)state;
    struct fixture f;
    char why[640];
    ends(&f);
    assert_int_equal(bisect_pick_phase(&f.sr, NULL, 0.95, why, sizeof why), 0);
    assert_int_equal(bisect_pick_phase(&f.sr, "extract", 0.95, why, sizeof why), 0);
    assert_int_equal(bisect_pick_phase(&f.sr, "sync", 0.95, why, sizeof why), -1);
    assert_non_null(strstr(why, "sync: good k-good and bad k-bad show no difference"));
    assert_int_equal(bisect_pick_phase(&f.sr, "walk", 0.95, why, sizeof why), -2);
    assert_non_null(strstr(why, "no phase 'walk' in 'k-good'"));
    /* the larger difference wins: sync 2x apart, extract 1.3x */
    fill(&f, 1, 1, 1.0, 0.02, 5);
    assert_int_equal(bisect_pick_phase(&f.sr, NULL, 0.95, why, sizeof why), 1);
    /* nothing differs */
    fill(&f, 1, 0, 1.0, 0.02, 5);
    fill(&f, 1, 1, 0.5, 0.02, 5);
    assert_int_equal(bisect_pick_phase(&f.sr, NULL, 0.95, why, sizeof why), -1);
    assert_non_null(strstr(why, "show no difference in any phase"));
}

/* The candidate on extract at level with spread, n runs: its class, verdict and settledness. */
static void judged(double level, double spread, size_t n, enum bisect_class cls, int verdict,
                   bool settled)
{
    struct fixture f;
    struct bisect_judgement j;
    ends(&f);
    fill(&f, 2, 0, level, spread, n);
    bisect_judge(&f.sr, 0, 0.95, &j);
    if (j.cls != cls || j.verdict != verdict || j.settled != settled)
        fail_msg("level %g spread %g n %zu: class %d verdict %d settled %d (%s)", level, spread,
                 n, (int)j.cls, j.verdict, (int)j.settled, j.why);
    assert_non_null(strstr(j.why, "extract: k-cand "));
}

static void test_classes(void **state)
{
    (void)state;
    judged(1.0, 0.02, 4, BISECT_LIKE_GOOD, BISECT_GOOD, true);
    judged(1.3, 0.02, 4, BISECT_LIKE_BAD, BISECT_BAD, true);
    judged(2.0, 0.02, 4, BISECT_BEYOND_BAD, BISECT_BAD, true);
    judged(0.6, 0.02, 4, BISECT_BEYOND_GOOD, BISECT_GOOD, true);
    judged(1.14, 0.01, 5, BISECT_BETWEEN, BISECT_UNSURE, true);
    judged(1.15, 0.9, 3, BISECT_LIKE_BOTH, BISECT_UNSURE, false);
    judged(1.0, 0.02, 1, BISECT_TOO_FEW, BISECT_UNSURE, false);
}

static void test_sentence(void **state)
{
    (void)state;
    struct fixture f;
    struct bisect_judgement j;
    ends(&f);
    fill(&f, 2, 0, 1.3, 0.02, 4);
    bisect_judge(&f.sr, 0, 0.95, &j);
    assert_non_null(strstr(j.why, "extract: k-cand is like bad: 1.293 s against good k-good 1 s "
                                  "(+29.7 %, 95 % CI +"));
    assert_non_null(strstr(j.why, "95 % CI +"));
    assert_non_null(strstr(j.why, "and bad k-bad 1.3 s ("));
    /* a value of 0 has no ratio */
    f.v[2][0][1] = 0;
    bisect_judge(&f.sr, 0, 0.95, &j);
    assert_int_equal(j.cls, BISECT_NO_RATIO);
    assert_int_equal(j.verdict, BISECT_UNSURE);
}

static void test_welch(void **state)
{
    (void)state;
    const double a[] = {1, 1.1, 0.9, 1.05}, b[] = {2, 2.2, 1.8, 2.1};
    struct stats_ratio r;
    assert_int_equal(bisect_welch_log(a, 4, b, 4, 0.95, &r), 0);
    assert_true(fabs(r.ratio - 2) < 1e-9);
    assert_true(r.lo > 1.5 && r.hi < 2.7 && r.p < 0.001);
    assert_int_equal(bisect_welch_log(a, 1, b, 4, 0.95, &r), -1);
    const double z[] = {1, 0};
    assert_int_equal(bisect_welch_log(z, 2, b, 4, 0.95, &r), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pick_phase),
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_sentence),
        cmocka_unit_test(test_welch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
