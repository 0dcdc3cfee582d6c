/* shape.h — the shape of a real directory tree, without its names or content, and a
 * profile that makes synthetic trees like it.
 *
 * shape_capture() walks a tree (no symlinks followed, no mount points crossed) and counts:
 * totals, and histograms of file sizes, files per directory, subdirectories per directory,
 * depth of files and name lengths. shape_write_ini() / shape_load_ini() keep it in an INI
 * file (`fsbench tree capture DIR -o shape.ini`); shape_to_profile() turns it into a
 * profile, so `--tree shape.ini` synthesises similar trees at any --scale.
 *
 * Buckets: file sizes, files per directory and subdirectories per directory use
 * power-of-two buckets (bucket 0 holds the value 0, bucket i >= 1 holds [2^(i-1), 2^i)),
 * named in the INI file by their lower bound (0, 1, 2, 4, 8, ...). Depth and name length
 * are small numbers and are kept exactly, one bucket per value.
 *
 * Counting conventions (those of tree_measure): the root is not an entry, its children
 * have depth 1; `dirs` excludes the root, but the per-directory histograms count every
 * directory including the root (dirs + 1 of them); `files` are regular files only.
 */
#ifndef FSBENCH_SHAPE_H
#define FSBENCH_SHAPE_H

#include <stdint.h>

#include "tree/profile.h"

#define SHAPE_BUCKETS PROFILE_HIST_BUCKETS /* power-of-two buckets */
#define SHAPE_DEPTH_MAX 64                 /* files deeper are counted at this depth */
#define SHAPE_NAME_MAX 255                 /* longest name a Linux file system allows */
#define SHAPE_VERSION 1

struct shape {
    uint64_t files, dirs, symlinks, bytes;
    uint64_t other;                 /* fifos, sockets, devices: seen, not reproduced */
    unsigned max_depth;             /* deepest entry (a file is one below its directory) */
    uint64_t skipped_mounts;        /* mount points met and not entered */
    uint64_t unreadable;            /* directories that could not be opened (skipped) */
    uint64_t file_sizes[SHAPE_BUCKETS];
    uint64_t files_per_dir[SHAPE_BUCKETS];
    uint64_t subdirs_per_dir[SHAPE_BUCKETS];
    uint64_t depth[SHAPE_DEPTH_MAX + 1];        /* files by depth (index 0 unused) */
    uint64_t name_length[SHAPE_NAME_MAX + 1];   /* every entry by name length */
};

/* Power-of-two bucket of a value: 0 for 0, else 1 + floor(log2(v)), capped at the last. */
unsigned shape_bucket(uint64_t v);
/* The sum of a histogram's n counts, saturating at UINT64_MAX. */
uint64_t shape_hist_sum(const uint64_t *a, unsigned n);

/* Walks dir (openat, getdents64, fstatat; symlinks are counted, never followed; mount
 * points are counted in skipped_mounts and not entered; unreadable directories are skipped
 * with a warning) and fills *out. 0, or -1 after error() naming the path. */
int shape_capture(const char *dir, struct shape *out);

/* Writes the shape as an INI file (a commented header, [shape] totals, one section per
 * histogram with "bucket_lo = count" lines for the non-empty buckets). 0 or -1 after
 * error(). path "-" writes to stdout. */
int shape_write_ini(const struct shape *s, const char *path);

/* Reads a shape INI file. Bad input gives one error "FILE:LINE: <what was wrong>":
 * unknown section or key, a bucket that is not a bucket's lower bound, a bad or repeated
 * number, a missing [shape], histograms that do not add up to the totals. 0 or -1. */
int shape_load_ini(const char *path, struct shape *out);

/* A profile made from a shape, with the storage its pointers refer to. */
struct shape_model {
    struct profile prof;
    double size_cdf[SHAPE_BUCKETS];
    double fpd_cdf[SHAPE_BUCKETS];
    char name[256];
    char summary[160];
    char source[320];
};

/* Fills m->prof so that tree_open() at scale s makes trees like the captured one, with
 * round(files * s) files. What is matched (see shape.c for how; test_shape measures it):
 * - exactly: the file count (at scale 1: the captured count);
 * - per bucket, at scale 1 exactly, else within one file of the scaled share: the file
 *   size histogram; total bytes within 2% (size_tilt is fitted to the captured bytes);
 * - approximately: files per directory (drawn from the captured histogram; the realised
 *   mean within 15%), depth of files (max_depth fitted to the captured depth histogram),
 *   symlinks per file; name lengths only as a range (5th to 95th percentile);
 * - not: subdirectories per directory beyond their mean, names, suffixes, content.
 * name becomes the profile's name (e.g. the INI path). 0, or -1 after error(). */
int shape_to_profile(const struct shape *s, const char *name, struct shape_model *m);

/* shape_load_ini() then shape_to_profile(), named after the path. 0 or -1. */
int shape_model_load(const char *path, struct shape_model *m);

/* 1 if a --tree argument names a shape file (ends in ".ini"), else 0. */
int shape_is_path(const char *arg);

#endif
