/* trace_gaps.h — the one walk over a trace's records, thread by thread, that finds the gap
 * before each call (since its thread's last call, or its spawn) and what of that gap the
 * thread spent away (blocked) and at the tracer's other stops (TK_AWAY records): `trace
 * stats` sums the think time from it, record's think time per process (trace_think.h) what
 * each thread's gaps can hold.
 */
#ifndef FSBENCH_TRACE_GAPS_H
#define FSBENCH_TRACE_GAPS_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace.h"

struct trace_gaps;

/* A gap that a record ends. */
struct trace_gap {
    uint64_t gap_ns;   /* from the end of the thread's last call (or its spawn) to the start */
    uint64_t away_ns;  /* of it, blocked (TK_AWAY) */
    uint64_t stops;    /* the tracer's stops at calls the trace does not hold, meanwhile */
    bool call;         /* the record is a call (else a spawn: no think time before it) */
};

/* A walk over a trace of nthreads threads; NULL when out of memory. */
struct trace_gaps *trace_gaps_new(uint32_t nthreads);
void trace_gaps_free(struct trace_gaps *g);

/* Feeds the next record c in the trace's order. 1 when it ends a gap of a thread seen
 * before (a call, or a spawn record of the thread): *out says it; else 0. */
int trace_gaps_feed(struct trace_gaps *g, const struct trace_call *c, struct trace_gap *out);

#endif
