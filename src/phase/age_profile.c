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
#include "phase/age_internal.h"

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
#include "target/target.h"

/* ---- files ----------------------------------------------------------------------------- */

static bool no_space(int rc)
{
    return rc == -ENOSPC || rc == -EDQUOT;
}

static struct timespec ts_of(int64_t t)
{
    return (struct timespec){.tv_sec = (time_t)t, .tv_nsec = 0};
}

/* Each operation: 0 done, 1 the file system is full, -1 after phase_fail. */
static int op_create(struct ager *a)
{
    struct phase_ctx *ctx = a->ctx;
    unsigned sb = ager_pick_deficit(a, AGEPROF_SIZE, 0, a->p->dist[AGEPROF_SIZE].n);
    unsigned db = ager_pick_deficit(a, AGEPROF_DEPTH, 0, a->p->dist[AGEPROF_DEPTH].n);
    uint64_t size = ager_value_in(a, AGEPROF_SIZE, sb);
    uint64_t depth = ager_value_in(a, AGEPROF_DEPTH, db);
    if (depth > AGE_DEPTH_MAX)
        depth = AGE_DEPTH_MAX;
    long dir = ager_dir_with_room(a, (unsigned)depth - 1, false);
    if (dir == -2)
        return 1;
    if (dir < 0)
        return -1;
    int dfd = ager_dir_fd(a, (uint32_t)dir);
    if (dfd < 0)
        return -1;
    uint32_t id = a->next_file;
    char name[24];
    ager_file_name(id, name, sizeof name);
    size_t off = (size_t)wl_rng_below(&a->rng, 4096);
    int rc = ctx->eng->create_file(ctx->w, dfd, name, 0644, wl_pattern() + off,
                                   WL_PATTERN_LEN - off, size, 0);
    if (no_space(rc))
        return 1;
    if (rc < 0)
        return ager_fail_at(a, "create", (uint32_t)dir, name, rc);
    struct timespec ts[2] = {ts_of(a->clock), ts_of(a->clock)};
    rc = ctx->eng->set_times(ctx->w, dfd, name, ts);
    if (rc < 0)
        return ager_fail_at(a, "utimensat", (uint32_t)dir, name, rc);
    if (ager_add_file(a, (struct age_file){size, a->clock, id, (uint32_t)dir}) < 0)
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
            s += ager_excess(a, AGEPROF_SIZE, ager_size_bucket(a, f->size));
        if (by_age)
            s += ager_excess(a, AGEPROF_AGE, ager_age_bucket(a, f->mtime));
        if (by_depth)
            s += ager_excess(a, AGEPROF_DEPTH, ager_depth_bucket(a, f->dir));
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
    int dfd = ager_dir_fd(a, f->dir);
    if (dfd < 0)
        return -1;
    char name[24];
    ager_file_name(f->id, name, sizeof name);
    int rc = a->ctx->eng->unlink(a->ctx->w, dfd, name, 0);
    if (rc < 0)
        return ager_fail_at(a, "unlink", f->dir, name, rc);
    ager_count(a, f, -1);
    a->d[f->dir].nfiles--;
    a->f[i] = a->f[--a->n];
    return 0;
}

/* Opens file i for writing: fd, or -1 after phase_fail. */
static int open_file(struct ager *a, const struct age_file *f, int flags)
{
    int dfd = ager_dir_fd(a, f->dir);
    if (dfd < 0)
        return -1;
    char name[24];
    ager_file_name(f->id, name, sizeof name);
    int fd = a->ctx->eng->open(a->ctx->w, dfd, name, flags | O_NOFOLLOW, 0);
    return fd < 0 ? ager_fail_at(a, "open", f->dir, name, fd) : fd;
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
    ager_file_name(f->id, name, sizeof name);
    if (rc < 0)
        return ager_fail_at(a, op, f->dir, name, rc);
    ager_count(a, f, -1);
    f->size = new_size;
    f->mtime = a->clock;
    ager_count(a, f, 1);
    return 0;
}

