/* test_sizing.c — unit tests of sizing.c: --size hits its target within the stated
 * precision for pkgsrc and kernel; the --size auto rule decides as documented for fixed
 * RAM and free-space figures (root with dropcaches; cold reads without; the free-space
 * cap), and the phases are read the way the rule needs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "run/scenario.h"
#include "run/sizing.h"

#define GIB (1ull << 30)
#define MIB (1ull << 20)

/* Bytes of the tree at the scale sizing chose, measured. */
static double bytes_at(const char *profile, double scale)
{
    struct tree_spec s = {.prof = profile_find(profile), .scale = scale, .seed = 1};
    uint64_t b, d;
    assert_int_equal(sizing_measure(&s, &b, &d), 0);
    assert_true(d > b);
    return (double)b;
}

static void check_target(const char *profile, uint64_t target)
{
    struct tree_spec base = {.prof = profile_find(profile), .scale = 1, .seed = 1};
    double scale;
    assert_int_equal(sizing_scale_for_bytes(&base, target, &scale), 0);
    double r = bytes_at(profile, scale) / (double)target;
    if (fabs(r - 1) > 0.02)
        fail_msg("%s %llu bytes: got %.4f of the target", profile, (unsigned long long)target, r);
}

static void test_scale_for_bytes(void **state)
{
    (void)state;
    check_target("pkgsrc", 20 * MIB);
    check_target("pkgsrc", 300 * MIB);
    check_target("pkgsrc", 2 * GIB);
    check_target("kernel", 20 * MIB);
    check_target("kernel", 500 * MIB);
    check_target("kernel", 3 * GIB);
    check_target("tiny", 100 * MIB);
}

static void test_scale_for_bytes_rejects(void **state)
{
    (void)state;
    struct tree_spec none = {.prof = NULL, .scale = 1, .seed = 1}, kernel = {.prof = profile_find("kernel"), .scale = 1, .seed = 1};
    double s;
    err_set_quiet(1);
    assert_int_equal(sizing_scale_for_bytes(&none, GIB, &s), -1);
    assert_int_equal(sizing_scale_for_bytes(&kernel, 0, &s), -1);
    err_set_quiet(0);
}

/* Root, dropcaches in the scenario, cold reads: a modest tree, RAM/16. */
static void test_auto_can_drop(void **state)
{
    (void)state;
    struct tree_spec base = {.prof = profile_find("kernel"), .scale = 1, .seed = 1};
    char why[512];
    double s;
    assert_int_equal(sizing_auto(&base, true, true, true, 16 * GIB, 1024 * GIB, &s, why,
                                 sizeof why), 0);
    assert_true(fabs(bytes_at("kernel", s) / (double)GIB - 1) < 0.02);
    assert_non_null(strstr(why, "RAM 16.0 GiB"));
    assert_non_null(strstr(why, "caches can be dropped"));
    assert_non_null(strstr(why, "RAM/16"));
    assert_null(strstr(why, "capped"));
    assert_null(strchr(why, '\n'));
    /* a small machine gets the 256 MiB minimum */
    assert_int_equal(sizing_auto(&base, true, true, true, 2 * GIB, 0, &s, why, sizeof why), 0);
    assert_true(fabs(bytes_at("kernel", s) / (double)(256 * MIB) - 1) < 0.02);
    assert_non_null(strstr(why, "the minimum"));
    /* no cold reads at all: modest as well */
    assert_int_equal(sizing_auto(&base, false, false, false, 16 * GIB, 0, &s, why, sizeof why),
                     0);
    assert_non_null(strstr(why, "no phase reads the tree cold"));
}

/* Cold reads that cannot start cold (not root, or no dropcaches): 2 x RAM. */
static void test_auto_cold_without_drop(void **state)
{
    (void)state;
    struct tree_spec base = {.prof = profile_find("kernel"), .scale = 1, .seed = 1};
    char why[512];
    double s;
    assert_int_equal(sizing_auto(&base, false, true, true, 4 * GIB, 1024 * GIB, &s, why,
                                 sizeof why), 0);
    assert_true(fabs(bytes_at("kernel", s) / (8.0 * GIB) - 1) < 0.02);
    assert_non_null(strstr(why, "2 x RAM"));
    assert_non_null(strstr(why, "not root"));
    assert_int_equal(sizing_auto(&base, true, false, true, 4 * GIB, 0, &s, why, sizeof why), 0);
    assert_non_null(strstr(why, "no dropcaches in scenario"));
    assert_null(strstr(why, "not root"));
}

