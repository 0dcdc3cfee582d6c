/* test_stall.c — stall detection on synthetic time lines (measure/stall.h): zero progress,
 * slow progress under 5 % of the median, the --stall threshold, a late sampler (the whole
 * process stopped), device activity during a stall, and phases too short to judge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure/stall.h"

#define MAXP 512

/* A time line sampled every 0.1 s at `rate` ops per interval, with rates[] overriding
 * the intervals given (index = interval). */
struct tl {
    struct timeline_point p[MAXP];
    size_t n;
};

static void tl_make(struct tl *t, size_t intervals, uint64_t rate)
{
    memset(t, 0, sizeof *t);
    t->n = intervals + 1;
    for (size_t i = 1; i < t->n; i++) {
        t->p[i].t = (double)i * 0.1;
        t->p[i].ops = t->p[i - 1].ops + rate;
        t->p[i].dev_wr_sectors = t->p[i - 1].dev_wr_sectors + 8;
        t->p[i].dev_busy_ms = t->p[i - 1].dev_busy_ms + 10;
    }
}

/* Sets intervals [from, to) to `ops` ops each (and re-accumulates the rest). */
static void tl_set(struct tl *t, size_t from, size_t to, uint64_t ops, uint64_t busy_ms)
{
    uint64_t base = 1000;
    for (size_t i = 1; i < t->n; i++) {
        bool in = i - 1 >= from && i - 1 < to;
        t->p[i].ops = t->p[i - 1].ops + (in ? ops : base);
        t->p[i].dev_busy_ms = t->p[i - 1].dev_busy_ms + (in ? busy_ms : 10);
        t->p[i].dev_wr_sectors = t->p[i - 1].dev_wr_sectors + (in && !busy_ms ? 0 : 8);
    }
}

static void test_no_stall(void **state)
{
    struct tl t;
    tl_make(&t, 100, 1000);
    struct stall *s;
    size_t n;
    assert_int_equal(stall_find(t.p, t.n, true, 1.0, 0.05, &s, &n), 0);
    assert_int_equal(n, 0);
    assert_null(s);
}

static void test_zero_progress(void **state)
{
    struct tl t;
    tl_make(&t, 100, 1000);
    tl_set(&t, 30, 45, 0, 100); /* 1.5 s with no progress, device busy */
    struct stall *s;
    size_t n;
    assert_int_equal(stall_find(t.p, t.n, true, 1.0, 0.05, &s, &n), 0);
    assert_int_equal(n, 1);
    assert_true(s[0].start_s > 2.99 && s[0].start_s < 3.01);
    assert_true(s[0].length_s > 1.49 && s[0].length_s < 1.51);
    assert_int_equal(s[0].ops, 0);
    assert_int_equal(s[0].dev_busy_ms, 1500);
    assert_true(stall_device_busy(&s[0]));
    free(s);
}

static void test_slow_and_threshold(void **state)
{
    struct tl t;
    tl_make(&t, 200, 1000);
    tl_set(&t, 20, 32, 40, 0); /* 1.2 s at 4 %: a stall, device idle */
    struct stall *s;
    size_t n;
    assert_int_equal(stall_find(t.p, t.n, true, 1.0, 0.05, &s, &n), 0);
    assert_int_equal(n, 1);
    assert_true(s[0].length_s > 1.19 && s[0].length_s < 1.21);
    assert_int_equal(s[0].ops, 12 * 40);
    assert_false(stall_device_busy(&s[0]));
    free(s);
    /* 6 % of the median is progress, not a stall */
    tl_set(&t, 20, 32, 60, 0);
    assert_int_equal(stall_find(t.p, t.n, true, 1.0, 0.05, &s, &n), 0);
    assert_int_equal(n, 0);
    /* shorter than --stall: not listed; a lower --stall lists it */
    tl_set(&t, 20, 25, 0, 0);
    assert_int_equal(stall_find(t.p, t.n, true, 1.0, 0.05, &s, &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(stall_find(t.p, t.n, true, 0.5, 0.05, &s, &n), 0);
    assert_int_equal(n, 1);
    free(s);
}

static void test_several(void **state)
{
    struct tl t;
    tl_make(&t, 300, 1000);
    for (size_t i = 1; i < t.n; i++) {
        size_t k = i - 1;
        bool stalled = (k >= 50 && k < 62) || (k >= 100 && k < 130) || (k >= 200 && k < 205);
        t.p[i].ops = t.p[i - 1].ops + (stalled ? 0 : 1000);
    }
    struct stall *s;
    size_t n;
    assert_int_equal(stall_find(t.p, t.n, false, 1.0, 0.05, &s, &n), 0);
    assert_int_equal(n, 2); /* the 0.5 s one is too short */
    assert_true(s[0].start_s > 4.99 && s[0].start_s < 5.01 && s[0].length_s > 1.19);
    assert_true(s[1].start_s > 9.99 && s[1].length_s > 2.99 && s[1].length_s < 3.01);
    assert_int_equal(s[1].dev_busy_ms, 0); /* no device: nothing copied */
    free(s);
}

static void test_late_sampler(void **state)
{
    /* the process was stopped for 2 s: one sample 2.1 s after the previous one, with a
     * tenth of an interval's progress before the stop */
    struct tl t;
    tl_make(&t, 60, 1000);
    for (size_t i = 31; i < t.n; i++)
        t.p[i].t += 2.0;
    for (size_t i = 31; i < t.n; i++)
        t.p[i].ops = t.p[30].ops + 900 + (i - 31) * 1000;
    struct stall *s;
    size_t n;
    assert_int_equal(stall_find(t.p, t.n, true, 1.0, 0.05, &s, &n), 0);
    assert_int_equal(n, 1);
    assert_true(s[0].start_s > 2.99 && s[0].start_s < 3.01);
    assert_true(s[0].length_s > 2.09 && s[0].length_s < 2.11);
    free(s);
    /* a late sample with a full span's progress (only the sampler was late) is no stall */
    for (size_t i = 31; i < t.n; i++)
        t.p[i].ops = t.p[30].ops + 21000 + (i - 31) * 1000;
    assert_int_equal(stall_find(t.p, t.n, true, 1.0, 0.05, &s, &n), 0);
    assert_int_equal(n, 0);
}

static void test_short_phases(void **state)
{
    /* one syncfs taking 3 s: one operation, not a stall */
    struct timeline_point p[31];
    memset(p, 0, sizeof p);
    for (size_t i = 0; i < 31; i++)
        p[i].t = (double)i * 0.1;
    p[30].ops = 1;
    struct stall *s;
    size_t n;
    assert_int_equal(stall_find(p, 31, false, 1.0, 0.05, &s, &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(stall_find(p, 1, false, 1.0, 0.05, &s, &n), 0);
    assert_int_equal(stall_find(p, 0, false, 1.0, 0.05, &s, &n), 0);
    assert_int_equal(n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_stall),       cmocka_unit_test(test_zero_progress),
        cmocka_unit_test(test_slow_and_threshold), cmocka_unit_test(test_several),
        cmocka_unit_test(test_late_sampler),   cmocka_unit_test(test_short_phases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
