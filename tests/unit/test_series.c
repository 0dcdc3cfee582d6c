/* test_series.c — a series' order and work (results/series.h): version order for kernels and
 * dates, and the different-work check naming the first difference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "results/series.h"

static void test_version_order(void **state)
{
    const char *order[] = {"6.9", "6.10", "6.19-rc1", "6.19-rc2", "6.19-rc10", "6.19",
                           "6.19.1", "6.20", "7.0", NULL};
    for (size_t i = 0; order[i]; i++)
        for (size_t j = 0; order[j]; j++) {
            int c = series_version_cmp(order[i], order[j]);
            if (i < j)
                assert_true(c < 0);
            else if (i > j)
                assert_true(c > 0);
            else
                assert_int_equal(c, 0);
        }
    assert_true(series_version_cmp("2026-01-09", "2026-01-10") < 0);
    assert_true(series_version_cmp("6.19.0-rc3-00042-gabc", "6.19.0-rc3-00100-gabc") < 0);
    assert_true(series_version_cmp("abc", "abd") < 0);
    assert_int_equal(series_version_cmp("6.010", "6.10"), 0);
}

static void test_work_differs(void **state)
{
    struct series_work a, b;
    memset(&a, 0, sizeof a);
    strcpy(a.tree.profile, "pkgsrc");
    a.tree.scale = 1;
    a.tree.seed = 1;
    strcpy(a.phases, "extract,sync");
    b = a;
    char why[256];
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 0);
    b.tree.seed = 2;
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 1);
    assert_string_equal(why, "tree: pkgsrc x1 seed 1 vs pkgsrc x1 seed 2");
    b = a;
    strcpy(b.tree.profile, "tar:/x/linux.tar");
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 1);
    assert_string_equal(why, "archive: pkgsrc x1 seed 1 vs tar:/x/linux.tar");
    b = a;
    strcpy(b.phases, "extract");
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 1);
    assert_string_equal(why, "phases: extract,sync vs extract");
    b = a;
    strcpy(b.threads, "4");
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 1);
    assert_string_equal(why, "threads: 1 vs 4");
}

static void test_work_of(void **state)
{
    struct run_set rs;
    memset(&rs, 0, sizeof rs);
    strcpy(rs.command_line, "fsbench run --dir /x -j 8 --label a");
    struct run_result *r = run_set_add_run(&rs, 2);
    assert_non_null(r);
    strcpy(r->phases[0].name, "extract");
    strcpy(r->phases[1].name, "delete");
    struct series_work w;
    series_work_of(&rs, &w);
    assert_string_equal(w.phases, "extract,delete");
    assert_string_equal(w.threads, "8");
    strcpy(rs.command_line, "fsbench run --threads=4");
    series_work_of(&rs, &w);
    assert_string_equal(w.threads, "4");
    run_set_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_order),
        cmocka_unit_test(test_work_differs),
        cmocka_unit_test(test_work_of),
    };
    return cmocka_run_group_tests_name("series", tests, NULL, NULL);
}
