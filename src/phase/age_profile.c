/* age_profile.c — aging a file system towards a profile's distributions (see age.h for
 * the method and the entry point's contract).
 *
 * State: one record per live file (size, mtime on the aging clock, id, directory) and per
 * directory (parent, depth, subdirectories, files); bucket counts of the three
 * distributions kept as files change, the ages recounted from the clock every so often
 * (they move as the clock does). Directory fds are opened on demand below tree/age, each
 * from its parent's fd (no symlink followed, never a path of several names), and all but
 * the root's are closed when AGE_OPEN_DIRS are open.
 */
#include "phase/age.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>

#include "base/units.h"
#include "os/dirent.h"
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

/* ---- bookkeeping --------------------------------------------------------------------- */

static unsigned size_bucket(const struct ager *a, uint64_t size)
{
    return ageprof_bucket(&a->p->dist[AGEPROF_SIZE], size);
}

static unsigned age_bucket(const struct ager *a, int64_t mtime)
{
    int64_t age = a->clock - mtime;
    return ageprof_bucket(&a->p->dist[AGEPROF_AGE], age > 0 ? (uint64_t)age : 0);
}

static unsigned depth_bucket(const struct ager *a, uint32_t dir)
{
    return ageprof_bucket(&a->p->dist[AGEPROF_DEPTH], (uint64_t)a->d[dir].depth + 1);
}

static void count(struct ager *a, const struct age_file *f, int sign)
{
    a->h.count[AGEPROF_SIZE][size_bucket(a, f->size)] += (uint64_t)(int64_t)sign;
    a->h.count[AGEPROF_AGE][age_bucket(a, f->mtime)] += (uint64_t)(int64_t)sign;
    a->h.count[AGEPROF_DEPTH][depth_bucket(a, f->dir)] += (uint64_t)(int64_t)sign;
    a->h.files += (uint64_t)(int64_t)sign;
    a->live_bytes += (uint64_t)(int64_t)sign * f->size;
    a->live_alloc += (uint64_t)(int64_t)sign * ((f->size + a->block - 1) / a->block * a->block);
}

/* The clock's speed: the ages a mix of operations leaves depend on how much time passes
 * per operation, so the speed is steered until the ages fit (the profile's turnover gives
 * the start: as many operations as there are live files take that long). Too many young
 * files (the age CDF above the profile's): faster; too many old ones: slower. */
static void steer_clock(struct ager *a)
{
    const struct ageprof_dist *d = &a->p->dist[AGEPROF_AGE];
    if (!a->h.files || d->n < 2)
        return;
    double cur = 0, want = 0, err = 0;
    for (unsigned b = 0; b + 1 < d->n; b++) {
        cur += (double)a->h.count[AGEPROF_AGE][b] / (double)a->h.files;
        want += d->share[b];
        err += cur - want;
    }
    if (err > 0.002)
        a->tick *= 1.05;
    else if (err < -0.002)
        a->tick /= 1.05;
    if (a->tick < 1)
        a->tick = 1;
    if (a->tick > 1e7)
        a->tick = 1e7;
}

static void recount_ages(struct ager *a)
{
    memset(a->h.count[AGEPROF_AGE], 0, sizeof a->h.count[AGEPROF_AGE]);
    for (size_t i = 0; i < a->n; i++)
        a->h.count[AGEPROF_AGE][age_bucket(a, a->f[i].mtime)]++;
}

/* How much bucket b of dimension d holds above its target share (negative: below). */
static double excess(const struct ager *a, unsigned d, unsigned b)
{
    double n = a->h.files ? (double)a->h.files : 1;
    return (double)a->h.count[d][b] / n - a->p->dist[d].share[b];
}

/* A bucket of dimension d drawn in proportion to what it lacks for n + 1 files, or by
 * the target shares when nothing lacks. */
static unsigned pick_deficit(struct ager *a, unsigned d, unsigned from, unsigned to)
{
    const struct ageprof_dist *dist = &a->p->dist[d];
    double w[AGEPROF_BUCKETS], sum = 0;
    double n1 = (double)a->h.files + 1;
    for (unsigned b = from; b < to; b++) {
        double lack = dist->share[b] * n1 - (double)a->h.count[d][b];
        w[b] = lack > 0 ? lack : 0;
        sum += w[b];
    }
    if (sum <= 0)
        for (unsigned b = from; b < to; b++)
            sum += w[b] = dist->share[b] + 1e-9;
    double r = wl_rng_unit(&a->rng) * sum;
    for (unsigned b = from; b < to; b++) {
        if (r < w[b])
            return b;
        r -= w[b];
    }
    return to - 1;
}

