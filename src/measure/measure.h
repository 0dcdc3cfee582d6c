/* measure.h — everything fsbench measures about a phase: clocks, op counts with latency
 * histograms, rusage, /proc/self/io, block-device counters, a progress time line, and the
 * machine and target descriptions stored with the results.
 *
 * Hot path: opstats_record() is called by the engines once per system call. It must stay
 * a few nanoseconds: an array increment, a histogram bucket increment, and two relaxed
 * atomic stores the time-line sampler reads from another thread.
 */
#ifndef FSBENCH_MEASURE_H
#define FSBENCH_MEASURE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

#include "measure/results.h"
#include "os/blockdev.h"

/* ---- latency histogram: log-linear buckets, 1 ns .. ~1e12 ns, <= 1/16 relative error ---- */
#define LAT_SUB_BITS 4
#define LAT_SUB (1u << LAT_SUB_BITS)
#define LAT_BUCKETS (64u * LAT_SUB)

struct lat_hist {
    uint64_t count, sum_ns, min_ns, max_ns;
    uint32_t bucket[LAT_BUCKETS];
};

/* Bucket of value v (layout in measure.c's header comment). v | LAT_SUB makes the msb at
 * least LAT_SUB_BITS, so small values get shift 0 without a branch (and clz never sees 0). */
static inline unsigned lat_bucket(uint64_t v)
{
    unsigned shift = (unsigned)(63 - LAT_SUB_BITS) - (unsigned)__builtin_clzll(v | LAT_SUB);
    return shift * LAT_SUB + (unsigned)(v >> shift);
}

/* Adds one value; inline, as it runs once per system call an engine makes. */
static inline void lat_record(struct lat_hist *h, uint64_t ns)
{
    uint64_t lo = h->count ? h->min_ns : UINT64_MAX;
    h->min_ns = ns < lo ? ns : lo;
    h->max_ns = ns > h->max_ns ? ns : h->max_ns;
    h->count++;
    h->sum_ns += ns;
    h->bucket[lat_bucket(ns)]++;
}
void lat_merge(struct lat_hist *dst, const struct lat_hist *src);
/* Value at quantile q in [0,1] (upper edge of its bucket, clamped to max); 0 if empty. */
uint64_t lat_quantile(const struct lat_hist *h, double q);
void lat_summarise(const struct lat_hist *h, struct lat_summary *out);

/* ---- per-worker op counters ---- */
struct opstats {
    uint64_t count[OP_KINDS];
    uint64_t bytes_read, bytes_written;
    struct lat_hist lat[OP_KINDS];
    /* read by the time-line sampler while the worker runs */
    _Atomic uint64_t progress_ops;
    _Atomic uint64_t progress_bytes;
};

static inline uint64_t meas_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the operation clock ----
 * Engines stamp each operation with meas_op_clock(), and opstats_record() turns the
 * difference into ns. Once meas_op_clock_init() has found an invariant TSC (x86-64 with
 * constant_tsc and nonstop_tsc) and calibrated it against CLOCK_MONOTONIC, the clock is the
 * TSC itself: a read costs ~12 ns here against ~35 ns for clock_gettime through the vDSO,
 * and with one or two reads per operation that was 2-5% of a metadata phase on tmpfs
 * (operations of ~2.5 us). Otherwise, and before the init, it is CLOCK_MONOTONIC in ns.
 * Phase walls and the time line always use meas_now_ns(). */
struct meas_op_clock_state {
    bool tsc;           /* stamps are TSC ticks */
    double ns_per_tick; /* when tsc */
};
extern struct meas_op_clock_state meas_opclk;

/* Chooses and calibrates the operation clock (about 20 ms, untimed: call before the first
 * phase and never while operations are stamped). Returns true when it is the TSC. With
 * FSBENCH_OP_CLOCK=monotonic in the environment it stays CLOCK_MONOTONIC. */
bool meas_op_clock_init(void);

#if defined(__x86_64__)
/* The CPU's time-stamp counter (rdtsc), in ticks. */
static inline uint64_t meas_tsc(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}
#endif

