/* test_profile.c — unit tests of the built-in profiles (profile.c): every profile is
 * valid and findable, profile_check() rejects bad parameters, and the trees they generate
 * match their stated statistics within stated tolerances.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "tree/profile.h"
#include "tree/tree.h"

static void test_builtins_valid(void **state)
{
    (void)state;
    size_t n = 0;
    for (const struct profile *p = profile_builtin; p->name; p++, n++) {
        assert_int_equal(profile_check(p), 0);
        assert_non_null(p->summary);
        assert_non_null(p->source);
        assert_true(strlen(p->summary) > 10 && strlen(p->source) > 10);
        assert_true(p->files > 0);
        assert_true(p->size_min <= p->size_max);
        assert_true(p->size_sigma > 0 && p->size_sigma < 3);
        assert_true(p->max_depth >= 1 && p->max_depth <= TREE_MAX_DEPTH);
        assert_true(p->files_per_dir_mean >= 1 && p->subdirs_mean >= 1);
        assert_ptr_equal(profile_find(p->name), p);
    }
    assert_true(n >= 4);
    assert_non_null(profile_find("pkgsrc"));
    assert_non_null(profile_find("kernel"));
    assert_non_null(profile_find("mixed"));
    assert_non_null(profile_find("tiny"));
}

static void test_find_unknown(void **state)
{
    (void)state;
    assert_null(profile_find("no-such-profile"));
    assert_null(profile_find(""));
    assert_null(profile_find(NULL));
    assert_null(profile_find("Kernel"));
}

static void test_check_rejects(void **state)
{
    (void)state;
    static const char *const bad_template[] = {"patch*", NULL};
    static const char *const bad_suffix[] = {"c", NULL};
    static const char *const prefix_templates[] = {"a-*", "a-b-*", NULL};
    static const struct profile_name bad_fixed[] = {{"Make_file", 1}, {NULL, 0}};
    static const struct profile_name dup_fixed[] = {{"A", 1}, {"A", 1}, {NULL, 0}};
    const struct profile *tiny = profile_find("tiny");
    struct profile p;

    err_set_quiet(1);
    assert_int_equal(profile_check(NULL), -1);
    p = *tiny;
    p.files = 0;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.source = NULL;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.size_sigma = -1;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.size_min = 10;
    p.size_max = 5;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.large_share = 0.1;
    p.large_max = 0;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.files_per_dir_mean = 0;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.symlink_share = 1;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.name_len_min = 2;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.suffixes = bad_template;
    p.suffix_weights = NULL;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.suffixes = bad_suffix;
    p.suffix_weights = NULL;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.suffixes = prefix_templates;
    p.suffix_weights = NULL;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.fixed_names = bad_fixed;
    assert_int_equal(profile_check(&p), -1);
    p = *tiny;
    p.fixed_names = dup_fixed;
    assert_int_equal(profile_check(&p), -1);
    err_set_quiet(0);
}

/* Stated ranges at scale 1, checked over three seeds. Tolerances: the numbers of a real
 * tree the profile imitates, with room for seed-to-seed variation (a few per cent for
 * bytes, ~10% for directory counts). */
struct expect {
    const char *name;
    double bytes_lo, bytes_hi;
    double fpd_lo, fpd_hi; /* realised mean files per directory */
    unsigned depth_lo;     /* the deepest entry reaches at least this */
};

static const struct expect expected[] = {
    {"pkgsrc", 0.10e9, 0.20e9, 3.5, 7.0, 4},
    {"kernel", 1.0e9, 1.4e9, 13.0, 20.0, 7},
    {"mixed", 0.5e9, 2147483648.0, 8.0, 16.0, 5},
    {"tiny", 1e6, 16e6, 6.0, 16.0, 3},
};