/* A value in bucket b of dimension d: log-uniform between its bounds; the last bucket
 * reaches to 4x its lower bound (depths: one level). */
static uint64_t value_in(struct ager *a, unsigned d, unsigned b)
{
    const struct ageprof_dist *dist = &a->p->dist[d];
    uint64_t lo = dist->lo[b];
    uint64_t hi = b + 1 < dist->n ? dist->lo[b + 1] : d == AGEPROF_DEPTH ? lo + 1 : lo * 4;
    if (hi <= lo + 1)
        return lo;
    if (lo == 0)
        return 0;
    double v = exp(log((double)lo) + wl_rng_unit(&a->rng) * (log((double)hi) - log((double)lo)));
    uint64_t u = (uint64_t)v;
    return u < lo ? lo : u >= hi ? hi - 1 : u;
}

/* ---- directories --------------------------------------------------------------------- */

static void close_dirs(struct ager *a)
{
    for (size_t i = 1; i < a->nd; i++)
        if (a->d[i].fd >= 0) {
            a->ctx->eng->close(a->ctx->w, a->d[i].fd);
            a->d[i].fd = -1;
        }
    a->open_dirs = 0;
}

static void dir_name(uint32_t id, char *buf, size_t len)
{
    snprintf(buf, len, "d%" PRIx32, id);
}

static void file_name(uint32_t id, char *buf, size_t len)
{
    snprintf(buf, len, "f%" PRIx32, id);
}

/* "tree/age/d1/d7" for messages. */
static void dir_path(const struct ager *a, uint32_t i, char *buf, size_t len)
{
    if (i == 0) {
        snprintf(buf, len, "%s", AGE_ROOT);
        return;
    }
    char tail[24];
    dir_path(a, a->d[i].parent, buf, len);
    dir_name(a->d[i].id, tail, sizeof tail);
    size_t l = strlen(buf);
    snprintf(buf + l, len - l, "/%s", tail);
}

static int fail_at(struct ager *a, const char *op, uint32_t dir, const char *name, int rc)
{
    char path[1024];
    dir_path(a, dir, path, sizeof path);
    if (name) {
        size_t l = strlen(path);
        snprintf(path + l, sizeof path - l, "/%s", name);
    }
    return phase_fail(a->ctx, op, path, rc);
}

/* The fd of directory i, opened from its parent's: fd or -1 after phase_fail. */
static int dir_fd(struct ager *a, uint32_t i)
{
    if (a->d[i].fd >= 0)
        return a->d[i].fd;
    if (a->open_dirs >= AGE_OPEN_DIRS)
        close_dirs(a);
    int pfd = dir_fd(a, a->d[i].parent);
    if (pfd < 0)
        return -1;
    char name[24];
    dir_name(a->d[i].id, name, sizeof name);
    int fd = a->ctx->eng->opendir(a->ctx->w, pfd, name);
    if (fd < 0) {
        char path[1024];
        dir_path(a, i, path, sizeof path);
        return phase_fail_dir(a->ctx, "open", path, fd);
    }
    a->d[i].fd = fd;
    a->open_dirs++;
    return fd;
}

static int add_dir(struct ager *a, uint32_t id, uint32_t parent, unsigned depth)
{
    if (a->nd == a->dcap) {
        size_t ncap = a->dcap ? a->dcap * 2 : 64;
        struct age_dir *p = realloc(a->d, ncap * sizeof *p);
        if (!p)
            return -1;
        a->d = p;
        a->dcap = ncap;
    }
    a->d[a->nd++] =
        (struct age_dir){.id = id, .parent = parent, .depth = (uint16_t)depth, .fd = -1};
    if (a->nd > 1)
        a->d[parent].nsub++;
    if (id >= a->next_dir)
        a->next_dir = id + 1;
    return 0;
}

/* A directory of depth `depth` with room for one more file (want_sub: one more
 * subdirectory), made if none of a few drawn has room. Index, or -1 after phase_fail. */