static int op_append(struct ager *a, size_t i)
{
    struct age_file *f = &a->f[i];
    const struct ageprof_dist *sd = &a->p->dist[AGEPROF_SIZE];
    unsigned b = ager_size_bucket(a, f->size);
    unsigned nb = ager_pick_deficit(a, AGEPROF_SIZE, b, sd->n);
    uint64_t want = ager_value_in(a, AGEPROF_SIZE, nb);
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
    unsigned b = ager_size_bucket(a, f->size);
    unsigned nb = ager_pick_deficit(a, AGEPROF_SIZE, 0, b + 1);
    uint64_t want = ager_value_in(a, AGEPROF_SIZE, nb);
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
    unsigned db = ager_pick_deficit(a, AGEPROF_DEPTH, 0, a->p->dist[AGEPROF_DEPTH].n);
    uint64_t depth = ager_value_in(a, AGEPROF_DEPTH, db);
    if (depth > AGE_DEPTH_MAX)
        depth = AGE_DEPTH_MAX;
    long to = ager_dir_with_room(a, (unsigned)depth - 1, false);
    if (to == -2)
        return 1;
    if (to < 0)
        return -1;
    int ffd = ager_dir_fd(a, f->dir);
    int tfd = ffd < 0 ? -1 : ager_dir_fd(a, (uint32_t)to);
    if (tfd >= 0 && a->d[f->dir].fd < 0) /* closed when the open ones were flushed */
        ffd = ager_dir_fd(a, f->dir);
    if (tfd < 0 || ffd < 0)
        return -1;
    char from[24], name[24];
    ager_file_name(f->id, from, sizeof from);
    uint32_t id = a->next_file;
    ager_file_name(id, name, sizeof name);
    int rc = a->ctx->eng->rename(a->ctx->w, ffd, from, tfd, name);
    if (no_space(rc))
        return 1;
    if (rc < 0)
        return ager_fail_at(a, "rename", f->dir, from, rc);
    ager_count(a, f, -1);
    a->d[f->dir].nfiles--;
    f->dir = (uint32_t)to;
    f->id = id;
    a->next_file = id + 1;
    a->d[f->dir].nfiles++;
    ager_count(a, f, 1);
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

/* The device whose free space the file system's own tool may read: the run's own target's
 * (an image's loop device, or the device the command line named), never another. */
static const char *age_device(const struct phase_ctx *ctx)
{
    return ctx->tgt ? target_device(ctx->tgt) : NULL;
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
    freefrag_measure_dev(ctx->ws_fd, age_device(ctx), &out->free_before);
    struct age_free_check fc;
    if (age_free_begin(ctx, &fc, fs_size) < 0)
        return -1;
    double limit = WL_AGE_SAFETY * fs_size;
    if (b->written_bytes > 0 && b->written_bytes < limit)
        limit = b->written_bytes;
    double floor = b->fullness > 0 && b->fullness < 1 ? (1 - b->fullness) * fs_size : -1;

    struct ager a = {.ctx = ctx, .p = p, .block = sv.f_bsize ? sv.f_bsize : 4096};
    a.target_bytes = p->utilization * fs_size;
    wl_rng_seed(&a.rng, ctx->seed, 0xa9e1ull);
    int rc = ager_rescan(&a);
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
            ager_recount_ages(&a);
            ager_steer_clock(&a);
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
            int fr = age_free_reached(ctx, &fc, written);
            if (fr < 0) {
                rc = -1;
                break;
            }
            if (fr > 0) {
                why = "free-space target reached";
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
    ager_recount_ages(&a);
    ageprof_distance(p, &a.h, &out->dist);
    if (rc == 0 && b->progress)
        progress_line(&a, &out->dist, ops, (double)out->written, fs_size, now_s() - t0);
    if (fstatvfs(ctx->ws_fd, &sv) == 0)
        out->fs_full = 1.0 - (double)sv.f_bavail * (double)sv.f_frsize / fs_size;
    if (rc == 0)
        freefrag_measure_dev(ctx->ws_fd, age_device(ctx), &out->free_after);
    out->why = why ? why : "stopped";
    out->free_check = fc;
    out->ops = ops;
    out->live_files = a.n;
    out->live_bytes = a.live_bytes;
    out->dirs = a.nd ? a.nd - 1 : 0;
    out->hist = a.h;
    ager_close_dirs(&a);
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
