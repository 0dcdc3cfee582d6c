/* test_ageprof.c — unit tests of tree/ageprof.c and tree/ageprof_builtin.c: a profile file
 * is read into normalised buckets; every kind of bad input gives one "FILE:LINE: ..." (or
 * "FILE: ..." for what the whole file lacks); what ageprof_write writes reads back the
 * same; every built-in profile is well formed and names its source; the distance of a
 * histogram from a profile is the largest |current - target| of any bucket, and says where.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "tree/ageprof.h"

static const char good[] = "# a test profile\n"
                           "[profile]\n"
                           "name = t1\n"
                           "source = nowhere\n"
                           "utilization = 0.6\n"
                           "fanout = 5\n"
                           "files-per-dir = 20\n"
                           "turnover = 12h\n"
                           "[sizes]\n"
                           "0 = 10\n"
                           "4K = 30\n"
                           "1M = 60\n"
                           "[ages]\n"
                           "0 = 1\n"
                           "1d = 1\n"
                           "[depths]\n"
                           "1 = 3\n"
                           "3 = 1\n"
                           "[mix]\n"
                           "create = 50\n"
                           "delete = 25\n"
                           "overwrite = 25\n";

static void test_parse_good(void **state)
{
    (void)state;
    struct ageprof p;
    assert_int_equal(ageprof_parse_text("t1.ini", good, &p), 0);
    assert_string_equal(p.name, "t1");
    assert_string_equal(p.source, "nowhere");
    assert_true(fabs(p.utilization - 0.6) < 1e-12);
    assert_int_equal(p.fanout, 5);
    assert_int_equal(p.files_per_dir, 20);
    assert_int_equal(p.turnover_s, 12 * 3600);
    assert_int_equal(p.dist[AGEPROF_SIZE].n, 3);
    assert_int_equal(p.dist[AGEPROF_SIZE].lo[1], 4096);
    assert_int_equal(p.dist[AGEPROF_SIZE].lo[2], 1048576);
    assert_true(fabs(p.dist[AGEPROF_SIZE].share[2] - 0.6) < 1e-12);
    assert_int_equal(p.dist[AGEPROF_AGE].lo[1], 86400);
    assert_true(fabs(p.dist[AGEPROF_DEPTH].share[0] - 0.75) < 1e-12);
    assert_true(fabs(p.mix[AGEPROF_CREATE] - 0.5) < 1e-12);
    assert_true(fabs(p.mix[AGEPROF_APPEND]) < 1e-12);
    /* buckets: [0,4K) [4K,1M) [1M,...) */
    assert_int_equal(ageprof_bucket(&p.dist[AGEPROF_SIZE], 0), 0);
    assert_int_equal(ageprof_bucket(&p.dist[AGEPROF_SIZE], 4095), 0);
    assert_int_equal(ageprof_bucket(&p.dist[AGEPROF_SIZE], 4096), 1);
    assert_int_equal(ageprof_bucket(&p.dist[AGEPROF_SIZE], 1u << 30), 2);
}

/* Parses text and expects failure with exactly msg. */
static void expect_error(const char *text, const char *msg)
{
    char got[512];
    struct ageprof p;
    err_capture_begin(got, sizeof got);
    int rc = ageprof_parse_text("p.ini", text, &p);
    err_capture_end();
    assert_int_equal(rc, -1);
    if (!strstr(got, msg))
        fail_msg("expected \"%s\" in \"%s\"", msg, got);
}

#define TAIL "[ages]\n0 = 1\n[depths]\n1 = 1\n[mix]\ncreate = 1\n"

