/* opclock.c — the operation clock's choice and calibration (see measure.h): the TSC where
 * the CPU says it is invariant (ticks at one rate in every power state, the same on every
 * CPU), calibrated against CLOCK_MONOTONIC over a short sleep; else CLOCK_MONOTONIC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure/measure.h"

#include "os/machine.h"

struct meas_op_clock_state meas_opclk;

/* Calibration: long enough that two clock reads (~35 ns each) are a few parts per million
 * of it, short enough to go unnoticed at start. */
#define CALIBRATE_NS 20000000L

#if defined(__x86_64__)
#endif

bool meas_op_clock_init(void)
{
    meas_opclk.tsc = false;
#if defined(__x86_64__)
    const char *env = getenv("FSBENCH_OP_CLOCK");
    if ((env && !strcmp(env, "monotonic")) || !os_tsc_invariant())
        return false;
    struct timespec nap = {0, CALIBRATE_NS};
    uint64_t n0 = meas_now_ns(), c0 = meas_tsc();
    nanosleep(&nap, NULL);
    uint64_t n1 = meas_now_ns(), c1 = meas_tsc();
    if (c1 <= c0 || n1 <= n0)
        return false;
    double ns_per_tick = (double)(n1 - n0) / (double)(c1 - c0);
    /* a TSC between 100 MHz and 20 GHz, else something is off: keep the system clock */
    if (!(ns_per_tick > 0.05 && ns_per_tick < 10.0))
        return false;
    meas_opclk.ns_per_tick = ns_per_tick;
    meas_opclk.tsc = true;
    return true;
#else
    return false;
#endif
}
