/* test_cb_listing.c — unit tests of src/phase/cb_listing.c: compilebench's listing format
 * parsed (and hostile listings refused with file:line), the four listings reduced to what
 * each operation writes as compilebench does, and the built-in model's totals.
 */
#include "testutil.h"

#include "base/err.h"
#include "phase/cb_listing.h"
#include "phase/cb_rand.h"
#include "tree/profile.h"

static int parse(const char *text, struct cb_listing *l)
{
    memset(l, 0, sizeof *l);
    return cb_listing_parse(text, strlen(text), "x/dataset-unpatched", l);
}

static void test_parse(void **state)
{
    (void)state;
    struct cb_listing l;
    assert_int_equal(parse("b/c.c 10\na.c\t5\r\n\n  b/a.h   0\nb/c.c 12", &l), 0);
    assert_int_equal(l.n, 3);
    assert_string_equal(cb_path(&l, 0), "a.c");
    assert_int_equal(l.e[0].size, 5);
    assert_string_equal(cb_path(&l, 1), "b/a.h");
    assert_int_equal(l.e[1].size, 0);
    assert_string_equal(cb_path(&l, 2), "b/c.c");
    assert_int_equal(l.e[2].size, 12); /* a later line replaces an earlier one */
    assert_int_equal(l.e[2].line, 5);
    assert_int_equal(cb_listing_find(&l, "b/a.h"), 1);
    assert_int_equal(cb_listing_find(&l, "b/zz"), (size_t)-1);
    cb_listing_free(&l);
}

/* Each bad listing: refused, the message naming file:line and what. */
static void refused(const char *text, const char *want)
{
    struct cb_listing l;
    char msg[512] = "";
    err_capture_begin(msg, sizeof msg);
    int rc = parse(text, &l);
    err_capture_end();
    cb_listing_free(&l);
    if (rc != -1 || !strstr(msg, want))
        fail_msg("'%s': rc %d, message '%s', want '%s'", text, rc, msg, want);
}

static void test_hostile(void **state)
{
    (void)state;
    refused("a.c 1\n../etc/passwd 5\n", "x/dataset-unpatched:2: '../etc/passwd' is not a relative");
    refused("/etc/passwd 5\n", ":1: '/etc/passwd' is not a relative");
    refused("a/../../b 5\n", ":1:");
    refused("a/./b 5\n", ":1:");
    refused("a//b 5\n", ":1:");
    refused("a/ 5\n", ":1:");
    refused("a\x1b[2J 5\n", ":1:");
    refused("a.c\n", ":1: expected 'path size'");
    refused("a.c 5 6\n", ":1: expected 'path size'");
    refused("a.c -5\n", ":1: size '-5' is not a whole number");
    refused("a.c 5k\n", "is not a whole number");
    refused("a.c 99999999999999999999999\n", "over the limit");
    char nul[] = "a 1\nb\0 2\n";
    struct cb_listing l = {0};
    char msg[256] = "";
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(cb_listing_parse(nul, sizeof nul - 1, "f", &l), -1);
    err_capture_end();
    assert_non_null(strstr(msg, "f:2: a NUL byte"));
    cb_listing_free(&l);
    /* a name of 256 bytes */
    char longname[300];
    memset(longname, 'n', 256);
    snprintf(longname + 256, sizeof longname - 256, " 1\n");
    refused(longname, ":1:");
    assert_true(cb_path_ok("a/b/c.c", 7));
    assert_false(cb_path_ok("..", 2));
    assert_false(cb_path_ok("", 0));
}

static void add(struct cb_listing *l, const char *p, uint64_t size)
{
    assert_int_equal(cb_listing_add(l, p, strlen(p), size, 1), 0);
}

