/* test_runner_set.c — a run set that goes on past a failure and can be finished later
 * (run/runner.h): a configuration whose run fails is left out of its later rounds while the
 * others run every round (runner_run returns 1); --fail-fast stops at the first failure
 * (-1); and with a plan from the runs a set already holds (runner_plan_from), only the
 * missing runs are made, in their rounds, none twice. Configurations are commands of the
 * cmd phase in a scratch directory, so a failure is `exit 3`.
 */
#include "testutil.h"

#include "base/err.h"
#include "run/runner.h"
#include "run/scenario.h"

#define ROUNDS 3

static char dir[4096];

static void setup_opts(struct runner_opts *o)
{
    memset(o, 0, sizeof *o);
    o->dir = dir;
    o->eng = &engine_posix;
    o->runs = ROUNDS;
    o->interval_ms = 100;
    o->order_seed = 7;
    assert_int_equal(scenario_resolve("cmd", o->phases, SCENARIO_MAX_PHASES), 1);
    o->nphases = 1;
    static const char *const cmds[] = {"true", "exit 3", "true"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(o->configs[i].name, sizeof o->configs[i].name, "%c", (char)('a' + i));
        o->configs[i].command = cmds[i];
    }
    o->nconfigs = 3;
}

/* Runs of configuration name in round (any round: ~0u). */
static unsigned count(const struct run_set *rs, const char *name, unsigned round)
{
    unsigned n = 0;
    for (size_t i = 0; i < rs->nruns; i++)
        n += !strcmp(rs->runs[i].config, name) && (round == ~0u || rs->runs[i].round == round);
    return n;
}

static int plan(void *arg, const char *config, unsigned round)
{
    return runner_plan_from(arg, config, round);
}

static void test_failed_configuration_left_out(void **state)
{
    (void)state;
    struct runner_opts o;
    setup_opts(&o);
    struct run_set rs = {0};
    err_set_quiet(1);
    int rc = runner_run(&o, &rs, NULL);
    err_set_quiet(0);
    assert_int_equal(rc, 1);
    assert_int_equal(count(&rs, "a", ~0u), ROUNDS);
    assert_int_equal(count(&rs, "c", ~0u), ROUNDS);
    assert_int_equal(count(&rs, "b", ~0u), 1); /* round 1 failed it: rounds 2 and 3 left out */
    assert_int_equal(count(&rs, "b", 0), 1);
    assert_int_equal(runner_plan_from(&rs, "b", 1), RUNNER_FAILED);
    assert_int_equal(runner_plan_from(&rs, "b", 0), RUNNER_DONE);
    assert_int_equal(runner_plan_from(&rs, "a", 2), RUNNER_DONE);
    assert_int_equal(runner_plan_from(&rs, "a", 3), RUNNER_RUN);
    run_set_free(&rs);

    /* --fail-fast: the set stops at that run */
    setup_opts(&o);
    o.fail_fast = true;
    err_set_quiet(1);
    rc = runner_run(&o, &rs, NULL);
    err_set_quiet(0);
    assert_int_equal(rc, -1);
    assert_int_equal(count(&rs, "b", ~0u), 1);
    assert_true(rs.nruns <= 3); /* at most the runs of round 1 */
    run_set_free(&rs);
}

static void test_resume_makes_the_missing_runs(void **state)
{
    (void)state;
    struct runner_opts o;
    setup_opts(&o);
    o.configs[1].command = "true";
    struct run_set full = {0};
    assert_int_equal(runner_run(&o, &full, NULL), 0);
    assert_int_equal(full.nruns, 3 * ROUNDS);

    /* the first four runs kept; the fifth was stopped by a signal */
    struct run_set rs = {0};
    for (size_t i = 0; i < 5; i++) {
        struct run_result *r = run_set_add_run(&rs, 1);
        assert_non_null(r);
        r->round = full.runs[i].round;
        snprintf(r->config, sizeof r->config, "%s", full.runs[i].config);
        r->phases[0].status = i == 4 ? PHASE_FAILED : PHASE_OK;
        r->interrupted = i == 4;
    }
    setup_opts(&o);
    o.configs[1].command = "true";
    o.plan = plan;
    o.plan_arg = &rs;
    assert_int_equal(runner_run(&o, &rs, NULL), 0);
    /* every configuration once a round, counting the kept runs and not the interrupted one */
    static const char *const names[] = {"a", "b", "c"};
    for (unsigned r = 0; r < ROUNDS; r++)
        for (size_t c = 0; c < 3; c++) {
            unsigned n = 0;
            for (size_t i = 0; i < rs.nruns; i++)
                n += !rs.runs[i].interrupted && !strcmp(rs.runs[i].config, names[c]) &&
                     rs.runs[i].round == r;
            assert_int_equal(n, 1);
        }
    /* the new runs came in the order of the uninterrupted set, from its fifth run on */
    assert_int_equal(rs.nruns, 5 + 3 * ROUNDS - 4);
    for (size_t i = 5; i < rs.nruns; i++) {
        assert_string_equal(rs.runs[i].config, full.runs[i - 1].config);
        assert_int_equal(rs.runs[i].round, full.runs[i - 1].round);
    }
    run_set_free(&rs);
    run_set_free(&full);
}

static int setup(void **state)
{
    (void)state;
    return tu_scratch_dir(dir, sizeof dir, "runner_set") ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return tu_rm_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_failed_configuration_left_out),
        cmocka_unit_test(test_resume_makes_the_missing_runs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
