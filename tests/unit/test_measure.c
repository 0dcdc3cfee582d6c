/* test_measure.c — unit tests of the measure module (measure.c, sysinfo.c): latency
 * histograms and their quantiles, op counters, the operation clock (TSC or monotonic),
 * process snapshots, the time-line sampler, and the machine, target and block-device probes.
 *
 * Timing tests use generous bounds: they must pass on a loaded 2-core machine. The tmpfs
 * test needs root (mount); it skips with a reason otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/err.h"
#include "measure/measure.h"

/* ---- histogram ---- */

static struct lat_hist *hist_new(void)
{
    struct lat_hist *h = calloc(1, sizeof *h);
    assert_non_null(h);
    return h;
}

static void test_hist_exact_small(void **state)
{
    struct lat_hist *h = hist_new();
    for (uint64_t v = 0; v < LAT_SUB; v++)
        lat_record(h, v);
    assert_int_equal(h->count, LAT_SUB);
    assert_int_equal(h->min_ns, 0);
    assert_int_equal(h->max_ns, LAT_SUB - 1);
    /* rank ceil(q * 16) holds value rank - 1, exactly */
    for (unsigned r = 1; r <= LAT_SUB; r++)
        assert_int_equal(lat_quantile(h, (double)r / LAT_SUB), r - 1);
    assert_int_equal(lat_quantile(h, 0.0), 0);
    assert_int_equal(lat_quantile(h, 0.5), 7);

    memset(h, 0, sizeof *h);
    lat_record(h, 5);
    lat_record(h, 5);
    lat_record(h, 9);
    assert_int_equal(lat_quantile(h, 0.5), 5);
    assert_int_equal(lat_quantile(h, 0.67), 9);
    free(h);
}

static void test_hist_uniform(void **state)
{
    const uint64_t n = 100000;
    struct lat_hist *h = hist_new();
    for (uint64_t v = 1; v <= n; v++)
        lat_record(h, v);
    assert_int_equal(h->count, n);
    assert_int_equal(h->min_ns, 1);
    assert_int_equal(h->max_ns, n);
    assert_int_equal(h->sum_ns, n * (n + 1) / 2);

    static const double qs[] = {0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999};
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        uint64_t want = (uint64_t)ceil(qs[i] * (double)n - 1e-6); /* value at that rank */
        uint64_t got = lat_quantile(h, qs[i]);
        assert_true(got >= want); /* upper edge of the bucket */
        assert_true((double)(got - want) <= (double)want / 16.0);
    }
    assert_int_equal(lat_quantile(h, 0.0), 1);
    assert_int_equal(lat_quantile(h, 1.0), n);

    struct lat_summary s;
    lat_summarise(h, &s);
    assert_int_equal(s.count, n);
    assert_int_equal(s.min_ns, 1);
    assert_int_equal(s.max_ns, n);
    assert_true(s.mean_ns == 50000.5);
    assert_true(s.p50_ns >= 50000 && s.p50_ns <= 50000 + 50000 / 16);
    assert_true(s.p90_ns >= 90000 && s.p90_ns <= 90000 + 90000 / 16);
    assert_true(s.p99_ns >= 99000 && s.p99_ns <= n);
    assert_true(s.p999_ns >= 99900 && s.p999_ns <= n);
    assert_true(s.p50_ns <= s.p90_ns && s.p90_ns <= s.p99_ns && s.p99_ns <= s.p999_ns);
    free(h);
}

static void test_hist_extremes(void **state)
{
    struct lat_hist *h = hist_new();
    lat_record(h, UINT64_MAX);
    lat_record(h, UINT64_C(1) << 40);
    lat_record(h, 1000);
    assert_int_equal(lat_quantile(h, 1.0), UINT64_MAX);
    assert_int_equal(lat_quantile(h, 0.99), UINT64_MAX);
    uint64_t mid = lat_quantile(h, 0.5);
    assert_true(mid >= UINT64_C(1) << 40 && mid <= (UINT64_C(1) << 40) * 17 / 16);
    /* one sample: every quantile is that sample (clamped to [min, max]) */
    memset(h, 0, sizeof *h);
    lat_record(h, 1000);
    assert_int_equal(lat_quantile(h, 0.5), 1000);
    assert_int_equal(lat_quantile(h, 0.999), 1000);
    free(h);
}

