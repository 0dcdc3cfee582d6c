/* test_progress.c — the live progress line (run/progress.h): what it says before any
 * estimate exists and after a run has been made, the width cut, and that it writes only
 * to its descriptor and erases itself. */
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

static void test_first_run_then_estimates(void **state)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    struct progress *p = progress_new(fds[1], 4, 2, 1000);
    assert_non_null(p);
    char buf[256];
    const uint64_t s = 1000000000ull;

    progress_phase_begin(p, "ext4:sync", 0, 0, 0, "extract", 10 * s);
    struct timeline_point pt = {.t = 2.0, .ops = 500};
    progress_format(p, &pt, buf, sizeof buf, 0);
    assert_non_null(strstr(buf, "ext4:sync run 1/4 (round 1) extract 500 ops"));
    assert_non_null(strstr(buf, "ETA ?"));
    progress_tick(p, &pt);
    struct phase_result r = {.status = PHASE_OK, .ops_total = 1000, .wall_s = 4.0};
    progress_phase_end(p, &r);
    progress_phase_begin(p, "ext4:sync", 0, 0, 1, "sync", 14 * s);
    struct phase_result r2 = {.status = PHASE_OK, .ops_total = 1, .wall_s = 1.0};
    progress_phase_end(p, &r2);

    /* second run: half of the extract's operations is half its entries and time */
    progress_phase_begin(p, "ext4:sync", 1, 0, 0, "extract", 15 * s);
    pt = (struct timeline_point){.t = 2.0, .ops = 500};
    progress_format(p, &pt, buf, sizeof buf, 0);
    assert_non_null(strstr(buf, "run 2/4 (round 1) extract ~500/1000 entries"));
    assert_non_null(strstr(buf, "2.0s ETA 2.0s"));
    /* the set: 1.4 of 4 runs done after 7 s (half the extract is 2 of the run's 5 s) */
    assert_non_null(strstr(buf, "| set 7.0s ETA 13.0s"));
    progress_format(p, &pt, buf, sizeof buf, 20);
    assert_int_equal(strlen(buf), 20);
    progress_free(p);

    /* what reached the descriptor: one redraw and the erasures */
    close(fds[1]);
    char out[1024];
    ssize_t n = read(fds[0], out, sizeof out - 1);
    assert_true(n > 0);
    out[n] = '\0';
    assert_int_equal(out[0], '\r');
    assert_non_null(strstr(out, "extract 500 ops"));
    assert_non_null(strstr(out, "\033[K"));
    assert_non_null(strstr(out, "\r\033[K"));
    close(fds[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_run_then_estimates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
