/* workq.h — a shared queue of directories for the phases that walk a tree on several
 * threads (walk, statwalk, read, copy, delete).
 *
 * A worker scanning a directory asks workq_hungry() at each subdirectory: when another
 * worker is waiting for work (and the queue holds less than the waiters take) it hands the
 * subdirectory over with workq_put(), else it descends itself. So the queue stays a few
 * items long however large the tree, and a deep, skewed tree still keeps every thread busy.
 * Waiting costs a sleep and a wake-up, so workers also keep a few items queued ahead while
 * the queue is short (workq_short): the subdirectories of the top directory of the item
 * being worked on, whose subtrees are the largest at hand.
 * The queue is a stack (LIFO): the newest, deepest directories go first, which keeps it
 * short and each worker's working set small.
 *
 * Termination: workq_get() blocks while the queue is empty and some worker still holds an
 * item (it may hand out more); it returns 0 when the queue is empty and nobody holds an
 * item, or after workq_stop(). Every item taken is finished with workq_done().
 * One mutex and one condition variable; workq_hungry() takes no lock (two relaxed loads).
 */
#ifndef FSBENCH_WORKQ_H
#define FSBENCH_WORKQ_H

#include <stdbool.h>
#include <time.h>

struct workq_item {
    int fd;                     /* the directory, opened by the giver (same engine) */
    int fd2;                    /* copy: the directory's copy; else -1 */
    char *path;                 /* workspace-relative path ("tree/a/b"), malloc'd */
    void *node;                 /* the phase's bookkeeping (delete: post-order node) */
    struct timespec times[2];   /* copy: the source directory's atime and mtime */
};

struct workq;

/* A new empty queue for nthreads workers; NULL when out of memory. */
struct workq *workq_new(unsigned nthreads);
/* Frees the queue; items still queued (after a stop) are handed to drop (may be NULL). */
void workq_free(struct workq *q, void (*drop)(struct workq_item *it, void *arg), void *arg);
/* Appends a copy of *it (the queue owns it->path and the fds from now on). 0 or -1 (no
 * memory: the caller keeps the item and should process it itself). */
int workq_put(struct workq *q, const struct workq_item *it);
/* workq_put of *it with it->path set to a malloc'd copy of path (freed again when the put
 * fails). 0, or -1 (no memory): the item was not queued and the caller keeps its fds. */
int workq_put_path(struct workq *q, struct workq_item *it, const char *path);
/* True when a worker waits for more work than is queued: hand a directory over. */
bool workq_hungry(const struct workq *q);
/* True when fewer than 2 items per worker are queued: worth queueing a large one ahead. */
bool workq_short(const struct workq *q);
/* Takes the newest item into *out: 1, or 0 when all work is done or the queue stopped. */
int workq_get(struct workq *q, struct workq_item *out);
/* The item taken last by this worker is finished (it may have put others). */
void workq_done(struct workq *q);
/* Wakes every waiter; workq_get returns 0 from now on. */
void workq_stop(struct workq *q);

#endif