static void test_hist_merge(void **state)
{
    struct lat_hist *a = hist_new(), *b = hist_new(), *both = hist_new();
    uint64_t x = 88172645463325252u; /* xorshift: deterministic spread of magnitudes */
    for (int i = 0; i < 5000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t v = x >> (x % 50 + 14);
        lat_record(i % 3 ? a : b, v);
        lat_record(both, v);
    }
    lat_merge(a, b);
    assert_memory_equal(a, both, sizeof *a);

    /* merging an empty histogram changes nothing; into an empty one copies */
    struct lat_hist *empty = hist_new(), *c = hist_new();
    lat_merge(a, empty);
    assert_memory_equal(a, both, sizeof *a);
    lat_merge(c, both);
    assert_memory_equal(c, both, sizeof *c);
    free(a), free(b), free(both), free(empty), free(c);
}

static void test_hist_empty(void **state)
{
    struct lat_hist *h = hist_new();
    struct lat_summary s;
    memset(&s, 0xff, sizeof s);
    lat_summarise(h, &s);
    assert_int_equal(s.count, 0);
    assert_int_equal(s.min_ns, 0);
    assert_int_equal(s.p50_ns, 0);
    assert_int_equal(s.p999_ns, 0);
    assert_int_equal(s.max_ns, 0);
    assert_true(s.mean_ns == 0.0);
    assert_int_equal(lat_quantile(h, 0.5), 0);
    free(h);
}

/* ---- op counters ---- */

static void test_opstats(void **state)
{
    struct opstats *s = calloc(1, sizeof *s), *t = calloc(1, sizeof *t);
    struct phase_result *r = calloc(1, sizeof *r);
    assert_non_null(s), assert_non_null(t), assert_non_null(r);
    opstats_reset(s);
    opstats_record(s, OP_CREATE, 100, 1100, 0);
    opstats_record(s, OP_WRITE, 0, 2000, 4096);
    opstats_record(s, OP_WRITE, 0, 3000, 100);
    opstats_record(s, OP_READ, 10, 510, 512);
    opstats_record(s, OP_FSYNC, 0, 1000000, 0);
    opstats_to_result(s, r);
    assert_int_equal(r->ops[OP_CREATE], 1);
    assert_int_equal(r->ops[OP_WRITE], 2);
    assert_int_equal(r->ops[OP_READ], 1);
    assert_int_equal(r->ops[OP_FSYNC], 1);
    assert_int_equal(r->ops[OP_MKDIR], 0);
    assert_int_equal(r->ops_total, 5);
    assert_int_equal(r->bytes_read, 512);
    assert_int_equal(r->bytes_written, 4196);
    assert_int_equal(r->lat[OP_WRITE].count, 2);
    assert_int_equal(r->lat[OP_WRITE].min_ns, 2000);
    assert_int_equal(r->lat[OP_WRITE].max_ns, 3000);
    assert_true(r->lat[OP_WRITE].mean_ns == 2500.0);
    assert_int_equal(r->lat[OP_READ].p50_ns, 500);
    assert_int_equal(r->lat[OP_MKDIR].count, 0);
    assert_int_equal(atomic_load(&s->progress_ops), 5);
    assert_int_equal(atomic_load(&s->progress_bytes), 4708);

    /* merge sums everything */
    opstats_reset(t);
    opstats_record(t, OP_WRITE, 0, 10, 10);
    opstats_merge(t, s);
    opstats_to_result(t, r);
    assert_int_equal(r->ops[OP_WRITE], 3);
    assert_int_equal(r->ops_total, 6);
    assert_int_equal(r->bytes_written, 4206);
    assert_int_equal(r->lat[OP_WRITE].min_ns, 10);
    assert_int_equal(atomic_load(&t->progress_ops), 6);

    opstats_reset(s);
    opstats_to_result(s, r);
    assert_int_equal(r->ops_total, 0);
    assert_int_equal(r->bytes_written, 0);
    assert_int_equal(r->lat[OP_WRITE].count, 0);
    assert_int_equal(atomic_load(&s->progress_ops), 0);
    free(s), free(t), free(r);
}

