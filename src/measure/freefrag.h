/* freefrag.h — free-space fragmentation: a histogram of the sizes of a file system's free
 * extents (how many, how many bytes, in power-of-two buckets from 4 KiB), the largest one
 * and the count, from GETFSMAP (os/fsmap.h) where the file system has it; else, given the
 * device the file system is on, from the file system's own tool (freefrag_tool.c:
 * e2freefrag for ext2/3/4, xfs_db for xfs, read-only); else the measure is "unknown" with
 * the reason, never a guess. The source is named with the figures.
 *
 * Buckets: bucket 0 holds extents below 8 KiB, bucket i in [4 KiB << i, 8 KiB << i), the
 * last (FREEFRAG_BUCKETS - 1) everything from 4 KiB << (FREEFRAG_BUCKETS - 1) = 1 GiB up.
 * Computation only; the summary is text for a phase's note.
 */
#ifndef FSBENCH_FREEFRAG_H
#define FSBENCH_FREEFRAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FREEFRAG_BUCKETS 19

struct freefrag {
    bool known;     /* false: unknown, why says so */
    char why[192];  /* "GETFSMAP: Operation not supported" */
    char source[16]; /* where a known histogram came from: GETFSMAP, e2freefrag, xfs_db */
    uint64_t extents, bytes, largest;
    uint64_t count[FREEFRAG_BUCKETS];
    uint64_t bytes_in[FREEFRAG_BUCKETS];
};

/* The bucket of a free extent of len bytes. */
unsigned freefrag_bucket(uint64_t len);

/* Starts an empty, known histogram. */
void freefrag_init(struct freefrag *f);

/* Counts one free extent of len bytes. */
void freefrag_add(struct freefrag *f, uint64_t len);

/* Measures the file system holding fd with GETFSMAP. Always fills *f: known, or unknown with
 * the reason. 0 when known, -1 when not (nothing printed). */
int freefrag_measure(int fd, struct freefrag *f);

/* The same, and where GETFSMAP is not offered and dev is not NULL, the file system's own
 * tool on dev (freefrag_tool_measure). dev must be a device this run made (an image's loop
 * device) or one the command line named; it is only read. With FSBENCH_FREE_SPACE_TOOL=1 in
 * the environment (for tests: a kernel with GETFSMAP everywhere would never take the other
 * way) the tool is asked first whenever dev is given. */
int freefrag_measure_dev(int fd, const char *dev, struct freefrag *f);

/* The file system's own tool: e2freefrag DEV (ext2/3/4) or xfs_db -r -c 'freesp -s -d' DEV
 * (xfs), after a syncfs of fd's file system, refused unless dev is the block device whose
 * number is fd's st_dev. 0, or -1 with f unknown and why saying so. */
int freefrag_tool_measure(int fd, const char *dev, struct freefrag *f);

/* The tools' text into a histogram (source set); their own totals are checked against the
 * lines read. 0, or -1 with f unknown ("e2freefrag: output not understood"). */
int freefrag_parse_e2freefrag(const char *text, struct freefrag *f);
int freefrag_parse_xfs_db(const char *text, struct freefrag *f);

/* "1234 free extents, largest 3.1 MiB, 41% of free space in extents under 1 MiB (source:
 * GETFSMAP)", or
 * "unknown (GETFSMAP: Operation not supported)". Returns buf. */
char *freefrag_summary(const struct freefrag *f, char *buf, size_t len);

/* The share of free bytes in extents below `below` bytes (0..1; 0 when nothing is free).
 * Counted from the buckets: below must be a bucket bound (4 KiB << i). */
double freefrag_share_below(const struct freefrag *f, uint64_t below);

#endif
