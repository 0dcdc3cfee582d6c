/* trace_think.h — the think time per process (trace format 5): the CPU time each process
 * of a program used run untraced (record --untraced-run; its tasks as the kernel reported
 * them at their exits, os/taskcpu.h) matched to the recorded processes by command name in
 * the order they started, less what a replay spends on each one's calls (priced per call,
 * trace_calib.h; in traces before format 6 a share of an untraced replay's); each
 * process's think time then spread over its own threads' gaps (one scale per process), and
 * what they cannot hold (a process that makes no recorded call: all of it) spent on its
 * own thread over its life, so that processes that worked side by side in the program do
 * so in the replay. Computing only: record calls it and writes the result.
 */
#ifndef FSBENCH_TRACE_THINK_H
#define FSBENCH_TRACE_THINK_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"
#include "trace/trace_calib.h"
#include "trace/trace_read.h"

/* A recorded thread, as the recorder saw it. */
struct think_thread {
    uint32_t leader;    /* the recorded thread that leads its process */
    const char *comm;   /* its process's command name ("" when not seen) */
    uint64_t calls;     /* the calls it made */
    uint64_t room_ns;   /* its gaps' think time at scale 1 (trace_think_rooms) */
    uint64_t span_ns;   /* its life: from its spawn (or the start) to its last record */
    uint64_t cost_ns;   /* what a replay spends on its calls (trace_calib.h), or 0 */
};

/* A task of the untraced run (a process or a thread), as the kernel reported it. */
struct think_task {
    int32_t pid, tgid, ppid;
    char comm[16];
    uint64_t cpu_ns;
};

/* Per recorded thread, what its gaps hold with info's tracer gap at scale 1 (the think
 * time trace_thread_think_ns would give each if the scale were 1), into room[nthreads],
 * its life (its spawn, or the start, to its last record) into span[nthreads] and, with a
 * table k, what its calls cost a replay by it into cost[nthreads] (k or cost NULL: not).
 * 0, or -1 with why. */
int trace_think_rooms(struct trace_file *t, const struct trace_info *info,
                      const struct trace_calib *k, uint64_t *room, uint64_t *span,
                      uint64_t *cost, char *why, size_t len);

/* Gives info the think time per process (its procs, thread_proc, thread_scale_ppm and
 * think_ns): th[info->nthreads] the recorded threads, tasks[ntasks] every task the kernel
 * reported during the untraced run (of the whole machine: those below the process whose
 * parent is parent_pid are kept), total_cpu_ns the untraced run's CPU time (its rusage:
 * the tasks' sampled times are scaled to it); what a replay spends on a process's calls
 * is its threads' cost_ns, and a share of replay_cpu_ns (an untraced replay's CPU time
 * for all the calls, 0 when the calls are priced one by one) as its calls. 0, or -1 with why (info
 * unchanged: the one scale for all stays). */
int trace_think_per_process(struct trace_info *info, const struct think_thread *th,
                            const struct think_task *tasks, size_t ntasks, int32_t parent_pid,
                            uint64_t total_cpu_ns, uint64_t replay_cpu_ns, char *why,
                            size_t len);

#endif
