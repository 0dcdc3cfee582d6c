/* age_books.c — the books of aging to a profile (age_internal.h): which bucket a file's
 * size, age and depth fall in, the counts kept as files come and go, the aging clock's
 * steering, the buckets with most excess or deficit, and the directories below tree/age
 * (made within the profile's fan-out, opened on demand from their parent's descriptor).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/grow.h"
#include "os/dirent.h"
#include "phase/age_internal.h"

/* ---- bookkeeping --------------------------------------------------------------------- */

unsigned ager_size_bucket(const struct ager *a, uint64_t size)
{
    return ageprof_bucket(&a->p->dist[AGEPROF_SIZE], size);
}

unsigned ager_age_bucket(const struct ager *a, int64_t mtime)
{
    int64_t age = a->clock - mtime;
    return ageprof_bucket(&a->p->dist[AGEPROF_AGE], age > 0 ? (uint64_t)age : 0);
}

unsigned ager_depth_bucket(const struct ager *a, uint32_t dir)
{
    return ageprof_bucket(&a->p->dist[AGEPROF_DEPTH], (uint64_t)a->d[dir].depth + 1);
}

void ager_count(struct ager *a, const struct age_file *f, int sign)
{
    a->h.count[AGEPROF_SIZE][ager_size_bucket(a, f->size)] += (uint64_t)(int64_t)sign;
    a->h.count[AGEPROF_AGE][ager_age_bucket(a, f->mtime)] += (uint64_t)(int64_t)sign;
    a->h.count[AGEPROF_DEPTH][ager_depth_bucket(a, f->dir)] += (uint64_t)(int64_t)sign;
    a->h.files += (uint64_t)(int64_t)sign;
    a->live_bytes += (uint64_t)(int64_t)sign * f->size;
    a->live_alloc += (uint64_t)(int64_t)sign * ((f->size + a->block - 1) / a->block * a->block);
}

/* The clock's speed: the ages a mix of operations leaves depend on how much time passes
 * per operation, so the speed is steered until the ages fit (the profile's turnover gives
 * the start: as many operations as there are live files take that long). Too many young
 * files (the age CDF above the profile's): faster; too many old ones: slower. */
void ager_steer_clock(struct ager *a)
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

void ager_recount_ages(struct ager *a)
{
    memset(a->h.count[AGEPROF_AGE], 0, sizeof a->h.count[AGEPROF_AGE]);
    for (size_t i = 0; i < a->n; i++)
        a->h.count[AGEPROF_AGE][ager_age_bucket(a, a->f[i].mtime)]++;
}

/* How much bucket b of dimension d holds above its target share (negative: below). */
double ager_excess(const struct ager *a, unsigned d, unsigned b)
{
    double n = a->h.files ? (double)a->h.files : 1;
    return (double)a->h.count[d][b] / n - a->p->dist[d].share[b];
}

/* A bucket of dimension d drawn in proportion to what it lacks for n + 1 files, or by
 * the target shares when nothing lacks. */
unsigned ager_pick_deficit(struct ager *a, unsigned d, unsigned from, unsigned to)
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
uint64_t ager_value_in(struct ager *a, unsigned d, unsigned b)
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

void ager_close_dirs(struct ager *a)
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

void ager_file_name(uint32_t id, char *buf, size_t len)
{
    snprintf(buf, len, "f%" PRIx32, id);
}

/* "tree/age/d1/d7" for messages. */
void ager_dir_path(const struct ager *a, uint32_t i, char *buf, size_t len)
{
    if (i == 0) {
        snprintf(buf, len, "%s", AGE_ROOT);
        return;
    }
    char tail[24];
    ager_dir_path(a, a->d[i].parent, buf, len);
    dir_name(a->d[i].id, tail, sizeof tail);
    size_t l = strlen(buf);
    snprintf(buf + l, len - l, "/%s", tail);
}

int ager_fail_at(struct ager *a, const char *op, uint32_t dir, const char *name, int rc)
{
    char path[1024];
    ager_dir_path(a, dir, path, sizeof path);
    if (name) {
        size_t l = strlen(path);
        snprintf(path + l, sizeof path - l, "/%s", name);
    }
    return phase_fail(a->ctx, op, path, rc);
}

/* The fd of directory i, opened from its parent's: fd or -1 after phase_fail. */
int ager_dir_fd(struct ager *a, uint32_t i)
{
    if (a->d[i].fd >= 0)
        return a->d[i].fd;
    if (a->open_dirs >= AGE_OPEN_DIRS)
        ager_close_dirs(a);
    int pfd = ager_dir_fd(a, a->d[i].parent);
    if (pfd < 0)
        return -1;
    char name[24];
    dir_name(a->d[i].id, name, sizeof name);
    int fd = a->ctx->eng->opendir(a->ctx->w, pfd, name);
    if (fd < 0) {
        char path[1024];
        ager_dir_path(a, i, path, sizeof path);
        return phase_fail_dir(a->ctx, "open", path, fd);
    }
    a->d[i].fd = fd;
    a->open_dirs++;
    return fd;
}

int ager_add_dir(struct ager *a, uint32_t id, uint32_t parent, unsigned depth)
{
    void *d = a->d;
    if (grow_to(&d, &a->dcap, a->nd + 1, 64, sizeof *a->d) < 0)
        return -1;
    a->d = d;
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
long ager_dir_with_room(struct ager *a, unsigned depth, bool want_sub)
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
    long parent = ager_dir_with_room(a, depth - 1, true);
    if (parent < 0)
        return -1;
    int pfd = ager_dir_fd(a, (uint32_t)parent);
    if (pfd < 0)
        return -1;
    uint32_t id = a->next_dir;
    char name[24];
    dir_name(id, name, sizeof name);
    int rc = a->ctx->eng->mkdir(a->ctx->w, pfd, name, 0755);
    if (rc < 0)
        return rc == -ENOSPC || rc == -EDQUOT ? -2
                                              : ager_fail_at(a, "mkdir", (uint32_t)parent, name, rc);
    if (ager_add_dir(a, id, (uint32_t)parent, depth) < 0)
        return phase_fail(a->ctx, "age", AGE_ROOT, -ENOMEM);
    a->ctx->res->dirs++;
    return (long)(a->nd - 1);
}

int ager_add_file(struct ager *a, struct age_file f)
{
    void *f0 = a->f;
    if (grow_to(&f0, &a->cap, a->n + 1, 1024, sizeof *a->f) < 0)
        return -1;
    a->f = f0;
    a->f[a->n++] = f;
    ager_count(a, &f, 1);
    a->d[f.dir].nfiles++;
    if (f.id >= a->next_file)
        a->next_file = f.id + 1;
    return 0;
}