static void test_parse_errors(void **state)
{
    (void)state;
    expect_error("[profile]\nname = x\nspeed = 3\n", "p.ini:3: unknown key 'speed' in [profile]");
    expect_error("[profile]\nname = x\n[colours]\nred = 1\n", "p.ini:4: unknown section [colours]");
    expect_error("[profile]\nname = x\n[sizes]\n0 = 1\nfour = 2\n",
                 "p.ini:5: [sizes]: 'four' is not a bucket's lower bound");
    expect_error("[profile]\nname = x\n[sizes]\n0 = 1\n8K = 1\n4K = 1\n",
                 "p.ini:6: [sizes]: bucket '4K' is not above the one before it");
    expect_error("[profile]\nname = x\n[sizes]\n0 = -3\n", "p.ini:4: [sizes]: 0: '-3' is not");
    expect_error("[profile]\nname = x\nutilization = 1.5\n", "p.ini:3: utilization: '1.5'");
    expect_error("[profile]\nname = x\n[ages]\n0 = 1\n3w = 1\n", "p.ini:5: [ages]: '3w'");
    expect_error("[profile]\nname = x\n[mix]\nfsync = 3\n", "p.ini:4: unknown operation 'fsync'");
    expect_error("[profile]\nname = x\n[mix]\ncreate = 1\ncreate = 2\n",
                 "p.ini:5: 'create' given twice");
    expect_error("[profile]\nname = x\nthis is no line\n", "p.ini:3: expected '[section]'");
    expect_error("[profile]\nname = x\n" TAIL, "p.ini: no [sizes] section");
    expect_error("[sizes]\n0 = 1\n" TAIL, "p.ini: no [profile] section with a name");
    expect_error("[profile]\nname = x\n[sizes]\n1K = 1\n" TAIL,
                 "p.ini: [sizes]: the first bucket must start at 0");
    expect_error("[profile]\nname = x\n[sizes]\n0 = 0\n" TAIL,
                 "p.ini: [sizes]: the shares add up to 0");
    expect_error("[profile]\nname = x\n[sizes]\n0 = 1\n[ages]\n0 = 1\n[depths]\n1 = 1\n"
                 "[mix]\ndelete = 1\n",
                 "p.ini: [mix]: create must have a share above 0");
}

static void test_load_names(void **state)
{
    (void)state;
    struct ageprof p;
    char got[512];
    assert_int_equal(ageprof_load("smallfiles", &p), 0);
    assert_string_equal(p.name, "smallfiles");
    err_capture_begin(got, sizeof got);
    assert_int_equal(ageprof_load("nosuch", &p), -1);
    err_capture_end();
    assert_non_null(strstr(got, "'nosuch' is neither a built-in profile (agrawal, smallfiles"));
    err_capture_begin(got, sizeof got);
    assert_int_equal(ageprof_load("/nonexistent/p.ini", &p), -1);
    err_capture_end();
    assert_non_null(strstr(got, "cannot open /nonexistent/p.ini"));
}

static void test_builtins_well_formed(void **state)
{
    (void)state;
    size_t n = 0;
    for (size_t i = 0; ageprof_builtins[i]; i++, n++) {
        const struct ageprof *p = ageprof_builtins[i];
        assert_true(p->source[0] != '\0');
        assert_true(p->utilization > 0 && p->utilization < 1);
        for (unsigned d = 0; d < AGEPROF_DIMS; d++) {
            double sum = 0;
            assert_true(p->dist[d].n >= 1 && p->dist[d].n <= AGEPROF_BUCKETS);
            assert_int_equal(p->dist[d].lo[0], d == AGEPROF_DEPTH ? 1 : 0);
            for (unsigned b = 0; b < p->dist[d].n; b++) {
                sum += p->dist[d].share[b];
                if (b)
                    assert_true(p->dist[d].lo[b] > p->dist[d].lo[b - 1]);
            }
            assert_true(fabs(sum - 1) < 1e-9);
        }
        double sum = 0;
        for (unsigned o = 0; o < AGEPROF_OPS; o++)
            sum += p->mix[o];
        assert_true(fabs(sum - 1) < 1e-9);
    }
    assert_true(n >= 3);
}

