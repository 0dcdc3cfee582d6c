/* test_layout.c — unit tests of layout.c's arithmetic on synthetic extent lists: the
 * Smith & Seltzer layout score (contiguous, gaps, holes, excluded extents, partial blocks),
 * the extents-per-file histogram buckets, directory spread, gaps and groups, and medians;
 * and the phase on a small real tree in $TMPDIR (scored, or skipped where FIEMAP is absent).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure/layout.h"
#include "phase/phase.h"
#include "phase/workload.h"

#define BS 4096u

/* An extent of n blocks at logical block lb and physical block pb. */
static struct layout_extent ext(uint64_t lb, uint64_t pb, uint64_t n, uint32_t flags)
{
    struct layout_extent e = {lb * BS, pb * BS, n * BS, flags};
    return e;
}

static void test_one_contiguous_extent(void **state)
{
    (void)state;
    struct layout_extent e[] = {ext(0, 1000, 256, OS_EXTENT_LAST)};
    uint64_t pairs, contig;
    assert_true(layout_score_of(e, 1, BS, &pairs, &contig) == 1.0);
    assert_int_equal(pairs, 255);
    assert_int_equal(contig, 255);
}

static void test_two_extents_with_gap(void **state)
{
    (void)state;
    /* 100 blocks: 40 at 1000, then 60 at 5000: one of the 99 pairs is broken. */
    struct layout_extent e[] = {ext(0, 1000, 40, 0), ext(40, 5000, 60, OS_EXTENT_LAST)};
    uint64_t pairs, contig;
    double s = layout_score_of(e, 2, BS, &pairs, &contig);
    assert_int_equal(pairs, 99);
    assert_int_equal(contig, 98);
    assert_true(fabs(s - 98.0 / 99.0) < 1e-12);
}

static void test_split_but_adjacent(void **state)
{
    (void)state;
    /* Two extents that touch physically (an extent-length limit split) are contiguous. */
    struct layout_extent e[] = {ext(0, 1000, 32, 0), ext(32, 1032, 32, OS_EXTENT_LAST)};
    assert_true(layout_score_of(e, 2, BS, NULL, NULL) == 1.0);
}

static void test_interleaved(void **state)
{
    (void)state;
    /* Every 16 blocks the file jumps over 16 blocks of another file: 4 breaks in 63 pairs. */
    struct layout_extent e[4];
    for (unsigned i = 0; i < 4; i++)
        e[i] = ext(i * 16, 2000 + i * 32, 16, i == 3 ? OS_EXTENT_LAST : 0);
    uint64_t pairs, contig;
    double s = layout_score_of(e, 4, BS, &pairs, &contig);
    assert_int_equal(pairs, 63);
    assert_int_equal(contig, 60);
    assert_true(fabs(s - 60.0 / 63.0) < 1e-12);
}

static void test_backwards_is_not_contiguous(void **state)
{
    (void)state;
    struct layout_extent e[] = {ext(0, 5000, 10, 0), ext(10, 4990, 10, OS_EXTENT_LAST)};
    uint64_t pairs, contig;
    layout_score_of(e, 2, BS, &pairs, &contig);
    assert_int_equal(pairs, 19);
    assert_int_equal(contig, 18);
}

static void test_hole_is_skipped(void **state)
{
    (void)state;
    /* Logical hole between the extents, physically back to back: still contiguous. */
    struct layout_extent e[] = {ext(0, 100, 10, 0), ext(50, 110, 10, OS_EXTENT_LAST)};
    assert_true(layout_score_of(e, 2, BS, NULL, NULL) == 1.0);
}

static void test_single_block_and_empty(void **state)
{
    (void)state;
    struct layout_extent one[] = {ext(0, 7, 1, OS_EXTENT_LAST)};
    uint64_t pairs = 9, contig = 9;
    assert_true(layout_score_of(one, 1, BS, &pairs, &contig) < 0);
    assert_int_equal(pairs, 0);
    assert_int_equal(contig, 0);
    assert_true(layout_score_of(NULL, 0, BS, NULL, NULL) < 0);
    /* A partial last block counts as a block: 5000 bytes are two blocks, one pair. */
    struct layout_extent partial = {0, 8 * BS, 5000, OS_EXTENT_LAST};
    assert_true(layout_score_of(&partial, 1, BS, &pairs, NULL) == 1.0);
    assert_int_equal(pairs, 1);
}

