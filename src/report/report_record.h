/* report_record.h — record's summary on stderr (the command's own output is on stdout):
 * what was recorded and left out, the initial state, the think time and how it was
 * found, the recording's limits, and with --untraced-run the think time per process.
 */
#ifndef FSBENCH_REPORT_RECORD_H
#define FSBENCH_REPORT_RECORD_H

#include <stdint.h>

#include "run/record_untraced.h"
#include "trace/trace.h"

/* The summary of the trace written to out (info in), skipped: entries the scan left
 * alone; think_ns the think time in all, why why it was found as it was; plain 0 without
 * --untraced-run, 1 with it but the calls not priced, 2 priced, 3 priced and each run
 * paired with its replay. */
void report_record_summary(const char *out, const struct trace_info *in, uint64_t skipped,
                           uint64_t think_ns, const char *why, int plain);

/* --untraced-run: how much of the processors' time other programs used while the program
 * ran untraced (nothing said where not known); when that was RECORD_BUSY_PERMILLE or
 * more, how many runs were made at quieter moments, and when the run kept was not one of
 * them, that the think time may carry the load. */
void report_record_busy(const struct record_untraced *u);

/* --untraced-run: how the think time was given to the processes (or why it was not, when
 * why is not NULL). */
void report_record_procs(const struct trace_info *in, const char *why);

#endif
