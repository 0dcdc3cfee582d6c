/* progcpu.h — processor time a modeled program spends between its system calls.
 *
 * A benchmark written in an interpreted language (compilebench is Python) spends, for each
 * file it handles, processor time of its own beside the file system's: the interpreter
 * building objects and paths. fsbench makes the program's system calls itself; when asked,
 * it also spends the program's processor time, so that its figures include that time as the
 * program's do. The time is spent as work on this thread (user time that a preemption
 * stretches, as the interpreter's would be), not as a sleep.
 */
#ifndef FSBENCH_PHASE_PROGCPU_H
#define FSBENCH_PHASE_PROGCPU_H

#include <stdint.h>

/* Measures, once per process, how fast this thread does the work progcpu_spend() repeats
 * (about 30 ms, the fastest of a few tries). progcpu_spend() calls it when it has not run;
 * calling it first keeps that time out of whatever is being timed. */
void progcpu_calibrate(void);

/* Spends about ns nanoseconds of this thread's processor time on busy work (ns > 0). */
void progcpu_spend_ns(uint64_t ns);

/* The same, and nothing at all for 0 (the default): no call on the workload's path. */
static inline void progcpu_spend(uint64_t ns)
{
    if (ns)
        progcpu_spend_ns(ns);
}

/* The calibrated rate: work units a nanosecond (for the tests). */
double progcpu_rate(void);

#endif
