/* test_scenario.c — unit tests of phase lists and the phase registry (scenario.c, phase.c):
 * lists resolve to phases in order, malformed ones are rejected, and --fsync-rounds' rule
 * repeats each run of a phase (the scenarios are job files: test_job.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "phase/phase_registry.h"
#include "run/scenario.h"

static int quiet_on(void **state)
{
    err_set_quiet(1);
    return 0;
}

static int quiet_off(void **state)
{
    err_set_quiet(0);
    return 0;
}

/* Names of ph[0..n) joined with commas into buf. */
static const char *names_of(const struct phase_def **ph, int n, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? "," : "", ph[i]->name);
    }
    return buf;
}

/* --fsync-rounds' rule: every run of consecutive fsyncstorm phases becomes N long. */
static void test_repeat_runs(void **state)
{
    (void)state;
    const struct phase_def *ph[SCENARIO_MAX_PHASES];
    char buf[512];
    int n = scenario_resolve("extract,sync,fsyncstorm,fsyncstorm,delete,sync", ph,
                             SCENARIO_MAX_PHASES);
    assert_int_equal(n, 6);
    n = scenario_repeat(ph, (size_t)n, SCENARIO_MAX_PHASES, "fsyncstorm", 3);
    assert_string_equal(names_of(ph, n, buf, sizeof buf),
                        "extract,sync,fsyncstorm,fsyncstorm,fsyncstorm,delete,sync");
    n = scenario_repeat(ph, (size_t)n, SCENARIO_MAX_PHASES, "fsyncstorm", 1);
    assert_string_equal(names_of(ph, n, buf, sizeof buf), "extract,sync,fsyncstorm,delete,sync");
    /* two separate runs: each becomes N */
    n = scenario_resolve("fsyncstorm,sync,fsyncstorm,fsyncstorm,fsyncstorm", ph,
                         SCENARIO_MAX_PHASES);
    n = scenario_repeat(ph, (size_t)n, SCENARIO_MAX_PHASES, "fsyncstorm", 2);
    assert_string_equal(names_of(ph, n, buf, sizeof buf),
                        "fsyncstorm,fsyncstorm,sync,fsyncstorm,fsyncstorm");
    /* absent: unchanged */
    n = scenario_resolve("extract,delete", ph, SCENARIO_MAX_PHASES);
    assert_int_equal(scenario_repeat(ph, (size_t)n, SCENARIO_MAX_PHASES, "fsyncstorm", 5), 2);
    assert_string_equal(names_of(ph, 2, buf, sizeof buf), "extract,delete");
}

static void test_repeat_limits(void **state)
{
    (void)state;
    const struct phase_def *ph[SCENARIO_MAX_PHASES];
    int n = scenario_resolve("extract,fsyncstorm,delete", ph, SCENARIO_MAX_PHASES);
    assert_int_equal(scenario_repeat(ph, (size_t)n, SCENARIO_MAX_PHASES, "fsyncstorm", 0), -1);
    /* exactly max fits; one more does not */
    assert_int_equal(scenario_repeat(ph, (size_t)n, 5, "fsyncstorm", 3), 5);
    n = scenario_resolve("extract,fsyncstorm,delete", ph, SCENARIO_MAX_PHASES);
    assert_int_equal(scenario_repeat(ph, (size_t)n, 5, "fsyncstorm", 4), -1);
    assert_int_equal(scenario_repeat(ph, (size_t)n, SCENARIO_MAX_PHASES, "fsyncstorm", 100),
                     -1);
}

static void test_resolve_order_and_count(void **state)
{
    (void)state;
    const struct phase_def *out[SCENARIO_MAX_PHASES];
    assert_int_equal(scenario_resolve("walk,extract,walk,delete", out, SCENARIO_MAX_PHASES), 4);
    assert_ptr_equal(out[0], phase_find("walk"));
    assert_ptr_equal(out[1], phase_find("extract"));
    assert_ptr_equal(out[2], phase_find("walk"));
    assert_ptr_equal(out[3], phase_find("delete"));
    assert_int_equal(scenario_resolve("sync", out, SCENARIO_MAX_PHASES), 1);
    assert_ptr_equal(out[0], phase_find("sync"));
    /* Exactly max phases fit; one more does not. */
    assert_int_equal(scenario_resolve("sync,sync,sync", out, 3), 3);
    assert_int_equal(scenario_resolve("sync,sync,sync,sync", out, 3), -1);
}

static void test_resolve_rejects(void **state)
{
    (void)state;
    const struct phase_def *out[SCENARIO_MAX_PHASES];
    assert_int_equal(scenario_resolve("extract,nope", out, SCENARIO_MAX_PHASES), -1);
    assert_int_equal(scenario_resolve("nope", out, SCENARIO_MAX_PHASES), -1);
    assert_int_equal(scenario_resolve("", out, SCENARIO_MAX_PHASES), -1);
    assert_int_equal(scenario_resolve(",", out, SCENARIO_MAX_PHASES), -1);
    assert_int_equal(scenario_resolve(",extract", out, SCENARIO_MAX_PHASES), -1);
    assert_int_equal(scenario_resolve("extract,,walk", out, SCENARIO_MAX_PHASES), -1);
    assert_int_equal(scenario_resolve("extract ,walk", out, SCENARIO_MAX_PHASES), -1);
    assert_int_equal(scenario_resolve("EXTRACT", out, SCENARIO_MAX_PHASES), -1);
    char longname[200];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(scenario_resolve(longname, out, SCENARIO_MAX_PHASES), -1);
}

/* A trailing comma is an empty phase name, as a leading or doubled one is. */
static void test_resolve_rejects_trailing_comma(void **state)
{
    (void)state;
    const struct phase_def *out[SCENARIO_MAX_PHASES];
    assert_int_equal(scenario_resolve("extract,", out, SCENARIO_MAX_PHASES), -1);
}

static void test_phase_find_table(void **state)
{
    (void)state;
    size_t n = 0;
    for (const struct phase_def *p = phase_table; p->name; p++, n++) {
        assert_ptr_equal(phase_find(p->name), p);
        assert_non_null(p->run);
        assert_non_null(p->desc);
        for (const struct phase_def *q = p + 1; q->name; q++)
            assert_true(strcmp(p->name, q->name) != 0);
    }
    assert_true(n >= 11);
    static const char *const named[] = {"extract",  "sync",  "dropcaches", "walk",
                                        "statwalk", "read",  "copy",       "delete",
                                        "umount",   "mount", "remount"};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        const struct phase_def *p = phase_find(named[i]);
        assert_non_null(p);
        assert_string_equal(p->name, named[i]);
    }
    assert_ptr_equal(phase_find("extract")->run, phase_extract);
    assert_ptr_equal(phase_find("delete")->run, phase_delete);
    assert_true(phase_find("mount")->flags & PHASE_NEEDS_TARGET);
    assert_false(phase_find("extract")->flags & (PHASE_NEEDS_ROOT | PHASE_NEEDS_TARGET));
    assert_null(phase_find("nope"));
    assert_null(phase_find(""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repeat_runs),
        cmocka_unit_test(test_repeat_limits),
        cmocka_unit_test(test_resolve_order_and_count),
        cmocka_unit_test(test_resolve_rejects),
        cmocka_unit_test(test_resolve_rejects_trailing_comma),
        cmocka_unit_test(test_phase_find_table),
    };
    return cmocka_run_group_tests(tests, quiet_on, quiet_off);
}
