/* tree.h — a deterministic synthetic tree, streamed.
 *
 * (profile, scale, seed) -> the same entries, names, sizes and bytes every time, on every
 * machine. The tree is never held in memory: tree_next() walks it depth first with state
 * proportional to its depth, so ten million files cost what ten do.
 *
 * Order: a directory's entry (TREE_DIR) comes before its contents and is closed by a
 * TREE_LEAVE; within a directory, files and symlinks come before subdirectories. The root
 * itself is not an entry: depth-1 entries are the root's children.
 *
 * File content is `data` (data_len bytes) repeated until `size` bytes; `data` points into
 * a 2 MiB pattern made from the seed, owned by the generator (valid until tree_close())
 * or, when spec->pattern is set, shared by every generator of the spec (valid as long as
 * that pattern). Making the pattern is most of what tree_open() costs (a few ms), so a
 * phase that opens several generators, one per thread, shares one made before the clock.
 *
 * A TREE_LEAVE entry carries the name and depth of the directory it closes, and
 * tree_path() is that directory's path. Symlinks are extra entries: the file count
 * (round(files * scale), at least 1) counts regular files only. A symlink's target is the
 * bare name of a file emitted earlier in the same directory, so it never dangles.
 * There are no empty directories. Names are unique within their directory, made of
 * [A-Za-z0-9._-], never "." or "..".
 */
#ifndef FSBENCH_TREE_H
#define FSBENCH_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "tree/profile.h"

struct tree_spec {
    const struct profile *prof;
    double scale;           /* multiplies the profile's file count; > 0 */
    uint64_t seed;
    /* Optional: tree_pattern_new(seed)'s bytes, shared read-only by every generator opened
     * on this spec; NULL: each tree_open() makes its own. */
    const unsigned char *pattern;
};

enum tree_kind { TREE_DIR, TREE_FILE, TREE_SYMLINK, TREE_LEAVE };

struct tree_entry {
    enum tree_kind kind;
    const char *name;       /* base name; valid until the next tree_next() */
    unsigned depth;         /* 1 for the root's children */
    uint64_t size;          /* TREE_FILE: bytes */
    uint32_t mode;          /* permission bits (0644 files, 0755 dirs and scripts) */
    const void *data;       /* TREE_FILE: content pattern ... */
    size_t data_len;        /* ... repeated in pieces of data_len bytes (> 0) */
    const char *target;     /* TREE_SYMLINK: link target (relative, inside the tree) */
};

struct tree_gen;

/* Deepest directory level a profile may ask for (bounds the generator's stack). */
#define TREE_MAX_DEPTH PROFILE_MAX_DEPTH
/* Most files a tree may have: tree_open() refuses a scale past it, and the options that
 * set a scale check it first (a usage error, not a failed run). */
#define TREE_FILES_MAX ((uint64_t)1 << 40)
/* 0 if profile p at scale (given as arg, for the message) stays within TREE_FILES_MAX files,
 * else -1 after error() naming --scale, the tree and the largest scale that would do. */
int tree_check_scale(const char *arg, const struct profile *p, double scale);
/* data_len of a file: min(size, TREE_DATA_LEN), at least 1. The period is odd on purpose,
 * so that the repetitions of a large file never line up with block boundaries and a
 * deduplicating file system sees no identical blocks within ~4 GiB of one file. */
#define TREE_DATA_LEN ((size_t)(1u << 20) - 1)

/* Starts a walk of the tree; NULL after error() on bad input or no memory. */
struct tree_gen *tree_open(const struct tree_spec *spec);
/* Next entry into *e: 1, or 0 at the end. */
int tree_next(struct tree_gen *g, struct tree_entry *e);
/* Path of the last entry relative to the root ("a/b/c.c"), for messages. */
const char *tree_path(const struct tree_gen *g);
/* Skips the rest of the directory entered last and not yet left (its remaining entries
 * and its TREE_LEAVE), returning to its parent as if the LEAVE had been emitted; called
 * right after a TREE_DIR it skips that directory's whole subtree. O(1): a frame's budget
 * is fixed when it is entered. tree_path() is then the skipped directory's path. At the
 * root it ends the walk. Lets threads generate disjoint subtrees of one tree. */
void tree_skip_subtree(struct tree_gen *g);
void tree_close(struct tree_gen *g);

/* The content pattern of seed, for tree_spec.pattern; NULL after error() when out of
 * memory. Freed with free(). */
unsigned char *tree_pattern_new(uint64_t seed);

/* Files-at-this-size histogram: bucket i counts sizes in [2^(i-1), 2^i), bucket 0 size 0. */
#define TREE_HIST_BUCKETS 48

struct tree_totals {
    uint64_t files, dirs, symlinks, bytes;
    unsigned max_depth;         /* depth of the deepest entry (a file is one below its dir) */
    uint64_t max_file_size;
    uint64_t size_hist[TREE_HIST_BUCKETS];
};

/* Streams the whole tree without writing anything and adds it up. 0 or -1. */
int tree_measure(const struct tree_spec *spec, struct tree_totals *t);

/* Files at the given scale (what tree_measure would count), without walking; 0 if the
 * spec is invalid (no profile, scale not a positive number). */
uint64_t tree_file_count(const struct tree_spec *spec);

#endif