/* What ageprof_write writes reads back as the same profile. */
static void test_write_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; ageprof_builtins[i]; i++) {
        const struct ageprof *p = ageprof_builtins[i];
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        assert_int_equal(ageprof_write(p, f), 0);
        fclose(f);
        struct ageprof q;
        assert_int_equal(ageprof_parse_text("rt.ini", buf, &q), 0);
        free(buf);
        assert_string_equal(q.name, p->name);
        assert_int_equal(q.turnover_s, p->turnover_s);
        for (unsigned d = 0; d < AGEPROF_DIMS; d++) {
            assert_int_equal(q.dist[d].n, p->dist[d].n);
            for (unsigned b = 0; b < p->dist[d].n; b++) {
                assert_int_equal(q.dist[d].lo[b], p->dist[d].lo[b]);
                assert_true(fabs(q.dist[d].share[b] - p->dist[d].share[b]) < 1e-5);
            }
        }
    }
}

static void test_distance(void **state)
{
    (void)state;
    struct ageprof p;
    assert_int_equal(ageprof_parse_text("t1.ini", good, &p), 0);
    struct ageprof_hist h = {0};
    struct ageprof_distance d;
    ageprof_distance(&p, &h, &d);
    assert_true(d.max_abs == 1); /* no files: as far as can be */
    /* 100 files exactly on the profile: distance 0 */
    h.files = 100;
    h.count[AGEPROF_SIZE][0] = 10, h.count[AGEPROF_SIZE][1] = 30, h.count[AGEPROF_SIZE][2] = 60;
    h.count[AGEPROF_AGE][0] = 50, h.count[AGEPROF_AGE][1] = 50;
    h.count[AGEPROF_DEPTH][0] = 75, h.count[AGEPROF_DEPTH][1] = 25;
    ageprof_distance(&p, &h, &d);
    assert_true(d.max_abs < 1e-12);
    /* three files move from ages 1d to ages 0: +3 % and -3 %, the worst is found */
    h.count[AGEPROF_AGE][0] = 53, h.count[AGEPROF_AGE][1] = 47;
    h.count[AGEPROF_SIZE][1] = 31, h.count[AGEPROF_SIZE][2] = 59;
    ageprof_distance(&p, &h, &d);
    assert_true(fabs(d.max_abs - 0.03) < 1e-12);
    assert_int_equal(d.worst_dim, AGEPROF_AGE);
    assert_int_equal(d.worst_bucket, 0);
    assert_true(fabs(d.diff[AGEPROF_AGE][1] + 0.03) < 1e-12);
    assert_true(fabs(d.dim_max[AGEPROF_SIZE] - 0.01) < 1e-12);
    assert_true(fabs(d.dim_max[AGEPROF_DEPTH]) < 1e-12);
}

static void test_labels(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(ageprof_bucket_label(AGEPROF_SIZE, 0, b, sizeof b), "0");
    assert_string_equal(ageprof_bucket_label(AGEPROF_SIZE, 512, b, sizeof b), "512");
    assert_string_equal(ageprof_bucket_label(AGEPROF_SIZE, 8192, b, sizeof b), "8K");
    assert_string_equal(ageprof_bucket_label(AGEPROF_SIZE, 3u << 20, b, sizeof b), "3M");
    assert_string_equal(ageprof_bucket_label(AGEPROF_AGE, 0, b, sizeof b), "0s");
    assert_string_equal(ageprof_bucket_label(AGEPROF_AGE, 7 * 86400, b, sizeof b), "7d");
    assert_string_equal(ageprof_bucket_label(AGEPROF_AGE, 365 * 86400, b, sizeof b), "1y");
    assert_string_equal(ageprof_bucket_label(AGEPROF_AGE, 90, b, sizeof b), "90s");
    assert_string_equal(ageprof_bucket_label(AGEPROF_DEPTH, 4, b, sizeof b), "4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good),       cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_load_names),       cmocka_unit_test(test_builtins_well_formed),
        cmocka_unit_test(test_write_round_trip), cmocka_unit_test(test_distance),
        cmocka_unit_test(test_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
