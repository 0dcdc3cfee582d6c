/* test_tree.c — unit tests of the synthetic tree generator (tree.c): determinism of
 * names, shape and content, the exact file count, unique names, symlinks that resolve,
 * the entry order and paths, a content pattern shared by several generators, and rejection
 * of bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "tree/profile.h"
#include "tree/tree.h"

#define GOLDEN_TINY 0xd55798d7090ed145ull
#define GOLDEN_KERNEL 0x99bb7802ef6b5bbfull

/* FNV-1a over bytes, then a final mix; good enough to tell listings apart. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t hash_u64(uint64_t h, uint64_t v)
{
    return hash_bytes(h, &v, sizeof v);
}

/* Hashes a whole walk: kinds, depths, names, sizes, modes, targets and, if with_content,
 * every byte each file would hold (data repeated to size). */
static uint64_t spec_hash(const struct tree_spec *s, int with_content)
{
    struct tree_gen *g = tree_open(s);
    assert_non_null(g);
    struct tree_entry e;
    uint64_t h = 0xcbf29ce484222325ull;
    while (tree_next(g, &e)) {
        h = hash_u64(h, e.kind);
        h = hash_u64(h, e.depth);
        h = hash_bytes(h, e.name, strlen(e.name) + 1);
        h = hash_u64(h, e.size);
        h = hash_u64(h, e.mode);
        if (e.target)
            h = hash_bytes(h, e.target, strlen(e.target) + 1);
        if (with_content && e.kind == TREE_FILE) {
            for (uint64_t off = 0; off < e.size; off += e.data_len) {
                uint64_t n = e.size - off < e.data_len ? e.size - off : e.data_len;
                h = hash_bytes(h, e.data, (size_t)n);
            }
        }
    }
    tree_close(g);
    return h;
}

static uint64_t tree_hash(const char *profile, double scale, uint64_t seed, int with_content)
{
    struct tree_spec s = {.prof = profile_find(profile), .scale = scale, .seed = seed};
    return spec_hash(&s, with_content);
}

static void test_same_seed_same_tree(void **state)
{
    (void)state;
    assert_true(tree_hash("tiny", 1, 1, 1) == tree_hash("tiny", 1, 1, 1));
    assert_true(tree_hash("kernel", 0.25, 42, 0) == tree_hash("kernel", 0.25, 42, 0));
    assert_true(tree_hash("mixed", 0.1, 7, 0) == tree_hash("mixed", 0.1, 7, 0));
}

static void test_other_seed_other_tree(void **state)
{
    (void)state;
    assert_true(tree_hash("tiny", 1, 1, 1) != tree_hash("tiny", 1, 2, 1));
    assert_true(tree_hash("tiny", 1, 1, 0) != tree_hash("tiny", 1, 2, 0));
    assert_true(tree_hash("tiny", 1, 1, 0) != tree_hash("tiny", 1.01, 1, 0));
}

/* Known values pin the generator down: the same (profile, scale, seed) must give the same
 * tree on every machine and in every version. A change here changes every stored tree of
 * that profile and must be deliberate (update the constants and say so). */
static void test_golden_hash(void **state)
{
    (void)state;
    assert_int_equal(tree_hash("tiny", 1, 1, 1), GOLDEN_TINY);
    assert_int_equal(tree_hash("kernel", 0.1, 1, 0), GOLDEN_KERNEL);
}

/* A pattern made once and shared through the spec gives every byte a generator's own
 * would; two generators may use it at once. */
static void test_shared_pattern(void **state)
{
    (void)state;
    struct tree_spec s = {.prof = profile_find("tiny"), .scale = 1, .seed = 1};
    unsigned char *pat = tree_pattern_new(s.seed);
    assert_non_null(pat);
    s.pattern = pat;
    struct tree_gen *other = tree_open(&s);
    assert_non_null(other);
    assert_int_equal(spec_hash(&s, 1), GOLDEN_TINY);
    tree_close(other);
    assert_int_equal(spec_hash(&s, 1), GOLDEN_TINY); /* closing one left the pattern alone */
    s.seed = 2; /* the pattern of another seed changes the content, as it must */
    unsigned char *pat2 = tree_pattern_new(2);
    assert_non_null(pat2);
    s.pattern = pat2;
    assert_int_equal(spec_hash(&s, 1), tree_hash("tiny", 1, 2, 1));
    free(pat);
    free(pat2);
}

