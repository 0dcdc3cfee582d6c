/* engine_uring.h — the io_uring engine: batched asynchronous submission of the phases'
 * operations through one ring per worker (see engine_uring.c for its ordering rules).
 */
#ifndef FSBENCH_ENGINE_URING_H
#define FSBENCH_ENGINE_URING_H

#include <stddef.h>

#include "engine/engine.h"

extern const struct engine engine_uring;

/* 0 when io_uring can run this engine here: rings can be set up and submit, and the kernel
 * has every opcode it needs; else -1 with a one-line reason in why (no "fsbench:" prefix),
 * such as "io_uring is disabled by /proc/sys/kernel/io_uring_disabled=2". The answer is
 * probed once per process and cached. */
int uring_available(char *why, size_t len);

/* Queue depth of rings set up by later worker_init calls: the most operations one worker
 * keeps queued or in flight (clamped to 1..4096; default URING_DEFAULT_QD). Call it before
 * the workers start. */
#define URING_DEFAULT_QD 64u
void uring_set_queue_depth(unsigned qd);
unsigned uring_queue_depth(void);

/* Name of the entry whose queued operation failed with the error the engine last returned
 * from a later call or drain() ("" when that was the call's own failure): lets a phase name
 * the right path in its message. Valid until the worker's next call. */
const char *uring_error_name(const struct eng_worker *w);

#endif