/* The reduction keeps what compilebench keeps. */
static void test_reduce(void **state)
{
    (void)state;
    struct cb_dataset d = {0};
    add(&d.l[CB_LIST_CLEAN], "a.c", 10);
    add(&d.l[CB_LIST_CLEAN], "d/b.c", 20);
    add(&d.l[CB_LIST_PATCH], "a.c", 10);   /* unchanged: dropped */
    add(&d.l[CB_LIST_PATCH], "d/b.c", 25); /* changed: kept */
    add(&d.l[CB_LIST_PATCH], "d/n.c", 7);  /* new: kept */
    add(&d.l[CB_LIST_OBJS], "a.c", 10);    /* a source: dropped */
    add(&d.l[CB_LIST_OBJS], "a.o", 100);
    add(&d.l[CB_LIST_OBJS], "d/b.o", 200);
    add(&d.l[CB_LIST_PATCH_OBJS], "d/n.c", 7); /* of the patched tree: dropped */
    add(&d.l[CB_LIST_PATCH_OBJS], "a.o", 100); /* as compiled before: dropped */
    add(&d.l[CB_LIST_PATCH_OBJS], "d/b.o", 210);
    add(&d.l[CB_LIST_PATCH_OBJS], "d/n.o", 70);
    for (int k = 0; k < CB_LISTS; k++)
        cb_listing_sort(&d.l[k]);
    assert_int_equal(cb_dataset_reduce(&d, "x"), 0);
    assert_int_equal(d.l[CB_LIST_CLEAN].n, 2);
    assert_int_equal(d.l[CB_LIST_PATCH].n, 2);
    assert_string_equal(cb_path(&d.l[CB_LIST_PATCH], 0), "d/b.c");
    assert_int_equal(d.l[CB_LIST_OBJS].n, 2);
    assert_int_equal(d.l[CB_LIST_PATCH_OBJS].n, 2);
    assert_string_equal(cb_path(&d.l[CB_LIST_PATCH_OBJS], 0), "d/b.o");
    assert_string_equal(cb_path(&d.l[CB_LIST_PATCH_OBJS], 1), "d/n.o");
    assert_int_equal(d.bytes[CB_LIST_CLEAN], 30);
    assert_int_equal(d.bytes[CB_LIST_PATCH_OBJS], 280);
    cb_dataset_free(&d);

    /* a file that another entry needs as a directory */
    add(&d.l[CB_LIST_CLEAN], "a", 1);
    add(&d.l[CB_LIST_OBJS], "a/b.o", 1);
    for (int k = 0; k < CB_LISTS; k++)
        cb_listing_sort(&d.l[k]);
    char msg[256] = "";
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(cb_dataset_reduce(&d, "x"), -1);
    err_capture_end();
    assert_non_null(strstr(msg, "x/dataset-unpatched-compiled:1: 'a/b.o' lies below 'a'"));
    cb_dataset_free(&d);
}

/* The four files from a directory; a missing one is named. */
static void test_load(void **state)
{
    (void)state;
    char dir[256];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "cblist"));
    static const char *const text[CB_LISTS] = {"k/a.c 100\nk/b.h 50\n", "k/a.c 120\n",
                                               "k/a.c 100\nk/a.o 900\n", "k/a.c 120\nk/a.o 950\n"};
    char msg[512] = "";
    struct cb_dataset d;
    for (int k = 0; k < CB_LISTS; k++) {
        err_capture_begin(msg, sizeof msg);
        assert_int_equal(cb_dataset_load(dir, &d), -1);
        err_capture_end();
        assert_non_null(strstr(msg, cb_listing_files[k]));
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, cb_listing_files[k]);
        FILE *f = fopen(p, "w");
        assert_non_null(f);
        fputs(text[k], f);
        fclose(f);
    }
    assert_int_equal(cb_dataset_load(dir, &d), 0);
    assert_int_equal(d.l[CB_LIST_CLEAN].n, 2);
    assert_int_equal(d.l[CB_LIST_PATCH].n, 1);
    assert_int_equal(d.l[CB_LIST_OBJS].n, 1);
    assert_int_equal(d.l[CB_LIST_PATCH_OBJS].n, 1);
    assert_int_equal(d.bytes[CB_LIST_PATCH_OBJS], 950);
    cb_dataset_free(&d);
    tu_rm_tree(dir);
}

