/* trace_calib.h — what a replay spends on a trace's calls, from a table of CPU costs per
 * kind of call measured on the recording's machine and file system (run/record_calib.h):
 * record takes it off the program's untraced CPU time to leave its think time, in place of
 * an untraced replay's CPU time, which for a short program was as large as its own noise.
 * Computing only: the table, the class each call counts in, and the sums.
 */
#ifndef FSBENCH_TRACE_CALIB_H
#define FSBENCH_TRACE_CALIB_H

#include <stdint.h>

#include "trace/trace.h"

/* The table, struct trace_calib, and its classes are in trace.h (a trace holds its table). */

/* The class call c counts in (a call kind, kind < TK_CALL_KINDS). */
enum trace_calib_class trace_calib_class(const struct trace_call *c);

/* The class's name, for the summaries ("open", "create", ...). */
const char *trace_calib_name(enum trace_calib_class cls);

/* What the table says call c costs, ns (0 for a record that is not a call). */
uint64_t trace_calib_call_ns(const struct trace_calib *k, const struct trace_call *c);

/* The cost of count calls of cls that move bytes in all, ns. */
uint64_t trace_calib_cost(const struct trace_calib *k, enum trace_calib_class cls, uint64_t count,
                          uint64_t bytes);

#endif
