/* age_replay.h — the books of aging by replay (--age-replay, phase_age_replay.c): what the
 * repetitions of the trace left, one record per regular file (size, mtime, depth), counted
 * into a profile's buckets after each repetition, so the distance of the file system's
 * distributions from a profile (--age-profile) is said as aging to a profile says it, and
 * without a profile the distributions themselves. A repetition's tree is counted once, when
 * it has ended (each repetition works in a directory of its own and the later ones do not
 * touch it); the ages are counted again at each measure, from the records' mtimes.
 */
#ifndef FSBENCH_PHASE_AGE_REPLAY_H
#define FSBENCH_PHASE_AGE_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "tree/ageprof.h"

struct age_seen {
    uint64_t size;
    int64_t mtime;
    uint32_t depth; /* 1: a file in the repetition's own directory */
};

struct age_replay_books {
    struct age_seen *f;
    size_t n, cap;
};

/* Adds every regular file below the directory dirfd (ageprof_walk). 0, or -1 (errno: the
 * directory could not be read, or ENOMEM). */
int age_replay_books_add(struct age_replay_books *b, int dirfd);

/* The books' files in p's buckets: sizes, ages (now - mtime; 0 for an mtime ahead of now),
 * depths. */
void age_replay_books_hist(const struct age_replay_books *b, const struct ageprof *p, int64_t now,
                           struct ageprof_hist *h);

/* Dimension d of h as whole percentages of its files, "0/3/10/22" (p's buckets, trailing
 * empty ones dropped; "-" with no files). Returns buf. */
char *age_replay_shares(const struct ageprof_hist *h, const struct ageprof *p, unsigned d,
                        char *buf, size_t len);

void age_replay_books_free(struct age_replay_books *b);

#endif