/* ---- snapshots ---- */

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_snap_cpu(void **state)
{
    struct meas_snap a, b;
    struct phase_result r;
    memset(&r, 0, sizeof r);
    meas_snap_take(&a, NULL);
    double until = thread_cpu_s() + 0.05;
    uint64_t sink = 0;
    while (thread_cpu_s() < until)
        for (int i = 0; i < 10000; i++)
            sink = sink * 31 + (uint64_t)i;
    assert_true(sink != 1); /* keeps the loop */
    meas_snap_take(&b, NULL);
    meas_snap_delta(&a, &b, &r);
    assert_true(r.wall_s >= 0.05 && r.wall_s < 30);
    /* user vs sys split is tick-sampled; their sum is not */
    assert_true(r.user_s >= 0 && r.sys_s >= 0);
    assert_true(r.user_s + r.sys_s >= 0.04);
    assert_true(r.user_s <= r.wall_s * 2 + 0.05);
    assert_true(r.nvcsw >= 0 && r.nivcsw >= 0 && r.minflt >= 0 && r.majflt >= 0);
    assert_false(r.dev.valid);
}

static void test_snap_write(void **state)
{
    char path[] = "/tmp/fsbench-measure-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    struct os_blockdev dev;
    assert_int_equal(meas_dev_for_path(path, &dev), 0);

    static char buf[1 << 20];
    memset(buf, 'x', sizeof buf);
    struct meas_snap a, b;
    struct phase_result r;
    memset(&r, 0, sizeof r);
    meas_snap_take(&a, &dev);
    assert_int_equal(write(fd, buf, sizeof buf), (ssize_t)sizeof buf);
    assert_int_equal(fsync(fd), 0);
    meas_snap_take(&b, &dev);
    close(fd);
    unlink(path);

    meas_snap_delta(&a, &b, &r);
    assert_true(r.wall_s >= 0);
    assert_true(r.oublock >= 0 && r.inblock >= 0);
    assert_true(a.dev.valid == dev.valid && b.dev.valid == dev.valid);
    assert_true(r.dev.valid == dev.valid);
    if (r.io_write_bytes >= 512) /* same kernel counter, in 512-byte blocks */
        assert_true(r.oublock >= 1);
    if (dev.valid)
        assert_true(b.dev.wr_ios >= a.dev.wr_ios && r.dev.wr_ios == b.dev.wr_ios - a.dev.wr_ios);
    /* reversed snapshots: counters clamp at 0 rather than wrap */
    meas_snap_delta(&b, &a, &r);
    assert_true(r.io_write_bytes == 0 || b.io_write_bytes == a.io_write_bytes);
}

/* ---- sampler ---- */

struct worker_arg {
    struct opstats *st;
    uint64_t recorded;
};

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* ~100 ms of progress, a 300 ms pause, ~100 ms of progress. */
static void *worker_main(void *p)
{
    struct worker_arg *w = p;
    for (int burst = 0; burst < 2; burst++) {
        if (burst) sleep_ms(300);
        for (int i = 0; i < 100; i++) {
            uint64_t t0 = meas_now_ns();
            sleep_ms(1);
            opstats_record(w->st, OP_WRITE, t0, meas_now_ns(), 100);
            w->recorded++;
        }
    }
    return NULL;
}

