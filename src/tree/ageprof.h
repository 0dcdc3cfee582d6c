/* ageprof.h — aging profiles: the target distributions an aged file system should show
 * (file sizes, file ages, depth of files), the operation mix that gets it there, and how
 * far a measured file system is from them.
 *
 * A distribution is a list of buckets named by their lower bound: bucket i holds the values
 * in [lo[i], lo[i+1]), the last one everything from its bound up. Sizes are bytes, ages
 * seconds since the file's last modification (mtime), depths the number of directories
 * from the aging root to the file (a file in the root has depth 1, as in shape.h).
 * Shares are normalised to sum to 1 when a profile is loaded.
 *
 * Profiles come built in (ageprof_builtin(), each stating its published source) or from
 * an INI file in fsbench's own format (docs/guide.md, "Aging profiles"):
 *
 *     [profile]            name, source, utilization (0..1), fanout, files-per-dir,
 *                          turnover (a duration: the aging clock advances so that as
 *                          many operations as there are live files take this long)
 *     [sizes]  4K = 30     lower bound (B, K, M, G) = share (any non-negative number)
 *     [ages]   7d = 20     lower bound (s, m, h, d, y) = share
 *     [depths] 3 = 25      lower bound = share
 *     [mix]    create = 40 create, delete, append, truncate, rename, overwrite
 *
 * Bad input is one error "FILE:LINE: <what>" (or "FILE: <what>" for what a whole file
 * lacks). Computation only: nothing here prints except through error().
 */
#ifndef FSBENCH_AGEPROF_H
#define FSBENCH_AGEPROF_H

#include <stdint.h>
#include <stdio.h>

#define AGEPROF_BUCKETS 16

enum ageprof_dim { AGEPROF_SIZE, AGEPROF_AGE, AGEPROF_DEPTH, AGEPROF_DIMS };
enum ageprof_op {
    AGEPROF_CREATE,
    AGEPROF_DELETE,
    AGEPROF_APPEND,
    AGEPROF_TRUNCATE,
    AGEPROF_RENAME,
    AGEPROF_OVERWRITE,
    AGEPROF_OPS
};

struct ageprof_dist {
    unsigned n;                    /* buckets, 1..AGEPROF_BUCKETS */
    uint64_t lo[AGEPROF_BUCKETS];  /* strictly increasing lower bounds, lo[0] is 0 */
    double share[AGEPROF_BUCKETS]; /* sums to 1 */
};

struct ageprof {
    char name[64];
    char source[320]; /* where the figures come from */
    struct ageprof_dist dist[AGEPROF_DIMS];
    double mix[AGEPROF_OPS]; /* sums to 1 */
    double utilization;      /* share of the file system the aged files fill */
    unsigned fanout;         /* at most this many subdirectories per directory */
    unsigned files_per_dir;  /* at most this many files per directory */
    uint64_t turnover_s;     /* clock: live-files-many operations take this long */
};

/* Current counts of live files per bucket of each distribution. */
struct ageprof_hist {
    uint64_t count[AGEPROF_DIMS][AGEPROF_BUCKETS];
    uint64_t files;
};

/* How far a histogram is from the profile: diff = current share - target share per bucket,
 * max_abs the largest |diff| over all buckets of all dimensions (the summary number), and
 * where it is. A histogram with no files is at distance 1. */
struct ageprof_distance {
    double diff[AGEPROF_DIMS][AGEPROF_BUCKETS];
    double dim_max[AGEPROF_DIMS];
    double max_abs;
    unsigned worst_dim, worst_bucket;
};

/* The built-in profiles, a table ending in NULL. */
extern const struct ageprof *const ageprof_builtins[];

/* The built-in profile named name, or NULL. */
const struct ageprof *ageprof_builtin(const char *name);

/* A built-in profile's name, else a file in the format above. 0, or -1 after error(). */
int ageprof_load(const char *arg, struct ageprof *out);

/* Reads a profile file. 0, or -1 after error() "FILE:LINE: ...". */
int ageprof_parse_file(const char *path, struct ageprof *out);

/* Parses profile text (what ageprof_parse_file reads), path naming it in messages. */
int ageprof_parse_text(const char *path, const char *text, struct ageprof *out);

/* The bucket of d holding value v. */
unsigned ageprof_bucket(const struct ageprof_dist *d, uint64_t v);

/* Fills *out from h against p. */
void ageprof_distance(const struct ageprof *p, const struct ageprof_hist *h,
                      struct ageprof_distance *out);

/* "sizes", "ages", "depths"; a bucket's label ("4 KiB", "7 d", "3") into buf. */
const char *ageprof_dim_name(enum ageprof_dim d);
const char *ageprof_op_name(enum ageprof_op op);
char *ageprof_bucket_label(enum ageprof_dim d, uint64_t lo, char *buf, size_t len);

/* Writes p in the file format above (readable by ageprof_parse_file). 0 or -1 (errno). */
int ageprof_write(const struct ageprof *p, FILE *f);

/* An aging profile from the real tree dir (ageprof_capture.c): sizes, depths, ages from
 * mtimes, the utilization of its file system; the rest the small-file profile's. name
 * becomes the profile's name. 0, or -1 after error(). */
int ageprof_capture(const char *dir, const char *name, struct ageprof *out);

/* Calls fn(arg, its stat, its depth) for every regular file below the directory dirfd (depth
 * 1: in dirfd itself), walking as ageprof_capture does: each directory opened from its
 * parent's fd (O_NOFOLLOW), no symlink followed, no mount point crossed, a directory that
 * cannot be opened skipped, at most 64 levels. 0, or -1 (errno) when dirfd cannot be read. */
struct stat;
typedef void (*ageprof_file_fn)(void *arg, const struct stat *st, unsigned depth);
int ageprof_walk(int dirfd, ageprof_file_fn fn, void *arg);

/* The buckets tree capture counts in (out's shares and the rest zero): sizes from 0, 1,
 * 512, 2K, 8K, 32K, 128K, 512K, 2M, 8M, 32M, 128M; ages from 0, 1d, 7d, 30d, 90d, 1y, 3y;
 * depths 1 to 16. */
void ageprof_capture_buckets(struct ageprof *out);

/* Writes p to path (replaced by rename, "-" stdout). 0, or -1 after error(). */
int ageprof_write_file(const struct ageprof *p, const char *path);

#endif
