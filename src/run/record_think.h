/* record_think.h — record's think time, after the trace is written: the tracer's part of
 * each gap measured by a traced replay of the trace (record_mirror.h), and with
 * --untraced-run the program's own CPU time (record_untraced.h) less what a replay spends
 * on its calls: an untraced replay's CPU time, the replay made right after the run kept
 * (record_untraced.h: the same moment, so a load lasting the whole recording is in both),
 * shared among the threads by a table of prices per call measured here (record_calib.h,
 * trace_calib.h), and given to each process (trace_think.h). Without such a pair the
 * table's price is taken, raised to a later untraced replay's CPU time where that is more
 * (the replay's own work per call, which the table does not hold).
 */
#ifndef FSBENCH_RECORD_THINK_H
#define FSBENCH_RECORD_THINK_H

#include <stddef.h>
#include <stdint.h>

#include "run/record_untraced.h"
#include "trace/trace.h"
#include "trace/trace_record.h"

/* record_untraced.h's pair: the trace at out replayed untraced beside root, its CPU time
 * on the calls scaled to all ncalls. */
struct record_think_pair {
    const char *out, *root;
    uint64_t ncalls;
};
int record_think_pair_replay(void *arg, uint64_t *cpu_ns);

/* The tracer's gap measured by replaying the trace at out under strace, and the think-time
 * model again with it, into info. 0, or -1 with why (the trace keeps its calibration's
 * model). */
int record_think_tracer(const char *out, const struct trace_recorder *rec,
                        struct trace_info *info, char *why, size_t len);

/* With the untraced run u: info's think time from it (plain_*, calib, calib_calls_ns,
 * think_ns and, where u's tasks are known, the processes). Returns 1 when the calls were
 * priced, 0 when not (why says why: the total is then the untraced CPU time in all);
 * *per_failed with proc_why when the think time could not be given per process (one scale
 * for all stays). */
int record_think_untraced(const char *out, const char *root, const struct trace_recorder *rec,
                          const struct record_untraced *u, struct trace_info *info, char *why,
                          size_t len, int *per_failed, char *proc_why, size_t plen);

#endif