static void test_sampler(void **state)
{
    struct opstats *st[2] = {calloc(1, sizeof **st), calloc(1, sizeof **st)};
    assert_non_null(st[0]), assert_non_null(st[1]);
    opstats_reset(st[0]);
    opstats_reset(st[1]);
    opstats_record(st[1], OP_MKDIR, 0, 1, 0); /* a second, idle worker counts too */

    struct phase_result r;
    memset(&r, 0, sizeof r);
    struct meas_sampler *s = meas_sampler_start(st, 2, 20);
    assert_non_null(s);
    struct worker_arg w = {.st = st[0]};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, worker_main, &w), 0);
    pthread_join(th, NULL);
    meas_sampler_stop(s, &r);

    assert_non_null(r.timeline);
    assert_true(r.timeline_len >= 10);
    assert_true(r.timeline[0].t == 0.0);
    for (size_t i = 1; i < r.timeline_len; i++) {
        assert_true(r.timeline[i].t >= r.timeline[i - 1].t);
        assert_true(r.timeline[i].ops >= r.timeline[i - 1].ops);
        assert_true(r.timeline[i].bytes >= r.timeline[i - 1].bytes);
    }
    const struct timeline_point *last = &r.timeline[r.timeline_len - 1];
    assert_int_equal(last->ops, w.recorded + 1);
    assert_int_equal(last->bytes, w.recorded * 100);
    assert_true(last->t >= 0.45);
    assert_true(r.longest_stall_s >= 0.25 && r.longest_stall_s <= 0.6);
    phase_result_free(&r);
    free(st[0]), free(st[1]);
}

static void test_sampler_immediate_stop(void **state)
{
    struct opstats *st = calloc(1, sizeof *st);
    assert_non_null(st);
    struct phase_result r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 50; i++) { /* start-then-stop races */
        struct meas_sampler *s = meas_sampler_start(&st, 1, 1);
        assert_non_null(s);
        meas_sampler_stop(s, &r); /* frees the previous time line */
        assert_true(r.timeline_len >= 2);
        assert_true(r.longest_stall_s >= 0 && r.longest_stall_s < 1.0);
    }
    /* a long interval must not delay stop; no workers at all is fine */
    uint64_t t0 = meas_now_ns();
    struct meas_sampler *s = meas_sampler_start(NULL, 0, 10000);
    assert_non_null(s);
    meas_sampler_stop(s, &r);
    assert_true(meas_now_ns() - t0 < 500000000u);
    assert_int_equal(r.timeline_len, 2);
    assert_int_equal(r.timeline[1].ops, 0);
    assert_true(r.longest_stall_s == r.timeline[1].t); /* flat to the end */
    /* stop of a sampler that failed to start leaves no time line */
    meas_sampler_stop(NULL, &r);
    assert_null(r.timeline);
    assert_int_equal(r.timeline_len, 0);
    free(st);
}

/* ---- target and device probes ---- */

static void test_target_root_and_proc(void **state)
{
    struct target_info *t = calloc(1, sizeof *t);
    assert_non_null(t);
    assert_int_equal(meas_target_probe("/", t), 0);
    assert_string_equal(t->path, "/");
#ifdef FSBENCH_OS_POSIX_ONLY
    /* no portable mount table: the file system is "unknown", the rest empty */
    assert_string_equal(t->fstype, "unknown");
    assert_string_equal(t->mount_point, "");
    free(t);
    return;
#endif
    assert_string_equal(t->mount_point, "/");
    assert_true(t->fstype[0] != '\0');
    assert_true(t->mount_opts[0] != '\0');
    assert_true(t->device[0] != '\0');

    assert_int_equal(meas_target_probe("/proc/self", t), 0);
    assert_string_equal(t->mount_point, "/proc");
    assert_string_equal(t->fstype, "proc");
    assert_string_equal(t->blockdev, "");
    assert_int_equal(strncmp(t->path, "/proc/", 6), 0); /* realpath: /proc/<pid> */
    free(t);
}

static void test_target_missing(void **state)
{
    struct target_info *t = calloc(1, sizeof *t);
    struct os_blockdev dev;
    assert_non_null(t);
    err_set_quiet(1);
    assert_int_equal(meas_target_probe("/nonexistent/fsbench/path", t), -1);
    assert_int_equal(meas_dev_for_path("/nonexistent/fsbench/path", &dev), -1);
    assert_false(dev.valid);
    assert_int_equal(meas_dev_for_node("/dev/null", &dev), -1); /* not a block device */
    err_set_quiet(0);
    free(t);
}

