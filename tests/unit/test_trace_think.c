/* test_trace_think.c — unit tests of the think time per process (trace_think.h): the
 * untraced run's tasks kept where they descend from the program (the machine's others
 * left), summed per process, matched by name in start order, an unmatched one's time given
 * to its matched ancestor, each process's share less the replay's for its calls, over its
 * own threads' gaps, and what they cannot hold (a process that makes no call) before its
 * exit; the sampled times scaled to the run's exact total; their sum no more than the
 * program's CPU time less the replay's for all its calls.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "trace/trace_think.h"

#define MS 1000000ull

/* dpkg-deb -x's shape: sh, then tar (two threads, all the calls) and a decompressor that
 * makes no call, beside it. */
static const struct think_thread threads[] = {
    {.leader = 0, .comm = "sh", .calls = 0, .room_ns = 10 * MS},
    {.leader = 1, .comm = "tar", .calls = 100, .room_ns = 400 * MS},
    {.leader = 2, .comm = "xz", .calls = 0, .room_ns = 0, .span_ns = 700 * MS},
    {.leader = 1, .comm = "tar", .calls = 50, .room_ns = 100 * MS},
};

static const struct think_task tasks[] = {
    {.pid = 500, .tgid = 500, .ppid = 400, .comm = "cc1", .cpu_ns = 900 * MS}, /* not ours */
    {.pid = 1002, .tgid = 1002, .ppid = 1001, .comm = "xz", .cpu_ns = 300 * MS},
    {.pid = 1004, .tgid = 1003, .ppid = 1001, .comm = "tar", .cpu_ns = 100 * MS},
    {.pid = 1005, .tgid = 1005, .ppid = 1003, .comm = "cat", .cpu_ns = 20 * MS},
    {.pid = 1003, .tgid = 1003, .ppid = 1001, .comm = "tar", .cpu_ns = 200 * MS},
    {.pid = 1001, .tgid = 1001, .ppid = 1000, .comm = "sh", .cpu_ns = 10 * MS},
    {.pid = 1000, .tgid = 1000, .ppid = 1, .comm = "fsbench", .cpu_ns = 50 * MS}, /* itself */
};

static void near(uint64_t got, uint64_t want)
{
    assert_true(got + 1000 >= want && got <= want + 1000);
}

static void test_per_process(void **state)
{
    (void)state;
    struct trace_info in = {.nthreads = 4, .think_ns = 1};
    char why[256] = "";
    assert_int_equal(trace_think_per_process(&in, threads, tasks, 7, 1000, 630 * MS, 150 * MS,
                                             why, sizeof why),
                     0);
    assert_int_equal(in.nprocs, 3);
    assert_int_equal(in.nthread_think, 4);
    /* sh: its 10 ms in its gaps (scale 1) */
    assert_string_equal(in.procs[0].comm, "sh");
    near(in.procs[0].cpu_ns, 10 * MS);
    near(in.procs[0].think_ns, 10 * MS);
    assert_int_equal(in.procs[0].tail_ns, 0);
    assert_int_equal(in.thread_scale_ppm[0], 1000000);
    /* tar: its two threads and the cat it ran (not recorded), less the replay's 150 ms
     * for its 150 calls, over its threads' 500 ms of gaps */
    assert_int_equal(in.procs[1].leader, 1);
    near(in.procs[1].cpu_ns, 320 * MS);
    near(in.procs[1].think_ns, 170 * MS);
    assert_int_equal(in.procs[1].tail_ns, 0);
    assert_int_equal(in.thread_proc[3], 1);
    assert_true(in.thread_scale_ppm[1] == in.thread_scale_ppm[3]);
    assert_true(in.thread_scale_ppm[1] >= 339000 && in.thread_scale_ppm[1] <= 341000);
    /* xz: no call, no gap: all of its time beside the others, before its exit */
    assert_int_equal(in.procs[2].leader, 2);
    near(in.procs[2].think_ns, 300 * MS);
    near(in.procs[2].tail_ns, 300 * MS);
    near(trace_exit_think_ns(&in, 2), 300 * MS);
    assert_int_equal(in.procs[2].span_ns, 700 * MS); /* over its life in the replay */
    assert_int_equal(trace_exit_think_ns(&in, 3), 0); /* tar's second thread leads none */
    near(in.think_ns, 480 * MS);
    trace_info_free(&in);
}

/* The kernel samples each task's time; the tasks are scaled to the run's exact total. */
static void test_scaled(void **state)
{
    (void)state;
    struct trace_info in = {.nthreads = 4};
    char why[256] = "";
    assert_int_equal(trace_think_per_process(&in, threads, tasks, 7, 1000, 1260 * MS, 0, why,
                                             sizeof why),
                     0);
    near(in.procs[2].cpu_ns, 600 * MS);
    near(in.procs[1].think_ns, 640 * MS); /* its gaps hold 500 ms of it, the rest beside */
    near(in.procs[1].tail_ns, 140 * MS);
    assert_int_equal(in.thread_scale_ppm[1], 1000000);
    trace_info_free(&in);
}