static long dir_with_room(struct ager *a, unsigned depth, bool want_sub)
{
    if (depth == 0)
        return 0; /* the root takes any number */
    size_t cand[AGE_CHOICES], nc = 0;
    /* a few draws over all directories, keeping those at the depth: directories are few */
    for (unsigned t = 0; t < 4 * AGE_CHOICES && nc < AGE_CHOICES && a->nd > 1; t++) {
        size_t i = 1 + (size_t)wl_rng_below(&a->rng, a->nd - 1);
        if (a->d[i].depth == depth &&
            (want_sub ? a->d[i].nsub < a->p->fanout : a->d[i].nfiles < a->p->files_per_dir))
            cand[nc++] = i;
    }
    if (nc)
        return (long)cand[wl_rng_below(&a->rng, nc)];
    /* a scan for one with room before making one: keeps the directory count near what
     * the files need */
    size_t start = a->nd > 1 ? 1 + (size_t)wl_rng_below(&a->rng, a->nd - 1) : 1;
    for (size_t k = 0; k + 1 < a->nd; k++) {
        size_t i = 1 + (start - 1 + k) % (a->nd - 1);
        if (a->d[i].depth == depth &&
            (want_sub ? a->d[i].nsub < a->p->fanout : a->d[i].nfiles < a->p->files_per_dir))
            return (long)i;
    }
    long parent = dir_with_room(a, depth - 1, true);
    if (parent < 0)
        return -1;
    int pfd = dir_fd(a, (uint32_t)parent);
    if (pfd < 0)
        return -1;
    uint32_t id = a->next_dir;
    char name[24];
    dir_name(id, name, sizeof name);
    int rc = a->ctx->eng->mkdir(a->ctx->w, pfd, name, 0755);
    if (rc < 0)
        return rc == -ENOSPC || rc == -EDQUOT ? -2
                                              : fail_at(a, "mkdir", (uint32_t)parent, name, rc);
    if (add_dir(a, id, (uint32_t)parent, depth) < 0)
        return phase_fail(a->ctx, "age", AGE_ROOT, -ENOMEM);
    a->ctx->res->dirs++;
    return (long)(a->nd - 1);
}

/* ---- files ----------------------------------------------------------------------------- */

static bool no_space(int rc)
{
    return rc == -ENOSPC || rc == -EDQUOT;
}

static struct timespec ts_of(int64_t t)
{
    return (struct timespec){.tv_sec = (time_t)t, .tv_nsec = 0};
}

static int add_file(struct ager *a, struct age_file f)
{
    if (a->n == a->cap) {
        size_t ncap = a->cap ? a->cap * 2 : 1024;
        struct age_file *p = realloc(a->f, ncap * sizeof *p);
        if (!p)
            return -1;
        a->f = p;
        a->cap = ncap;
    }
    a->f[a->n++] = f;
    count(a, &f, 1);
    a->d[f.dir].nfiles++;
    if (f.id >= a->next_file)
        a->next_file = f.id + 1;
    return 0;
}

/* Each operation: 0 done, 1 the file system is full, -1 after phase_fail. */
static int op_create(struct ager *a)
{
    struct phase_ctx *ctx = a->ctx;
    unsigned sb = pick_deficit(a, AGEPROF_SIZE, 0, a->p->dist[AGEPROF_SIZE].n);
    unsigned db = pick_deficit(a, AGEPROF_DEPTH, 0, a->p->dist[AGEPROF_DEPTH].n);
    uint64_t size = value_in(a, AGEPROF_SIZE, sb);
    uint64_t depth = value_in(a, AGEPROF_DEPTH, db);
    if (depth > AGE_DEPTH_MAX)
        depth = AGE_DEPTH_MAX;
    long dir = dir_with_room(a, (unsigned)depth - 1, false);
    if (dir == -2)
        return 1;
    if (dir < 0)
        return -1;
    int dfd = dir_fd(a, (uint32_t)dir);
    if (dfd < 0)
        return -1;
    uint32_t id = a->next_file;
    char name[24];
    file_name(id, name, sizeof name);
    size_t off = (size_t)wl_rng_below(&a->rng, 4096);
    int rc = ctx->eng->create_file(ctx->w, dfd, name, 0644, wl_pattern() + off,
                                   WL_PATTERN_LEN - off, size, 0);
    if (no_space(rc))
        return 1;
    if (rc < 0)
        return fail_at(a, "create", (uint32_t)dir, name, rc);
    struct timespec ts[2] = {ts_of(a->clock), ts_of(a->clock)};
    rc = ctx->eng->set_times(ctx->w, dfd, name, ts);
    if (rc < 0)
        return fail_at(a, "utimensat", (uint32_t)dir, name, rc);
    if (add_file(a, (struct age_file){size, a->clock, id, (uint32_t)dir}) < 0)
        return phase_fail(ctx, "age", AGE_ROOT, -ENOMEM);
    ctx->res->files++;
    return 0;
}

