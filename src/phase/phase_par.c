/* phase_par.c — runs one phase's work on several threads, one per engine worker (-j N).
 *
 * The phases with a parallel version (extract, walk, statwalk, read, copy, delete) split
 * their work themselves (subtrees, a queue of directories); this file only starts and joins
 * the threads and keeps the rules every parallel phase relies on:
 *  - each thread works on its own copy of the phase context: its own engine worker (op
 *    counters, engine state), I/O buffer and phase result, so the hot path takes no lock;
 *  - the first failure of any thread becomes the phase's: phase_fail records it in the
 *    thread's own result and, at that moment, publishes it into the shared one under a
 *    mutex and raises a stop flag every thread sees in phase_check_interrupt() at its next
 *    entry; an interrupt (phase_interrupt) stops every thread the same way; a thread
 *    stopped by the flag publishes nothing, so the note is always the real failure;
 *  - each thread's CPU time is taken with os_thread_rusage (RUSAGE_THREAD on Linux); the helper threads' sum
 *    goes into ctx->helper_user_s/helper_sys_s, the calling thread is measured by the runner;
 *  - each worker's queued (asynchronous) operations are drained in its own thread.
 * Worker 0 runs on the calling thread, so a phase that cannot start threads still finishes
 * with fewer: every parallel phase hands out its work dynamically.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "phase/phase.h"
#include "phase/phase_stop.h"

#include "os/cputime.h"

struct par_thread {
    struct phase_par *p;
    unsigned idx;
    pthread_t tid;
    struct phase_ctx t;
    struct phase_result res;
    double user_s, sys_s;
};

unsigned phase_threads(const struct phase_ctx *ctx)
{
    return ctx->workers && ctx->nworkers > 1 ? ctx->nworkers : 1;
}

static double tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void run_thread(struct par_thread *pt)
{
    struct phase_par *p = pt->p;
    int rc = p->fn(&pt->t, pt->idx, p->arg);
    const char *name = p->ctx->res->name[0] ? p->ctx->res->name : "the phase";
    int d = pt->t.eng->drain(pt->t.w);
    if (d < 0 && rc == 0)
        rc = phase_fail(&pt->t, "complete queued operations of", name, d);
    if (rc < 0 && pt->res.status != PHASE_FAILED) /* a failure without a note: still one */
        phase_fail(&pt->t, "thread of", name, EIO);
}

static void *thread_main(void *arg)
{
    struct par_thread *pt = arg;
    struct rusage a, b;
    int ok = os_thread_rusage(&a) == 0;
    run_thread(pt);
    if (ok && os_thread_rusage(&b) == 0) {
        pt->user_s = tv_s(b.ru_utime) - tv_s(a.ru_utime);
        pt->sys_s = tv_s(b.ru_stime) - tv_s(a.ru_stime);
    }
    return NULL;
}

int phase_par_run(struct phase_ctx *ctx, int (*fn)(struct phase_ctx *t, unsigned idx, void *arg),
                  void (*on_stop)(void *arg), void *arg)
{
    unsigned n = phase_threads(ctx);
    struct phase_par p = {.ctx = ctx, .fn = fn, .on_stop = on_stop, .arg = arg};
    struct par_thread *pt = calloc(n, sizeof *pt);
    if (!pt)
        return phase_fail(ctx, "start threads for", ctx->res->name, -ENOMEM);
    pthread_mutex_init(&p.mu, NULL);
    for (unsigned i = 0; i < n; i++) {
        pt[i].p = &p;
        pt[i].idx = i;
        pt[i].t = *ctx;
        pt[i].t.w = ctx->workers ? &ctx->workers[i] : ctx->w;
        if (ctx->bufs)
            pt[i].t.buf = ctx->bufs[i];
        pt[i].t.res = &pt[i].res;
        pt[i].t.stop = &p.stop;
        pt[i].t.par = &p;
        snprintf(pt[i].res.name, sizeof pt[i].res.name, "%s", ctx->res->name);
    }
    /* Contexts made without per-worker buffers (tests, tools) get their own here. */
    void **own = NULL;
    if (!ctx->bufs && ctx->buf && n > 1) {
        own = calloc(n, sizeof *own);
        for (unsigned i = 1; i < n; i++) {
            if (!own || !(own[i] = malloc(ctx->buflen))) {
                n = i; /* fewer threads */
                break;
            }
            pt[i].t.buf = own[i];
        }
    }
    unsigned started = 1;
    for (unsigned i = 1; i < n; i++) {
        if (pthread_create(&pt[i].tid, NULL, thread_main, &pt[i]) != 0)
            break; /* fewer threads: the work is handed out dynamically */
        started++;
    }
    run_thread(&pt[0]);
    for (unsigned i = 1; i < started; i++) {
        pthread_join(pt[i].tid, NULL);
        ctx->helper_user_s += pt[i].user_s;
        ctx->helper_sys_s += pt[i].sys_s;
    }
    for (unsigned i = 0; i < started; i++) {
        ctx->res->files += pt[i].res.files;
        ctx->res->dirs += pt[i].res.dirs;
        ctx->res->symlinks += pt[i].res.symlinks;
    }
    pthread_mutex_destroy(&p.mu);
    for (unsigned i = 1; own && i < n; i++)
        free(own[i]);
    free(own);
    free(pt);
    return ctx->res->status == PHASE_FAILED ? -1 : 0;
}