static void test_dev_root(void **state)
{
    struct os_blockdev dev;
    struct stat st;
    char sys[64];
    assert_int_equal(stat("/", &st), 0);
    assert_int_equal(meas_dev_for_path("/", &dev), 0);
#ifdef FSBENCH_OS_POSIX_ONLY
    assert_false(dev.valid); /* no portable device counters */
    return;
#endif
    snprintf(sys, sizeof sys, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
    if (major(st.st_dev) != 0 && access(sys, F_OK) == 0)
        assert_true(dev.valid); /* / is on a block device sysfs knows */
    if (!dev.valid) {
        assert_string_equal(dev.name, "");
        return;
    }
    assert_true(dev.name[0] != '\0');
    assert_int_equal(access(dev.stat_path, R_OK), 0);
    struct meas_snap s;
    meas_snap_take(&s, &dev);
    assert_true(s.dev.valid);

    struct target_info *t = calloc(1, sizeof *t);
    assert_non_null(t);
    assert_int_equal(meas_target_probe("/", t), 0);
    assert_string_equal(t->blockdev, dev.name);
    free(t);

    /* the node of the same device, where /dev has it, names the same device */
    char node[128];
    snprintf(node, sizeof node, "/dev/%s", dev.name);
    struct stat nst;
    if (stat(node, &nst) == 0 && S_ISBLK(nst.st_mode)) {
        struct os_blockdev d2;
        assert_int_equal(meas_dev_for_node(node, &d2), 0);
        assert_true(d2.valid);
        if (nst.st_rdev == st.st_dev) {
            assert_string_equal(d2.name, dev.name);
            assert_string_equal(d2.stat_path, dev.stat_path);
        }
    }
}

struct tmpfs_fixture {
    char dir[64];
    char mnt[96]; /* has a space: mountinfo escapes it as \040 */
    int mounted;
};

static int tmpfs_setup(void **state)
{
    struct tmpfs_fixture *f = calloc(1, sizeof *f);
    if (!f) return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/fsbench-measure-XXXXXX");
    if (!mkdtemp(f->dir)) {
        free(f);
        return -1;
    }
    snprintf(f->mnt, sizeof f->mnt, "%s/mnt point", f->dir);
    if (mkdir(f->mnt, 0700) < 0) {
        rmdir(f->dir);
        free(f);
        return -1;
    }
    if (geteuid() == 0 && mount("tmpfs", f->mnt, "tmpfs", 0, "size=1m") == 0) f->mounted = 1;
    *state = f;
    return 0;
}

static int tmpfs_teardown(void **state)
{
    struct tmpfs_fixture *f = *state;
    if (f->mounted && umount2(f->mnt, MNT_DETACH) < 0)
        fprintf(stderr, "# umount %s: %s\n", f->mnt, strerror(errno));
    rmdir(f->mnt);
    rmdir(f->dir);
    free(f);
    return 0;
}

static void test_dev_tmpfs(void **state)
{
    struct tmpfs_fixture *f = *state;
    if (!f->mounted) {
        print_message("# skip: mounting a tmpfs needs root (or mount is not permitted)\n");
        skip();
    }
    char *real = realpath(f->mnt, NULL);
    assert_non_null(real);
    struct os_blockdev dev;
    assert_int_equal(meas_dev_for_path(f->mnt, &dev), 0);
    assert_false(dev.valid);

    struct target_info *t = calloc(1, sizeof *t);
    assert_non_null(t);
    assert_int_equal(meas_target_probe(f->mnt, t), 0);
#ifdef FSBENCH_OS_POSIX_ONLY
    assert_string_equal(t->fstype, "unknown");
    free(t);
    free(real);
    return;
#endif
    assert_string_equal(t->fstype, "tmpfs");
    assert_string_equal(t->mount_point, real);
    assert_string_equal(t->device, "tmpfs");
    assert_string_equal(t->blockdev, "");
    assert_non_null(strstr(t->mount_opts, "size="));

    /* a snapshot with an invalid device has no device counters */
    struct meas_snap a, b;
    struct phase_result r;
    memset(&r, 0, sizeof r);
    meas_snap_take(&a, &dev);
    meas_snap_take(&b, &dev);
    meas_snap_delta(&a, &b, &r);
    assert_false(r.dev.valid);
    free(t);
    free(real);
}

static void test_machine(void **state)
{
    struct machine_info m;
    meas_machine_probe(&m);
    assert_true(m.ncpu >= 1);
    assert_true(m.ram_bytes > 0);
    assert_true(m.kernel[0] != '\0');
    assert_true(m.kernel_version[0] != '\0');
    assert_true(m.arch[0] != '\0');
    assert_true(m.cpu[0] != '\0');
    assert_true(m.hostname[0] != '\0');
    assert_true(m.dirty_ratio >= -1 && m.dirty_expire_centisecs >= -1);
#ifdef FSBENCH_OS_POSIX_ONLY
    assert_true(m.dirty_ratio == -1 && m.vfs_cache_pressure == -1); /* unknown without /proc */
    assert_string_equal(m.cpu, "unknown");
#else
    if (access("/proc/sys/vm/dirty_ratio", R_OK) == 0) assert_true(m.dirty_ratio >= 0);
#endif
}

/* Stamps 10 ms apart measure 10 ms (generous upper bound for a loaded machine); a reversed
 * pair measures 0; recorded latencies are in ns whatever the clock. */
static void check_op_clock(void)
{
    struct timespec nap = {0, 10000000};
    uint64_t t0 = meas_op_clock();
    nanosleep(&nap, NULL);
    uint64_t t1 = meas_op_clock();
    uint64_t ns = meas_op_ns(t0, t1);
    assert_true(ns >= 9900000);
    assert_true(ns < 500000000);
    assert_int_equal(meas_op_ns(t1, t0), 0);
    struct opstats *st = calloc(1, sizeof *st);
    assert_non_null(st);
    opstats_record(st, OP_STAT, t0, t1, 0);
    assert_int_equal(st->lat[OP_STAT].sum_ns, ns);
    free(st);
}

static void test_op_clock(void **state)
{
    (void)state;
    bool tsc = meas_op_clock_init();
    assert_int_equal(tsc, meas_opclk.tsc);
    if (tsc) /* a plausible TSC rate: 0.1-20 GHz */
        assert_true(meas_opclk.ns_per_tick > 0.05 && meas_opclk.ns_per_tick < 10.0);
    check_op_clock();
    /* forced to the system clock: stamps are CLOCK_MONOTONIC ns */
    setenv("FSBENCH_OP_CLOCK", "monotonic", 1);
    assert_false(meas_op_clock_init());
    uint64_t a = meas_now_ns(), b = meas_op_clock(), c = meas_now_ns();
    assert_true(a <= b && b <= c);
    check_op_clock();
    unsetenv("FSBENCH_OP_CLOCK");
    assert_int_equal(meas_op_clock_init(), tsc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hist_exact_small),
        cmocka_unit_test(test_hist_uniform),
        cmocka_unit_test(test_hist_extremes),
        cmocka_unit_test(test_hist_merge),
        cmocka_unit_test(test_hist_empty),
        cmocka_unit_test(test_opstats),
        cmocka_unit_test(test_snap_cpu),
        cmocka_unit_test(test_snap_write),
        cmocka_unit_test(test_sampler),
        cmocka_unit_test(test_sampler_immediate_stop),
        cmocka_unit_test(test_target_root_and_proc),
        cmocka_unit_test(test_target_missing),
        cmocka_unit_test(test_dev_root),
        cmocka_unit_test_setup_teardown(test_dev_tmpfs, tmpfs_setup, tmpfs_teardown),
        cmocka_unit_test(test_machine),
        cmocka_unit_test(test_op_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