/* Of a few files drawn, the one whose buckets hold most excess (dims: which count). */
static size_t pick_victim(struct ager *a, bool by_size, bool by_age, bool by_depth)
{
    size_t best = (size_t)wl_rng_below(&a->rng, a->n);
    double best_score = -1e9;
    for (unsigned t = 0; t < AGE_CHOICES; t++) {
        size_t i = t ? (size_t)wl_rng_below(&a->rng, a->n) : best;
        const struct age_file *f = &a->f[i];
        double s = 0;
        if (by_size)
            s += excess(a, AGEPROF_SIZE, size_bucket(a, f->size));
        if (by_age)
            s += excess(a, AGEPROF_AGE, age_bucket(a, f->mtime));
        if (by_depth)
            s += excess(a, AGEPROF_DEPTH, depth_bucket(a, f->dir));
        if (s > best_score) {
            best_score = s;
            best = i;
        }
    }
    return best;
}

static int op_delete(struct ager *a, size_t i)
{
    struct age_file *f = &a->f[i];
    int dfd = dir_fd(a, f->dir);
    if (dfd < 0)
        return -1;
    char name[24];
    file_name(f->id, name, sizeof name);
    int rc = a->ctx->eng->unlink(a->ctx->w, dfd, name, 0);
    if (rc < 0)
        return fail_at(a, "unlink", f->dir, name, rc);
    count(a, f, -1);
    a->d[f->dir].nfiles--;
    a->f[i] = a->f[--a->n];
    return 0;
}

/* Opens file i for writing: fd, or -1 after phase_fail. */
static int open_file(struct ager *a, const struct age_file *f, int flags)
{
    int dfd = dir_fd(a, f->dir);
    if (dfd < 0)
        return -1;
    char name[24];
    file_name(f->id, name, sizeof name);
    int fd = a->ctx->eng->open(a->ctx->w, dfd, name, flags | O_NOFOLLOW, 0);
    return fd < 0 ? fail_at(a, "open", f->dir, name, fd) : fd;
}

/* Ends a write to file i: mtime to the clock, the close, the counts under its new size. */
static int finish_write(struct ager *a, size_t i, int fd, int rc, uint64_t new_size, const char *op)
{
    struct age_file *f = &a->f[i];
    struct timespec ts[2] = {ts_of(a->clock), ts_of(a->clock)};
    if (rc == 0)
        rc = a->ctx->eng->futimens(a->ctx->w, fd, ts);
    int rc2 = a->ctx->eng->close(a->ctx->w, fd);
    if (rc == 0)
        rc = rc2;
    if (no_space(rc))
        return 1;
    char name[24];
    file_name(f->id, name, sizeof name);
    if (rc < 0)
        return fail_at(a, op, f->dir, name, rc);
    count(a, f, -1);
    f->size = new_size;
    f->mtime = a->clock;
    count(a, f, 1);
    return 0;
}

static int op_append(struct ager *a, size_t i)
{
    struct age_file *f = &a->f[i];
    const struct ageprof_dist *sd = &a->p->dist[AGEPROF_SIZE];
    unsigned b = size_bucket(a, f->size);
    unsigned nb = pick_deficit(a, AGEPROF_SIZE, b, sd->n);
    uint64_t want = value_in(a, AGEPROF_SIZE, nb);
    if (want <= f->size) /* the same bucket: grow within it (or a little) */
        want = f->size + 1 + wl_rng_below(&a->rng, 4096);
    int fd = open_file(a, f, O_WRONLY | O_APPEND);
    if (fd < 0)
        return -1;
    int rc = wl_write_pattern(a->ctx, fd, want - f->size, wl_rng_next(&a->rng));
    return finish_write(a, i, fd, rc, want, "append");
}

static int op_truncate(struct ager *a, size_t i)
{
    struct age_file *f = &a->f[i];
    unsigned b = size_bucket(a, f->size);
    unsigned nb = pick_deficit(a, AGEPROF_SIZE, 0, b + 1);
    uint64_t want = value_in(a, AGEPROF_SIZE, nb);
    if (want >= f->size)
        want = f->size ? wl_rng_below(&a->rng, f->size) : 0;
    int fd = open_file(a, f, O_WRONLY);
    if (fd < 0)
        return -1;
    int rc = a->ctx->eng->ftruncate(a->ctx->w, fd, want);
    return finish_write(a, i, fd, rc, want, "truncate");
}

