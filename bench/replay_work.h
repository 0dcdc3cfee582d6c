/* replay_work.h — the synthetic workload of bench/replay's engine row: the same sequence of
 * calls written as a trace by replay_gen.c and made directly by replay_bare.c, so the
 * replay and the bare loop make the same calls.
 *
 * Per directory "dNNNNNN": mkdir; RW_FILES files each created, written (4 KiB) and closed;
 * each stat'ed, opened, read (4 KiB, then 0 at its end) and closed; each unlinked; rmdir.
 * That is 9 calls a file and 2 a directory; a workload of N calls is whole directories,
 * N rounded up. Nothing is left at the end, so ten million calls need no more room than
 * one directory's files.
 */
#ifndef FSBENCH_BENCH_REPLAY_WORK_H
#define FSBENCH_BENCH_REPLAY_WORK_H

#include <stdint.h>
#include <stdio.h>

#define RW_FILES 64u
#define RW_SIZE 4096u
#define RW_PER_DIR (9u * RW_FILES + 2u)

enum rw_op {
    RW_MKDIR,
    RW_CREATE,
    RW_WRITE,
    RW_CLOSE,
    RW_STAT,
    RW_OPEN,
    RW_READ,
    RW_READ_END,
    RW_UNLINK,
    RW_RMDIR
};

struct rw_call {
    enum rw_op op;
    char path[32];
};

/* Call i of the workload (0-based). */
static inline void rw_call(uint64_t i, struct rw_call *c)
{
    uint64_t dir = i / RW_PER_DIR;
    unsigned k = (unsigned)(i % RW_PER_DIR), f = 0;
    if (k == 0) {
        c->op = RW_MKDIR;
    } else if (k == RW_PER_DIR - 1) {
        c->op = RW_RMDIR;
    } else if ((k -= 1) < 3 * RW_FILES) {
        static const enum rw_op a[] = {RW_CREATE, RW_WRITE, RW_CLOSE};
        c->op = a[k % 3];
        f = k / 3;
    } else if ((k -= 3 * RW_FILES) < 5 * RW_FILES) {
        static const enum rw_op b[] = {RW_STAT, RW_OPEN, RW_READ, RW_READ_END, RW_CLOSE};
        c->op = b[k % 5];
        f = k / 5;
    } else {
        c->op = RW_UNLINK;
        f = k - 5 * RW_FILES;
    }
    if (c->op == RW_MKDIR || c->op == RW_RMDIR)
        snprintf(c->path, sizeof c->path, "d%06llu", (unsigned long long)dir);
    else
        snprintf(c->path, sizeof c->path, "d%06llu/f%03u", (unsigned long long)dir, f);
}

/* Calls of a workload of at least n calls. */
static inline uint64_t rw_total(uint64_t n)
{
    return (n + RW_PER_DIR - 1) / RW_PER_DIR * RW_PER_DIR;
}

#endif