static void test_totals_in_range(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const struct expect *x = &expected[i];
        const struct profile *p = profile_find(x->name);
        assert_non_null(p);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            struct tree_spec s = {.prof = p, .scale = 1, .seed = seed};
            struct tree_totals t;
            assert_int_equal(tree_measure(&s, &t), 0);
            assert_int_equal(t.files, p->files);
            double fpd = (double)t.files / (double)(t.dirs + 1); /* + the root */
            if (!((double)t.bytes >= x->bytes_lo && (double)t.bytes <= x->bytes_hi))
                fail_msg("%s seed %llu: %llu bytes outside [%g, %g]", x->name,
                         (unsigned long long)seed, (unsigned long long)t.bytes, x->bytes_lo,
                         x->bytes_hi);
            if (!(fpd >= x->fpd_lo && fpd <= x->fpd_hi))
                fail_msg("%s seed %llu: %.1f files per directory outside [%g, %g]", x->name,
                         (unsigned long long)seed, fpd, x->fpd_lo, x->fpd_hi);
            assert_true(t.max_depth >= x->depth_lo && t.max_depth <= p->max_depth + 1);
            assert_true(t.max_file_size <= (p->large_share > 0 ? p->large_max : p->size_max));
        }
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The sample median of file sizes is within 10% of the median the parameters give:
 * exp(mu + sigma * Pinv(middle of the truncated range)), i.e. exp(mu) when the
 * truncation is negligible. Over 52,000-80,000 files the sampling error is ~1%. */
static void check_median(const char *name, uint64_t seed)
{
    const struct profile *p = profile_find(name);
    struct tree_spec s = {.prof = p, .scale = 1, .seed = seed};
    uint64_t n = tree_file_count(&s), k = 0;
    uint64_t *sizes = malloc(n * sizeof *sizes);
    assert_non_null(sizes);
    struct tree_gen *g = tree_open(&s);
    assert_non_null(g);
    struct tree_entry e;
    while (tree_next(g, &e))
        if (e.kind == TREE_FILE)
            sizes[k++] = e.size;
    tree_close(g);
    assert_int_equal(k, n);
    qsort(sizes, n, sizeof *sizes, cmp_u64);
    double median =
        n % 2 ? (double)sizes[n / 2] : 0.5 * ((double)sizes[n / 2 - 1] + (double)sizes[n / 2]);
    double lo = p->size_min
                    ? gsl_cdf_ugaussian_P((log((double)p->size_min) - p->size_mu) / p->size_sigma)
                    : 0;
    double hi = gsl_cdf_ugaussian_P((log((double)p->size_max) - p->size_mu) / p->size_sigma);
    double want = exp(p->size_mu + p->size_sigma * gsl_cdf_ugaussian_Pinv(0.5 * (lo + hi)));
    if (fabs(median / want - 1) > 0.10)
        fail_msg("%s: median %.0f, expected %.0f +- 10%%", name, median, want);
    free(sizes);
}

static void test_size_median(void **state)
{
    (void)state;
    check_median("kernel", 1);
    check_median("kernel", 2);
    check_median("pkgsrc", 1);
    check_median("mixed", 1);
}

/* Scaling keeps the shape: kernel at scale 3 has about the same files per directory and
 * bytes per file as at scale 1 (within 15%), and stays within its depth. */
static void test_scaling_keeps_shape(void **state)
{
    (void)state;
    const struct profile *p = profile_find("kernel");
    struct tree_spec s1 = {.prof = p, .scale = 1, .seed = 5}, s3 = {.prof = p, .scale = 3, .seed = 5};
    struct tree_totals a, b;
    assert_int_equal(tree_measure(&s1, &a), 0);
    assert_int_equal(tree_measure(&s3, &b), 0);
    double fa = (double)a.files / (double)a.dirs, fb = (double)b.files / (double)b.dirs;
    double ma = (double)a.bytes / (double)a.files, mb = (double)b.bytes / (double)b.files;
    assert_true(fabs(fb / fa - 1) < 0.15);
    assert_true(fabs(mb / ma - 1) < 0.15);
    assert_true(b.max_depth <= p->max_depth + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtins_valid), cmocka_unit_test(test_find_unknown),
        cmocka_unit_test(test_check_rejects),  cmocka_unit_test(test_totals_in_range),
        cmocka_unit_test(test_size_median),    cmocka_unit_test(test_scaling_keeps_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
