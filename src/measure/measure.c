/* measure.c — latency histograms, per-worker op counters, whole-process snapshots taken
 * around a phase, and the progress time-line sampler (see measure.h). The machine and
 * target descriptions and the lookup of the block device behind a path are in sysinfo.c.
 *
 * Histogram layout: with S = LAT_SUB (16), a value v has shift = max(msb(v) - 4, 0) and
 * lands in bucket shift * S + (v >> shift). Values below 2 * S get a bucket each (exact);
 * above that each power of two [2^e, 2^(e+1)) is split into S equal buckets, so a bucket is
 * never wider than 1/S of its lower edge. The largest value, 2^64 - 1, lands in bucket
 * 59 * S + 31 = 975 < LAT_BUCKETS.
 *
 * Snapshots allocate nothing: they read small /proc and /sys files into stack buffers.
 */
#include "measure/measure.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "measure/stall.h"
#include "os/blockstat.h"
#include "os/machine.h"

/* ---- latency histogram ---- */

/* Largest value that falls into bucket b. */
static uint64_t lat_bucket_upper(unsigned b)
{
    unsigned shift = b < 2 * LAT_SUB ? 0 : b / LAT_SUB - 1;
    uint64_t mant = b - shift * LAT_SUB;
    return (mant << shift) + ((UINT64_C(1) << shift) - 1);
}

void lat_merge(struct lat_hist *dst, const struct lat_hist *src)
{
    if (!src->count) return;
    if (!dst->count || src->min_ns < dst->min_ns) dst->min_ns = src->min_ns;
    if (src->max_ns > dst->max_ns) dst->max_ns = src->max_ns;
    dst->count += src->count;
    dst->sum_ns += src->sum_ns;
    for (unsigned i = 0; i < LAT_BUCKETS; i++)
        dst->bucket[i] += src->bucket[i];
}

/* Rank ceil(q * count) in 1..count. The tolerance keeps q * count that is an integer in
 * exact arithmetic (0.99 * 100000) from rounding up to the next rank. */
static uint64_t lat_rank(uint64_t count, double q)
{
    double x = q * (double)count;
    double r = ceil(x - x * 1e-12);
    if (!(r >= 1.0)) return 1;
    if (r >= (double)count) return count;
    return (uint64_t)r;
}

uint64_t lat_quantile(const struct lat_hist *h, double q)
{
    if (!h->count) return 0;
    if (q <= 0.0) return h->min_ns;
    if (q >= 1.0) return h->max_ns;
    uint64_t rank = lat_rank(h->count, q), seen = 0;
    for (unsigned b = 0; b < LAT_BUCKETS; b++) {
        seen += h->bucket[b];
        if (seen >= rank) {
            uint64_t v = lat_bucket_upper(b);
            if (v < h->min_ns) v = h->min_ns;
            return v < h->max_ns ? v : h->max_ns;
        }
    }
    return h->max_ns; /* buckets and count disagree (a bucket wrapped): best answer */
}

void lat_summarise(const struct lat_hist *h, struct lat_summary *out)
{
    memset(out, 0, sizeof *out);
    if (!h->count) return;
    out->count = h->count;
    out->min_ns = h->min_ns;
    out->p50_ns = lat_quantile(h, 0.50);
    out->p90_ns = lat_quantile(h, 0.90);
    out->p99_ns = lat_quantile(h, 0.99);
    out->p999_ns = lat_quantile(h, 0.999);
    out->max_ns = h->max_ns;
    out->mean_ns = (double)h->sum_ns / (double)h->count;
}

/* ---- per-worker op counters ---- */

void opstats_reset(struct opstats *s)
{
    memset(s->count, 0, sizeof s->count);
    s->bytes_read = s->bytes_written = 0;
    memset(s->lat, 0, sizeof s->lat);
    atomic_store_explicit(&s->progress_ops, 0, memory_order_relaxed);
    atomic_store_explicit(&s->progress_bytes, 0, memory_order_relaxed);
}

