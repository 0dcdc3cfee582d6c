/* test_record_untraced.c — unit tests of record --untraced-run's runs
 * (src/run/record_untraced.c): which run is kept (with replays paired to the runs: the
 * median of CPU time above the replay's, so that a load lasting all the runs, which lifts
 * a run and its replay alike, does not move the choice; without: the least CPU time), and
 * the runs themselves: a real command run in a real directory, each run followed by its
 * replay, the directory put back before each, a failing replay ending the pairing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/record_untraced.h"

static void test_pick_least_unpaired(void **state)
{
    (void)state;
    const uint64_t cpu[] = {50, 30, 40, 30};
    assert_int_equal(record_untraced_pick(cpu, NULL, NULL, 4), 1); /* the first of equals */
    assert_int_equal(record_untraced_pick(cpu, NULL, NULL, 1), 0);
}

static void test_pick_median_difference(void **state)
{
    (void)state;
    /* differences 10, 40, 25, 5, 30: the median is 25 (run 2), not the least CPU (run 3) */
    const uint64_t cpu[] = {110, 140, 125, 100, 160};
    const uint64_t rcpu[] = {100, 100, 100, 95, 130};
    assert_int_equal(record_untraced_pick(cpu, rcpu, NULL, 5), 2);
    /* even count: the lower middle one (differences 10, 40, 25, 5: 10, run 0) */
    assert_int_equal(record_untraced_pick(cpu, rcpu, NULL, 4), 0);
    /* one run: itself */
    assert_int_equal(record_untraced_pick(cpu, rcpu, NULL, 1), 0);
}

static void test_pick_negative_and_ties(void **state)
{
    (void)state;
    /* the replay above the run (a load hitting the replay): differences -20, 5, 5 */
    const uint64_t cpu[] = {80, 105, 105};
    const uint64_t rcpu[] = {100, 100, 100};
    assert_int_equal(record_untraced_pick(cpu, rcpu, NULL, 3), 1);
    /* all equal: the lower middle one is the first */
    const uint64_t same[] = {7, 7, 7, 7};
    assert_int_equal(record_untraced_pick(same, same, NULL, 4), 1);
}

/* A load that lifts each run and its replay alike picks the same run as none does. */
static void test_pick_steady_load(void **state)
{
    (void)state;
    const uint64_t cpu[] = {300, 320, 310};
    const uint64_t rcpu[] = {200, 230, 205};
    uint64_t lc[3], lr[3];
    for (int i = 0; i < 3; i++) {
        lc[i] = cpu[i] + 90;
        lr[i] = rcpu[i] + 90;
    }
    assert_int_equal(record_untraced_pick(cpu, rcpu, NULL, 3), record_untraced_pick(lc, lr, NULL, 3));
}

/* Runs made at quieter moments are chosen among, when there are any: the median of
 * theirs, not of all; none quiet: all, as without. */
static void test_pick_among_quiet(void **state)
{
    (void)state;
    /* differences 90, 10, 80, 20, 30: runs 0 and 2 were beside a load that lifted the
     * program's own work; of all, the median is 30 (run 4); of the quiet 1, 3 and 4, 20 */
    const uint64_t cpu[] = {190, 110, 180, 120, 130};
    const uint64_t rcpu[] = {100, 100, 100, 100, 100};
    const bool quiet[] = {false, true, false, true, true};
    assert_int_equal(record_untraced_pick(cpu, rcpu, NULL, 5), 4);
    assert_int_equal(record_untraced_pick(cpu, rcpu, quiet, 5), 3);
    /* one quiet run: it, whatever the others */
    const bool one[] = {false, false, true, false, false};
    assert_int_equal(record_untraced_pick(cpu, rcpu, one, 5), 2);
    /* none quiet: as if all were */
    const bool none[] = {false, false, false, false, false};
    assert_int_equal(record_untraced_pick(cpu, rcpu, none, 5), 4);
    /* unpaired: the least CPU time of the quiet ones */
    assert_int_equal(record_untraced_pick(cpu, NULL, quiet, 5), 1);
    const bool late[] = {false, false, true, false, true};
    assert_int_equal(record_untraced_pick(cpu, NULL, late, 5), 4);
    /* the most runs there are */
    uint64_t c9[RECORD_UNTRACED_RUNS_MAX], r9[RECORD_UNTRACED_RUNS_MAX];
    bool q9[RECORD_UNTRACED_RUNS_MAX];
    for (int i = 0; i < RECORD_UNTRACED_RUNS_MAX; i++) {
        c9[i] = 100 + (uint64_t)i * 10;
        r9[i] = 50;
        q9[i] = i >= RECORD_UNTRACED_RUNS_MAX - 3;
    }
    assert_int_equal(record_untraced_pick(c9, r9, q9, RECORD_UNTRACED_RUNS_MAX),
                     RECORD_UNTRACED_RUNS_MAX - 2);
}

/* How many runs: 3-5 for a short program, one for a long one; more on a busy machine,
 * until 3 were quiet, within 9 runs and 20 s. */
