/* test_freefrag.c — unit tests of measure/freefrag.c: free extents land in the power-of-two
 * buckets freefrag.h states; counts, bytes and the largest add up; the share of free space
 * in small extents and the summary line say what the histogram holds; an unknown measure
 * says so with its reason, never a number.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "measure/freefrag.h"

static void test_buckets(void **state)
{
    (void)state;
    assert_int_equal(freefrag_bucket(0), 0);
    assert_int_equal(freefrag_bucket(4096), 0);
    assert_int_equal(freefrag_bucket(8191), 0);
    assert_int_equal(freefrag_bucket(8192), 1);
    assert_int_equal(freefrag_bucket(16383), 1);
    assert_int_equal(freefrag_bucket(16384), 2);
    assert_int_equal(freefrag_bucket(1u << 20), 8);
    assert_int_equal(freefrag_bucket(1ull << 30), FREEFRAG_BUCKETS - 1);
    assert_int_equal(freefrag_bucket(1ull << 40), FREEFRAG_BUCKETS - 1);
}

static void test_add_and_summary(void **state)
{
    (void)state;
    struct freefrag f;
    freefrag_init(&f);
    for (int i = 0; i < 3; i++)
        freefrag_add(&f, 4096);
    freefrag_add(&f, 65536);
    freefrag_add(&f, 3u << 20);
    assert_int_equal(f.extents, 5);
    assert_int_equal(f.bytes, 3 * 4096 + 65536 + (3u << 20));
    assert_int_equal(f.largest, 3u << 20);
    assert_int_equal(f.count[0], 3);
    assert_int_equal(f.count[4], 1);
    assert_int_equal(f.bytes_in[freefrag_bucket(3u << 20)], 3u << 20);
    double small = (3.0 * 4096 + 65536) / (double)f.bytes;
    assert_true(fabs(freefrag_share_below(&f, 1u << 20) - small) < 1e-12);
    assert_true(fabs(freefrag_share_below(&f, 8192) - 3.0 * 4096 / (double)f.bytes) < 1e-12);
    char buf[160];
    freefrag_summary(&f, buf, sizeof buf);
    assert_string_equal(buf,
                        "5 free extents, largest 3.0 MiB, 2% of free space in extents under 1 MiB");
    struct freefrag empty;
    freefrag_init(&empty);
    assert_true(freefrag_share_below(&empty, 1u << 20) == 0);
}

/* A file system without GETFSMAP (or a platform without it): unknown, with the reason. */
static void test_unknown(void **state)
{
    (void)state;
    struct freefrag f;
    int fd = open("/proc", O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    assert_int_equal(freefrag_measure(fd, &f), -1);
    close(fd);
    assert_false(f.known);
    assert_int_equal(f.extents, 0);
    char buf[160];
    freefrag_summary(&f, buf, sizeof buf);
    assert_non_null(strstr(buf, "unknown (GETFSMAP: "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buckets),
        cmocka_unit_test(test_add_and_summary),
        cmocka_unit_test(test_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
