/* age_internal.h — what the three files of aging to a profile share: the ager's state
 * (one record per live file and per directory, the bucket counts), its books and
 * directories (age_books.c), and the rescan of what tree/age holds (age_rescan.c); the
 * operations and the run are age_profile.c's. Not for use outside those files.
 */
#ifndef FSBENCH_PHASE_AGE_INTERNAL_H
#define FSBENCH_PHASE_AGE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "phase/age.h"
#include "phase/workload.h"

#define AGE_ROOT PHASE_TREE_DIR "/" WL_AGE_DIR
#define AGE_OPEN_DIRS 256
#define AGE_DEPTH_MAX 64
#define AGE_CHOICES 8
#define AGE_CHECK_OPS 256
#define AGE_CLOCK_BASE 1262304000 /* 2010-01-01: a fresh tree's clock starts here */

struct age_file {
    uint64_t size;
    int64_t mtime;
    uint32_t id;
    uint32_t dir;
};

struct age_dir {
    uint32_t id, parent;
    uint16_t depth; /* root 0; a file in a directory of depth d has depth d + 1 */
    uint32_t nsub, nfiles;
    int fd;
};

struct ager {
    struct phase_ctx *ctx;
    const struct ageprof *p;
    struct wl_rng rng;
    struct age_file *f;
    size_t n, cap;
    struct age_dir *d;
    size_t nd, dcap;
    unsigned open_dirs;
    uint32_t next_file, next_dir;
    int64_t clock;
    double tick;         /* seconds the clock advances per operation */
    uint64_t live_bytes; /* the live files' sizes */
    uint64_t live_alloc; /* the same rounded up to whole blocks: what the target counts */
    uint64_t block;      /* the file system's block size */
    double target_bytes;
    struct ageprof_hist h;
};

/* ---- the books (age_books.c) ------------------------------------------------------------ */

/* The bucket of a size, of an mtime on the aging clock, of a file in directory dir. */
unsigned ager_size_bucket(const struct ager *a, uint64_t size);
unsigned ager_age_bucket(const struct ager *a, int64_t mtime);
unsigned ager_depth_bucket(const struct ager *a, uint32_t dir);

/* Counts f in its buckets (sign 1) or takes it out of them (sign -1). */
void ager_count(struct ager *a, const struct age_file *f, int sign);

/* The clock's speed: the ages a mix of operations leaves depend on how much time passes
 * per operation, so the speed is steered until the ages fit (the profile's turnover gives
 * the start: as many operations as there are live files take that long). Too many young
 * files (the age CDF above the profile's): faster; too many old ones: slower. */
void ager_steer_clock(struct ager *a);

/* The age buckets counted again from the clock (ages move as the clock does). */
void ager_recount_ages(struct ager *a);

/* How much bucket b of dimension d holds above its target share (negative: below). */
double ager_excess(const struct ager *a, unsigned d, unsigned b);

/* A bucket of dimension d drawn in proportion to what it lacks for n + 1 files, or by
 * the target shares when nothing lacks. */
unsigned ager_pick_deficit(struct ager *a, unsigned d, unsigned from, unsigned to);

/* A value in bucket b of dimension d: log-uniform between its bounds; the last bucket
 * reaches to 4x its lower bound (depths: one level). */
uint64_t ager_value_in(struct ager *a, unsigned d, unsigned b);

/* Closes every directory's descriptor but the root's. */
void ager_close_dirs(struct ager *a);

/* A file's name from its id: "f<hex>". */
void ager_file_name(uint32_t id, char *buf, size_t len);

/* "tree/age/d1/d7" for messages. */
void ager_dir_path(const struct ager *a, uint32_t i, char *buf, size_t len);

/* phase_fail() for op on name (NULL: none) in directory dir, its path spelled out: -1. */
int ager_fail_at(struct ager *a, const char *op, uint32_t dir, const char *name, int rc);

/* The fd of directory i, opened from its parent's: fd or -1 after phase_fail. */
int ager_dir_fd(struct ager *a, uint32_t i);

/* Adds directory id below parent at depth to the books. 0, or -1 (out of memory). */
int ager_add_dir(struct ager *a, uint32_t id, uint32_t parent, unsigned depth);

/* A directory of depth `depth` with room for one more file (want_sub: one more
 * subdirectory), made if none of a few drawn has room. Index, or -1 after phase_fail. */
long ager_dir_with_room(struct ager *a, unsigned depth, bool want_sub);

/* Adds file f to the books and to its directory's count. 0, or -1 (out of memory). */
int ager_add_file(struct ager *a, struct age_file f);

/* ---- the rescan (age_rescan.c) --------------------------------------------------------- */

/* Opens (making it if needed) tree/age as directory 0 and reads what is there. */
int ager_rescan(struct ager *a);

#endif
