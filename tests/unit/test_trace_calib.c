/* test_trace_calib.c — unit tests of the calls' price (trace_calib.h) and of the think time
 * it leaves (trace_think.h): the class each call counts in, a call's price from a table
 * made up for the test, the think time per process from a known table and known counts,
 * and the table measured here (record_calib.h): every class priced, nothing left behind,
 * inside the recorded directory where that is its file system's root (record_dir.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/record_calib.h"
#include "run/record_dir.h"
#include "trace/trace_calib.h"
#include "trace/trace_think.h"

#define US 1000ull
#define MS 1000000ull

/* A made-up table: each class its own price, 1 ms per MiB read, 2 ms per MiB written. */
static struct trace_calib table(void)
{
    struct trace_calib k = {.read_ns_per_mib = 1 * MS, .write_ns_per_mib = 2 * MS};
    for (unsigned i = 0; i < CAL_CLASSES; i++)
        k.call_ns[i] = (i + 1) * US;
    return k;
}

static void test_classes(void **state)
{
    (void)state;
    struct trace_call c = {.kind = TK_OPEN, .flags = TRO_CREAT | TRO_WRONLY, .result = 3};
    assert_int_equal(trace_calib_class(&c), CAL_CREATE);
    c.flags = 0;
    assert_int_equal(trace_calib_class(&c), CAL_OPEN);
    c.result = -1; /* a failed open: a lookup */
    assert_int_equal(trace_calib_class(&c), CAL_STAT);
    c = (struct trace_call){.kind = TK_PREAD};
    assert_int_equal(trace_calib_class(&c), CAL_READ);
    c.kind = TK_LSEEK;
    assert_int_equal(trace_calib_class(&c), CAL_FSTAT);
    c.kind = TK_SYMLINK;
    assert_int_equal(trace_calib_class(&c), CAL_RENAME);
    c.kind = TK_UTIMENS;
    assert_int_equal(trace_calib_class(&c), CAL_SETATTR);
    assert_string_equal(trace_calib_name(CAL_GETDENTS), "getdents");
    assert_string_equal(trace_calib_name(CAL_CLASSES), "?");
}

static void test_call_price(void **state)
{
    (void)state;
    struct trace_calib k = table();
    /* a read of 1 MiB: its call (CAL_READ + 1 us) and 1 ms */
    struct trace_call c = {.kind = TK_READ, .size = 1 << 20, .result = 1 << 20};
    assert_int_equal(trace_calib_call_ns(&k, &c), (CAL_READ + 1) * US + 1 * MS);
    /* a short read is priced by what it moved, not what it asked */
    c.result = 512 * 1024;
    assert_int_equal(trace_calib_call_ns(&k, &c), (CAL_READ + 1) * US + MS / 2);
    /* a write of 4 MiB */
    c = (struct trace_call){.kind = TK_WRITE, .size = 4 << 20, .result = 4 << 20};
    assert_int_equal(trace_calib_call_ns(&k, &c), (CAL_WRITE + 1) * US + 8 * MS);
    /* a map: the range a replay reads */
    c = (struct trace_call){.kind = TK_MMAP, .size = 2 << 20};
    assert_int_equal(trace_calib_call_ns(&k, &c), (CAL_READ + 1) * US + 2 * MS);
    /* a record that is no call costs nothing */
    c = (struct trace_call){.kind = TK_SPAWN};
    assert_int_equal(trace_calib_call_ns(&k, &c), 0);
    assert_int_equal(trace_calib_cost(&k, CAL_CLOSE, 10, 0), 10 * (CAL_CLOSE + 1) * US);
}

/* git checkout's shape: sh (no calls) and git, 100 files created, written (64 KiB each)
 * and closed, 200 stats; git used 20 ms of CPU, sh 5 ms. */
