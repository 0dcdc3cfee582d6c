/* test_scenario.c — unit tests of the scenario and phase registries (scenario.c, phase.c):
 * every built-in is found by name, every built-in phase list resolves to phases in order,
 * and malformed lists are rejected.
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

static void test_scenario_find_builtins(void **state)
{
    (void)state;
    size_t n = 0;
    for (const struct scenario *s = scenario_table; s->name; s++, n++) {
        assert_ptr_equal(scenario_find(s->name), s);
        assert_non_null(s->desc);
        assert_non_null(s->phases);
        assert_true(s->desc[0] != '\0');
    }
    assert_true(n >= 4);
    static const char *const named[] = {"basic", "create", "metadata", "testdisk"};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        const struct scenario *s = scenario_find(named[i]);
        assert_non_null(s);
        assert_string_equal(s->name, named[i]);
    }
    assert_null(scenario_find("nope"));
    assert_null(scenario_find(""));
    assert_null(scenario_find("Basic"));
}

/* Names in the table are unique. */
static void test_scenario_names_unique(void **state)
{
    (void)state;
    for (const struct scenario *a = scenario_table; a->name; a++)
        for (const struct scenario *b = a + 1; b->name; b++)
            assert_true(strcmp(a->name, b->name) != 0);
}

/* Every built-in list resolves, in order, one phase per comma-separated name. */
static void test_builtin_phase_lists_resolve(void **state)
{
    (void)state;
    for (const struct scenario *s = scenario_table; s->name; s++) {
        const struct phase_def *out[SCENARIO_MAX_PHASES];
        int n = scenario_resolve(s->phases, out, SCENARIO_MAX_PHASES);
        if (n <= 0)
            fail_msg("scenario %s: phases '%s' do not resolve", s->name, s->phases);
        char copy[512];
        snprintf(copy, sizeof copy, "%s", s->phases);
        int i = 0;
        for (char *save, *tok = strtok_r(copy, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save), i++) {
            assert_true(i < n);
            assert_string_equal(out[i]->name, tok);
            assert_ptr_equal(out[i], phase_find(tok));
        }
        assert_int_equal(i, n);
    }
    const struct phase_def *out[SCENARIO_MAX_PHASES];
    assert_int_equal(scenario_resolve(scenario_find("basic")->phases, out, SCENARIO_MAX_PHASES), 9);
    assert_string_equal(out[0]->name, "extract");
    assert_string_equal(out[8]->name, "sync");
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
        cmocka_unit_test(test_scenario_find_builtins),
        cmocka_unit_test(test_scenario_names_unique),
        cmocka_unit_test(test_builtin_phase_lists_resolve),
        cmocka_unit_test(test_resolve_order_and_count),
        cmocka_unit_test(test_resolve_rejects),
        cmocka_unit_test(test_resolve_rejects_trailing_comma),
        cmocka_unit_test(test_phase_find_table),
    };
    return cmocka_run_group_tests(tests, quiet_on, quiet_off);
}
