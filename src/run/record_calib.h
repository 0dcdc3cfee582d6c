/* record_calib.h — record's table of what each kind of file-system call costs here
 * (trace_calib.h): batches of creates, opens, reads, writes, stats, listings, renames and
 * the rest timed in CPU time on a new directory on the recorded one's file system where
 * it may (record_dir.h: beside it, or inside it where it is that file system's root),
 * the quickest of a few rounds kept, so that a busy machine's preemptions do not count.
 * About 20,000 calls, a few tens of ms on a tmpfs.
 */
#ifndef FSBENCH_RECORD_CALIB_H
#define FSBENCH_RECORD_CALIB_H

#include <stddef.h>

#include "trace/trace_calib.h"

/* Measures the table into *k, in a directory made near near (record_dir.h; NULL: under
 * $TMPDIR) and removed after. 0, or -1 with why (one clause). */
int record_calib_measure(const char *near, struct trace_calib *k, char *why, size_t len);

#endif