static int op_overwrite(struct ager *a, size_t i)
{
    struct age_file *f = &a->f[i];
    if (f->size == 0)
        return op_append(a, i);
    uint64_t len = 4096 + wl_rng_below(&a->rng, 60 * 1024);
    if (len > f->size)
        len = f->size;
    uint64_t off = wl_rng_below(&a->rng, f->size - len + 1);
    int fd = open_file(a, f, O_WRONLY);
    if (fd < 0)
        return -1;
    int rc = 0;
    const unsigned char *pat = wl_pattern();
    for (uint64_t done = 0; rc == 0 && done < len;) {
        size_t piece = len - done < WL_PATTERN_LEN / 2 ? (size_t)(len - done) : WL_PATTERN_LEN / 2;
        long w = a->ctx->eng->pwrite(a->ctx->w, fd, pat + (done % 4096), piece, off + done);
        if (w < 0)
            rc = (int)w;
        else if (w == 0)
            rc = -EIO;
        else
            done += (uint64_t)w;
    }
    return finish_write(a, i, fd, rc, f->size, "overwrite");
}

static int op_rename(struct ager *a, size_t i)
{
    struct age_file *f = &a->f[i];
    unsigned db = pick_deficit(a, AGEPROF_DEPTH, 0, a->p->dist[AGEPROF_DEPTH].n);
    uint64_t depth = value_in(a, AGEPROF_DEPTH, db);
    if (depth > AGE_DEPTH_MAX)
        depth = AGE_DEPTH_MAX;
    long to = dir_with_room(a, (unsigned)depth - 1, false);
    if (to == -2)
        return 1;
    if (to < 0)
        return -1;
    int ffd = dir_fd(a, f->dir);
    int tfd = ffd < 0 ? -1 : dir_fd(a, (uint32_t)to);
    if (tfd >= 0 && a->d[f->dir].fd < 0) /* closed when the open ones were flushed */
        ffd = dir_fd(a, f->dir);
    if (tfd < 0 || ffd < 0)
        return -1;
    char from[24], name[24];
    file_name(f->id, from, sizeof from);
    uint32_t id = a->next_file;
    file_name(id, name, sizeof name);
    int rc = a->ctx->eng->rename(a->ctx->w, ffd, from, tfd, name);
    if (no_space(rc))
        return 1;
    if (rc < 0)
        return fail_at(a, "rename", f->dir, from, rc);
    count(a, f, -1);
    a->d[f->dir].nfiles--;
    f->dir = (uint32_t)to;
    f->id = id;
    a->next_file = id + 1;
    a->d[f->dir].nfiles++;
    count(a, f, 1);
    return 0;
}

static enum ageprof_op draw_op(struct ager *a)
{
    double r = wl_rng_unit(&a->rng);
    unsigned o = 0;
    while (o + 1 < AGEPROF_OPS && r >= a->p->mix[o]) {
        r -= a->p->mix[o];
        o++;
    }
    /* hold the utilization: below it nothing is deleted, above it nothing created */
    if (o == AGEPROF_DELETE && (double)a->live_alloc < a->target_bytes)
        o = AGEPROF_CREATE;
    else if (o == AGEPROF_CREATE && (double)a->live_alloc > a->target_bytes && a->n)
        o = AGEPROF_DELETE;
    return (enum ageprof_op)o;
}

static int step(struct ager *a)
{
    enum ageprof_op op = a->n ? draw_op(a) : AGEPROF_CREATE;
    int rc;
    switch (op) {
    case AGEPROF_CREATE:
        rc = op_create(a);
        break;
    case AGEPROF_DELETE:
        rc = op_delete(a, pick_victim(a, true, true, true));
        break;
    case AGEPROF_APPEND:
        rc = op_append(a, pick_victim(a, true, true, false));
        break;
    case AGEPROF_TRUNCATE:
        rc = op_truncate(a, pick_victim(a, true, true, false));
        break;
    case AGEPROF_RENAME:
        rc = op_rename(a, pick_victim(a, false, false, true));
        break;
    default:
        rc = op_overwrite(a, pick_victim(a, false, true, false));
        break;
    }
    a->clock += a->tick < 1 ? 1 : (int64_t)llround(a->tick);
    return rc;
}

