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

struct profile {
    const char *name;
    const char *summary;            /* one line for `fsbench list` */
    const char *source;             /* where the shape and sizes come from */
    uint64_t files;                 /* files at scale 1 */

    /* File sizes in bytes: lognormal(size_mu, size_sigma) clamped to [size_min, size_max]. */
    double size_mu, size_sigma;
    uint64_t size_min, size_max;
    /* A second mode of large files (ISOs, pictures): share of files, lognormal, clamp. */
    double large_share;
    double large_mu, large_sigma;
    uint64_t large_max;

    /* Directory shape: files per directory and subdirectories per directory. */
    double files_per_dir_mean;      /* mean of the files-per-directory distribution */
    double files_per_dir_sigma;     /* lognormal sigma of it */
    double subdirs_mean;            /* mean fan-out of an interior directory */
    unsigned max_depth;             /* deepest directory level */

    double symlink_share;           /* share of entries that are symbolic links */
    const char *const *suffixes;    /* file name suffixes, NULL-terminated */
    unsigned name_len_min, name_len_max; /* base name length range */
};

/* The built-in profiles, ending with an entry whose name is NULL. */
extern const struct profile profile_builtin[];

/* Looks a built-in profile up by name; NULL (and no message) if unknown. */
const struct profile *profile_find(const char *name);

#endif