/* The model at compilebench's scale: 2.6.20's files and bytes, and compile and patch in
 * the ratios of its listings (compile about 3 times the clean bytes, patch about half). */
static void test_model(void **state)
{
    (void)state;
    struct tree_spec spec = {.prof = profile_find("kernel"), .scale = 0.266, .seed = 1};
    struct cb_dataset d;
    assert_int_equal(cb_dataset_model(&spec, &d), 0);
    print_message("model: clean %zu files %llu B, patch %zu %llu, objs %zu %llu, patched objs "
                  "%zu %llu\n",
                  d.l[0].n, (unsigned long long)d.bytes[0], d.l[1].n,
                  (unsigned long long)d.bytes[1], d.l[2].n, (unsigned long long)d.bytes[2],
                  d.l[3].n, (unsigned long long)d.bytes[3]);
    assert_int_equal(d.l[CB_LIST_CLEAN].n, 21280);
    assert_true(d.bytes[CB_LIST_CLEAN] > 232000000 && d.bytes[CB_LIST_CLEAN] < 234500000);
    double objs = (double)d.bytes[CB_LIST_OBJS] / (double)d.bytes[CB_LIST_CLEAN];
    double patch = (double)d.bytes[CB_LIST_PATCH] / (double)d.bytes[CB_LIST_CLEAN];
    assert_true(objs > 2.0 && objs < 4.5);
    assert_true(patch > 0.25 && patch < 0.75);
    assert_true(d.l[CB_LIST_OBJS].n > 1500 && d.l[CB_LIST_OBJS].n < 5000);
    assert_true(d.l[CB_LIST_PATCH].n > 3000 && d.l[CB_LIST_PATCH].n < 9000);
    assert_true(d.l[CB_LIST_PATCH_OBJS].n > 1000);
    for (int k = 0; k < CB_LISTS; k++)
        for (size_t i = 0; i < d.l[k].n; i++)
            assert_true(cb_path_ok(cb_path(&d.l[k], i), strlen(cb_path(&d.l[k], i))));
    /* the same spec, the same listings */
    struct cb_dataset d2;
    assert_int_equal(cb_dataset_model(&spec, &d2), 0);
    for (int k = 0; k < CB_LISTS; k++)
        assert_int_equal(d.bytes[k], d2.bytes[k]);
    cb_dataset_free(&d);
    cb_dataset_free(&d2);
}

/* compilebench's random numbers: Python's random.Random(555) gives getrandbits(32) 830411535,
 * 1179161746, 691729750; randrange(7) x10 1 2 1 1 4 5 0 1 2 3, then randint(100, 100000)
 * 25261 and choice(range(1)) 0; shuffle of 0..9 [5, 7, 9, 6, 0, 8, 1, 2, 4, 3]. */
static void test_rand(void **state)
{
    (void)state;
    struct cb_rand r;
    cb_rand_seed(&r, 555);
    assert_int_equal(cb_rand_u32(&r), 830411535u);
    assert_int_equal(cb_rand_u32(&r), 1179161746u);
    assert_int_equal(cb_rand_u32(&r), 691729750u);
    cb_rand_seed(&r, 555);
    static const unsigned want[10] = {1, 2, 1, 1, 4, 5, 0, 1, 2, 3};
    for (int i = 0; i < 10; i++)
        assert_int_equal(cb_rand_below(&r, 7), want[i]);
    assert_int_equal(100 + cb_rand_below(&r, 99901), 25261);
    assert_int_equal(cb_rand_below(&r, 1), 0);
    cb_rand_seed(&r, 555);
    unsigned x[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, sh[10] = {5, 7, 9, 6, 0, 8, 1, 2, 4, 3};
    for (unsigned i = 9; i >= 1; i--) {
        unsigned j = cb_rand_below(&r, i + 1), t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
    assert_memory_equal(x, sh, sizeof x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse), cmocka_unit_test(test_hostile), cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_load),  cmocka_unit_test(test_model),   cmocka_unit_test(test_rand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