static void check_count(const char *profile, double scale, uint64_t want)
{
    struct tree_spec s = {.prof = profile_find(profile), .scale = scale, .seed = 3};
    struct tree_totals t;
    assert_int_equal(tree_file_count(&s), want);
    assert_int_equal(tree_measure(&s, &t), 0);
    assert_int_equal(t.files, want);
    uint64_t hist = 0;
    for (int i = 0; i < TREE_HIST_BUCKETS; i++)
        hist += t.size_hist[i];
    assert_int_equal(hist, want);
}

static void test_exact_file_count(void **state)
{
    (void)state;
    check_count("tiny", 1, 1000);
    check_count("tiny", 0.5, 500);
    check_count("tiny", 3, 3000);
    check_count("tiny", 0.0001, 1); /* at least one file */
    check_count("tiny", 0.0123, 12);
    check_count("pkgsrc", 1, 52000);
    check_count("kernel", 0.37, 29600);
    check_count("mixed", 0.05, 1000);
}

/* One open directory of the walk: the names seen in it and which were files. */
struct level {
    char **names;
    int *is_file;
    size_t n, cap;
};

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void level_add(struct level *l, const char *name, int is_file)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->names = realloc(l->names, l->cap * sizeof *l->names);
        l->is_file = realloc(l->is_file, l->cap * sizeof *l->is_file);
        assert_non_null(l->names);
        assert_non_null(l->is_file);
    }
    l->names[l->n] = strdup(name);
    l->is_file[l->n++] = is_file;
}

static int level_has_file(const struct level *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->is_file[i] && strcmp(l->names[i], name) == 0)
            return 1;
    return 0;
}

/* Sorts the level's names, fails on a duplicate, and empties it. */
static void level_close(struct level *l)
{
    qsort(l->names, l->n, sizeof *l->names, name_cmp);
    for (size_t i = 0; i + 1 < l->n; i++)
        if (strcmp(l->names[i], l->names[i + 1]) == 0)
            fail_msg("duplicate name %s", l->names[i]);
    for (size_t i = 0; i < l->n; i++)
        free(l->names[i]);
    l->n = 0;
}

static void check_name(const char *name)
{
    size_t n = strlen(name);
    assert_true(n > 0 && n < 256);
    assert_true(strcmp(name, ".") != 0 && strcmp(name, "..") != 0);
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            fail_msg("bad character in name \"%s\"", name);
    }
}

/* Walks a tree checking the order, depths, paths, names, modes, content fields and
 * symlinks: unique names per directory, and every target is a bare name of a file
 * emitted earlier in the same directory. */
static void check_walk(const char *profile, double scale, uint64_t seed)
{
    struct tree_spec s = {.prof = profile_find(profile), .scale = scale, .seed = seed};
    struct tree_gen *g = tree_open(&s);
    assert_non_null(g);
    struct level lv[TREE_MAX_DEPTH + 2];
    memset(lv, 0, sizeof lv);
    unsigned depth = 0; /* depth of the directory we are in; root 0 */
    uint64_t symlinks = 0;
    struct tree_entry e;
    while (tree_next(g, &e)) {
        const char *path = tree_path(g);
        size_t pl = strlen(path), nl = strlen(e.name);
        assert_true(pl >= nl);
        assert_string_equal(path + pl - nl, e.name);
        unsigned slashes = 0;
        for (size_t i = 0; i < pl; i++)
            slashes += path[i] == '/';
        assert_int_equal(slashes + 1, e.depth);
        if (e.kind == TREE_LEAVE) {
            assert_int_equal(e.depth, depth);
            level_close(&lv[depth]);
            depth--;
            continue;
        }
        assert_int_equal(e.depth, depth + 1);
        check_name(e.name);
        switch (e.kind) {
        case TREE_DIR:
            assert_int_equal(e.mode, 0755);
            level_add(&lv[depth], e.name, 0);
            depth++;
            assert_true(depth <= s.prof->max_depth);
            break;
        case TREE_FILE:
            assert_true(e.mode == 0644 || e.mode == 0755);
            assert_non_null(e.data);
            assert_true(e.data_len > 0 && e.data_len <= TREE_DATA_LEN);
            assert_true(e.data_len ==
                        (e.size < TREE_DATA_LEN ? (e.size ? e.size : 1) : TREE_DATA_LEN));
            level_add(&lv[depth], e.name, 1);
            break;
        case TREE_SYMLINK:
            assert_non_null(e.target);
            assert_null(strchr(e.target, '/'));
            if (!level_has_file(&lv[depth], e.target))
                fail_msg("symlink %s -> %s: no such earlier file", path, e.target);
            level_add(&lv[depth], e.name, 0);
            symlinks++;
            break;
        case TREE_LEAVE:
            break;
        }
    }
    assert_int_equal(depth, 0);
    level_close(&lv[0]);
    for (size_t i = 0; i < sizeof lv / sizeof lv[0]; i++) {
        free(lv[i].names);
        free(lv[i].is_file);
    }
    if (s.prof->symlink_share * (double)tree_file_count(&s) > 20)
        assert_true(symlinks > 0);
    tree_close(g);
}