/* ---- the rescan -------------------------------------------------------------------------- */

/* Parses "<c><hex>" into *id: true when name is exactly that. */
static bool parse_id(const char *name, char c, uint32_t *id)
{
    if (name[0] != c || !name[1] || strlen(name) > 9)
        return false;
    char *end;
    unsigned long v = strtoul(name + 1, &end, 16);
    if (*end || v > UINT32_MAX)
        return false;
    /* only the names this file makes ("d00" of the plain churn is not "d0") */
    char again[24];
    snprintf(again, sizeof again, "%c%" PRIx32, c, (uint32_t)v);
    if (strcmp(again, name))
        return false;
    *id = (uint32_t)v;
    return true;
}

struct scan_ent {
    uint32_t id;
    bool dir;
};

/* Reads directory index di (its fd open) and, depth first, every "d<hex>" below it. */
static int rescan_dir(struct ager *a, uint32_t di, void *buf, size_t buflen)
{
    struct phase_ctx *ctx = a->ctx;
    int fd = dir_fd(a, di);
    if (fd < 0)
        return -1;
    struct scan_ent *ents = NULL;
    size_t ne = 0, ecap = 0;
    for (;;) {
        int got = ctx->eng->getdents(ctx->w, fd, buf, buflen);
        if (got < 0) {
            free(ents);
            char path[1024];
            dir_path(a, di, path, sizeof path);
            return phase_fail_dir(ctx, "getdents", path, got);
        }
        if (got == 0)
            break;
        for (size_t off = 0; off < (size_t)got;) {
            const struct os_dirent *e = os_dirent_at(buf, off);
            off += e->d_reclen;
            uint32_t id;
            unsigned type = e->d_type;
            if (type == DT_UNKNOWN) { /* the file system does not say: ask */
                struct stat st;
                if (ctx->eng->stat(ctx->w, fd, e->d_name, &st) == 0)
                    type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : 0;
            }
            bool isdir = type == DT_DIR && parse_id(e->d_name, 'd', &id);
            bool isfile = type == DT_REG && parse_id(e->d_name, 'f', &id);
            if (!isdir && !isfile)
                continue;
            if (ne == ecap) {
                ecap = ecap ? ecap * 2 : 64;
                void *p = realloc(ents, ecap * sizeof *ents);
                if (!p) {
                    free(ents);
                    return phase_fail(ctx, "age", AGE_ROOT, -ENOMEM);
                }
                ents = p;
            }
            ents[ne].id = id;
            ents[ne++].dir = isdir;
        }
    }
    /* in id order, so the state (and the operations after it) never depend on the order
     * the file system lists entries in */
    for (size_t i = 1; i < ne; i++)
        for (size_t j = i;
             j > 0 && (ents[j - 1].dir > ents[j].dir ||
                       (ents[j - 1].dir == ents[j].dir && ents[j - 1].id > ents[j].id));
             j--) {
            struct scan_ent t = ents[j];
            ents[j] = ents[j - 1];
            ents[j - 1] = t;
        }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < ne; i++) {
        if (ents[i].dir) {
            if (a->d[di].depth + 1 >= AGE_DEPTH_MAX)
                continue;
            if (add_dir(a, ents[i].id, di, a->d[di].depth + 1u) < 0) {
                rc = phase_fail(ctx, "age", AGE_ROOT, -ENOMEM);
                break;
            }
            rc = rescan_dir(a, (uint32_t)(a->nd - 1), buf, buflen);
            continue;
        }
        char name[24];
        file_name(ents[i].id, name, sizeof name);
        struct stat st;
        int s = ctx->eng->stat(ctx->w, dir_fd(a, di), name, &st);
        if (s < 0) {
            rc = fail_at(a, "stat", di, name, s);
            break;
        }
        if (add_file(a, (struct age_file){(uint64_t)st.st_size, (int64_t)st.st_mtime, ents[i].id,
                                          di}) < 0)
            rc = phase_fail(ctx, "age", AGE_ROOT, -ENOMEM);
        if ((int64_t)st.st_mtime > a->clock)
            a->clock = st.st_mtime;
    }
    free(ents);
    return rc;
}

