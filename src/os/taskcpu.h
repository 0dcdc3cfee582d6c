/* taskcpu.h — the CPU time of every task (process or thread) that ends while a listener is
 * open, as the kernel reports each one at its exit: its id, its process's, its parent
 * process's, its command name and its user and system time. Record's untraced run uses it
 * to give each process of a program its own CPU time (record_procs.h). Linux: taskstats
 * over generic netlink (root); elsewhere not available.
 */
#ifndef FSBENCH_OS_TASKCPU_H
#define FSBENCH_OS_TASKCPU_H

#include <stddef.h>
#include <stdint.h>

struct os_task_cpu {
    int32_t pid, tgid, ppid; /* as the first PID namespace numbers them */
    char comm[16];           /* the kernel's command name (15 bytes at most) */
    uint64_t cpu_ns;         /* user and system time (the kernel's samples) */
};

struct os_taskcpu;

/* Starts listening for tasks that end, on every processor. NULL with why when it cannot
 * (not Linux, not allowed, no taskstats in the kernel, fsbench in a PID namespace of its
 * own). */
struct os_taskcpu *os_taskcpu_start(char *why, size_t len);
/* Stops listening: the tasks that ended since the start, their count in *n, owned by the
 * caller (free). NULL with why when reports were lost (the socket overflowed) or none
 * could be read; the listener is freed either way. */
struct os_task_cpu *os_taskcpu_stop(struct os_taskcpu *l, size_t *n, char *why, size_t len);
/* This process's own id as the first PID namespace numbers it (-1: not known). */
int32_t os_taskcpu_self(void);

#endif
