/* test_series.c — a series' order and work (stats/series.h): version order for kernels and
 * dates, and the different-work check (compare's rule, stats/workdiff) naming what differs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stats/series.h"

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

/* A measured run with the phases named in list ("extract,sync"), each having handled files. */
static void add_run(struct run_set *rs, const char *list, unsigned long long files)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    size_t n = 1;
    for (const char *p = buf; *p; p++)
        n += *p == ',';
    struct run_result *r = run_set_add_run(rs, n);
    assert_non_null(r);
    char *save = NULL;
    size_t i = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save), i++) {
        snprintf(r->phases[i].name, sizeof r->phases[i].name, "%s", t);
        r->phases[i].status = PHASE_OK;
        r->phases[i].files = files;
    }
}

static void make_set(struct run_set *rs, const char *profile, double scale, unsigned seed,
                     const char *phases, const char *cmdline)
{
    memset(rs, 0, sizeof *rs);
    snprintf(rs->tree.profile, sizeof rs->tree.profile, "%s", profile);
    rs->tree.scale = scale;
    rs->tree.seed = seed;
    snprintf(rs->command_line, sizeof rs->command_line, "%s", cmdline);
    strcpy(rs->target.fstype, "ext4");
    add_run(rs, phases, 100);
    add_run(rs, phases, 100);
}

/* The series' different-work check is compare's (stats/workdiff): the same work passes
 * whatever the file system, options or kernel; each thing that changes the work is named. */
static void test_work_differs(void **state)
{
    struct run_set a, b;
    char why[256];
    make_set(&a, "pkgsrc", 1, 1, "extract,sync", "fsbench run --dir /x");
    make_set(&b, "pkgsrc", 1, 1, "extract,sync", "fsbench run --dir /y");
    strcpy(b.target.fstype, "xfs"); /* compared on purpose: the same work */
    strcpy(b.target.mount_opts, "noatime");
    strcpy(b.machine.kernel, "6.19");
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 0);
    assert_int_equal(series_work_differs(&a, &b, NULL, 0), 0);
    run_set_free(&b);

    make_set(&b, "pkgsrc", 1, 2, "extract,sync", "fsbench run");
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 1);
    assert_string_equal(why, "seed 1 vs 2");
    assert_int_equal(series_work_differs(&a, &b, NULL, 0), 1);
    run_set_free(&b);

    make_set(&b, "tiny", 0.1, 1, "extract,sync", "fsbench run");
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 1);
    assert_string_equal(why, "tree pkgsrc vs tiny; scale 1 vs 0.1");
    run_set_free(&b);

    make_set(&b, "tar:/x/linux.tar", 1, 1, "extract,sync", "fsbench run");
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 1);
    assert_string_equal(why, "tree pkgsrc vs tar:/x/linux.tar");
    run_set_free(&b);

    make_set(&b, "pkgsrc", 1, 1, "extract", "fsbench run");
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 1);
    assert_string_equal(why, "phases extract,sync vs extract");
    run_set_free(&b);

    make_set(&b, "pkgsrc", 1, 1, "extract,sync", "fsbench run --threads 4"); /* a: no -j, one thread */
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 1);
    assert_string_equal(why, "threads 1 vs 4");
    run_set_free(&b);
    run_set_free(&a);
}

/* Threads as the command line gives them: -j N, -jN, --threads N, --threads=N. */
static void test_work_threads(void **state)
{
    struct run_set a, b;
    char why[256];
    make_set(&a, "tiny", 1, 1, "extract", "fsbench run --dir /x -j 8 --label a");
    make_set(&b, "tiny", 1, 1, "extract", "fsbench run --threads=8");
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 0);
    run_set_free(&b);
    make_set(&b, "tiny", 1, 1, "extract", "fsbench run -j4");
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 1);
    assert_string_equal(why, "threads 8 vs 4");
    run_set_free(&b);
    make_set(&b, "tiny", 1, 1, "extract", "fsbench run --threads 8");
    assert_int_equal(series_work_differs(&a, &b, why, sizeof why), 0);
    run_set_free(&b);
    run_set_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_order),
        cmocka_unit_test(test_work_differs),
        cmocka_unit_test(test_work_threads),
    };
    return cmocka_run_group_tests_name("series", tests, NULL, NULL);
}