/* The free space caps the on-disk estimate, and the reasoning says so. */
static void test_auto_free_space_cap(void **state)
{
    (void)state;
    struct tree_spec base = {.prof = profile_find("kernel"), .scale = 1, .seed = 1};
    char why[512];
    double s;
    uint64_t free_bytes = 5 * GIB;
    assert_int_equal(sizing_auto(&base, false, false, true, 16 * GIB, free_bytes, &s, why,
                                 sizeof why), 0);
    struct tree_spec at = {.prof = base.prof, .scale = s, .seed = 1};
    uint64_t b, d;
    assert_int_equal(sizing_measure(&at, &b, &d), 0);
    double avail = (double)free_bytes * 0.9;
    assert_true((double)d <= avail * 1.01);
    assert_true((double)d >= avail * 0.95);
    assert_non_null(strstr(why, "capped at"));
    assert_non_null(strstr(why, "free space"));
    assert_non_null(strstr(why, "smaller than RAM"));
}

static void test_phases(void **state)
{
    (void)state;
    const struct phase_def *ph[SCENARIO_MAX_PHASES];
    bool drops, cold;
    unsigned copies;
    int n = scenario_resolve("extract,sync,dropcaches,walk,statwalk,read,copy,delete", ph,
                             SCENARIO_MAX_PHASES);
    assert_true(n > 0);
    sizing_phases(ph, (size_t)n, &drops, &cold, &copies);
    assert_true(drops && cold);
    assert_int_equal(copies, 2);
    n = scenario_resolve("extract,delete", ph, SCENARIO_MAX_PHASES);
    sizing_phases(ph, (size_t)n, &drops, &cold, &copies);
    assert_false(drops || cold);
    assert_int_equal(copies, 1);
    n = scenario_resolve("extract,sync,walk", ph, SCENARIO_MAX_PHASES);
    sizing_phases(ph, (size_t)n, &drops, &cold, &copies);
    assert_true(cold && !drops);
    sizing_phases(NULL, 0, &drops, &cold, &copies);
    assert_false(drops || cold);
    /* only extract, createsync and fsyncstorm lay the tree down; age makes its own files */
    assert_true(sizing_writes_tree(ph, (size_t)n));
    n = scenario_resolve("age,sync,layout,dropcaches,statwalk,read", ph, SCENARIO_MAX_PHASES);
    assert_true(n > 0);
    assert_false(sizing_writes_tree(ph, (size_t)n));
    n = scenario_resolve("createsync", ph, SCENARIO_MAX_PHASES);
    assert_true(sizing_writes_tree(ph, (size_t)n));
    n = scenario_resolve("age,fsyncstorm", ph, SCENARIO_MAX_PHASES);
    assert_true(sizing_writes_tree(ph, (size_t)n));
    assert_false(sizing_writes_tree(NULL, 0));
    assert_true(sizing_ram() > 0);
}

/* age's footprint follows phase_age's stopping rules: the written limit, the fullness floor,
 * the safety limit when age-written is 0 and ENOSPC when age-fullness is 0. */
static void test_age_footprint(void **state)
{
    (void)state;
    struct sizing_age a;
    char text[512];
    /* the defaults (NULL params): 4x written, filled to 80% */
    sizing_age(NULL, 252 * GIB, 77 * GIB, &a);
    assert_true(a.written_x == 4 && !a.safety);
    assert_int_equal(a.written, 1008 * GIB);
    assert_true(a.fullness == 0.8);
    /* from 77 GiB free down to 20% of 252 GiB free: 26.6 GiB taken */
    assert_true(fabs((double)a.peak - (77.0 - 0.2 * 252) * GIB) < 2);
    sizing_age_text(&a, text, sizeof text);
    assert_string_equal(text, "writes up to 1008.0 GiB (4x its 252.0 GiB) and fills it to 80% "
                              "full (up to 26.6 GiB of its 77.0 GiB free)");
    /* age-written 0: the safety limit; age-fullness 0: until the file system is full */
    struct phase_params p = {.age_written = 0, .age_fullness = 0};
    sizing_age(&p, 32 * MIB, 30 * MIB, &a);
    assert_true(a.safety && a.written_x == 50);
    assert_int_equal(a.written, 1600 * MIB);
    assert_true(a.fullness == 0);
    assert_int_equal(a.peak, 30 * MIB);
    sizing_age_text(&a, text, sizeof text);
    assert_string_equal(text, "writes up to 1.6 GiB (50x its 32 MiB: the safety limit, "
                              "age-written is 0) and fills it until it is full (all of its "
                              "30 MiB free: age-fullness is 0)");
    /* already fuller than the fullness target: it takes nothing (it stops at once) */
    p = (struct phase_params){.age_written = 4, .age_fullness = 0.5};
    sizing_age(&p, 100 * GIB, 30 * GIB, &a);
    assert_int_equal(a.peak, 0);
    /* the written limit caps the peak: 0.1x of an empty file system takes at most 0.1x */
    p = (struct phase_params){.age_written = 0.1, .age_fullness = 0.8};
    sizing_age(&p, 10 * GIB, 10 * GIB, &a);
    assert_int_equal(a.written, GIB);
    assert_int_equal(a.peak, GIB);
    /* at or over the safety limit: the safety limit */
    p = (struct phase_params){.age_written = 50, .age_fullness = 0.8};
    sizing_age(&p, GIB, GIB, &a);
    assert_true(a.safety && a.written_x == 50);
    /* a file system big enough for TiB */
    sizing_age(NULL, 2048 * GIB, 2048 * GIB, &a);
    sizing_age_text(&a, text, sizeof text);
    assert_non_null(strstr(text, "writes up to 8.0 TiB (4x its 2.0 TiB)"));
}

