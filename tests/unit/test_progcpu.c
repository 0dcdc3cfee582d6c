/* test_progcpu.c — unit tests of the busy work that stands for a modeled program's own
 * processor time (phase/progcpu.h): it is calibrated to a positive rate, spends about what is
 * asked of this thread's processor time (checked with wide bounds: at least half, at most
 * five times, so a loaded machine does not fail it), and nothing for 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "phase/progcpu.h"

static double thread_cpu_s(void)
{
    struct timespec ts;
    assert_int_equal(clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts), 0);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_calibrated(void **state)
{
    (void)state;
    progcpu_calibrate();
    double r = progcpu_rate();
    assert_true(r > 0.01); /* more than 10 million units a second on any machine */
    progcpu_calibrate();   /* once a process: the rate stays */
    assert_true(progcpu_rate() == r);
}

static void test_spends_what_is_asked(void **state)
{
    (void)state;
    progcpu_calibrate();
    for (int ms = 10; ms <= 40; ms *= 2) {
        double t0 = thread_cpu_s();
        progcpu_spend((uint64_t)ms * 1000000);
        double took = thread_cpu_s() - t0;
        if (took < ms / 2e3 || took > ms * 5e-3)
            print_error("asked %d ms, spent %.1f ms\n", ms, took * 1e3);
        assert_true(took >= ms / 2e3);
        assert_true(took <= ms * 5e-3);
    }
}

static void test_zero_spends_nothing(void **state)
{
    (void)state;
    progcpu_calibrate();
    double t0 = thread_cpu_s();
    for (int i = 0; i < 1000; i++)
        progcpu_spend(0);
    assert_true(thread_cpu_s() - t0 < 0.005);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibrated),
        cmocka_unit_test(test_spends_what_is_asked),
        cmocka_unit_test(test_zero_spends_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
