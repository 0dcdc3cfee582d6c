/* trace_stats.h — what a trace holds, summed up for `fsbench trace stats`: its calls by
 * kind and as the operation kinds fsbench counts (what a replay of it reports), the
 * records the recorder added, failures, and the initial state by type. Computing only:
 * the command prints.
 */
#ifndef FSBENCH_TRACE_STATS_H
#define FSBENCH_TRACE_STATS_H

#include <stdint.h>

#include "measure/results.h"
#include "trace/trace.h"
#include "trace/trace_read.h"

#define TRACE_STATS_THREADS 8

struct trace_stats {
    uint64_t calls[TK_CALL_KINDS];   /* per kind */
    uint64_t ops[OP_KINDS];          /* the same calls as fsbench's operation kinds */
    uint64_t spawns, exits, inherits, drops;
    uint64_t chan_writes, chan_reads, chan_bytes, waits; /* pipes, socket pairs (format 3) */
    uint64_t aways;                  /* TK_AWAY records (format 3): gaps a thread waited in */
    uint64_t away_ns;                /* their time blocked, added up */
    uint64_t away_stops;             /* the tracer's stops at calls the trace does not hold */
    uint64_t failed;                 /* calls that failed when recorded */
    uint64_t state[4];               /* initial state entries by type (TT_*) */
    /* the think times a replay with original timing spends (trace_think_ns, uncut), in
     * all and for each of the first TRACE_STATS_THREADS recorded threads */
    uint64_t think_ns;
    uint64_t thread_think_ns[TRACE_STATS_THREADS];
    uint64_t longest_gap_ns;         /* the longest time between a thread's calls (the end
                                      * of one, or its spawn, to the start of the next) */
    uint64_t longest_gap_seq;        /* the record that ends it (1-based; 0: none) */
};

/* The operation kind a replay counts a call of this kind (and flags) as. */
enum op_kind trace_op_kind(unsigned kind, uint32_t flags);

/* Reads the whole trace (every record checked). 0, or -1 after error(). */
int trace_stats_compute(struct trace_file *t, struct trace_stats *s);

#endif
