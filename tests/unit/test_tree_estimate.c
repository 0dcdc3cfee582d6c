/* test_tree_estimate.c — unit tests of tree_estimate.c: a small tree is streamed and exact; a
 * big one is estimated, and every estimate (bytes, the on-disk size, symlinks, directories,
 * the last also by sampled subtrees) lies within its own stated 95% interval of the streamed
 * truth, for every built-in profile; the intervals are narrow (under 1% for the sizes); the
 * same spec gives the same estimate; bad specs are refused like tree_open() refuses them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "base/err.h"
#include "tree/tree_estimate.h"
#include "tree/tree_internal.h"

#define BLOCK 4096

struct truth {
    uint64_t files, dirs, symlinks, bytes, disk;
};

static void stream_truth(const struct tree_spec *s, struct truth *t)
{
    memset(t, 0, sizeof *t);
    struct tree_gen *g = tree_open(s);
    assert_non_null(g);
    struct tree_entry e;
    t->disk = BLOCK;
    while (tree_next(g, &e)) {
        if (e.kind == TREE_FILE) {
            t->files++;
            t->bytes += e.size;
            t->disk += (e.size + BLOCK - 1) / BLOCK * BLOCK;
        } else if (e.kind == TREE_DIR) {
            t->dirs++;
            t->disk += BLOCK;
        } else if (e.kind == TREE_SYMLINK) {
            t->symlinks++;
        }
    }
    tree_close(g);
}

/* |est - truth| <= hw, and hw is 0 exactly when est is exact. */
static void within(const char *what, const char *prof, uint64_t est, double hw, uint64_t truth)
{
    double d = fabs((double)est - (double)truth);
    if (d > hw + 0.5)
        fail_msg("%s %s: estimate %llu, truth %llu: off by %.0f, outside its +-%.0f", prof, what,
                 (unsigned long long)est, (unsigned long long)truth, d, hw);
}

static void test_small_tree_exact(void **state)
{
    (void)state;
    struct tree_spec s = {.prof = profile_find("kernel"), .scale = 1, .seed = 3};
    struct tree_estimate e;
    struct truth t;
    assert_int_equal(tree_estimate(&s, BLOCK, &e), 0);
    stream_truth(&s, &t);
    assert_true(e.exact);
    assert_int_equal(e.files, t.files);
    assert_int_equal(e.dirs, t.dirs);
    assert_int_equal(e.symlinks, t.symlinks);
    assert_int_equal(e.bytes, t.bytes);
    assert_int_equal(e.disk, t.disk);
    assert_true(e.dirs_hw == 0 && e.bytes_hw == 0 && e.disk_hw == 0 && e.symlinks_hw == 0);
    /* and the totals tree_measure() gives */
    struct tree_totals tt;
    assert_int_equal(tree_measure(&s, &tt), 0);
    assert_int_equal(e.dirs, tt.dirs);
    assert_int_equal(e.bytes, tt.bytes);
}

/* Just over the streaming limit: estimated, within the intervals, for every profile; with
 * few subtree draws allowed, the directory count is sampled and still within its interval. */
static void test_big_tree_within_intervals(void **state)
{
    (void)state;
    static const char *const profiles[] = {"tiny", "pkgsrc", "kernel", "mixed", NULL};
    for (size_t i = 0; profiles[i]; i++) {
        const struct profile *p = profile_find(profiles[i]);
        struct tree_spec s = {.prof = p,
                              .scale = 1.5 * TREE_ESTIMATE_EXACT / (double)p->files,
                              .seed = 7};
        struct truth t;
        stream_truth(&s, &t);
        struct tree_estimate e;
        assert_int_equal(tree_estimate(&s, BLOCK, &e), 0);
        assert_false(e.exact);
        assert_int_equal(e.files, t.files);
        assert_int_equal(e.file_samples, TREE_ESTIMATE_SAMPLES);
        within("bytes", p->name, e.bytes, e.bytes_hw, t.bytes);
        within("disk", p->name, e.disk, e.disk_hw, t.disk);
        within("symlinks", p->name, e.symlinks, e.symlinks_hw, t.symlinks);
        within("dirs", p->name, e.dirs, e.dirs_hw, t.dirs);
        if (e.bytes_hw > 0.01 * (double)e.bytes || e.disk_hw > 0.01 * (double)e.disk)
            fail_msg("%s: the size intervals are wider than 1%%", p->name);
        if (!p->symlink_share)
            assert_true(e.symlinks == 0 && e.symlinks_hw == 0);

        struct tree_estimate few;
        assert_int_equal(tree_estimate_with(&s, BLOCK, 64, 1, &few), 0);
        assert_true(few.dirs_hw > 0); /* sampled (the pilot draws only), not walked whole */
        assert_true(few.subtree_samples > 0);
        within("dirs (sampled subtrees)", p->name, few.dirs, few.dirs_hw, t.dirs);
        print_message("# %s: dirs %llu, sampled from 32 subtrees %llu +- %.1f%%\n", p->name,
                      (unsigned long long)t.dirs, (unsigned long long)few.dirs,
                      100 * few.dirs_hw / (double)few.dirs);
    }
}

static void test_deterministic(void **state)
{
    (void)state;
    struct tree_spec s = {.prof = profile_find("mixed"), .scale = 5000, .seed = 11};
    struct tree_estimate a, b;
    assert_int_equal(tree_estimate(&s, BLOCK, &a), 0);
    assert_int_equal(tree_estimate(&s, BLOCK, &b), 0);
    assert_memory_equal(&a, &b, sizeof a);
    /* a different seed is a different tree, and a different estimate */
    s.seed = 12;
    assert_int_equal(tree_estimate(&s, BLOCK, &b), 0);
    assert_true(a.bytes != b.bytes);
}

/* The largest tree a spec may describe: estimated, with sane figures. */
static void test_largest_tree(void **state)
{
    (void)state;
    const struct profile *p = profile_find("pkgsrc");
    struct tree_spec s = {.prof = p, .scale = (double)TREE_FILES_MAX / (double)p->files, .seed = 1};
    struct tree_estimate e;
    assert_int_equal(tree_estimate(&s, BLOCK, &e), 0);
    assert_false(e.exact);
    assert_true(e.files > TREE_FILES_MAX / 2 && e.files <= TREE_FILES_MAX);
    assert_true(e.dirs > e.files / 20 && e.dirs < e.files);
    assert_true(e.disk > e.bytes);
    assert_true(e.dirs_hw < 0.05 * (double)e.dirs);
}

static void test_refused(void **state)
{
    (void)state;
    struct tree_estimate e;
    struct tree_spec none = {.prof = NULL, .scale = 1, .seed = 1};
    struct tree_spec bad = {.prof = profile_find("tiny"), .scale = -1, .seed = 1};
    struct tree_spec huge = {.prof = profile_find("tiny"), .scale = 1e300, .seed = 1};
    struct tree_spec ok = {.prof = profile_find("tiny"), .scale = 1, .seed = 1};
    err_set_quiet(1);
    assert_int_equal(tree_estimate(&none, BLOCK, &e), -1);
    assert_int_equal(tree_estimate(&bad, BLOCK, &e), -1);
    assert_int_equal(tree_estimate(&huge, BLOCK, &e), -1);
    assert_int_equal(tree_estimate(&ok, 0, &e), -1);
    err_set_quiet(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_tree_exact),
        cmocka_unit_test(test_big_tree_within_intervals),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_largest_tree),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