int age_root_open(struct phase_ctx *ctx)
{
    const struct engine *e = ctx->eng;
    int rc = wl_mkdir_p(ctx, ctx->ws_fd, PHASE_TREE_DIR);
    if (rc < 0)
        return phase_fail(ctx, "mkdir", PHASE_TREE_DIR, rc);
    int tfd = e->opendir(ctx->w, ctx->ws_fd, PHASE_TREE_DIR);
    if (tfd < 0)
        return phase_fail_dir(ctx, "open", PHASE_TREE_DIR, tfd);
    rc = wl_mkdir_p(ctx, tfd, WL_AGE_DIR);
    int afd = rc < 0 ? rc : e->opendir(ctx->w, tfd, WL_AGE_DIR);
    e->close(ctx->w, tfd);
    if (afd < 0)
        return rc < 0 ? phase_fail(ctx, "mkdir", AGE_ROOT, afd)
                      : phase_fail_dir(ctx, "open", AGE_ROOT, afd);
    return afd;
}

/* Opens (making it if needed) tree/age as directory 0 and reads what is there. */
static int rescan(struct ager *a)
{
    struct phase_ctx *ctx = a->ctx;
    const struct engine *e = ctx->eng;
    int afd = age_root_open(ctx);
    if (afd < 0)
        return -1;
    int rc;
    if (add_dir(a, 0, 0, 0) < 0) {
        e->close(ctx->w, afd);
        return phase_fail(ctx, "age", AGE_ROOT, -ENOMEM);
    }
    a->d[0].fd = afd;
    a->clock = 0;
    rc = rescan_dir(a, 0, ctx->buf, ctx->buflen);
    a->next_dir = a->next_dir ? a->next_dir : 1;
    a->clock = a->clock < AGE_CLOCK_BASE ? AGE_CLOCK_BASE : a->clock + 1;
    if (rc == 0)
        recount_ages(a);
    return rc;
}

/* ---- the run --------------------------------------------------------------------------- */

static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;
static struct age_outcome last;
static bool last_valid;

