/* trace_prescan.h — what a directory held before a recorded program started, so that the
 * trace's initial state can say which of the paths the program used already existed, and
 * as what (type, permission bits, size, a symlink's target).
 *
 * The scan reads every entry below the directory once, before the program starts (no
 * symlink followed, no mount point crossed: the scan stays on the directory's file
 * system), into a hash table keyed by a 64-bit hash of the relative path: about 40 bytes
 * an entry plus symlink targets, and the paths themselves only of the entries the program
 * uses. A path is "used" when the recorder names it or anything below it
 * (trace_prescan_use); at the end the used entries come out sorted by path, each
 * directory before what it holds.
 */
#ifndef FSBENCH_TRACE_PRESCAN_H
#define FSBENCH_TRACE_PRESCAN_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

struct trace_prescan;

/* Scans everything below directory fd dirfd (a real directory, kept open by the caller).
 * *skipped counts entries left out (another file system, a path too long, a device or
 * fifo). NULL after error(). At most max_entries entries (an error beyond). */
struct trace_prescan *trace_prescan_dir(int dirfd, uint64_t max_entries, uint64_t *skipped);
/* An empty scan (the directory was empty, or for tests). */
struct trace_prescan *trace_prescan_new(void);
/* Adds one entry by hand (tests): 0 or -1 (out of memory). */
int trace_prescan_add(struct trace_prescan *p, const char *path, uint8_t type, uint32_t mode,
                      uint64_t size, const char *target);
uint64_t trace_prescan_count(const struct trace_prescan *p);

/* The program used path (n bytes, relative, valid): marks it and every ancestor that was
 * scanned. 0, or -1 when out of memory. */
int trace_prescan_use(struct trace_prescan *p, const char *path, size_t n);

/* Calls fn on every used entry in path order (e.path etc. valid during the call); stops
 * at the first fn that returns -1 and returns -1. *count and *bytes (regular files'
 * sizes) are filled first when not NULL, from a pass that calls nothing. */
int trace_prescan_used(struct trace_prescan *p, int (*fn)(void *arg, const struct trace_entry *e),
                       void *arg, uint64_t *count, uint64_t *bytes);

void trace_prescan_free(struct trace_prescan *p);

#endif
