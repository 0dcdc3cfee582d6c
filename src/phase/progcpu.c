/* progcpu.c — busy work calibrated against this thread's processor-time clock (progcpu.h).
 *
 * The work is a chain of dependent multiply-adds, which a compiler cannot shorten and whose
 * speed does not depend on memory. Calibration times growing batches on the thread's CPU
 * clock (wall clock where a system has none) until a batch takes 5 ms, three times, and
 * keeps the fastest rate: a preempted try reads slow on a wall clock, never fast.
 */
#include "phase/progcpu.h"

#include <pthread.h>
#include <time.h>

#include "measure/measure.h"

static double rate; /* work units per ns; 0 until calibrated */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static volatile uint64_t sink;

static void work(uint64_t units)
{
    uint64_t x = sink | 1;
    for (uint64_t i = 0; i < units; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    sink = x;
}

static uint64_t cpu_now_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return meas_now_ns();
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void calibrate_once(void)
{
    double best = 0;
    for (int tries = 0; tries < 3; tries++) {
        uint64_t units = 1u << 14, took = 0;
        for (;;) {
            uint64_t t0 = cpu_now_ns();
            work(units);
            took = cpu_now_ns() - t0;
            if (took >= 5000000 || units >= (1ull << 40))
                break;
            units *= 2;
        }
        double r = (double)units / (double)(took ? took : 1);
        if (r > best)
            best = r;
    }
    rate = best > 0 ? best : 1;
}

void progcpu_calibrate(void)
{
    pthread_once(&once, calibrate_once);
}

double progcpu_rate(void)
{
    progcpu_calibrate();
    return rate;
}

void progcpu_spend_ns(uint64_t ns)
{
    progcpu_calibrate();
    work((uint64_t)((double)ns * rate + 0.5));
}