/* Aging by replay is sized by the trace's bytes written times the repetitions its stops
 * allow: --age-replay-times, once by default, --age-written with a profile, the last step's
 * multiple, the safety limit; a trace writing nothing runs once. */
static void test_age_replay(void **state)
{
    (void)state;
    struct sizing_replay r;
    char text[600];
    /* 3 times, 1.8 MB each on 128 MiB: the times set it */
    struct phase_params p = {.age_written = 4, .age_fullness = 0.8, .age_replay_times = 3};
    sizing_age_replay(&p, 0, 128 * MIB, 1860000, 0, &r);
    assert_int_equal(r.reps, 3);
    assert_int_equal(r.written, 5580000);
    assert_int_equal(r.laid, 5580000);
    assert_string_equal(r.basis, "--age-replay-times 3");
    assert_false(r.may_converge);
    sizing_age_replay_text(&r, "/tmp/x/t.fsbt", 128 * MIB, text, sizeof text);
    assert_string_equal(text, "replays t.fsbt up to 3 times (--age-replay-times 3); a repetition "
                              "writes 1.8 MiB (the trace's bytes written): up to 5.3 MiB in all "
                              "(0.04x its 128.0 MiB)");
    /* neither times nor a profile: once */
    p.age_replay_times = 0;
    sizing_age_replay(&p, 0, 128 * MIB, 1860000, MIB, &r);
    assert_int_equal(r.reps, 1);
    assert_int_equal(r.laid, 1860000 + MIB);
    sizing_age_replay_text(&r, "t.fsbt", 128 * MIB, text, sizeof text);
    assert_non_null(strstr(text, "replays t.fsbt once (no --age-replay-times or --age-profile); "
                                 "a repetition writes 1.8 MiB (the trace's bytes written) and "
                                 "lays 1.0 MiB of initial state first: 1.8 MiB in all"));
    assert_non_null(strstr(text, ", 2.8 MiB with the initial states"));
    /* a profile: until --age-written 4x (ceil(512 MiB / 1 MiB) = 512), may converge sooner */
    p.age_profile = "tiny";
    p.age_converge = 0.01;
    sizing_age_replay(&p, 0, 128 * MIB, MIB, 0, &r);
    assert_int_equal(r.reps, 512);
    assert_string_equal(r.basis, "--age-written 4x");
    assert_true(r.may_converge);
    /* ... rounded up: 3 MiB a repetition, 171 repetitions reach 4x */
    sizing_age_replay(&p, 0, 128 * MIB, 3 * MIB, 0, &r);
    assert_int_equal(r.reps, 171);
    /* a profile with --age-written 0: the safety limit, 50x */
    p.age_written = 0;
    sizing_age_replay(&p, 0, 128 * MIB, 4 * MIB, 0, &r);
    assert_int_equal(r.reps, 1600);
    assert_string_equal(r.basis, "the safety limit, 50x");
    /* steps: the last step's multiple, no times, no convergence */
    p = (struct phase_params){.age_written = 4, .age_replay_times = 3, .age_profile = "tiny",
                              .age_converge = 0.01};
    sizing_age_replay(&p, 0.06, 128 * MIB, 1860000, 0, &r);
    assert_int_equal(r.reps, 5); /* 0.06 x 128 MiB = 7.68 MiB over 1.86 MB */
    assert_string_equal(r.basis, "the last step, 0.06x");
    assert_false(r.may_converge);
    /* a trace that writes nothing: one repetition stops it */
    p = (struct phase_params){.age_written = 4, .age_profile = "tiny"};
    sizing_age_replay(&p, 0, 128 * MIB, 0, 5 * MIB, &r);
    assert_int_equal(r.reps, 1);
    assert_int_equal(r.written, 0);
    assert_int_equal(r.laid, 5 * MIB);
    /* a tiny trace on a big file system: the repetition limit */
    sizing_age_replay(&p, 0, 2048 * GIB, 4096, 0, &r);
    assert_int_equal(r.reps, 100000);
    assert_string_equal(r.basis, "the repetition limit");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_for_bytes),
        cmocka_unit_test(test_scale_for_bytes_rejects),
        cmocka_unit_test(test_auto_can_drop),
        cmocka_unit_test(test_auto_cold_without_drop),
        cmocka_unit_test(test_auto_free_space_cap),
        cmocka_unit_test(test_phases),
        cmocka_unit_test(test_age_footprint),
        cmocka_unit_test(test_age_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
