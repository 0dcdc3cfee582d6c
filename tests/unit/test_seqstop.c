/* test_seqstop.c — the stopping question of --runs until-verdict (stats/seqstop.h) and
 * compare's sequential path (compare.c) on run sets built in memory: which comparisons
 * have a verdict, which are undecided, which cannot be decided, and that a set with a
 * stop rule is judged by the sequential test while the same runs without one are not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/compare.h"
#include "stats/seqstop.h"

/* Phases: "slow" (b twice a's time), "same" (b equal to a up to 1%), "skip" (skipped in
 * every run, as dropcaches is without root). */
#define NPH 3
static const char *const names[NPH] = {"slow", "same", "skip"};

/* Deterministic noise of about 3%, shared by the round (as a machine's state is), plus a
 * per-run part of about 0.5%. */
static double shared(unsigned r)
{
    static const double j[] = {1.00, 1.03, 0.97, 1.02, 0.98, 1.01, 0.99, 1.025, 0.975, 1.005};
    return j[r % 10];
}
static double own(unsigned r, bool b)
{
    static const double j[] = {1.004, 0.996, 1.001, 0.999, 1.003, 0.997, 1.0, 1.002, 0.998};
    return j[(r + (b ? 4 : 0)) % 9];
}

static void add(struct run_set *rs, const char *cfg, unsigned round)
{
    struct run_result *run = run_set_add_run(rs, NPH);
    assert_non_null(run);
    snprintf(run->config, sizeof run->config, "%s", cfg);
    run->round = round;
    bool b = !strcmp(cfg, "b");
    for (size_t p = 0; p < NPH; p++) {
        struct phase_result *ph = &run->phases[p];
        snprintf(ph->name, sizeof ph->name, "%s", names[p]);
        double base = shared(round) * own(round, b);
        ph->wall_s = p == 0 ? base * (b ? 2 : 1) : base;
        ph->status = p == 2 ? PHASE_SKIPPED : PHASE_OK;
    }
}

/* rounds of a and b, b first in odd rounds; declared order a, b; until-verdict rule */
static void make_set(struct run_set *rs, unsigned rounds, double min_effect)
{
    memset(rs, 0, sizeof *rs);
    snprintf(rs->label, sizeof rs->label, "uv");
    snprintf(rs->target.configs, sizeof rs->target.configs, "a\nb");
    snprintf(rs->stop.rule, sizeof rs->stop.rule, "until-verdict");
    snprintf(rs->stop.method, sizeof rs->stop.method, "mixture-sprt");
    snprintf(rs->stop.metric, sizeof rs->stop.metric, "wall");
    rs->stop.confidence = 0.95;
    rs->stop.min_effect = min_effect;
    rs->stop.mixture_var = SEQ_MIXTURE_VAR;
    rs->stop.max_rounds = 30;
    for (unsigned r = 0; r < rounds; r++) {
        add(rs, r % 2 ? "b" : "a", r);
        add(rs, r % 2 ? "a" : "b", r);
    }
}

static void test_all_decided(void **state)
{
    struct run_set rs;
    make_set(&rs, 8, 0.05);
    struct seqstop_status st;
    assert_int_equal(seqstop_check(&rs, &st), 0);
    assert_int_equal(st.rounds, 8);
    assert_int_equal(st.decidable, 2);
    assert_int_equal(st.different, 1);
    assert_int_equal(st.futile, 1);
    assert_int_equal(st.undecided, 0);
    assert_int_equal(st.undecidable, 1);
    assert_string_equal(st.undecidable_names, "skip");
    assert_true(st.all);
    run_set_free(&rs);
}

/* A phase whose median is under the floor on both sides holds nothing up, whatever its
 * noise; with the floor off (0) the same phase is undecided. */
static void test_negligible(void **state)
{
    struct run_set rs;
    make_set(&rs, 8, 0.05);
    /* "same" becomes a noisy 20-80 us phase */
    for (size_t i = 0; i < rs.nruns; i++)
        rs.runs[i].phases[1].wall_s = 20e-6 * (1 + 3.0 * ((i * 7) % 5) / 4);
    rs.stop.negligible_s = 0.001;
    struct seqstop_status st;
    assert_int_equal(seqstop_check(&rs, &st), 0);
    assert_int_equal(st.negligible, 1);
    assert_string_equal(st.negligible_names, "same");
    assert_int_equal(st.different, 1);
    assert_int_equal(st.undecided, 0);
    assert_true(st.all);
    rs.stop.negligible_s = 0;
    assert_int_equal(seqstop_check(&rs, &st), 0);
    assert_int_equal(st.negligible, 0);
    assert_int_equal(st.undecided, 1);
    assert_string_equal(st.undecided_names, "same");
    assert_false(st.all);
    /* one side above the floor: not negligible */
    rs.stop.negligible_s = 0.001;
    for (size_t i = 0; i < rs.nruns; i++)
        if (!strcmp(rs.runs[i].config, "b"))
            rs.runs[i].phases[1].wall_s = 0.002;
    assert_int_equal(seqstop_check(&rs, &st), 0);
    assert_int_equal(st.negligible, 0);
    run_set_free(&rs);
}