static void test_excluded_extents(void **state)
{
    (void)state;
    /* An inline extent in the middle is excluded and breaks the chain: the block after it
     * is neither a gap nor contiguous. */
    struct layout_extent e[] = {ext(0, 100, 10, 0), ext(10, 110, 10, OS_EXTENT_DATA_INLINE),
                                ext(20, 9000, 10, OS_EXTENT_LAST)};
    struct layout_file f;
    layout_file_begin(&f);
    for (unsigned i = 0; i < 3; i++)
        layout_file_add(&f, &e[i], BS);
    assert_int_equal(f.extents, 3);
    assert_int_equal(f.extents_excluded, 1);
    assert_int_equal(f.extents_unwritten, 0);
    assert_int_equal(f.blocks, 20);
    assert_int_equal(f.pairs, 18);
    assert_int_equal(f.contiguous, 18);
    assert_int_equal(f.first_block, 100);

    /* Inline, unknown and delalloc data: no located block, no first block. */
    static const uint32_t bad[] = {OS_EXTENT_DATA_INLINE,
                                   OS_EXTENT_UNKNOWN,
                                   OS_EXTENT_UNKNOWN | OS_EXTENT_DELALLOC,
                                   OS_EXTENT_ENCODED,
                                   OS_EXTENT_DATA_TAIL,
                                   OS_EXTENT_NOT_ALIGNED};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct layout_extent x = ext(0, 0, 3, bad[i] | OS_EXTENT_LAST);
        layout_file_begin(&f);
        layout_file_add(&f, &x, BS);
        assert_int_equal(f.extents_excluded, 1);
        assert_int_equal(f.blocks, 0);
        assert_false(f.have_first);
    }
    /* Shared (reflinked) and merged extents have a real location. */
    struct layout_extent sh = ext(0, 40, 4, OS_EXTENT_SHARED | OS_EXTENT_MERGED);
    layout_file_begin(&f);
    layout_file_add(&f, &sh, BS);
    assert_int_equal(f.extents_excluded, 0);
    assert_int_equal(f.blocks, 4);
}

/* Unwritten (fallocated) extents have a location: scored like written ones, counted apart,
 * so a file made only of them has a score. */
static void test_unwritten_extents(void **state)
{
    (void)state;
    struct layout_extent e[] = {ext(0, 100, 10, 0), ext(10, 110, 10, OS_EXTENT_UNWRITTEN),
                                ext(20, 9000, 10, OS_EXTENT_LAST)};
    struct layout_file f;
    layout_file_begin(&f);
    for (unsigned i = 0; i < 3; i++)
        layout_file_add(&f, &e[i], BS);
    assert_int_equal(f.extents, 3);
    assert_int_equal(f.extents_excluded, 0);
    assert_int_equal(f.extents_unwritten, 1);
    assert_int_equal(f.blocks_unwritten, 10);
    assert_int_equal(f.blocks, 30);
    assert_int_equal(f.pairs, 29);
    assert_int_equal(f.contiguous, 28); /* 100..119 in one run, then the jump to 9000 */

    /* A file that is all preallocation, in two runs: a score, not n/a. */
    struct layout_extent pre[] = {ext(0, 500, 8, OS_EXTENT_UNWRITTEN),
                                  ext(8, 600, 8, OS_EXTENT_UNWRITTEN | OS_EXTENT_LAST)};
    uint64_t pairs, contig;
    double s = layout_score_of(pre, 2, BS, &pairs, &contig);
    assert_int_equal(pairs, 15);
    assert_int_equal(contig, 14);
    assert_true(s > 0.93 && s < 0.94);
}

static void test_hist_buckets(void **state)
{
    (void)state;
    assert_int_equal(layout_hist_bucket(1), LAYOUT_HIST_1);
    assert_int_equal(layout_hist_bucket(2), LAYOUT_HIST_2_4);
    assert_int_equal(layout_hist_bucket(4), LAYOUT_HIST_2_4);
    assert_int_equal(layout_hist_bucket(5), LAYOUT_HIST_5_16);
    assert_int_equal(layout_hist_bucket(16), LAYOUT_HIST_5_16);
    assert_int_equal(layout_hist_bucket(17), LAYOUT_HIST_MORE);
    assert_int_equal(layout_hist_bucket(100000), LAYOUT_HIST_MORE);
}

