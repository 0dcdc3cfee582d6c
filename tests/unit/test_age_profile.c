/* test_age_profile.c — unit tests of phase/age_profile.c in a scratch directory with the
 * posix engine: a budget of bytes stops it and is named; a second call finds the first
 * call's files by rescanning tree/age and continues from them (the entry point age.h offers
 * for further aging); the same seed in two fresh directories gives the same operations and
 * the same distributions; the aged files have the sizes the histogram counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "phase/age.h"
#include "phase/phase.h"
#include "testutil.h"

#define BUF_LEN (128 * 1024)

struct fix {
    char dir[4096];
    struct opstats *st;
    struct eng_worker w;
    struct phase_result res;
    struct phase_ctx ctx;
};

static struct fix *fix_new(uint64_t seed)
{
    struct fix *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_non_null(tu_scratch_dir(f->dir, sizeof f->dir, "age"));
    f->st = tu_worker_stats(&f->w);
    assert_non_null(f->st);
    assert_int_equal(tu_phase_ctx(&f->ctx, &f->w, f->dir, NULL, &f->res, malloc(BUF_LEN), BUF_LEN),
                     0);
    f->ctx.seed = seed;
    return f;
}

static void fix_free(struct fix *f)
{
    assert_int_equal(tu_phase_ctx_done(&f->ctx, f->dir), 0);
    free(f->ctx.buf);
    free(f->st);
    free(f);
}

/* Ages with a budget of `bytes` written (no convergence: the host's file system is far
 * larger than the profile's utilization of it could be filled here). */
static void age(struct fix *f, double bytes, struct age_outcome *o)
{
    struct age_budget b = {.written_bytes = bytes};
    assert_int_equal(age_profile_run(&f->ctx, ageprof_builtin("tiny"), &b, o), 0);
    assert_int_equal(f->res.status, PHASE_OK);
}

static void test_budget_and_continue(void **state)
{
    (void)state;
    struct fix *f = fix_new(11);
    struct age_outcome o1, o2;
    age(f, 2 << 20, &o1);
    assert_string_equal(o1.why, "written target reached");
    assert_true(o1.written >= 2u << 20);
    assert_true(o1.live_files > 50);
    assert_int_equal(o1.hist.files, o1.live_files);
    /* one more operation: the second call starts from the first's files */
    age(f, 1, &o2);
    assert_int_equal(o2.ops, 1);
    assert_true(o2.live_files + 1 >= o1.live_files && o2.live_files <= o1.live_files + 1);
    assert_true(o2.dirs >= o1.dirs);
    assert_true(o2.live_bytes + (1u << 20) > o1.live_bytes);
    fix_free(f);
}

static void test_same_seed_same_outcome(void **state)
{
    (void)state;
    struct age_outcome a, b;
    struct fix *f = fix_new(5);
    age(f, 1 << 20, &a);
    fix_free(f);
    f = fix_new(5);
    age(f, 1 << 20, &b);
    fix_free(f);
    assert_int_equal(a.ops, b.ops);
    assert_int_equal(a.written, b.written);
    assert_int_equal(a.live_files, b.live_files);
    assert_int_equal(a.live_bytes, b.live_bytes);
    assert_memory_equal(&a.hist, &b.hist, sizeof a.hist);
    assert_true(a.dist.max_abs == b.dist.max_abs);
    /* another seed: other operations */
    f = fix_new(6);
    age(f, 1 << 20, &b);
    fix_free(f);
    assert_false(a.live_bytes == b.live_bytes && a.ops == b.ops);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_and_continue),
        cmocka_unit_test(test_same_seed_same_outcome),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
