/* phase_stop.c — how a parallel phase stops: a thread's first failure becomes the phase's
 * (under the shared mutex), the stop flag every thread sees is raised and the phase's stop
 * hook runs once. phase.c (failures, interrupts) and phase_par.c (the threads) both use it.
 */
#include <string.h>

#include "phase/phase_stop.h"

/* Makes thread t's failure the phase's if it is the first, and stops the others. */
void phase_par_publish(struct phase_ctx *t)
{
    struct phase_par *p = t->par;
    struct phase_result *r = p->ctx->res;
    pthread_mutex_lock(&p->mu);
    if (r->status != PHASE_FAILED) {
        r->status = PHASE_FAILED;
        memcpy(r->note, t->res->note, sizeof r->note);
    }
    atomic_store(&p->stop, 1);
    bool call = !p->stop_called && p->on_stop;
    p->stop_called = true;
    pthread_mutex_unlock(&p->mu);
    if (call)
        p->on_stop(p->arg);
}
