/* test_detectable.c — the smallest step history could have found (stats/detectable.h): the
 * critical value of the largest split statistic, the step's dependence on noise and labels,
 * and, against the detector itself (stats/changepoint.h), that a mid-series step of the
 * size it names is found about as often as it says (8 times in 10). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "cpsim.h"
#include "stats/changepoint.h"
#include "stats/detectable.h"

static void test_critical(void **state)
{
    (void)state;
    double c30 = detectable_critical(30, 3, 0.05);
    assert_true(c30 > 2.6 && c30 < 3.0); /* about 2.78 for Gaussian labels */
    assert_true(detectable_critical(30, 3, 0.05) == c30); /* cached: the same */
    assert_true(detectable_critical(12, 3, 0.05) < c30);  /* fewer splits to choose from */
    assert_true(isnan(detectable_critical(5, 3, 0.05)));
    assert_true(isnan(detectable_critical(30, 3, 0.7)));
}

static void test_step(void **state)
{
    (void)state;
    double s = detectable_step(30, 3, 0.05, 0.01, 0.8);
    assert_true(s > 1.16 && s < 1.21); /* 1.3 x (2.78 + 0.84) x sd 0.1 x sqrt(2/15) */
    assert_true(detectable_step(30, 3, 0.05, 0.04, 0.8) > s);  /* more noise: larger */
    assert_true(detectable_step(120, 3, 0.05, 0.01, 0.8) < s); /* more labels: smaller */
    assert_true(detectable_step(30, 3, 0.05, 0.01, 0.5) < s);  /* less power: smaller */
    assert_true(detectable_step(30, 3, 0.05, 0, 0.8) == 1);
    assert_true(isnan(detectable_step(4, 3, 0.05, 0.01, 0.8)));
    assert_true(isnan(detectable_step(30, 3, 0.05, NAN, 0.8)));
}

/* 100 series of 30 labels x 5 runs (CoV 15 %, label-level sd 2 %): the step named from a
 * flat series' noise as the detector estimates it (what history does), put mid-series in a
 * new series, is found within one label by the detector in 6.5 to 9.5 of 10. */
static void test_against_detector(void **state)
{
    (void)state;
    struct cpsim g = {77};
    struct cpsim_spec sp = {30, 5, 0.15, 0, 0.02, 0, 0, 0, 0};
    struct cp_options o;
    cp_options_default(&o);
    double x[30 * 5];
    struct cp_label lab[30];
    int found = 0;
    for (int s = 0; s < 100; s++) {
        struct cp_result r;
        sp.step_at = 0, sp.step = 0;
        cpsim_series(&g, &sp, x);
        for (size_t i = 0; i < 30; i++)
            lab[i] = (struct cp_label){x + i * 5, 5};
        assert_int_equal(cp_detect(lab, 30, &o, &r), 0);
        double v = r.tau2 + (isfinite(r.within2) ? r.within2 : 0);
        cp_result_free(&r);
        sp.step_at = 15, sp.step = detectable_step(30, 3, 0.05, v, 0.8) - 1;
        cpsim_series(&g, &sp, x);
        assert_int_equal(cp_detect(lab, 30, &o, &r), 0);
        for (size_t c = 0; c < r.nchanges; c++)
            if (r.changes[c].at >= 14 && r.changes[c].at <= 16) {
                found++;
                break;
            }
        cp_result_free(&r);
    }
    print_message("found %d of 100\n", found);
    assert_true(found >= 65 && found <= 95);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_critical),
        cmocka_unit_test(test_step),
        cmocka_unit_test(test_against_detector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
