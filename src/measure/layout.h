/* layout.h — why a layout is fast: where the blocks of an existing tree lie on disk.
 *
 * layout_scan() walks a directory (openat/getdents64/fstatat, never following symlinks,
 * never leaving the file system it starts on) and asks FIEMAP (with FIEMAP_FLAG_SYNC, so
 * delayed allocation is resolved first) for every regular file's extents. From them:
 *
 *  - extents per file and a histogram (1, 2-4, 5-16, >16 extents);
 *  - the layout score of Smith & Seltzer 1997 ("File System Aging — Increasing the
 *    Relevance of File System Benchmarks"): over all files, the share of block pairs
 *    (block k-1, block k) of the same file, in logical order, where block k lies
 *    physically right after block k-1. 1.0 is perfect. Files with fewer than two located
 *    blocks add nothing. Holes are skipped (the pair is the previous mapped block and the
 *    next one); an extent without a usable location (unknown/delalloc, inline, tail,
 *    encoded/compressed, not aligned) is excluded and breaks the chain, so the block after
 *    it starts a new one and is neither counted as contiguous nor as a gap. Unwritten
 *    (preallocated, fallocated) extents have a real location: they are scored like written
 *    ones and counted apart (extents, blocks, files), so a fallocated tree gets a score;
 *  - directory locality: per directory, the first physical block of each of its files in
 *    directory (getdents) order; the spread (max - min), the mean absolute distance between
 *    consecutive files, and the number of allocation groups spanned. The medians over
 *    directories with at least two located files are reported.
 *
 * Group sizes: ext2/3/4 — s_blocks_per_group from the superblock when the block device
 * can be read (root), else mke2fs's default of 8 * block size blocks per group (32768 for
 * 4 KiB blocks) marked "mke2fs default"; xfs — agblocks from XFS_IOC_FSGEOMETRY when
 * <xfs/xfs.h> was available at build time; everything else (btrfs, ...) "n/a".
 *
 * Computation only: nothing here prints except through error(). Memory grows with the
 * largest directory and with the number of directories (three numbers each), not with
 * the number of files. Hard-linked files are counted once per name.
 */
#ifndef FSBENCH_LAYOUT_H
#define FSBENCH_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/extents.h"


/* Buckets of the extents-per-file histogram. */
enum { LAYOUT_HIST_1, LAYOUT_HIST_2_4, LAYOUT_HIST_5_16, LAYOUT_HIST_MORE, LAYOUT_HIST_N };

/* Extent flags that make an extent's location unusable for the score and locality. */
#define LAYOUT_EXCLUDED_FLAGS                                                                      \
    (OS_EXTENT_UNKNOWN | OS_EXTENT_DELALLOC | OS_EXTENT_ENCODED | OS_EXTENT_NOT_ALIGNED |          \
     OS_EXTENT_DATA_INLINE | OS_EXTENT_DATA_TAIL)

/* One extent as FIEMAP reports it: byte offsets and length, OS_EXTENT_* (FIEMAP) flags. */
struct layout_extent {
    uint64_t logical;
    uint64_t physical;
    uint64_t length;
    uint32_t flags;
};

/* Running totals of one file's extents, fed in logical order (layout_file_add). */
struct layout_file {
    uint64_t extents;          /* all extents seen */
    uint64_t extents_excluded; /* of which without a usable location */
    uint64_t extents_unwritten; /* of which located but unwritten (preallocated) */
    uint64_t blocks_unwritten;  /* located blocks in unwritten extents */
    uint64_t blocks;           /* located blocks */
    uint64_t pairs;            /* (previous block, block) pairs considered */
    uint64_t contiguous;       /* of which physically adjacent */
    uint64_t first_block;      /* physical block of the first located extent */
    bool have_first;
    bool have_prev;    /* prev_end is valid (chain not broken) */
    uint64_t prev_end; /* physical block right after the previous located block */
};

