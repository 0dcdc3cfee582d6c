/* test_freefrag.c — unit tests of measure/freefrag.c: free extents land in the power-of-two
 * buckets freefrag.h states; counts, bytes and the largest add up; the share of free space
 * in small extents and the summary line say what the histogram holds; an unknown measure
 * says so with its reason, never a number. The file systems' own tools' output (e2freefrag,
 * xfs_db freesp, as e2fsprogs 1.47 and xfsprogs 6 print it) is read into the same buckets,
 * its totals checked; text that is not theirs is "not understood", never a number; the tool
 * is refused on a device the file system is not on.
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
                        "5 free extents, largest 3.0 MiB, 2% of free space in extents under 1 MiB "
                        "(source: GETFSMAP)");
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

/* e2freefrag of a 128 MiB ext4 image with 1 KiB blocks (unmounted: the bitmaps). */
static const char e2ff_text[] =
    "Device: /dev/loop0\n"
    "Blocksize: 1024 bytes\n"
    "Total blocks: 131072\n"
    "Free blocks: 109937 (83.9%)\n"
    "\n"
    "Min. free extent: 1 KB \n"
    "Max. free extent: 57085 KB\n"
    "Avg. free extent: 6466 KB\n"
    "Num. free extent: 17\n"
    "\n"
    "HISTOGRAM OF FREE EXTENT SIZES:\n"
    "Extent Size Range :  Free extents   Free Blocks  Percent\n"
    "    1K...    2K-  :             2             2    0.00%\n"
    "    4K...    8K-  :             3            18    0.02%\n"
    "    8K...   16K-  :             2            23    0.02%\n"
    "   64K...  128K-  :             1            69    0.06%\n"
    "  128K...  256K-  :             1           186    0.17%\n"
    "  256K...  512K-  :             2           730    0.66%\n"
    "    4M...    8M-  :             3         19572   17.80%\n"
    "    8M...   16M-  :             2         32252   29.34%\n"
    "   32M...   64M-  :             1         57085   51.93%\n";

/* xfs_db -r -c 'sb 0' -c 'p blocksize' -c 'freesp -s -d' of a 300 MiB xfs image. */
static const char xfs_text[] = "blocksize = 4096\n"
                               "    agno    agbno      len\n"
                               "       0        6        1\n"
                               "       0        7        1\n"
                               "       0     1470    17730\n"
                               "       1        6        1\n"
                               "       1      170    19030\n"
                               "       2    16721     2479\n"
                               "   from      to extents  blocks    pct\n"
                               "      1       1       3       3   0.01\n"
                               "   2048    4095       1    2479   6.56\n"
                               "  16384   19200       2   36760  93.43\n"
                               "total free extents 6\n"
                               "total free blocks 39242\n"
                               "average free extent size 6540.33\n";

static void test_parse_e2freefrag(void **state)
{
    (void)state;
    struct freefrag f;
    assert_int_equal(freefrag_parse_e2freefrag(e2ff_text, &f), 0);
    assert_true(f.known);
    assert_string_equal(f.source, "e2freefrag");
    assert_int_equal(f.extents, 17);
    assert_int_equal(f.bytes, 109937ull * 1024);
    assert_int_equal(f.largest, 57085ull * 1024);
    assert_int_equal(f.count[0], 5);                    /* 1K-2K and 4K-8K */
    assert_int_equal(f.bytes_in[0], 20 * 1024);
    assert_int_equal(f.count[1], 2);                    /* 8K-16K */
    assert_int_equal(f.count[freefrag_bucket(4u << 20)], 3);
    assert_int_equal(f.bytes_in[freefrag_bucket(32u << 20)], 57085ull * 1024);
    char buf[200];
    freefrag_summary(&f, buf, sizeof buf);
    assert_string_equal(buf, "17 free extents, largest 55.7 MiB, 1% of free space in extents "
                             "under 1 MiB (source: e2freefrag)");

    /* totals that do not add up, a histogram line that is not one, nothing at all */
    char bad[sizeof e2ff_text + 8];
    snprintf(bad, sizeof bad, "%s", e2ff_text);
    memcpy(strstr(bad, "Num. free extent: 17"), "Num. free extent: 18", 20);
    assert_int_equal(freefrag_parse_e2freefrag(bad, &f), -1);
    assert_false(f.known);
    assert_string_equal(f.why, "e2freefrag: output not understood");
    assert_int_equal(freefrag_parse_e2freefrag(
                         "Blocksize: 4096 bytes\nExtent Size Range : x\n  lots of  : 1 2\n", &f),
                     -1);
    assert_non_null(strstr(f.why, "e2freefrag: a line not understood: '  lots of  : 1 2'"));
    assert_int_equal(freefrag_parse_e2freefrag("", &f), -1);
    assert_false(f.known);
}

static void test_parse_xfs_db(void **state)
{
    (void)state;
    struct freefrag f;
    assert_int_equal(freefrag_parse_xfs_db(xfs_text, &f), 0);
    assert_true(f.known);
    assert_string_equal(f.source, "xfs_db");
    assert_int_equal(f.extents, 6);
    assert_int_equal(f.bytes, 39242ull * 4096);
    assert_int_equal(f.largest, 19030ull * 4096);
    assert_int_equal(f.count[0], 3);
    assert_int_equal(f.count[freefrag_bucket(2479ull * 4096)], 1);
    /* the summary's rows are not extents: only the dump's are counted */
    char bad[sizeof xfs_text + 8];
    snprintf(bad, sizeof bad, "%s", xfs_text);
    memcpy(strstr(bad, "total free extents 6"), "total free extents 7", 20);
    assert_int_equal(freefrag_parse_xfs_db(bad, &f), -1);
    assert_string_equal(f.why, "xfs_db: output not understood");
    assert_int_equal(freefrag_parse_xfs_db("blocksize = 4096\n", &f), -1);
}

/* The tool is refused on a device the file system is not on (nothing run). */
static void test_tool_wrong_device(void **state)
{
    (void)state;
    struct freefrag f;
    int fd = open("/proc", O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    assert_int_equal(freefrag_tool_measure(fd, "/dev/null", &f), -1);
    assert_false(f.known);
    assert_string_equal(f.why, "/dev/null is not the device this file system is on");
    /* GETFSMAP not offered, and the device is not the file system's: unknown, both reasons */
    assert_int_equal(freefrag_measure_dev(fd, "/dev/null", &f), -1);
    assert_non_null(strstr(f.why, "GETFSMAP: "));
    assert_non_null(strstr(f.why, "; /dev/null is not the device"));
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buckets),
        cmocka_unit_test(test_add_and_summary),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_parse_e2freefrag),
        cmocka_unit_test(test_parse_xfs_db),
        cmocka_unit_test(test_tool_wrong_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
