/* phase_stop.h — the shared state of a parallel phase's threads (phase_par.c starts them):
 * the first failure, the stop flag every thread reads, and the phase's own stop hook.
 * phase_par_publish (phase.h) is the one writer; phase.c's failures and interrupts call it.
 */
#ifndef FSBENCH_PHASE_STOP_H
#define FSBENCH_PHASE_STOP_H

#include <pthread.h>
#include <stdbool.h>

#include "phase/phase.h"

struct phase_par {
    struct phase_ctx *ctx;
    int (*fn)(struct phase_ctx *t, unsigned idx, void *arg);
    void (*on_stop)(void *arg);
    void *arg;
    pthread_mutex_t mu;
    _Atomic int stop;
    bool stop_called;
};

#endif