/* Names that match no recorded process: the time goes to the first process; none of the
 * program's tasks reported: refused, info unchanged. */
static void test_unmatched(void **state)
{
    (void)state;
    const struct think_task other[] = {
        {.pid = 2001, .tgid = 2001, .ppid = 2000, .comm = "bash", .cpu_ns = 40 * MS},
    };
    struct trace_info in = {.nthreads = 4, .think_ns = 7};
    char why[256] = "";
    assert_int_equal(trace_think_per_process(&in, threads, other, 1, 2000, 40 * MS, 0, why,
                                             sizeof why),
                     0);
    near(in.procs[0].cpu_ns, 40 * MS);
    near(in.procs[0].think_ns, 40 * MS);
    near(in.procs[0].tail_ns, 30 * MS); /* its gaps hold 10 ms */
    trace_info_free(&in);
    struct trace_info none = {.nthreads = 4, .think_ns = 7};
    assert_int_equal(trace_think_per_process(&none, threads, other, 1, 3000, 40 * MS, 0, why,
                                             sizeof why),
                     -1);
    assert_string_equal(why, "no process of the untraced run was reported");
    assert_int_equal(none.think_ns, 7);
    assert_int_equal(none.nprocs, 0);
}

/* rsync's shape: sh, then a sender, a generator and a receiver that wait for one
 * another's pipes in a cycle. The sender's and the receiver's calls cost the replay more
 * than their whole CPU time; that surplus is on the same path as the generator's think
 * time, so the think times add up to no more than the CPU time less the replay's for all
 * the calls: here 690 - 610 = 80 ms, of the generator's 100 and sh's 20 (scaled alike by
 * 80 / 120). The old per-process sum gave 120 ms; a cap of 0 gives none at all. */
static void test_cycle_capped(void **state)
{
    (void)state;
    const struct think_thread rs[] = {
        {.leader = 0, .comm = "sh", .calls = 0, .room_ns = 40 * MS},
        {.leader = 1, .comm = "rsync", .calls = 100, .room_ns = 50 * MS, .cost_ns = 300 * MS},
        {.leader = 2, .comm = "rsync", .calls = 40, .room_ns = 200 * MS, .cost_ns = 60 * MS},
        {.leader = 3, .comm = "rsync", .calls = 100, .room_ns = 50 * MS, .cost_ns = 250 * MS},
    };
    const struct think_task tk[] = {
        {.pid = 11, .tgid = 11, .ppid = 10, .comm = "sh", .cpu_ns = 20 * MS},
        {.pid = 12, .tgid = 12, .ppid = 11, .comm = "rsync", .cpu_ns = 260 * MS},
        {.pid = 13, .tgid = 13, .ppid = 12, .comm = "rsync", .cpu_ns = 160 * MS},
        {.pid = 14, .tgid = 14, .ppid = 13, .comm = "rsync", .cpu_ns = 250 * MS},
    };
    struct trace_info in = {.nthreads = 4};
    char why[256] = "";
    assert_int_equal(trace_think_per_process(&in, rs, tk, 4, 10, 690 * MS, 0, why, sizeof why),
                     0);
    near(in.procs[0].think_ns, 20 * MS * 2 / 3);
    near(in.procs[1].think_ns, 0);     /* its calls cost the replay 40 ms more than it used */
    near(in.procs[2].think_ns, 100 * MS * 2 / 3);
    near(in.procs[3].think_ns, 0);     /* and its, as much as it used */
    near(in.think_ns, 80 * MS);
    assert_int_equal(in.thread_scale_ppm[2], 333333); /* 66.7 ms over 200 ms of gaps */
    trace_info_free(&in);
    /* the sender's calls dearer still (CPU 690 ms less 730 ms for all the calls): none left */
    const struct think_thread dear[] = {
        rs[0],
        {.leader = 1, .comm = "rsync", .calls = 100, .room_ns = 50 * MS, .cost_ns = 420 * MS},
        rs[2],
        rs[3],
    };
    struct trace_info none = {.nthreads = 4};
    assert_int_equal(trace_think_per_process(&none, dear, tk, 4, 10, 690 * MS, 0, why,
                                             sizeof why),
                     0);
    assert_int_equal(none.think_ns, 0);
    assert_int_equal(none.thread_scale_ppm[2], 0);
    trace_info_free(&none);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_per_process),
        cmocka_unit_test(test_scaled),
        cmocka_unit_test(test_unmatched),
        cmocka_unit_test(test_cycle_capped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