static void test_too_early(void **state)
{
    /* 3 pairs: no interval is bounded with the horizon of 30 */
    struct run_set rs;
    make_set(&rs, 3, 0.05);
    struct seqstop_status st;
    assert_int_equal(seqstop_check(&rs, &st), 0);
    assert_false(st.all);
    assert_int_equal(st.undecided, 2);
    assert_string_equal(st.undecided_names, "slow, same");
    run_set_free(&rs);
    /* no margin at all: "same" can never be equivalent, only undecided */
    make_set(&rs, 12, 0);
    assert_int_equal(seqstop_check(&rs, &st), 0);
    assert_int_equal(st.different, 1);
    assert_int_equal(st.undecided, 1);
    assert_string_equal(st.undecided_names, "same");
    assert_false(st.all);
    run_set_free(&rs);
}

static void test_not_comparable_yet(void **state)
{
    /* one round of a only: nothing to compare is no error, just not done */
    struct run_set rs;
    memset(&rs, 0, sizeof rs);
    snprintf(rs.stop.rule, sizeof rs.stop.rule, "until-verdict");
    rs.stop.confidence = 0.95;
    rs.stop.mixture_var = SEQ_MIXTURE_VAR;
    add(&rs, "a", 0);
    struct seqstop_status st;
    assert_int_equal(seqstop_check(&rs, &st), 0);
    assert_false(st.all);
    assert_int_equal(st.decidable, 0);
    run_set_free(&rs);
}

static void test_compare_method(void **state)
{
    struct run_set rs;
    make_set(&rs, 8, 0.05);
    struct cmp_input in = {"uv", &rs};
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    struct cmp_result r;
    assert_int_equal(cmp_build(&in, 1, &opt, &r), 0);
    assert_true(r.sequential);
    assert_string_equal(r.groups[0].name, "a"); /* the declared first, not the first run */
    const struct cmp_vs *vs = &r.phases[0].vs[1];
    assert_int_equal(vs->ratio.method, STATS_SEQUENTIAL);
    assert_int_equal(vs->state, SEQ_DIFFERENT);
    assert_int_equal(vs->verdict.kind, STATS_WORSE);
    assert_int_equal(r.phases[1].vs[1].state, SEQ_FUTILE);
    double seq_lo = vs->ratio.lo;
    cmp_result_free(&r);
    /* the same runs with no rule: the fixed-n paired test, whose interval is narrower */
    memset(&rs.stop, 0, sizeof rs.stop);
    assert_int_equal(cmp_build(&in, 1, &opt, &r), 0);
    assert_false(r.sequential);
    assert_int_equal(r.phases[0].vs[1].ratio.method, STATS_PAIRED);
    assert_true(r.phases[0].vs[1].ratio.lo > seq_lo);
    cmp_result_free(&r);
    run_set_free(&rs);
}

static void test_options_for_set(void **state)
{
    struct run_set rs;
    memset(&rs, 0, sizeof rs);
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    cmp_options_for_set(&opt, &rs, false, false); /* no rule: unchanged */
    assert_true(opt.min_effect == 0.05);
    snprintf(rs.stop.method, sizeof rs.stop.method, "mixture-sprt");
    rs.stop.confidence = 0.99;
    rs.stop.min_effect = 0.1;
    cmp_options_for_set(&opt, &rs, false, false);
    assert_true(opt.confidence == 0.99 && opt.min_effect == 0.1);
    opt = (struct cmp_options){CMP_WALL, 0.90, 0.02};
    cmp_options_for_set(&opt, &rs, true, true); /* given: the user's */
    assert_true(opt.confidence == 0.90 && opt.min_effect == 0.02);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_decided), cmocka_unit_test(test_negligible),        cmocka_unit_test(test_too_early),
        cmocka_unit_test(test_not_comparable_yet), cmocka_unit_test(test_compare_method),
        cmocka_unit_test(test_options_for_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
