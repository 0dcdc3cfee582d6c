/* replay_thread.c — the replay's threads (replay_internal.h): each runs its chunks of calls
 * in order, waiting for each call's dependencies (done counters first, then a condition
 * variable), spending its think time with original timing, making the call (replay_exec.c)
 * and counting it done; a chunk run goes back to the dispatcher's pool.
 */
#include <stdatomic.h>
#include <time.h>

#include "measure/measure.h"
#include "os/cputime.h"
#include "phase/replay_internal.h"

/* ---- waiting ---- */

void rp_wake(struct rp_thread *t)
{
    pthread_mutex_lock(&t->mu);
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

void rp_stop_all(struct replay *rp)
{
    atomic_store(&rp->stop, 1);
    for (unsigned i = 0; i < rp->nthreads; i++)
        rp_wake(&rp->th[i]);
    pthread_mutex_lock(&rp->pool_mu);
    pthread_cond_broadcast(&rp->pool_cv);
    pthread_mutex_unlock(&rp->pool_mu);
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause");
#endif
}

/* Waits until dependency d is done (or the replay stops). */
static void wait_dep(struct replay *rp, uint64_t d)
{
    if (rp_dep_done(rp, d))
        return;
    for (int i = 0; i < 2000; i++) {
        cpu_relax();
        if (rp_dep_done(rp, d))
            return;
    }
    struct rp_thread *o = &rp->th[RP_DEP_THREAD(d)];
    uint64_t at = RP_DEP_POS(d) + 1;
    atomic_fetch_add(&o->waiters, 1);
    pthread_mutex_lock(&o->mu);
    for (;;) {
        /* asked before the last look at o's count, under o's lock, which its wake takes:
         * either that look sees the call done or o's completion sees what was asked */
        uint64_t w = atomic_load(&o->wake_at);
        while (at < w && !atomic_compare_exchange_weak(&o->wake_at, &w, at))
            ;
        atomic_thread_fence(memory_order_seq_cst);
        if (rp_dep_done(rp, d) || atomic_load(&rp->stop) || phase_interrupt)
            break;
        rp_cond_wait_briefly(&o->cv, &o->mu);
    }
    pthread_mutex_unlock(&o->mu);
    atomic_fetch_sub(&o->waiters, 1);
}

/* Counts the call done; wakes the threads waiting on this one when the count reached the
 * lowest they asked for (they ask again for what they still wait for). Waking at every
 * call cost rsync's replay some 1.4 futex calls per call. */
static void complete(struct rp_thread *me)
{
    uint64_t n = atomic_load_explicit(&me->done, memory_order_relaxed) + 1;
    if (me->rp->nthreads == 1) {
        /* no other replay thread waits on it: no fence, no look at the waiters */
        atomic_store_explicit(&me->done, n, memory_order_relaxed);
        return;
    }
    atomic_store(&me->done, n);
    if (atomic_load(&me->waiters) && n >= atomic_load(&me->wake_at)) {
        atomic_store(&me->wake_at, UINT64_MAX);
        rp_wake(me);
    }
}

/* The calling thread's CPU time, ns. */
static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
        return meas_now_ns(); /* (no thread clock: wall time instead) */
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Original timing: works (spins) until this thread has spent think ns of its own CPU
 * time. A think time is the program's CPU time (trace_record.h): spent on a processor, as
 * the program spent it, and not asleep, which would leave the file system's own threads
 * (the journal's commit, the device's workers) a quieter machine than the program did: an
 * fsync after a thread's sleep takes a fraction of what it takes after the same time of
 * work. And counted on the thread's CPU clock, not the wall clock: on a busy machine the
 * program's work took longer than its CPU time, by the share of the processors it got,
 * and so does the replay's (a wall-clock wait would end as soon on a busy machine as on a
 * quiet one, and the replay would run ahead of the program by the machine's load).
 * The clock is a system call, so the work between two looks at it is pauses in user mode,
 * as many as the time left allows at the pace the last batch had (a first batch of a few):
 * a think time of a few microseconds (a program making calls back to back, thousands of
 * them) costs that, not a batch of 1,024 pauses (some 40 us) each. */
static uint64_t think_for(struct replay *rp, uint64_t think)
{
    uint64_t now = thread_cpu_ns(), start = now, end = now + think;
    double per = 0; /* ns a pause took in the last batch; 0: not known yet */
    /* a stop request (a signal: phase_interrupt) ends the wait at once, so no think time
     * keeps the run from its cleanup */
    while (!atomic_load_explicit(&rp->stop, memory_order_relaxed)) {
        if (phase_interrupt) {
            rp_stop_all(rp);
            break;
        }
        uint64_t left = end - now;
        double want = per > 0 ? (double)left / per : 16;
        unsigned n = want < 1 ? 1 : want > 1024 ? 1024 : (unsigned)want;
        for (unsigned i = 0; i < n; i++)
            cpu_relax();
        uint64_t t = thread_cpu_ns();
        if (t > now)
            per = (double)(t - now) / n;
        now = t;
        if (now >= end)
            break;
    }
    return now - start;
}

/* Think times below this are owed and spent together with later ones (each spin costs two
 * looks at the clock, a microsecond or so, whatever its length). */
#define RP_THINK_BATCH_NS ((int64_t)20000)

/* Original timing: think ns owed before the thread's next call, spent once enough is owed;
 * what a spin overshoots is taken off the next think times, so that the sum is right. */
static void think_owe(struct rp_thread *me, uint64_t think)
{
    me->think_owed += (int64_t)think;
    if (me->think_owed >= RP_THINK_BATCH_NS)
        me->think_owed -= (int64_t)think_for(me->rp, (uint64_t)me->think_owed);
}

/* ---- the replay threads ---- */

void rp_chunk_put(struct replay *rp, struct rp_chunk *c)
{
    pthread_mutex_lock(&rp->pool_mu);
    c->next = rp->free;
    rp->free = c;
    if (++rp->nfree == RP_POOL_REFILL)
        pthread_cond_signal(&rp->pool_cv);
    pthread_mutex_unlock(&rp->pool_mu);
}

static void run_chunk(struct rp_thread *me, struct rp_chunk *ch)
{
    struct replay *rp = me->rp;
    for (uint32_t i = 0; i < ch->n; i++) {
        const struct rp_call *c = &ch->call[i];
        if (atomic_load_explicit(&rp->stop, memory_order_relaxed))
            return;
        if (phase_interrupt) {
            rp_stop_all(rp);
            return;
        }
        for (uint16_t k = 0; k < c->ndeps; k++)
            wait_dep(rp, ch->deps[c->dep + k]);
        /* a thread's first call has no think time before it (its start-up is not in
         * the trace) */
        if (rp->timing == REPLAY_ORIGINAL && c->rthread < rp->info->nthreads &&
            rp->rep_end[c->rthread] && c->think_ns)
            think_owe(me, c->think_ns);
        rp_exec(me, c, ch->arena);
        if (rp->timing == REPLAY_ORIGINAL && c->rthread < rp->info->nthreads)
            rp->rep_end[c->rthread] = meas_now_ns();
        complete(me);
    }
}

static double tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void *rp_thread_main(void *arg)
{
    struct rp_thread *me = arg;
    struct replay *rp = me->rp;
    struct rusage a, b;
    int ok = os_thread_rusage(&a) == 0;
    for (;;) {
        pthread_mutex_lock(&me->mu);
        while (!me->head && !atomic_load(&rp->eof) && !atomic_load(&rp->stop))
            pthread_cond_wait(&me->cv, &me->mu);
        struct rp_chunk *ch = atomic_load(&rp->stop) ? NULL : me->head;
        if (ch) {
            me->head = ch->next;
            if (!me->head)
                me->tail = NULL;
            atomic_fetch_sub(&me->queued, 1);
        }
        pthread_mutex_unlock(&me->mu);
        if (!ch)
            break;
        run_chunk(me, ch);
        rp_chunk_put(rp, ch);
        if (phase_interrupt)
            rp_stop_all(rp);
    }
    rp_exec_done(me);
    if (ok && os_thread_rusage(&b) == 0) {
        me->user_s = tv_s(b.ru_utime) - tv_s(a.ru_utime);
        me->sys_s = tv_s(b.ru_stime) - tv_s(a.ru_stime);
    }
    return NULL;
}

