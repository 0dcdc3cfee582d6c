/* trace_record.h — turning strace's lines into trace records: which calls touch the
 * recorded directory, what each descriptor is, which thread and process did what.
 *
 * The recorder follows every thread and process strace reports: their descriptor tables
 * (shared between threads, copied by fork: each copied descriptor below the directory
 * becomes an "inherit" record of the child), their working directories (for calls that
 * take a relative path without a directory descriptor), close-on-exec at execve, and
 * every descriptor a process still holds when it ends (a "drop" record each), so a replay
 * holds exactly the descriptors the program held. A call is recorded when its path, or the
 * descriptor it acts on, lies below the directory; other calls are counted as left out
 * (outside the directory, or on a descriptor opened before the program started).
 *
 * Lines of a thread strace reports before the clone that made it has returned (strace
 * shows the child's first calls first, now and then) wait until that clone is seen.
 *
 * Think time: the gap between a thread's calls is the program's own work plus what the
 * tracer adds (stopping it twice a call, decoding, writing the line). The tracer's part
 * is estimated as a calibration's mean gap (a program that makes calls back to back,
 * traced the same way, just before and just after the recording), scaled by how much
 * slower this recording's quickest tenth of gaps was than the calibration's (a busier or
 * quieter moment; the scale bounded to 0.6-1.6): that is tracer_gap_ns, and a replay waits
 * (gap - tracer_gap_ns) x think_scale where the gap is larger, the scale making the sum of
 * those waits the sum of all gaps less the tracer's part of each. Record then measures the
 * tracer's gap better where it can: it replays the trace just made, traced the same way
 * (the same calls, in the same order, with no think time of their own), and takes that
 * replay's mean gap as the tracer's (trace_rec_rethink). On a machine whose load changes
 * from one second to the next this stays an estimate: trace stats shows its parts.
 */
#ifndef FSBENCH_TRACE_RECORD_H
#define FSBENCH_TRACE_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "trace/trace.h"
#include "trace/trace_prescan.h"

struct trace_recorder;

struct trace_rec_opts {
    const char *root;   /* the directory, absolute and resolved (realpath) */
    const char *cwd;    /* the program's first working directory, absolute */
    struct trace_prescan *pre; /* what root held before; NULL: nothing (marks uses) */
    /* Each record, in order. 0, or -1 (after error()) to stop the recording. */
    int (*emit)(void *arg, const struct trace_call *c);
    void *arg;
    /* The tracer's cost as strace_run_calibrate measured it (0: unknown). */
    uint64_t calib_gap_ns, calib_p10_ns, calib_dur_ns;
    /* Count the gaps of started threads only, not the first one's (record's traced replay:
     * its first thread sets up and waits, the threads it starts make the calls). */
    bool gaps_of_started;
};

/* NULL after error() (out of memory). */
struct trace_recorder *trace_rec_new(const struct trace_rec_opts *o);
/* One line of strace's output (no newline). 0, or -1 when emit failed or memory ran out
 * (after error()). A line the recorder cannot use is counted in left_other, not refused. */
int trace_rec_line(struct trace_recorder *r, const char *line, size_t n);
/* Replaces the calibration of the options (a second one, after the command, averaged with
 * the first). */
void trace_rec_set_calibration(struct trace_recorder *r, uint64_t gap_ns, uint64_t p10_ns,
                               uint64_t dur_ns);
/* Ends the recording: every thread still known ends (its descriptors dropped), and info's
 * counts are filled (strings and the state counts are the caller's). 0 or -1. */
int trace_rec_finish(struct trace_recorder *r, struct trace_info *info);
/* After trace_rec_finish: the think-time model again with the tracer's gap measured
 * otherwise (a replay of the trace traced the same way: gap_ns), into info's
 * tracer_gap_ns and think_scale_ppm. */
void trace_rec_rethink(const struct trace_recorder *r, uint64_t gap_ns, struct trace_info *info);
/* After trace_rec_finish (and trace_rec_rethink): the sum of the think times made
 * think_ns (record: the program's CPU time as the kernel counted it, less what a traced
 * replay of the same calls took: the tracer's own work is in neither), the tracer's gap
 * kept where the gaps hold more than that above it (the scale then below 1), lowered
 * where they hold less; into info's think_ns, tracer_gap_ns and think_scale_ppm (0 when
 * think_ns is). */
void trace_rec_think_cpu(const struct trace_recorder *r, uint64_t think_ns,
                         struct trace_info *info);
/* The gaps between the calls of each thread so far (below below_ns, to the microsecond;
 * 0: all): how many, their sum (ns). */
void trace_rec_gaps(const struct trace_recorder *r, uint64_t below_ns, uint64_t *n,
                    uint64_t *total_ns);
/* The durations of the quickest calls (close, fstat, lseek; each below 1 ms): how many,
 * their sum (ns). Such a call's own time is next to nothing: its duration is what the
 * tracer takes for one round trip at that moment of the recording, so that the difference
 * between the mean gap and this mean is the tracer's fixed part of a gap plus the
 * program's think time, whatever the machine's load did to both. */
void trace_rec_quick(const struct trace_recorder *r, uint64_t *n, uint64_t *total_ns);
/* Recorded thread thread's process: the recorded thread that leads it (thread itself for
 * a process), its command name as the kernel names it (the base name of its last execve,
 * else its parent's; "" when none was seen) and the calls thread made. */
void trace_rec_proc(const struct trace_recorder *r, uint32_t thread, uint32_t *leader,
                    const char **comm, uint64_t *calls);
void trace_rec_free(struct trace_recorder *r);

#endif