void opstats_merge(struct opstats *dst, const struct opstats *src)
{
    for (unsigned k = 0; k < OP_KINDS; k++) {
        dst->count[k] += src->count[k];
        lat_merge(&dst->lat[k], &src->lat[k]);
    }
    dst->bytes_read += src->bytes_read;
    dst->bytes_written += src->bytes_written;
    atomic_fetch_add_explicit(&dst->progress_ops,
                              atomic_load_explicit(&src->progress_ops, memory_order_relaxed),
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&dst->progress_bytes,
                              atomic_load_explicit(&src->progress_bytes, memory_order_relaxed),
                              memory_order_relaxed);
}

void opstats_to_result(const struct opstats *s, struct phase_result *r)
{
    r->ops_total = 0;
    for (unsigned k = 0; k < OP_KINDS; k++) {
        r->ops[k] = s->count[k];
        r->ops_total += s->count[k];
        lat_summarise(&s->lat[k], &r->lat[k]);
    }
    r->bytes_read = s->bytes_read;
    r->bytes_written = s->bytes_written;
}

/* ---- snapshots ---- */

static void read_dev_io(const struct os_blockdev *dev, struct dev_io *io)
{
    memset(io, 0, sizeof *io);
    if (!dev || !dev->valid)
        return;
    struct os_blockstat c;
    int fd = os_blockstat_open(dev->stat_path);
    if (fd >= 0 && os_blockstat_read(fd, &c) == 0) {
        io->valid = true;
        io->rd_ios = c.rd_ios;
        io->rd_sectors = c.rd_sectors;
        io->wr_ios = c.wr_ios;
        io->wr_sectors = c.wr_sectors;
        io->io_ticks_ms = c.io_ticks_ms;
    }
    os_blockstat_close(fd);
}

void meas_snap_take(struct meas_snap *s, const struct os_blockdev *dev)
{
    s->mono_ns = meas_now_ns();
    if (getrusage(RUSAGE_SELF, &s->self) < 0) memset(&s->self, 0, sizeof s->self);
    if (getrusage(RUSAGE_CHILDREN, &s->children) < 0) memset(&s->children, 0, sizeof s->children);
    os_proc_io(&s->io_read_bytes, &s->io_write_bytes);
    read_dev_io(dev, &s->dev);
}

static double tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* b - a for counters that only grow; 0 if one went backwards (a device was replaced). */
static uint64_t grown(uint64_t a, uint64_t b)
{
    return b >= a ? b - a : 0;
}

void meas_snap_delta(const struct meas_snap *a, const struct meas_snap *b, struct phase_result *r)
{
    r->wall_s = (double)(int64_t)(b->mono_ns - a->mono_ns) / 1e9;
    r->user_s = tv_s(b->self.ru_utime) - tv_s(a->self.ru_utime) + tv_s(b->children.ru_utime) -
                tv_s(a->children.ru_utime);
    r->sys_s = tv_s(b->self.ru_stime) - tv_s(a->self.ru_stime) + tv_s(b->children.ru_stime) -
               tv_s(a->children.ru_stime);
#define RU_DELTA(f) (b->self.f - a->self.f + b->children.f - a->children.f)
    r->nvcsw = RU_DELTA(ru_nvcsw);
    r->nivcsw = RU_DELTA(ru_nivcsw);
    r->majflt = RU_DELTA(ru_majflt);
    r->minflt = RU_DELTA(ru_minflt);
    r->inblock = RU_DELTA(ru_inblock);
    r->oublock = RU_DELTA(ru_oublock);
#undef RU_DELTA
    r->io_read_bytes = grown(a->io_read_bytes, b->io_read_bytes);
    r->io_write_bytes = grown(a->io_write_bytes, b->io_write_bytes);
    memset(&r->dev, 0, sizeof r->dev);
    if (a->dev.valid && b->dev.valid) {
        r->dev.valid = true;
        r->dev.rd_ios = grown(a->dev.rd_ios, b->dev.rd_ios);
        r->dev.rd_sectors = grown(a->dev.rd_sectors, b->dev.rd_sectors);
        r->dev.wr_ios = grown(a->dev.wr_ios, b->dev.wr_ios);
        r->dev.wr_sectors = grown(a->dev.wr_sectors, b->dev.wr_sectors);
        r->dev.io_ticks_ms = grown(a->dev.io_ticks_ms, b->dev.io_ticks_ms);
    }
}