static inline uint64_t meas_op_clock(void)
{
#if defined(__x86_64__)
    if (meas_opclk.tsc)
        return meas_tsc();
#endif
    return meas_now_ns();
}

/* ns between two meas_op_clock() stamps; 0 when t1 is before t0 (TSCs of two CPUs that
 * differ by a few ticks, when a thread moved between the reads). */
static inline uint64_t meas_op_ns(uint64_t t0, uint64_t t1)
{
    if (t1 <= t0)
        return 0;
    uint64_t d = t1 - t0;
    return meas_opclk.tsc ? (uint64_t)((double)d * meas_opclk.ns_per_tick) : d;
}

/* Counts one op of kind k stamped t0 and t1 by meas_op_clock() that moved `bytes` bytes
 * (reads count into bytes_read for OP_READ, everything else with bytes into
 * bytes_written). */
static inline void opstats_record(struct opstats *s, enum op_kind k, uint64_t t0, uint64_t t1,
                                  uint64_t bytes)
{
    s->count[k]++;
    lat_record(&s->lat[k], meas_op_ns(t0, t1));
    if (bytes) {
        if (k == OP_READ)
            s->bytes_read += bytes;
        else
            s->bytes_written += bytes;
    }
    atomic_store_explicit(&s->progress_ops,
                          atomic_load_explicit(&s->progress_ops, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    if (bytes)
        atomic_store_explicit(&s->progress_bytes,
                              atomic_load_explicit(&s->progress_bytes, memory_order_relaxed) +
                                  bytes,
                              memory_order_relaxed);
}

void opstats_reset(struct opstats *s);
void opstats_merge(struct opstats *dst, const struct opstats *src);
/* Copies counts, bytes and latency summaries into a phase result. */
void opstats_to_result(const struct opstats *s, struct phase_result *r);

/* ---- whole-process snapshots around a phase ---- */
struct meas_snap {
    uint64_t mono_ns;
    struct rusage self, children;
    uint64_t io_read_bytes, io_write_bytes; /* os_proc_io: storage bytes of the process */
    struct dev_io dev;
};

/* Finds the block device behind `path` (its st_dev, else the source of the mount holding
 * it). dev->valid is false when there is none (tmpfs). 0 or -1. */
int meas_dev_for_path(const char *path, struct os_blockdev *dev);
/* Same for a block-device node such as /dev/loop3. */
int meas_dev_for_node(const char *node, struct os_blockdev *dev);

void meas_snap_take(struct meas_snap *s, const struct os_blockdev *dev);
/* Fills wall, user, sys, rusage, process I/O and device deltas of r from a -> b. */
void meas_snap_delta(const struct meas_snap *a, const struct meas_snap *b,
                     struct phase_result *r);

/* ---- progress time line: a thread samples the workers' progress counters ---- */
struct meas_sampler;

/* Starts sampling every interval_ms the sum of progress counters of workers[0..n). */
struct meas_sampler *meas_sampler_start(struct opstats *const *workers, unsigned n,
                                        unsigned interval_ms);

/* What else a sampler may do at each sample, on its own thread (never the workers'). */
struct meas_sampler_cfg {
    struct opstats *const *workers;
    unsigned n;
    unsigned interval_ms;
    const struct os_blockdev *dev;     /* NULL or invalid: no device counters in the points */
    double stall_s;                 /* the shortest stall listed (0: STALL_DEFAULT_S) */
    /* Called after every sample with the point just taken (may be NULL): the live
     * progress line. Runs on the sampler thread and must not block for long. */
    void (*tick)(void *arg, const struct timeline_point *pt);
    void *tick_arg;
};
/* As meas_sampler_start, with the device counters and the tick of cfg. */
struct meas_sampler *meas_sampler_begin(const struct meas_sampler_cfg *cfg);
/* Stops the thread; moves the samples into r->timeline, sets r->longest_stall_s and
 * lists r->stalls. */
void meas_sampler_stop(struct meas_sampler *s, struct phase_result *r);

/* ---- descriptions stored with results ---- */
void meas_machine_probe(struct machine_info *m);
/* Fills fstype, mount point, options and device of the file system holding `path`. */
int meas_target_probe(const char *path, struct target_info *t);

#endif
