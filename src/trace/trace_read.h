/* trace_read.h — reading a trace file, which is untrusted input: a regular file (opened
 * as base/infile.h opens every input), its header, footer and section bounds checked
 * against its size, its sections decompressed as streams (memory stays the same however
 * long the trace) and every record checked as it is decoded (trace_codec.h), the counts of
 * the whole checked against the info block at the end. Every refusal is one line naming
 * the file and, for a record, its number: "t.fsbt: record 1234: open record: a path that
 * is not relative and plain ...".
 *
 * A trace_file may be streamed by several streams at once (each reads with pread).
 */
#ifndef FSBENCH_TRACE_READ_H
#define FSBENCH_TRACE_READ_H

#include <stddef.h>

#include "trace/trace.h"

struct trace_file;
struct trace_stream;

/* Opens path and reads its info block. NULL after error() ("PATH: reason"). */
struct trace_file *trace_open(const char *path);
void trace_close(struct trace_file *t);
const struct trace_info *trace_file_info(const struct trace_file *t);
const char *trace_file_path(const struct trace_file *t);
/* The open file, and where its compressed calls section lies (trace_write's copy). */
int trace_file_fd(const struct trace_file *t);
void trace_file_calls_section(const struct trace_file *t, uint64_t *off, uint64_t *len);

/* Reads the whole trace once, checking every record and entry and the counts. 0, or -1
 * after error(). */
int trace_check(struct trace_file *t);

/* A stream over the call records or over the initial state. NULL with the reason in why. */
struct trace_stream *trace_calls_open(struct trace_file *t, char *why, size_t len);
struct trace_stream *trace_state_open(struct trace_file *t, char *why, size_t len);
/* The next record (calls) or entry (state): 1, 0 at the end (the counts checked), or -1
 * with the reason in trace_stream_error(). What c or e points to stays valid until the
 * next call. */
int trace_next_call(struct trace_stream *s, struct trace_call *c);
int trace_next_entry(struct trace_stream *s, struct trace_entry *e);
/* The reason of the last -1: "PATH: record N: ..." (one line). */
const char *trace_stream_error(const struct trace_stream *s);
void trace_stream_close(struct trace_stream *s);

#endif