/* ---- progress time line ----
 *
 * The sampler thread waits on a condition variable bound to CLOCK_MONOTONIC with absolute
 * deadlines start + k * interval, so samples do not drift and meas_sampler_stop() wakes it
 * at once. Only the sampler thread touches the point array until it has been joined.
 */

struct meas_sampler {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;                /* under mu */
    struct opstats **workers; /* own copy of the caller's array */
    unsigned n;
    uint64_t interval_ns, start_ns;
    struct timeline_point *pts;
    size_t len, cap;
    bool oom; /* stopped appending: the time line ends early */
    int dev_fd;                  /* the device's stat file, -1 when none */
    struct os_blockstat dev0;    /* its counters at the start */
    double stall_s;
    void (*tick)(void *arg, const struct timeline_point *pt);
    void *tick_arg;
};

/* Device counters of point pt relative to the start; the fd is closed on a read error
 * so that a vanished device costs nothing more. */
static void sampler_dev(struct meas_sampler *s, struct timeline_point *pt)
{
    struct os_blockstat b;
    if (s->dev_fd < 0)
        return;
    if (os_blockstat_read(s->dev_fd, &b) < 0) {
        os_blockstat_close(s->dev_fd);
        s->dev_fd = -1;
        return;
    }
    pt->dev_rd_sectors = grown(s->dev0.rd_sectors, b.rd_sectors);
    pt->dev_wr_sectors = grown(s->dev0.wr_sectors, b.wr_sectors);
    pt->dev_busy_ms = grown(s->dev0.io_ticks_ms, b.io_ticks_ms);
    pt->dev_inflight = b.in_flight;
}

static void sampler_append(struct meas_sampler *s, uint64_t now)
{
    if (s->len == s->cap) {
        if (s->oom) return;
        size_t cap = s->cap ? s->cap * 2 : 256;
        struct timeline_point *p = realloc(s->pts, cap * sizeof *p);
        if (!p) {
            s->oom = true;
            return;
        }
        s->pts = p;
        s->cap = cap;
    }
    uint64_t ops = 0, bytes = 0;
    for (unsigned i = 0; i < s->n; i++) {
        ops += atomic_load_explicit(&s->workers[i]->progress_ops, memory_order_relaxed);
        bytes += atomic_load_explicit(&s->workers[i]->progress_bytes, memory_order_relaxed);
    }
    struct timeline_point *pt = &s->pts[s->len++];
    *pt = (struct timeline_point){.t = (double)(now - s->start_ns) / 1e9, .ops = ops, .bytes = bytes};
    sampler_dev(s, pt);
}

