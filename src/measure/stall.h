/* stall.h — finds the stalls of a phase in its progress time line.
 *
 * A stall is a maximal run of consecutive sampling intervals in each of which the phase
 * made no progress or completed operations at under `rel` (5 %) of the phase's median
 * rate, lasting at least `min_s` seconds in all. The median is over the intervals' rates,
 * weighted by nothing (each sample counts once), so one long stall cannot hide itself by
 * dragging the median down unless it covers most of the phase; then only intervals with
 * no progress at all count.
 *
 * Resolution: edges fall on samples, so a stall's start and length are within one
 * sampling interval of the truth (two half intervals at most).
 * Pure computation on a time line; nothing here reads clocks or devices.
 */
#ifndef FSBENCH_STALL_H
#define FSBENCH_STALL_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/results.h"

#define STALL_DEFAULT_S 1.0
#define STALL_DEFAULT_REL 0.05
/* A phase of fewer operations (sync, umount: one long call) is one operation, not a
 * stalled stream of them: no stalls are listed for it. */
#define STALL_MIN_OPS 100

/* Stalls of the time line p[0..len) into a new array *out (NULL when none) of *nout
 * entries; dev says whether the points carry device counters. 0, or -1 after error()
 * when out of memory. */
int stall_find(const struct timeline_point *p, size_t len, bool dev, double min_s, double rel,
               struct stall **out, size_t *nout);

/* Whether the device worked during the stall: a request in flight for at least a fifth
 * of its length. */
bool stall_device_busy(const struct stall *s);

#endif
