/* freefrag.h — free-space fragmentation: a histogram of the sizes of a file system's free
 * extents (how many, how many bytes, in power-of-two buckets from 4 KiB), the largest one
 * and the count, from GETFSMAP (os/fsmap.h) where the file system has it; elsewhere the
 * measure is "unknown" with the reason, never a guess.
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
    bool known;   /* false: unknown, why says so */
    char why[96]; /* "GETFSMAP: Operation not supported" */
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

/* Measures the file system holding fd. Always fills *f: known, or unknown with the reason.
 * 0 when known, -1 when not (nothing printed). */
int freefrag_measure(int fd, struct freefrag *f);

/* "1,234 free extents, largest 3.1 MiB, 41% of free space in extents under 1 MiB", or
 * "unknown (GETFSMAP: Operation not supported)". Returns buf. */
char *freefrag_summary(const struct freefrag *f, char *buf, size_t len);

/* The share of free bytes in extents below `below` bytes (0..1; 0 when nothing is free).
 * Counted from the buckets: below must be a bucket bound (4 KiB << i). */
double freefrag_share_below(const struct freefrag *f, uint64_t below);

#endif
