/* test_median_ci.c — the distribution-free median interval (stats/median_ci.h): ranks
 * from the binomial table, too few values, unsorted input left alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats/median_ci.h"

static void test_ranks(void **state)
{
    double x[30];
    for (size_t i = 0; i < 30; i++)
        x[i] = (double)((i * 7) % 30) + 1; /* 1..30, shuffled */
    struct stats_median_ci c;
    assert_int_equal(stats_median_ci(x, 30, 0.95, &c), 0);
    /* n = 30: P(Bin <= 9) = 0.0214, P(Bin <= 10) = 0.0494: x(10) .. x(21) */
    assert_true(c.reached);
    assert_true(c.lo == 10 && c.hi == 21);
    assert_true(c.median == 15.5);
    assert_true(c.coverage > 0.957 && c.coverage < 0.958);
    assert_true(x[0] == 1 && x[1] == 8); /* not sorted in place */
    /* n = 6: x(1) .. x(6), coverage 1 - 2/64 */
    assert_int_equal(stats_median_ci(x, 6, 0.95, &c), 0);
    assert_true(c.reached && c.coverage > 0.968 && c.coverage < 0.969);
}

static void test_too_few(void **state)
{
    double x[5] = {5, 1, 4, 2, 3};
    struct stats_median_ci c;
    assert_int_equal(stats_median_ci(x, 5, 0.95, &c), 0);
    assert_false(c.reached); /* 1 - 2/32 = 0.9375 */
    assert_true(c.lo == 1 && c.hi == 5 && c.median == 3);
    assert_int_equal(stats_median_ci(x, 1, 0.95, &c), 0);
    assert_false(c.reached);
    assert_true(c.lo == 5 && c.hi == 5);
    assert_int_equal(stats_median_ci(x, 0, 0.95, &c), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranks),
        cmocka_unit_test(test_too_few),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