static void test_walk_tiny(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 5; seed++)
        check_walk("tiny", 1, seed);
    check_walk("tiny", 7, 11);
}

static void test_walk_builtins(void **state)
{
    (void)state;
    check_walk("pkgsrc", 1, 1);
    check_walk("kernel", 1, 1);
    check_walk("mixed", 1, 2);
}

/* Content comes from one seed-derived pattern: files of one tree mostly start at
 * different offsets, and the same file has the same bytes in another walk. */
static void test_content(void **state)
{
    (void)state;
    struct tree_spec s = {.prof = profile_find("tiny"), .scale = 1, .seed = 9};
    struct tree_gen *a = tree_open(&s), *b = tree_open(&s);
    assert_non_null(a);
    assert_non_null(b);
    struct tree_entry ea, eb;
    const void *prev = NULL;
    int same_as_prev = 0, files = 0;
    while (tree_next(a, &ea)) {
        assert_int_equal(tree_next(b, &eb), 1);
        if (ea.kind != TREE_FILE)
            continue;
        files++;
        assert_int_equal(ea.data_len, eb.data_len);
        assert_memory_equal(ea.data, eb.data, ea.data_len);
        same_as_prev += ea.data == prev;
        prev = ea.data;
    }
    assert_int_equal(tree_next(b, &eb), 0);
    assert_true(files == 1000 && same_as_prev < 3);
    tree_close(a);
    tree_close(b);
}

/* The large-file mode has an exact count: floor(N * share + phase), phase in [0, 1). */
static void test_large_count(void **state)
{
    (void)state;
    const struct profile *p = profile_find("mixed");
    for (uint64_t seed = 1; seed <= 4; seed++) {
        struct tree_spec s = {.prof = p, .scale = 2, .seed = seed};
        struct tree_gen *g = tree_open(&s);
        assert_non_null(g);
        struct tree_entry e;
        uint64_t large = 0;
        while (tree_next(g, &e))
            large += e.kind == TREE_FILE && e.size > p->size_max;
        tree_close(g);
        double want = floor((double)tree_file_count(&s) * p->large_share);
        assert_true((double)large >= want && (double)large <= want + 1);
    }
}

static void test_bad_input(void **state)
{
    (void)state;
    err_set_quiet(1);
    struct tree_spec s = {.prof = NULL, .scale = 1, .seed = 1};
    assert_null(tree_open(&s));
    assert_null(tree_open(NULL));
    s.prof = profile_find("tiny");
    s.scale = 0;
    assert_null(tree_open(&s));
    assert_int_equal(tree_file_count(&s), 0);
    s.scale = -1;
    assert_null(tree_open(&s));
    s.scale = NAN;
    assert_null(tree_open(&s));
    s.scale = 1e30;
    assert_null(tree_open(&s));
    struct profile bad = *profile_find("tiny");
    bad.max_depth = TREE_MAX_DEPTH + 1;
    s.prof = &bad;
    s.scale = 1;
    assert_null(tree_open(&s));
    struct tree_totals t;
    assert_int_equal(tree_measure(&s, &t), -1);
    err_set_quiet(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_tree),
        cmocka_unit_test(test_other_seed_other_tree),
        cmocka_unit_test(test_golden_hash),
        cmocka_unit_test(test_shared_pattern),
        cmocka_unit_test(test_exact_file_count),
        cmocka_unit_test(test_walk_tiny),
        cmocka_unit_test(test_walk_builtins),
        cmocka_unit_test(test_content),
        cmocka_unit_test(test_large_count),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