struct layout_result {
    uint64_t files;              /* regular files scanned */
    uint64_t files_empty;        /* FIEMAP reported no extent (size 0, or all holes) */
    uint64_t files_single_block; /* exactly one located block: not in the score */
    uint64_t files_excluded;     /* extents, but none with a usable location */
    uint64_t files_unreadable;   /* could not be opened (permission, vanished) */
    uint64_t extents;            /* all extents reported */
    uint64_t extents_excluded;   /* without a usable location (see LAYOUT_EXCLUDED_FLAGS) */
    uint64_t extents_unwritten;  /* located, unwritten (fallocated): in the score */
    uint64_t blocks_unwritten;   /* located blocks in unwritten extents */
    uint64_t files_unwritten;    /* files with at least one unwritten extent */
    uint64_t extents_hist[LAYOUT_HIST_N]; /* files with 1, 2-4, 5-16, >16 extents */
    double extents_per_file;              /* extents / files with at least one extent; 0 if none */
    uint64_t blocks;                      /* located blocks of all files */
    uint64_t pairs;                  /* block pairs considered (blocks - 1 per unbroken file) */
    uint64_t contiguous;             /* pairs physically adjacent */
    double score;                    /* contiguous / pairs; -1 when pairs == 0 (n/a) */
    uint64_t dirs;                   /* directories scanned, the start directory included */
    uint64_t dirs_measured;          /* with >= 2 located files: the sample of the medians */
    uint64_t mounts_skipped;         /* directories on another file system, not entered */
    double dir_spread_median_blocks; /* -1 when no directory was measured */
    double dir_gap_median_blocks;    /* -1 when no directory was measured */
    double dir_groups_median;        /* -1 when n/a (unknown group size or no directory) */
    uint64_t fs_block_size;          /* FIGETBSZ, else statfs f_bsize */
    uint64_t group_blocks;           /* allocation group size in blocks; 0 when n/a */
    char group_source[32];           /* "superblock", "mke2fs default", "xfs geometry", "n/a" */
    char fstype[64];                 /* "ext4", "xfs", "tmpfs", ... */
    bool supported;                  /* false: FIEMAP unsupported here; counts are zero */
};

/* Scans the tree below directory dirfd (not closed) into out. Returns 0 — also when the
 * file system has no FIEMAP (out->supported false) — or -1 after error() naming the path. */
int layout_scan(int dirfd, struct layout_result *out);

/* ---- pure arithmetic, exposed for tests ---- */

/* Starts a file's totals. */
void layout_file_begin(struct layout_file *f);
/* Adds the file's next extent (in logical order); bs is the file-system block size. */
void layout_file_add(struct layout_file *f, const struct layout_extent *e, uint64_t bs);
/* Layout score of one file given its extents in logical order: contiguous / pairs, or -1
 * when the file has fewer than two located blocks. Pairs/contiguous go to *pairs and
 * *contiguous when those are not NULL. */
double layout_score_of(const struct layout_extent *e, size_t n, uint64_t bs, uint64_t *pairs,
                       uint64_t *contiguous);
/* Histogram bucket (LAYOUT_HIST_*) of a file with `extents` >= 1 extents. */
unsigned layout_hist_bucket(uint64_t extents);

/* Locality of one directory's files. */
struct layout_dir_stats {
    double spread_blocks; /* max - min first block */
    double gap_blocks;    /* mean |first[i] - first[i-1]| in directory order */
    double groups;        /* distinct groups spanned; -1 when group_blocks == 0 */
};
/* Computes s from the first physical blocks of a directory's n >= 2 files, in directory
 * order. Groups are (block - first_data_block) / group_blocks. Sorts `first` in place.
 * 0, or -1 when n < 2 (nothing to measure). */
int layout_dir_of(uint64_t *first, size_t n, uint64_t group_blocks, uint64_t first_data_block,
                  struct layout_dir_stats *s);
/* Median of v[0..n) (mean of the two middle values for even n); sorts v. -1 when n == 0. */
double layout_median(double *v, size_t n);

#endif
