/* trace_write.h — writing a trace file (trace_file.h): records stream out compressed as
 * they come, then the info block and the initial state, then the footer. The file goes
 * through base/outfile.h: a temporary beside it, renamed over the path only when whole,
 * so an interrupted recording leaves nothing half-written.
 */
#ifndef FSBENCH_TRACE_WRITE_H
#define FSBENCH_TRACE_WRITE_H

#include "trace/trace.h"

struct trace_writer;

/* Starts a trace at path (header written, calls section open). NULL after error(). */
struct trace_writer *trace_writer_open(const char *path);
/* Starts a trace at path whose calls section is a byte copy of the one of trace file
 * src_fd (at off, len bytes, compressed as it is): the info block comes next. NULL after
 * error(). For record, which rewrites a trace's info once it has measured the tracer. */
struct trace_writer *trace_writer_open_copy(const char *path, int src_fd, uint64_t off,
                                            uint64_t len);
/* Appends a record (valid: trace_codec.h). 0, or -1 after error(). */
int trace_writer_call(struct trace_writer *w, const struct trace_call *c);
/* Ends the calls, writes the info block (its nstate and state_bytes must be what the
 * entries that follow add up to). 0 or -1 after error(). */
int trace_writer_info(struct trace_writer *w, const struct trace_info *info);
/* Appends an entry of the initial state, in path order. 0 or -1 after error(). */
int trace_writer_entry(struct trace_writer *w, const struct trace_entry *e);
/* Ends the file and renames it into place; w is freed. 0 or -1 after error(). */
int trace_writer_commit(struct trace_writer *w);
/* Gives up: the temporary is removed, w freed. NULL is a no-op. */
void trace_writer_discard(struct trace_writer *w);

#endif