static void test_again(void **state)
{
    (void)state;
    const uint64_t ms = 1000000, s = 1000 * ms;
    /* a short program on a quiet machine: 5 runs */
    size_t n = 0;
    while (record_untraced_again(n, n, n * 10 * ms, 10 * ms))
        n++;
    assert_int_equal(n, 5);
    /* 3 s a run: 3; 12 s: 1 */
    assert_true(record_untraced_again(2, 2, 6 * s, 3 * s));
    assert_false(record_untraced_again(3, 3, 9 * s, 3 * s));
    assert_false(record_untraced_again(1, 1, 12 * s, 12 * s));
    /* a short program on a busy machine: runs go on until 3 were quiet */
    assert_true(record_untraced_again(5, 0, 50 * ms, 10 * ms));
    assert_true(record_untraced_again(7, 2, 70 * ms, 10 * ms));
    assert_false(record_untraced_again(7, 3, 70 * ms, 10 * ms));
    /* ... within 9 runs and 20 s of runs */
    assert_false(record_untraced_again(RECORD_UNTRACED_RUNS_MAX, 0, 90 * ms, 10 * ms));
    assert_true(record_untraced_again(3, 0, 19 * s, 6 * s));
    assert_false(record_untraced_again(4, 0, 24 * s, 6 * s));
    /* a long one that was busy: once more while under 20 s */
    assert_true(record_untraced_again(1, 0, 12 * s, 12 * s));
    assert_false(record_untraced_again(2, 0, 24 * s, 12 * s));
    /* the quiet runs a busy machine left: those first made count */
    assert_false(record_untraced_again(5, 4, 50 * ms, 10 * ms));
}

struct counter {
    int calls, fail_at;
    char path[PATH_MAX]; /* a file the replay looks at: the run's work must be undone */
    int saw_left;        /* times the run's file was still there when the replay ran */
};

static int count_replay(void *arg, uint64_t *cpu_ns)
{
    struct counter *c = arg;
    c->calls++;
    if (access(c->path, F_OK) == 0)
        c->saw_left++;
    if (c->calls == c->fail_at)
        return -1;
    *cpu_ns = (uint64_t)c->calls * 1000;
    return 0;
}

struct fx {
    char top[PATH_MAX], root[PATH_MAX], cwd[PATH_MAX];
};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    const char *tmp = getenv("TMPDIR");
    snprintf(f->top, sizeof f->top, "%s/test_record_untraced.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(f->top))
        return -1;
    snprintf(f->root, sizeof f->root, "%s/root", f->top);
    if (mkdir(f->root, 0755) < 0 || !getcwd(f->cwd, sizeof f->cwd) || chdir(f->root) < 0)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    char cmd[PATH_MAX + 16];
    if (chdir(f->cwd) < 0)
        return -1;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->top);
    int rc = system(cmd);
    free(f);
    return rc == 0 ? 0 : -1;
}

static void test_runs_paired(void **state)
{
    struct fx *f = *state;
    struct counter c = {.fail_at = -1};
    snprintf(c.path, sizeof c.path, "%s/made", f->root);
    struct record_untraced_pair pair = {.replay = count_replay, .arg = &c};
    char *argv[] = {"sh", "-c", "test ! -e made && echo x >made", NULL};
    struct record_untraced u = {0};
    assert_int_equal(record_untraced_run(f->root, argv, &u, &pair), 0);
    /* a short program: 3 to 5 runs, each followed by its replay (more, up to 9, when some
     * were made beside other programs, until 3 were not) */
    assert_true(u.runs >= 3 && u.runs <= RECORD_UNTRACED_RUNS_MAX);
    assert_true(u.runs <= 5 || u.quiet_runs <= 3);
    assert_true(u.quiet_runs <= u.runs);
    assert_int_equal(c.calls, (int)u.runs);
    assert_int_equal(u.pairs, u.runs);
    /* the kept run's replay is one of those made: k * 1000 for some k in 1..runs */
    assert_true(u.replay_cpu_ns >= 1000 && u.replay_cpu_ns <= 1000u * u.runs &&
                u.replay_cpu_ns % 1000 == 0);
    /* each run found the directory as it was (else `test` fails and the runs stop), and
     * it was put back before the replay ran and after the last run */
    assert_int_equal(c.saw_left, 0);
    assert_int_equal(access(c.path, F_OK), -1);
    record_untraced_free(&u);
}

static void test_replay_fails(void **state)
{
    struct fx *f = *state;
    struct counter c = {.fail_at = 2};
    snprintf(c.path, sizeof c.path, "%s/made", f->root);
    struct record_untraced_pair pair = {.replay = count_replay, .arg = &c};
    char *argv[] = {"sh", "-c", "echo x >made", NULL};
    struct record_untraced u = {0};
    assert_int_equal(record_untraced_run(f->root, argv, &u, &pair), 0);
    /* the runs go on, no replay after the failed one, and the runs are not paired */
    assert_true(u.runs >= 3);
    assert_int_equal(c.calls, 2);
    assert_int_equal(u.pairs, 0);
    assert_int_equal(u.replay_cpu_ns, 0);
    record_untraced_free(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pick_least_unpaired),
        cmocka_unit_test(test_pick_median_difference),
        cmocka_unit_test(test_pick_negative_and_ties),
        cmocka_unit_test(test_pick_steady_load),
        cmocka_unit_test(test_pick_among_quiet),
        cmocka_unit_test(test_again),
        cmocka_unit_test_setup_teardown(test_runs_paired, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replay_fails, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