static void test_dir_locality(void **state)
{
    (void)state;
    struct layout_dir_stats s;
    /* Directory order 100, 300, 200, 1000: spread 900, gaps 200, 100, 800 -> mean 366.67. */
    uint64_t f[] = {100, 300, 200, 1000};
    assert_int_equal(layout_dir_of(f, 4, 0, 0, &s), 0);
    assert_true(s.spread_blocks == 900);
    assert_true(fabs(s.gap_blocks - 1100.0 / 3.0) < 1e-9);
    assert_true(s.groups < 0); /* no group size: n/a */

    /* 1 KiB-block ext4: 8192 blocks per group, first data block 1. */
    uint64_t g[] = {1, 8192, 8193, 20000, 16385};
    assert_int_equal(layout_dir_of(g, 5, 8192, 1, &s), 0);
    assert_true(s.groups == 3); /* groups 0, 0, 1, 2, 2 */
    assert_true(s.spread_blocks == 19999);

    uint64_t same[] = {5, 5};
    assert_int_equal(layout_dir_of(same, 2, 32768, 0, &s), 0);
    assert_true(s.spread_blocks == 0 && s.gap_blocks == 0 && s.groups == 1);

    uint64_t lone[] = {42};
    assert_int_equal(layout_dir_of(lone, 1, 32768, 0, &s), -1);
    assert_int_equal(layout_dir_of(lone, 0, 32768, 0, &s), -1);
}

static void test_median(void **state)
{
    (void)state;
    double odd[] = {512, 3, 40};
    assert_true(layout_median(odd, 3) == 40);
    double even[] = {10, 1, 7, 2};
    assert_true(layout_median(even, 4) == 4.5); /* mean of the middle two, not upper */
    double one[] = {8};
    assert_true(layout_median(one, 1) == 8);
    assert_true(layout_median(NULL, 0) < 0);
}

/* Runs phase_layout with engine e on a workspace whose tree holds two files. */
static void run_phase(const struct engine *e, struct phase_result *res)
{
    const char *tmp = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/fsbench-layout-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    char *dir = mkdtemp(tmpl);
    assert_non_null(dir);
    int wfd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(wfd >= 0);
    assert_int_equal(mkdirat(wfd, "tree", 0755), 0);
    static char data[64 * 1024];
    const char *names[] = {"tree/a", "tree/b"};
    for (unsigned i = 0; i < 2; i++) {
        int fd = openat(wfd, names[i], O_WRONLY | O_CREAT | O_EXCL, 0644);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, data, sizeof data), (ssize_t)sizeof data);
        close(fd);
    }
    struct opstats *st = calloc(1, sizeof *st);
    assert_non_null(st);
    struct eng_worker w = {.st = st};
    struct phase_ctx ctx = {.eng = e, .w = &w, .ws_fd = wfd, .res = res};
    memset(res, 0, sizeof *res);
    assert_int_equal(phase_layout(&ctx), 0);
    free(st);
    unlinkat(wfd, "tree/a", 0);
    unlinkat(wfd, "tree/b", 0);
    unlinkat(wfd, "tree", AT_REMOVEDIR);
    close(wfd);
    rmdir(dir);
}

static void test_phase_null_engine_skips(void **state)
{
    (void)state;
    struct phase_result res;
    run_phase(&engine_null, &res);
    assert_int_equal(res.status, PHASE_SKIPPED);
    assert_non_null(strstr(res.note, "null"));
}

static void test_phase_scores_or_skips(void **state)
{
    (void)state;
    struct phase_result res;
    run_phase(&engine_posix, &res);
    struct layout_result r;
    assert_int_equal(phase_layout_last(&r), 0);
    if (!r.supported) {
        assert_int_equal(res.status, PHASE_SKIPPED);
        assert_non_null(strstr(res.note, "FIEMAP is not supported by"));
        return;
    }
    assert_int_equal(res.status, PHASE_OK);
    assert_int_equal(res.files, 2);
    assert_int_equal(r.files, 2);
    assert_int_equal(r.dirs, 1);
    assert_true(r.fs_block_size >= 512);
    assert_int_equal(strncmp(res.note, "layout score ", 13), 0);
    assert_non_null(strstr(res.note, "extents/file"));
    assert_non_null(strstr(res.note, "dir spread"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_contiguous_extent),
        cmocka_unit_test(test_two_extents_with_gap),
        cmocka_unit_test(test_split_but_adjacent),
        cmocka_unit_test(test_interleaved),
        cmocka_unit_test(test_backwards_is_not_contiguous),
        cmocka_unit_test(test_hole_is_skipped),
        cmocka_unit_test(test_single_block_and_empty),
        cmocka_unit_test(test_excluded_extents),
        cmocka_unit_test(test_unwritten_extents),
        cmocka_unit_test(test_hist_buckets),
        cmocka_unit_test(test_dir_locality),
        cmocka_unit_test(test_median),
        cmocka_unit_test(test_phase_null_engine_skips),
        cmocka_unit_test(test_phase_scores_or_skips),
    };
    return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