static void *sampler_main(void *arg)
{
    struct meas_sampler *s = arg;
    uint64_t deadline = s->start_ns + s->interval_ns;
    pthread_mutex_lock(&s->mu);
    while (!s->stop) {
        struct timespec ts = {.tv_sec = (time_t)(deadline / 1000000000u),
                              .tv_nsec = (long)(deadline % 1000000000u)};
        pthread_cond_timedwait(&s->cv, &s->mu, &ts);
        if (s->stop) break;
        uint64_t now = meas_now_ns();
        if (now < deadline) continue; /* spurious wake-up */
        pthread_mutex_unlock(&s->mu);
        sampler_append(s, now);
        if (s->tick && s->len)
            s->tick(s->tick_arg, &s->pts[s->len - 1]);
        /* Next tick on the grid; ticks missed while descheduled are skipped, not bunched. */
        deadline += s->interval_ns;
        if (deadline <= now) deadline = now + s->interval_ns - (now - s->start_ns) % s->interval_ns;
        pthread_mutex_lock(&s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Longest span with no progress: for every maximal run of points i..k (k > i) with equal
 * ops, the time from point i (progress last seen) to point k + 1 (progress seen again),
 * or to point k when the time line ends flat. */
static double longest_stall(const struct timeline_point *p, size_t len)
{
    double longest = 0;
    size_t i = 0;
    while (i < len) {
        size_t k = i;
        while (k + 1 < len && p[k + 1].ops == p[i].ops)
            k++;
        if (k > i) {
            double span = (k + 1 < len ? p[k + 1].t : p[k].t) - p[i].t;
            if (span > longest) longest = span;
        }
        i = k + 1;
    }
    return longest;
}

/* Starts the sampler: a first point at t = 0 is taken before this returns. NULL after
 * error() when out of memory or the thread cannot be created. */
struct meas_sampler *meas_sampler_start(struct opstats *const *workers, unsigned n,
                                        unsigned interval_ms)
{
    struct meas_sampler_cfg cfg = {.workers = workers, .n = n, .interval_ms = interval_ms};
    return meas_sampler_begin(&cfg);
}

struct meas_sampler *meas_sampler_begin(const struct meas_sampler_cfg *cfg)
{
    struct opstats *const *workers = cfg->workers;
    unsigned n = cfg->n, interval_ms = cfg->interval_ms;
    struct meas_sampler *s = calloc(1, sizeof *s);
    if (!s) {
        error("out of memory");
        return NULL;
    }
    s->workers = malloc((n ? n : 1) * sizeof *s->workers);
    if (!s->workers) {
        free(s);
        error("out of memory");
        return NULL;
    }
    for (unsigned i = 0; i < n; i++)
        s->workers[i] = workers[i];
    s->n = n;
    s->interval_ns = (uint64_t)(interval_ms ? interval_ms : 1) * 1000000u;
    s->stall_s = cfg->stall_s > 0 ? cfg->stall_s : STALL_DEFAULT_S;
    s->tick = cfg->tick;
    s->tick_arg = cfg->tick_arg;
    s->dev_fd = -1;
    if (cfg->dev && cfg->dev->valid) {
        int fd = os_blockstat_open(cfg->dev->stat_path);
        if (fd >= 0 && os_blockstat_read(fd, &s->dev0) == 0)
            s->dev_fd = fd;
        else
            os_blockstat_close(fd);
    }

    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&s->mu, NULL);

    s->start_ns = meas_now_ns();
    sampler_append(s, s->start_ns);
    int rc = pthread_create(&s->thread, NULL, sampler_main, s);
    if (rc) {
        error_num(rc, "cannot start the time-line sampler");
        os_blockstat_close(s->dev_fd);
        pthread_cond_destroy(&s->cv);
        pthread_mutex_destroy(&s->mu);
        free(s->pts);
        free(s->workers);
        free(s);
        return NULL;
    }
    return s;
}

/* Stops and frees the sampler, takes a last point, and hands the points to r (replacing
 * and freeing any time line r held). s == NULL (start failed) leaves r without a time line. */
void meas_sampler_stop(struct meas_sampler *s, struct phase_result *r)
{
    free(r->timeline);
    r->timeline = NULL;
    r->timeline_len = 0;
    r->longest_stall_s = 0;
    free(r->stalls);
    r->stalls = NULL;
    r->nstalls = 0;
    r->timeline_dev = false;
    if (!s) return;
    pthread_mutex_lock(&s->mu);
    s->stop = true;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);

    sampler_append(s, meas_now_ns());
    if (s->oom) warning("out of memory: the progress time line ends early");
    r->timeline = s->pts;
    r->timeline_len = s->len;
    r->longest_stall_s = longest_stall(s->pts, s->len);
    r->timeline_dev = s->dev_fd >= 0;
    if (stall_find(s->pts, s->len, r->timeline_dev, s->stall_s, STALL_DEFAULT_REL, &r->stalls,
                   &r->nstalls) < 0)
        warning("out of memory: the stalls of phase %s are not listed", r->name);
    os_blockstat_close(s->dev_fd);

    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s->workers);
    free(s);
}
