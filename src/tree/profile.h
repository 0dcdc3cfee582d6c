/* profile.h — the shape of a synthetic tree: built-in profiles (pkgsrc, kernel, mixed,
 * tiny) and their parameters.
 *
 * A profile fixes the file count at scale 1, the file-size distribution (lognormal body,
 * optional mode of large files), and the directory shape (files per directory, subdirectories
 * per directory, depth). Every parameter names its source in `source`.
 */
#ifndef FSBENCH_PROFILE_H
#define FSBENCH_PROFILE_H

#include <stdint.h>

/* Deepest directory level a profile may ask for (bounds the generator's stack). */
#define PROFILE_MAX_DEPTH 32

struct profile_name {
    const char *name;
    double share;                   /* probability that a directory holds this file */
};

struct profile {
    const char *name;
    const char *summary;            /* one line for `fsbench list` */
    const char *source;             /* where the shape and sizes come from */
    uint64_t files;                 /* files at scale 1 */

    /* File sizes in bytes: lognormal(size_mu, size_sigma) kept within [size_min, size_max]
     * (truncated: drawn by inverse CDF over the allowed range, so no spike at the bounds). */
    double size_mu, size_sigma;
    uint64_t size_min, size_max;
    /* A second mode of large files (ISOs, pictures): share of files (an exact count, spread
     * evenly through the tree), lognormal, truncated at large_max. */
    double large_share;
    double large_mu, large_sigma;
    uint64_t large_max;

    /* Directory shape: files per directory and subdirectories per directory. */
    double files_per_dir_mean;      /* mean of the files-per-directory distribution */
    double files_per_dir_sigma;     /* lognormal sigma of it */
    double subdirs_mean;            /* mean fan-out of an interior directory */
    unsigned max_depth;             /* deepest directory level (root's children are level 1;
                                       files go one level deeper); <= PROFILE_MAX_DEPTH */

    double symlink_share;           /* share of entries that are symbolic links */
    const char *const *suffixes;    /* file name suffixes, NULL-terminated (see below) */
    unsigned name_len_min, name_len_max; /* base name length range */

    /* Added for the tree generator. A suffix is "" (no extension), ".ext" (appended to a
     * generated base name; ".sh", ".pl" and ".py" files get mode 0755), or a template
     * "prefix-*" whose '*' is replaced by the entry's index ("patch-*" -> "patch-0k"). */
    const unsigned *suffix_weights; /* relative weight of each suffix; NULL: equal weights */
    /* Well-known names (Makefile, Kconfig): each appears in a directory with the given
     * probability, as its first files. Terminated by name NULL; the pointer may be NULL.
     * They must not contain '_' or '-', which keeps them apart from generated names. */
    const struct profile_name *fixed_names;

    /* Added for captured shapes (shape_fit.c); NULL and 0 in the built-in profiles, which keep
     * the lognormals above. Each table holds PROFILE_HIST_BUCKETS cumulative shares over
     * power-of-two buckets (bucket 0 is the value 0, bucket i >= 1 is [2^(i-1), 2^i)),
     * non-decreasing, the last 1. */
    /* File sizes: replaces size_mu/size_sigma/size_min/size_max (which must still pass the
     * check) and needs large_share 0. tree.c draws sizes by inverse CDF at stratified points,
     * so at scale 1 every bucket holds exactly its captured count. Inside a bucket the offset
     * t = log2(size / bucket_lo) in [0, 1) has density proportional to exp(size_tilt * t):
     * 0 is log-uniform, > 0 leans to the top of each bucket (fitted to the total bytes). */
    const double *size_cdf;
    double size_tilt;
    /* Files per directory: replaces the lognormal draw (log-uniform inside a bucket);
     * files_per_dir_mean must then be the table's mean (the generator's capacities use it). */
    const double *files_per_dir_cdf;
};

/* Buckets of size_cdf and files_per_dir_cdf (tree.h's TREE_HIST_BUCKETS is the same). */
#define PROFILE_HIST_BUCKETS 48

/* Limits profile_check() enforces: they keep the longest path of a generated tree within
 * the generator's fixed buffer. */
#define PROFILE_SUFFIXES_MAX 64     /* suffixes per profile */
#define PROFILE_SUFFIX_LEN_MAX 24   /* characters of one suffix or template */
#define PROFILE_NAME_LEN_MAX 48     /* name_len_max, and characters of a fixed name */

/* The built-in profiles, ending with an entry whose name is NULL. */
extern const struct profile profile_builtin[];

/* Looks a built-in profile up by name; NULL (and no message) if unknown. */
const struct profile *profile_find(const char *name);

/* Checks that a profile's parameters make sense (and that the names it generates stay
 * unique and fit a path); 0, or -1 after error() naming the profile and the field. */
int profile_check(const struct profile *p);

#endif
