/* workq.c — the shared LIFO queue of directories (see workq.h). */
#include "phase/workq.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct workq {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct workq_item *it;
    size_t cap;
    _Atomic size_t len;         /* written under mu, read without it by workq_hungry */
    _Atomic unsigned waiting;   /* workers blocked in workq_get */
    unsigned busy;              /* items taken and not yet done */
    size_t low;                 /* workq_short below this many items */
    bool stopped;
};

struct workq *workq_new(unsigned nthreads)
{
    struct workq *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->low = 2 * (size_t)nthreads;
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->cv, NULL);
    return q;
}

void workq_free(struct workq *q, void (*drop)(struct workq_item *it, void *arg), void *arg)
{
    if (!q)
        return;
    size_t n = atomic_load(&q->len);
    for (size_t i = 0; i < n; i++) {
        if (drop)
            drop(&q->it[i], arg);
        free(q->it[i].path);
    }
    free(q->it);
    pthread_cond_destroy(&q->cv);
    pthread_mutex_destroy(&q->mu);
    free(q);
}

int workq_put_path(struct workq *q, struct workq_item *it, const char *path)
{
    if (!(it->path = strdup(path)))
        return -1;
    if (workq_put(q, it) < 0) {
        free(it->path);
        it->path = NULL;
        return -1;
    }
    return 0;
}

int workq_put(struct workq *q, const struct workq_item *it)
{
    pthread_mutex_lock(&q->mu);
    size_t n = atomic_load_explicit(&q->len, memory_order_relaxed);
    if (n == q->cap) {
        size_t ncap = q->cap ? 2 * q->cap : 64;
        struct workq_item *p = realloc(q->it, ncap * sizeof *p);
        if (!p) {
            pthread_mutex_unlock(&q->mu);
            return -1;
        }
        q->it = p;
        q->cap = ncap;
    }
    q->it[n] = *it;
    atomic_store_explicit(&q->len, n + 1, memory_order_relaxed);
    if (atomic_load_explicit(&q->waiting, memory_order_relaxed))
        pthread_cond_signal(&q->cv);
    pthread_mutex_unlock(&q->mu);
    return 0;
}

bool workq_hungry(const struct workq *q)
{
    return atomic_load_explicit(&q->waiting, memory_order_relaxed) >
           atomic_load_explicit(&q->len, memory_order_relaxed);
}

bool workq_short(const struct workq *q)
{
    return atomic_load_explicit(&q->len, memory_order_relaxed) < q->low;
}

int workq_get(struct workq *q, struct workq_item *out)
{
    pthread_mutex_lock(&q->mu);
    for (;;) {
        size_t n = atomic_load_explicit(&q->len, memory_order_relaxed);
        if (q->stopped || (n == 0 && q->busy == 0)) {
            /* everyone else waiting sees the same: let them all out */
            pthread_cond_broadcast(&q->cv);
            pthread_mutex_unlock(&q->mu);
            return 0;
        }
        if (n > 0) {
            *out = q->it[n - 1];
            atomic_store_explicit(&q->len, n - 1, memory_order_relaxed);
            q->busy++;
            pthread_mutex_unlock(&q->mu);
            return 1;
        }
        atomic_fetch_add_explicit(&q->waiting, 1, memory_order_relaxed);
        pthread_cond_wait(&q->cv, &q->mu);
        atomic_fetch_sub_explicit(&q->waiting, 1, memory_order_relaxed);
    }
}

void workq_done(struct workq *q)
{
    pthread_mutex_lock(&q->mu);
    q->busy--;
    if (q->busy == 0 && atomic_load_explicit(&q->len, memory_order_relaxed) == 0)
        pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

void workq_stop(struct workq *q)
{
    pthread_mutex_lock(&q->mu);
    q->stopped = true;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}
