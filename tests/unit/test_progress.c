/* test_progress.c — the progress of a run set (run/progress.h): a percentage, the count of
 * operations and an ETA on the first run where the phase's operations are known before it
 * runs; the time a phase took before where its work is not in operations; the set's ETA
 * from the runs so far; runs kept from before and runs dropped; the plain line per run; the
 * width cut; and that it writes only to its descriptor and erases itself. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run/progress.h"

static const uint64_t S = 1000000000ull;

/* A finished phase slot of result r. */
static void phase(struct progress *p, const char *cfg, unsigned round, size_t slot,
                  const char *name, uint64_t at, double wall, uint64_t ops)
{
    progress_phase_begin(p, cfg, round, slot, name, at);
    struct phase_result r = {.status = PHASE_OK, .ops_total = ops, .wall_s = wall};
    progress_phase_end(p, &r);
}

static void test_first_run_known_total(void **state)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const uint64_t expect[2] = {55662, 0}; /* extract from the tree; sync: not in ops */
    struct progress *p = progress_new(fds[1], true, 12, 2, expect);
    assert_non_null(p);
    char buf[256];

    progress_phase_begin(p, "ext4:sync", 0, 0, "extract", 10 * S);
    struct timeline_point pt = {.t = 10.0, .ops = 25323};
    progress_format(p, &pt, buf, sizeof buf, 0);
    /* 45% after 10 s: 12 s more at that rate. The first run's set ETA is the work model's
     * (marked ~): sync counts no operations (taken as short), the 11 later runs' extract
     * is its 55,662 operations at the rate so far (22 s): 12 s + 11 x 22 s; the set's 4%
     * is the run's share of time done (10 of 22 s), not of phases */
    assert_non_null(strstr(buf, "ext4:sync run 1/12 extract 45% 25,323/55,662 ops "));
    assert_non_null(strstr(buf, "ops/s ETA 12s | set 4% ETA ~4m14s"));
    progress_tick(p, &pt);
    struct phase_result r = {.status = PHASE_OK, .ops_total = 55662, .wall_s = 22.0};
    progress_phase_end(p, &r);

    /* sync has no operations to count and was never timed: its elapsed time */
    progress_phase_begin(p, "ext4:sync", 0, 1, "sync", 32 * S);
    pt = (struct timeline_point){.t = 1.5, .ops = 0};
    progress_format(p, &pt, buf, sizeof buf, 0);
    assert_non_null(strstr(buf, "run 1/12 sync 1.5s ETA ?"));
    struct phase_result r2 = {.status = PHASE_OK, .ops_total = 1, .wall_s = 2.0};
    progress_phase_end(p, &r2);
    struct run_result run = {.config = "ext4:sync", .round = 0};
    progress_run_end(p, &run, 34 * S);

    /* second run: the set's ETA from the first run's 24 s a run */
    progress_phase_begin(p, "ext4:sync", 1, 0, "extract", 40 * S);
    pt = (struct timeline_point){.t = 11.0, .ops = 27831};
    progress_format(p, &pt, buf, sizeof buf, 0);
    /* half the extract in 11 s: 11 s left, then sync's 2 s, then 10 runs of 24 s */
    assert_non_null(strstr(buf, "run 2/12 extract 50% 27,831/55,662 ops"));
    assert_non_null(strstr(buf, "ETA 11s | set 12% ETA 4m13s"));
    /* narrower: the rate goes, then the counts, then the configuration; the set's ETA stays */
    size_t full = strlen(buf);
    progress_format(p, &pt, buf, sizeof buf, full - 1);
    assert_null(strstr(buf, "ops/s"));
    assert_non_null(strstr(buf, "ext4:sync run 2/12 extract 50% 27,831/55,662 ops ETA 11s | set 12% ETA 4m13s"));
    progress_format(p, &pt, buf, sizeof buf, 60);
    assert_string_equal(buf, "ext4:sync run 2/12 extract 50% ETA 11s | set 12% ETA 4m13s");
    progress_format(p, &pt, buf, sizeof buf, 50);
    assert_string_equal(buf, "run 2/12 extract 50% ETA 11s | set 12% ETA 4m13s");
    /* sync is now told by its time: 1 s of its 2 s */
    progress_phase_begin(p, "ext4:sync", 1, 1, "sync", 62 * S);
    pt = (struct timeline_point){.t = 1.0, .ops = 0};
    progress_format(p, &pt, buf, sizeof buf, 0);
    assert_non_null(strstr(buf, "run 2/12 sync 50% ETA 1.0s | set "));
    progress_format(p, &pt, buf, sizeof buf, 20);
    assert_int_equal(strlen(buf), 20);
    progress_free(p);

    /* what reached the descriptor: one redraw and the erasures, no newline */
    close(fds[1]);
    char out[1024];
    ssize_t n = read(fds[0], out, sizeof out - 1);
    assert_true(n > 0);
    out[n] = '\0';
    assert_int_equal(out[0], '\r');
    assert_non_null(strstr(out, "extract 45% 25,323/55,662 ops"));
    assert_non_null(strstr(out, "\r\033[K"));
    assert_null(strchr(out, '\n'));
    close(fds[0]);
}

static void test_plain_lines_known_and_dropped(void **state)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    struct progress *p = progress_new(fds[1], false, 6, 1, NULL);
    assert_non_null(p);
    /* a resumed set: two runs kept from before, at 10 s each */
    struct phase_result kept_ph = {.status = PHASE_OK, .ops_total = 100, .wall_s = 10.0};
    struct run_result kept = {.config = "a", .phases = &kept_ph, .nphases = 1};
    progress_run_known(p, &kept);
    progress_run_known(p, &kept);
    /* a configuration failed: two of its rounds will not run */
    progress_runs_dropped(p, 2);
    char buf[256];
    progress_phase_begin(p, "b", 1, 0, "extract", 0);
    struct timeline_point pt = {.t = 5.0, .ops = 50};
    progress_tick(p, &pt); /* not on a terminal: nothing drawn */
    progress_format(p, &pt, buf, sizeof buf, 0);
    /* run 3 of 4; half of its 10 s (the mean of any configuration) left, then one more */
    assert_non_null(strstr(buf, "b run 3/4 extract 50% 50/100 ops"));
    assert_non_null(strstr(buf, "ETA 5.0s | set 62% ETA 15s"));
    phase(p, "b", 1, 0, "extract", 0, 10.0, 100);
    struct phase_result ph = {.status = PHASE_OK};
    struct run_result run = {.config = "b", .round = 1, .phases = &ph, .nphases = 1};
    progress_run_end(p, &run, 10 * S);
    progress_free(p);
    close(fds[1]);
    char out[512];
    ssize_t n = read(fds[0], out, sizeof out - 1);
    assert_true(n > 0);
    out[n] = '\0';
    assert_string_equal(out, "fsbench: b run 3/4 (round 2) done in 10s | set 75% ETA 10s\n");
    close(fds[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_run_known_total),
        cmocka_unit_test(test_plain_lines_known_and_dropped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