static void test_think_known(void **state)
{
    (void)state;
    struct trace_calib k = table();
    uint64_t cost = 0;
    for (int i = 0; i < 100; i++) {
        struct trace_call calls[] = {
            {.kind = TK_OPEN, .flags = TRO_CREAT | TRO_WRONLY, .result = 3},
            {.kind = TK_WRITE, .size = 65536, .result = 65536},
            {.kind = TK_CLOSE},
            {.kind = TK_STAT},
            {.kind = TK_STAT, .result = -2},
        };
        for (size_t j = 0; j < sizeof calls / sizeof calls[0]; j++)
            cost += trace_calib_call_ns(&k, &calls[j]);
    }
    /* create 2 us, write 7 us, close 3 us, stat 4 us twice: 20 us a file, 2 ms; 6.25 MiB
     * written at 2 ms each: 12.5 ms */
    assert_int_equal(cost, 100 * 20 * US + 12500 * US);
    struct think_thread th[] = {
        {.leader = 0, .comm = "sh", .calls = 0, .room_ns = 10 * MS},
        {.leader = 1, .comm = "git", .calls = 500, .room_ns = 30 * MS, .cost_ns = cost},
    };
    struct think_task tasks[] = {
        {.pid = 11, .tgid = 11, .ppid = 10, .comm = "sh", .cpu_ns = 5 * MS},
        {.pid = 12, .tgid = 12, .ppid = 11, .comm = "git", .cpu_ns = 20 * MS},
    };
    struct trace_info in = {.nthreads = 2};
    char why[256] = "";
    assert_int_equal(trace_think_per_process(&in, th, tasks, 2, 10, 25 * MS, 0, why, sizeof why),
                     0);
    assert_int_equal(in.nprocs, 2);
    assert_int_equal(in.procs[0].think_ns, 5 * MS);
    /* git: 20 ms less 14.5 ms */
    assert_int_equal(in.procs[1].think_ns, 5500 * US);
    assert_int_equal(in.think_ns, 10500 * US);
    /* its gaps hold 30 ms: all of it there, at scale 5.5 / 30 */
    assert_int_equal(in.procs[1].tail_ns, 0);
    assert_int_equal(in.thread_scale_ppm[1], 183333);
    free(in.procs), free(in.thread_proc), free(in.thread_scale_ppm);
}

static void test_measured(void **state)
{
    (void)state;
    char dir[] = "/tmp/fsbench-test-calib.XXXXXX", near[sizeof dir + 8];
    assert_non_null(mkdtemp(dir));
    snprintf(near, sizeof near, "%s/root", dir);
    assert_int_equal(mkdir(near, 0755), 0);
    struct trace_calib k;
    char why[256] = "";
    assert_int_equal(record_calib_measure(near, &k, why, sizeof why), 0);
    for (unsigned i = 0; i < CAL_CLASSES; i++)
        assert_true(k.call_ns[i] > 0 && k.call_ns[i] < 10 * MS);
    /* the work was done beside root, and removed: dir holds root alone */
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    assert_int_equal(n, 1);
    assert_int_equal(rmdir(near), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* The root of a file system (a tmpfs mounted for the recording): its parent is another
 * file system, so the table is measured inside it, not under $TMPDIR (another file system,
 * where an fsync costs what a disk's does: 86 us against the tmpfs's 1 us, which took a
 * sqlite trace's whole think time off), and it is left as it was, times included.
 * /dev/shm is such a root where the test runs; skipped where it is not. */
static void test_measured_on_fs_root(void **state)
{
    (void)state;
    const char *root = "/dev/shm";
    struct stat a, p, after;
    if (stat(root, &a) < 0 || stat("/dev", &p) < 0 || a.st_dev == p.st_dev ||
        access(root, W_OK) < 0)
        skip();
    /* made inside root, on its file system */
    struct record_dir rd;
    assert_int_equal(record_dir_make(&rd, root, ".fsbench-test"), 0);
    struct stat in;
    assert_int_equal(stat(rd.path, &in), 0);
    assert_true(in.st_dev == a.st_dev);
    assert_int_equal(record_dir_remove(&rd), 0);
    /* a $TMPDIR that cannot be used: only root's own file system is left */
    char *tmp = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
    setenv("TMPDIR", "/nonexistent/fsbench-test", 1);
    assert_int_equal(stat(root, &a), 0);
    struct trace_calib k;
    char why[256] = "";
    int rc = record_calib_measure(root, &k, why, sizeof why);
    if (tmp)
        setenv("TMPDIR", tmp, 1);
    else
        unsetenv("TMPDIR");
    free(tmp);
    assert_int_equal(rc, 0);
    for (unsigned i = 0; i < CAL_CLASSES; i++)
        assert_true(k.call_ns[i] > 0 && k.call_ns[i] < 10 * MS);
    assert_int_equal(stat(root, &after), 0);
    assert_true(after.st_mtim.tv_sec == a.st_mtim.tv_sec &&
                after.st_mtim.tv_nsec == a.st_mtim.tv_nsec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_call_price),
        cmocka_unit_test(test_think_known),
        cmocka_unit_test(test_measured),
        cmocka_unit_test(test_measured_on_fs_root),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
