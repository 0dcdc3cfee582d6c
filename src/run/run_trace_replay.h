/* run_trace_replay.h — a trace replayed once into a directory, its result left there (the
 * replay phase outside the runner: `fsbench trace replay`). */
#ifndef FSBENCH_RUN_TRACE_REPLAY_H
#define FSBENCH_RUN_TRACE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace_read.h"

/* What run_trace_replay lays down: all (the initial state, then the calls), the initial
 * state only, or the calls only (on what a state-only replay laid down). */
enum { RUN_TRACE_PART_ALL, RUN_TRACE_PART_STATE, RUN_TRACE_PART_CALLS };

/* Replays t into dir/tree (dir made when missing; dir/tree must not exist unless part is
 * the calls only) with the replay phase's timing (REPLAY_AFAP or REPLAY_ORIGINAL), at most
 * threads threads (0: one per recorded thread), the first limit calls (0: all), the initial
 * state's files sparse, setuid/setgid bits kept or dropped; prints one line saying how long
 * it took. 0, or -1 after error(). */
int run_trace_replay(struct trace_file *t, const char *dir, unsigned timing, unsigned threads,
                     int part, uint64_t limit, bool sparse, bool keep_setid);

#endif