int age_last_outcome(struct age_outcome *out)
{
    pthread_mutex_lock(&last_lock);
    bool v = last_valid;
    if (v)
        *out = last;
    pthread_mutex_unlock(&last_lock);
    return v ? 0 : -1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_line(const struct ager *a, const struct ageprof_distance *d, uint64_t ops,
                          double written, double fs_size, double elapsed)
{
    char lbl[32];
    unsigned wd = d->worst_dim, wb = d->worst_bucket;
    fprintf(stderr,
            "fsbench: age: %.1f s, %" PRIu64 " ops, %.2fx the fs written, %zu files, %.0f%% of "
            "the target data; distance %.1f%% (worst: %s %s %+.1f%%)\n",
            elapsed, ops, written / fs_size, a->n,
            a->target_bytes > 0 ? 100.0 * (double)a->live_alloc / a->target_bytes : 0,
            100 * d->max_abs, ageprof_dim_name((enum ageprof_dim)wd),
            ageprof_bucket_label((enum ageprof_dim)wd, a->p->dist[wd].lo[wb], lbl, sizeof lbl),
            100 * d->diff[wd][wb]);
}

int age_profile_run(struct phase_ctx *ctx, const struct ageprof *p, const struct age_budget *b,
                    struct age_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->converged_at_s = -1;
    struct statvfs sv;
    if (fstatvfs(ctx->ws_fd, &sv) < 0)
        return phase_fail(ctx, "statvfs", ".", -errno);
    double fs_size = (double)sv.f_blocks * (double)sv.f_frsize;
    out->fs_size = fs_size;
    if (fs_size <= 0)
        return phase_skip(ctx, "the file system reports no size (f_blocks 0): nothing to age");
    freefrag_measure(ctx->ws_fd, &out->free_before);
    double limit = WL_AGE_SAFETY * fs_size;
    if (b->written_bytes > 0 && b->written_bytes < limit)
        limit = b->written_bytes;
    double floor = b->fullness > 0 && b->fullness < 1 ? (1 - b->fullness) * fs_size : -1;

    struct ager a = {.ctx = ctx, .p = p, .block = sv.f_bsize ? sv.f_bsize : 4096};
    a.target_bytes = p->utilization * fs_size;
    wl_rng_seed(&a.rng, ctx->seed, 0xa9e1ull);
    int rc = rescan(&a);
    a.tick = (double)p->turnover_s / (double)(a.n > 64 ? a.n : 64);
    const uint64_t w0 = ctx->w->st->bytes_written;
    const double t0 = now_s();
    double last_print = t0, printed_at = 2;
    uint64_t ops = 0;
    struct ageprof_distance dist;
    const char *why = NULL;
    while (rc == 0 && !why) {
        double written = (double)(ctx->w->st->bytes_written - w0);
        if (ops % AGE_CHECK_OPS == 0) {
            recount_ages(&a);
            steer_clock(&a);
            ageprof_distance(p, &a.h, &dist);
            double t = now_s();
            /* a line when the distance first drops below 50, 20, 10, 5, 2 or 1 %, and every
             * 10 s: the drops are the same every run, the timed lines are not */
            static const double marks[] = {0.5, 0.2, 0.1, 0.05, 0.02, 0.01};
            bool mark = false;
            for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++)
                if (dist.max_abs < marks[m] && printed_at > marks[m]) {
                    printed_at = marks[m];
                    mark = true;
                }
            if (b->progress && (mark || t - last_print >= 10)) {
                progress_line(&a, &dist, ops, written, fs_size, t - t0);
                last_print = t;
            }
            bool filled = (double)a.live_alloc >= 0.98 * a.target_bytes &&
                          (double)a.live_alloc <= 1.02 * a.target_bytes;
            if (b->converge > 0 && filled && dist.max_abs <= b->converge) {
                why = "converged";
                out->converged_at_s = t - t0;
                break;
            }
            if (fstatvfs(ctx->ws_fd, &sv) < 0) {
                rc = phase_fail(ctx, "statvfs", ".", -errno);
                break;
            }
            if ((double)sv.f_bavail * (double)sv.f_frsize < floor) {
                why = "fullness target reached";
                break;
            }
        }
        if (written >= limit) {
            why = b->written_bytes > 0 && b->written_bytes <= limit ? "written target reached"
                                                                    : "safety limit reached";
            break;
        }
        if (phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        int s = step(&a);
        ops++;
        if (s < 0)
            rc = -1;
        else if (s > 0)
            why = "file system full (ENOSPC)";
    }
    out->written = ctx->w->st->bytes_written - w0;
    if (rc == 0 && ctx->eng->drain(ctx->w) < 0)
        rc = phase_fail(ctx, "age", AGE_ROOT, -EIO);
    if (rc == 0 && ctx->eng->syncfs(ctx->w, ctx->ws_fd) < 0)
        rc = phase_fail(ctx, "syncfs", ".", -EIO);
    recount_ages(&a);
    ageprof_distance(p, &a.h, &out->dist);
    if (rc == 0 && b->progress)
        progress_line(&a, &out->dist, ops, (double)out->written, fs_size, now_s() - t0);
    if (fstatvfs(ctx->ws_fd, &sv) == 0)
        out->fs_full = 1.0 - (double)sv.f_bavail * (double)sv.f_frsize / fs_size;
    if (rc == 0)
        freefrag_measure(ctx->ws_fd, &out->free_after);
    out->why = why ? why : "stopped";
    out->ops = ops;
    out->live_files = a.n;
    out->live_bytes = a.live_bytes;
    out->dirs = a.nd ? a.nd - 1 : 0;
    out->hist = a.h;
    close_dirs(&a);
    if (a.nd && a.d[0].fd >= 0)
        ctx->eng->close(ctx->w, a.d[0].fd);
    free(a.f);
    free(a.d);
    if (rc == 0) {
        pthread_mutex_lock(&last_lock);
        last = *out;
        last_valid = true;
        pthread_mutex_unlock(&last_lock);
    }
    return rc;
}

void age_print_buckets(FILE *f, const struct ageprof *p, const struct age_outcome *o)
{
    char lbl[32];
    fprintf(f, "age profile %s: distance %.2f%% (largest |now - target| of any bucket)\n", p->name,
            100 * o->dist.max_abs);
    for (unsigned d = 0; d < AGEPROF_DIMS; d++)
        for (unsigned b = 0; b < p->dist[d].n; b++) {
            double now = o->hist.files ? (double)o->hist.count[d][b] / (double)o->hist.files : 0;
            fprintf(f, "  %-6s %6s  target %5.1f%%  now %5.1f%%  %+5.1f\n",
                    ageprof_dim_name((enum ageprof_dim)d),
                    ageprof_bucket_label((enum ageprof_dim)d, p->dist[d].lo[b], lbl, sizeof lbl),
                    100 * p->dist[d].share[b], 100 * now, 100 * o->dist.diff[d][b]);
        }
}
