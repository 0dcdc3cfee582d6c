/* test_trace.c — unit tests of the trace module: the codec (every kind round-trips, every
 * bad field is refused, a cut record asks for more), the file (written and read back;
 * damaged, truncated and foreign files refused with one reason), strace's lines (every
 * form strace writes with record's options), the recorder (descriptors, threads, forks,
 * exits, close-on-exec, working directories, what is left out, lines that come before
 * the clone of their thread), the gaps and quick calls the think-time model rests on, a
 * trace rewritten around its copied calls, and the scan of the initial state.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "trace/strace_parse.h"
#include "trace/trace.h"
#include "trace/trace_codec.h"
#include "trace/trace_file.h"
#include "trace/trace_prescan.h"
#include "trace/trace_read.h"
#include "trace/trace_record.h"
#include "trace/trace_record_internal.h"
#include "trace/trace_stats.h"
#include "trace/trace_write.h"
#include "testutil.h"

/* ---- codec ---- */

static void test_varint(void **state)
{
    (void)state;
    const uint64_t v[] = {0, 1, 127, 128, 300, 1u << 31, UINT64_MAX - 1, UINT64_MAX};
    uint8_t b[16];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        size_t n = trace_put_varint(b, v[i]);
        uint64_t x;
        assert_int_equal(trace_get_varint(b, n, &x), (long)n);
        assert_true(x == v[i]);
        assert_int_equal(trace_get_varint(b, n - 1, &x), 0); /* cut: more wanted */
    }
    memset(b, 0xff, sizeof b);
    uint64_t x;
    assert_int_equal(trace_get_varint(b, sizeof b, &x), -1); /* longer than 64 bits */
}

static void test_paths(void **state)
{
    (void)state;
    const char *good[] = {".", "a", "a/b", "a.b/..c/...", "x y/\n"};
    const char *bad[] = {"", "/a", "a/", "a//b", "./a", "a/./b", "..", "a/..", "../a", "a/../b"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_true(trace_path_valid(good[i], strlen(good[i])));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(trace_path_valid(bad[i], strlen(bad[i])));
    assert_false(trace_path_valid("a\0b", 3));
}

static void test_errors(void **state)
{
    (void)state;
    const int e[] = {ENOENT, EEXIST, ENOTDIR, EISDIR, ELOOP, EXDEV, ENOSPC, EACCES, ENOTEMPTY};
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
        enum trace_err c = trace_err_from_errno(e[i]);
        assert_true(c != TE_OTHER);
        assert_int_equal(trace_err_to_errno(c), e[i]);
        assert_int_equal(trace_err_from_name(trace_err_name(c)), c);
    }
    assert_int_equal(trace_err_from_name("ENOTSUP"), TE_OPNOTSUPP);
    assert_int_equal(trace_err_from_name("EWHATEVER"), TE_OTHER);
    char b[32];
    assert_string_equal(trace_count_str(41200, b, sizeof b), "41,200");
    assert_string_equal(trace_count_str(7, b, sizeof b), "7");
    assert_string_equal(trace_count_str(1234567, b, sizeof b), "1,234,567");
}

/* A valid record of every kind. */
static struct trace_call sample(unsigned kind, uint64_t start)
{
    struct trace_call c = {.kind = (uint8_t)kind, .thread = 1, .start_ns = start, .dur_ns = 77};
    unsigned f = trace_kind_fields(kind);
    if (f & TF_PATH)
        c.path = "dir/name", c.path_len = 8;
    if (f & TF_PATH2)
        c.path2 = "other/x", c.path2_len = 7;
    if (f & TF_SLOT)
        c.slot = 3;
    if (f & TF_SLOT2)
        c.slot2 = 4;
    if (f & TF_SIZE)
        c.size = 4096;
    if (f & TF_OFF)
        c.off = 12345;
    if (f & TF_OFF2)
        c.off2 = 99;
    if (f & TF_SOFF)
        c.soff = -60;
    if (f & TF_FLAGS)
        c.flags = kind == TK_OPEN ? (TRO_CREAT | TRO_WRONLY) : 1;
    if (f & TF_MODE)
        c.mode = 0644;
    if (f & TF_AUX)
        c.aux = 0;
    switch (trace_kind_result(kind)) {
    case TR_COUNT: c.result = 100; break;
    case TR_OFFSET: c.result = 54; break;
    case TR_SLOT: c.result = 5; break;
    default: c.result = kind % 3 ? 0 : -(int64_t)TE_NOENT; break;
    }
    return c;
}

static void test_codec_roundtrip(void **state)
{
    (void)state;
    struct trace_codec enc = {.nthreads = 8, .nslots = 8}, dec = enc;
    uint8_t *buf = malloc(64 * TRACE_RECORD_MAX);
    size_t n = 0;
    unsigned kinds = 0;
    uint64_t start = 1000;
    for (unsigned k = 1; k < TRACE_KIND_END; k++) {
        if (!trace_kind_valid(k))
            continue;
        struct trace_call c = sample(k, start);
        start = k % 2 ? start + 5000 : start - 300; /* starts need not grow */
        n += trace_encode_call(&enc, &c, buf + n);
        kinds++;
    }
    size_t at = 0;
    start = 1000;
    for (unsigned k = 1; k < TRACE_KIND_END; k++) {
        if (!trace_kind_valid(k))
            continue;
        struct trace_call want = sample(k, start), got;
        start = k % 2 ? start + 5000 : start - 300;
        char why[256];
        long r = trace_decode_call(&dec, buf + at, n - at, &got, why, sizeof why);
        if (r <= 0)
            fail_msg("kind %u: %s", k, r < 0 ? why : "cut");
        assert_int_equal(got.kind, k);
        assert_true(got.start_ns == want.start_ns && got.dur_ns == 77 && got.thread == 1);
        assert_true(got.result == want.result && got.slot == want.slot &&
                    got.slot2 == want.slot2 && got.size == want.size && got.off == want.off &&
                    got.off2 == want.off2 && got.soff == want.soff &&
                    got.flags == want.flags && got.mode == want.mode);
        assert_int_equal(got.path_len, want.path_len);
        if (want.path)
            assert_memory_equal(got.path, want.path, want.path_len);
        at += (size_t)r;
    }
    assert_int_equal(at, n);
    assert_true(kinds >= 40);
    free(buf);
}

/* Decoding the bytes of c with limits (8 threads, 8 slots): the result and why. */
static long decode_one(const struct trace_call *c, char *why)
{
    struct trace_codec enc = {.nthreads = 1000, .nslots = 1000}, dec = {.nthreads = 8, .nslots = 8};
    uint8_t buf[TRACE_RECORD_MAX];
    size_t n = trace_encode_call(&enc, c, buf);
    struct trace_call got;
    return trace_decode_call(&dec, buf, n, &got, why, 256);
}

static void test_codec_refuses(void **state)
{
    (void)state;
    char why[256];
    struct trace_call c = sample(TK_OPEN, 10);
    assert_true(decode_one(&c, why) > 0);
    c.path = "../etc/passwd", c.path_len = 13;
    assert_int_equal(decode_one(&c, why), -1);
    assert_non_null(strstr(why, "path"));
    c.path = "/etc", c.path_len = 4;
    assert_int_equal(decode_one(&c, why), -1);
    c = sample(TK_OPEN, 10);
    c.thread = 9;
    assert_int_equal(decode_one(&c, why), -1);
    assert_non_null(strstr(why, "thread 9"));
    c = sample(TK_READ, 10);
    c.slot = 8;
    assert_int_equal(decode_one(&c, why), -1);
    assert_non_null(strstr(why, "slot 8"));
    c = sample(TK_READ, 10);
    c.result = 5000; /* more than it asked for */
    assert_int_equal(decode_one(&c, why), -1);
    c = sample(TK_MKDIR, 10);
    c.result = 3; /* mkdir has no value */
    assert_int_equal(decode_one(&c, why), -1);
    c.result = -(int64_t)TE_COUNT;
    assert_int_equal(decode_one(&c, why), -1);
    c = sample(TK_MKDIR, 10);
    c.mode = 010000;
    assert_int_equal(decode_one(&c, why), -1);
    c = sample(TK_OPEN, 10);
    c.flags = TRO_ALL + 1;
    assert_int_equal(decode_one(&c, why), -1);
    c = sample(TK_OPEN, 10);
    c.result = 8; /* a slot beyond the trace's */
    assert_int_equal(decode_one(&c, why), -1);
    /* an unknown kind, and a record cut short */
    struct trace_codec dec = {.nthreads = 8, .nslots = 8};
    uint8_t bad[4] = {200, 0, 0, 0};
    struct trace_call got;
    assert_int_equal(trace_decode_call(&dec, bad, sizeof bad, &got, why, sizeof why), -1);
    assert_non_null(strstr(why, "kind 200"));
    struct trace_codec enc = {.nthreads = 8, .nslots = 8};
    uint8_t buf[TRACE_RECORD_MAX];
    c = sample(TK_RENAME, 10);
    size_t n = trace_encode_call(&enc, &c, buf);
    for (size_t cut = 1; cut < n; cut++) {
        struct trace_codec d2 = {.nthreads = 8, .nslots = 8};
        assert_int_equal(trace_decode_call(&d2, buf, cut, &got, why, sizeof why), 0);
    }
    /* a hostile start: INT64_MIN as the difference */
    uint8_t neg[32] = {TK_SYNC, 0};
    size_t k = 2 + trace_put_varint(neg + 2, UINT64_MAX); /* zigzag of INT64_MIN */
    neg[k++] = 0;
    neg[k++] = 0;
    struct trace_codec d3 = {.nthreads = 8, .nslots = 8, .prev_start = 5};
    assert_int_equal(trace_decode_call(&d3, neg, k, &got, why, sizeof why), -1);
}

/* Decodes the n bytes at p twice, as they are and with `pad` bytes of 0x80 after them (the
 * reader's buffer holds more than the record: the decoder's fast path, which must agree with
 * its general one); the result, with why and *got from the first. */
static long decode_both(const uint8_t *p, size_t n, struct trace_call *got, char *why)
{
    uint8_t *exact = malloc(n ? n : 1), *padded = malloc(n + 400);
    assert_non_null(exact);
    assert_non_null(padded);
    memcpy(exact, p, n);
    memcpy(padded, p, n);
    memset(padded + n, 0x80, 400); /* a value that never ends, should the decoder read on */
    struct trace_codec d1 = {.nthreads = 8, .nslots = 8, .prev_start = 10},
                       d2 = d1;
    struct trace_call a, b;
    char w2[256] = "";
    long r1 = trace_decode_call(&d1, exact, n, &a, why, 256);
    long r2 = trace_decode_call(&d2, padded, n + 400, &b, w2, sizeof w2);
    if (r1 != 0) { /* cut short: only the padded copy has the rest (its 0x80s) */
        assert_int_equal(r1, r2);
        if (r1 < 0)
            assert_string_equal(why, w2);
        else
            assert_true(a.kind == b.kind && a.thread == b.thread && a.start_ns == b.start_ns &&
                        a.dur_ns == b.dur_ns && a.result == b.result && a.slot == b.slot &&
                        a.slot2 == b.slot2 && a.size == b.size && a.off == b.off &&
                        a.off2 == b.off2 && a.soff == b.soff && a.flags == b.flags &&
                        a.mode == b.mode && a.aux == b.aux && a.path_len == b.path_len &&
                        a.path2_len == b.path2_len);
    }
    if (r1 > 0)
        *got = a;
    free(exact);
    free(padded);
    return r1;
}

static void test_codec_fast_path(void **state)
{
    (void)state;
    char why[256];
    struct trace_call got;
    uint8_t buf[TRACE_RECORD_MAX];
    /* every kind, good and then with one value out of range each */
    for (unsigned k = 1; k < TRACE_KIND_END; k++) {
        if (!trace_kind_valid(k))
            continue;
        for (int bad = 0; bad < 6; bad++) {
            struct trace_call c = sample(k, 10);
            c.dur_ns = bad == 0 ? 123456789 : 77; /* a value of four bytes */
            if (bad == 1)
                c.thread = 9;
            if (bad == 2 && c.path)
                c.path = "a//b", c.path_len = 4;
            if (bad == 3)
                c.result = -(int64_t)TE_COUNT;
            if (bad == 4 && (trace_kind_fields(k) & TF_SLOT))
                c.slot = 8;
            if (bad == 5 && (trace_kind_fields(k) & TF_MODE))
                c.mode = 010000;
            struct trace_codec enc = {.nthreads = 1000, .nslots = 1000, .prev_start = 10};
            size_t n = trace_encode_call(&enc, &c, buf);
            long r = decode_both(buf, n, &got, why);
            if (bad == 0) {
                assert_int_equal(r, (long)n);
                assert_true(got.dur_ns == 123456789 && got.kind == k);
            }
            for (size_t cut = 1; cut < n; cut++) /* and cut short anywhere */
                assert_int_equal(decode_both(buf, cut, &got, why), 0);
        }
    }
    /* a value over 64 bits and a path longer than the room after it, in a long buffer */
    uint8_t big[1200];
    memset(big, 0, sizeof big);
    size_t n = 0;
    big[n++] = TK_UNLINK;
    for (int i = 0; i < 10; i++)
        big[n++] = 0xff; /* thread: 70 bits */
    big[n++] = 0;
    assert_int_equal(decode_both(big, sizeof big, &got, why), -1);
    assert_non_null(strstr(why, "thread is too long"));
    n = 0;
    big[n++] = TK_UNLINK;
    big[n++] = 0, big[n++] = 0, big[n++] = 0, big[n++] = 0;
    n += trace_put_varint(big + n, 1100); /* the path ends 93 bytes before the buffer does */
    memset(big + n, 'a', 1100);
    assert_int_equal(decode_both(big, sizeof big, &got, why), (long)(n + 1100));
    assert_int_equal(got.path_len, 1100);
    assert_int_equal(decode_both(big, n + 1099, &got, why), 0);
}

/* ---- files ---- */

struct tfile {
    char dir[4096];
    char path[4200];
};

static int file_setup(void **state)
{
    struct tfile *f = calloc(1, sizeof *f);
    if (!f || !tu_scratch_dir(f->dir, sizeof f->dir, "trace"))
        return -1;
    snprintf(f->path, sizeof f->path, "%s/t.fsbt", f->dir);
    err_set_quiet(1);
    *state = f;
    return 0;
}

static int file_teardown(void **state)
{
    struct tfile *f = *state;
    err_set_quiet(0);
    int rc = tu_rm_tree(f->dir);
    free(f);
    return rc;
}

/* Writes a trace of n calls (opens, writes, closes of files below "d") and a state of
 * "d" and "d/old" (10 bytes). */
static void write_trace(const char *path, unsigned n)
{
    struct trace_writer *w = trace_writer_open(path);
    assert_non_null(w);
    struct trace_info in = {.command = "cmd", .root = "/r", .tracer = "strace 6.1",
                            .nthreads = 2, .nslots = 1, .max_concurrency = 1};
    for (unsigned i = 0; i < n; i++) {
        char p[32];
        snprintf(p, sizeof p, "d/f%u", i);
        struct trace_call c[3] = {
            {.kind = TK_OPEN, .thread = i % 2, .start_ns = i * 10, .path = p,
             .path_len = (uint32_t)strlen(p), .flags = TRO_CREAT | TRO_WRONLY, .mode = 0644},
            {.kind = TK_WRITE, .thread = i % 2, .start_ns = i * 10 + 1, .size = 100,
             .result = 100},
            {.kind = TK_CLOSE, .thread = i % 2, .start_ns = i * 10 + 2},
        };
        for (int k = 0; k < 3; k++) {
            assert_int_equal(trace_writer_call(w, &c[k]), 0);
            in.count[c[k].kind]++;
        }
        in.ncalls += 3;
        in.nrecords += 3;
        in.bytes_written += 100;
    }
    in.max_io = 100;
    in.nstate = 2;
    in.state_bytes = 10;
    assert_int_equal(trace_writer_info(w, &in), 0);
    struct trace_entry e1 = {.path = "d", .path_len = 1, .type = TT_DIR, .mode = 0755};
    struct trace_entry e2 = {.path = "d/old", .path_len = 5, .type = TT_REG, .mode = 0600,
                             .size = 10};
    assert_int_equal(trace_writer_entry(w, &e1), 0);
    assert_int_equal(trace_writer_entry(w, &e2), 0);
    assert_int_equal(trace_writer_commit(w), 0);
}

static void test_file_roundtrip(void **state)
{
    struct tfile *f = *state;
    write_trace(f->path, 20000);
    struct trace_file *t = trace_open(f->path);
    assert_non_null(t);
    const struct trace_info *in = trace_file_info(t);
    assert_string_equal(in->command, "cmd");
    assert_string_equal(in->root, "/r");
    assert_int_equal(in->ncalls, 60000);
    assert_int_equal(in->nthreads, 2);
    assert_int_equal(trace_check(t), 0);
    char why[1200];
    struct trace_stream *s = trace_calls_open(t, why, sizeof why);
    assert_non_null(s);
    struct trace_call c;
    uint64_t n = 0;
    int r;
    while ((r = trace_next_call(s, &c)) > 0) {
        if (n % 3 == 0) {
            char p[32];
            snprintf(p, sizeof p, "d/f%llu", (unsigned long long)(n / 3));
            assert_int_equal(c.kind, TK_OPEN);
            assert_int_equal(c.path_len, strlen(p));
            assert_memory_equal(c.path, p, c.path_len);
            assert_true(c.start_ns == n / 3 * 10);
        }
        n++;
    }
    assert_int_equal(r, 0);
    assert_int_equal(n, 60000);
    trace_stream_close(s);
    s = trace_state_open(t, why, sizeof why);
    assert_non_null(s);
    struct trace_entry e;
    assert_int_equal(trace_next_entry(s, &e), 1);
    assert_int_equal(e.type, TT_DIR);
    assert_int_equal(trace_next_entry(s, &e), 1);
    assert_int_equal(e.size, 10);
    assert_int_equal(trace_next_entry(s, &e), 0);
    trace_stream_close(s);
    struct trace_stats st;
    assert_int_equal(trace_stats_compute(t, &st), 0);
    assert_int_equal(st.ops[OP_CREATE], 20000);
    assert_int_equal(st.ops[OP_WRITE], 20000);
    assert_int_equal(st.state[TT_REG], 1);
    trace_close(t);
}

/* A trace rewritten with its calls section copied whole and a new info block (record,
 * once it has measured the tracer) reads back whole, with the new figures. */
static void test_file_copy(void **state)
{
    struct tfile *f = *state;
    write_trace(f->path, 5000);
    struct trace_file *t = trace_open(f->path);
    assert_non_null(t);
    struct trace_info in = *trace_file_info(t);
    in.command = "cmd";
    in.root = "/r";
    in.tracer = "strace 6.1";
    in.tracer_gap_ns = 12345;
    in.mirror_gap_ns = 23456;
    in.mirror_calls = 15000;
    in.quick_ns = 3000;
    in.mirror_quick_ns = 4000;
    in.cpu_ns = 5000;
    in.mirror_cpu_ns = 6000;
    in.think_ns = 7000;
    in.think_scale_ppm = 500000;
    in.plain_cpu_ns = 8000; /* format 4: record --untraced-run's figures */
    in.plain_wall_ns = 9000;
    in.plain_replay_cpu_ns = 10000;
    in.plain_replay_calls = 11000;
    /* format 6: the table of costs per call, the calls' price by it, the untraced runs */
    for (unsigned i = 0; i < CAL_CLASSES; i++)
        in.calib.call_ns[i] = 1000 + i;
    in.calib.read_ns_per_mib = 200000;
    in.calib.write_ns_per_mib = 300000;
    in.calib_calls_ns = 4242;
    in.plain_runs = 3;
    in.plain_replays = 2;
    /* format 5: the think time per process */
    struct trace_proc procs[2] = {{.leader = 0, .comm = "sh", .cpu_ns = 100, .think_ns = 90},
                                  {.leader = 1, .comm = "0123456789abcde", .cpu_ns = 300,
                                   .think_ns = 280, .tail_ns = 280, .span_ns = 1000}};
    uint32_t tp[8], ts[8];
    assert_true(in.nthreads <= 8);
    for (uint32_t i = 0; i < in.nthreads; i++) {
        tp[i] = i == 1;
        ts[i] = i == 1 ? 0 : 250000;
    }
    in.nprocs = 2;
    in.procs = procs;
    in.nthread_think = in.nthreads;
    in.thread_proc = tp;
    in.thread_scale_ppm = ts;
    uint64_t off, len;
    trace_file_calls_section(t, &off, &len);
    assert_true(len > 0);
    char copy[4200];
    snprintf(copy, sizeof copy, "%s.copy", f->path);
    struct trace_writer *w = trace_writer_open_copy(copy, trace_file_fd(t), off, len);
    assert_non_null(w);
    assert_int_equal(trace_writer_info(w, &in), 0);
    struct trace_entry e1 = {.path = "d", .path_len = 1, .type = TT_DIR, .mode = 0755};
    struct trace_entry e2 = {.path = "d/old", .path_len = 5, .type = TT_REG, .mode = 0600,
                             .size = 10};
    assert_int_equal(trace_writer_entry(w, &e1), 0);
    assert_int_equal(trace_writer_entry(w, &e2), 0);
    assert_int_equal(trace_writer_commit(w), 0);
    trace_close(t);
    t = trace_open(copy);
    assert_non_null(t);
    assert_int_equal(trace_check(t), 0);
    const struct trace_info *c = trace_file_info(t);
    assert_int_equal(c->ncalls, 15000);
    assert_int_equal(c->tracer_gap_ns, 12345);
    assert_int_equal(c->mirror_gap_ns, 23456);
    assert_int_equal(c->mirror_calls, 15000);
    assert_int_equal(c->quick_ns, 3000);
    assert_int_equal(c->mirror_quick_ns, 4000);
    assert_int_equal(c->cpu_ns, 5000);
    assert_int_equal(c->mirror_cpu_ns, 6000);
    assert_int_equal(c->think_ns, 7000);
    assert_int_equal(c->think_scale_ppm, 500000);
    assert_int_equal(c->format, 6);
    assert_int_equal(c->calib.call_ns[CAL_OPEN], 1000 + CAL_OPEN);
    assert_int_equal(c->calib.call_ns[CAL_SETATTR], 1000 + CAL_SETATTR);
    assert_int_equal(c->calib.read_ns_per_mib, 200000);
    assert_int_equal(c->calib.write_ns_per_mib, 300000);
    assert_int_equal(c->calib_calls_ns, 4242);
    assert_int_equal(c->plain_runs, 3);
    assert_int_equal(c->plain_replays, 2);
    assert_int_equal(c->plain_cpu_ns, 8000);
    assert_int_equal(c->plain_wall_ns, 9000);
    assert_int_equal(c->plain_replay_cpu_ns, 10000);
    assert_int_equal(c->plain_replay_calls, 11000);
    assert_int_equal(c->nprocs, 2);
    assert_string_equal(c->procs[1].comm, "0123456789abcde"); /* 15 bytes, as the kernel's */
    assert_int_equal(c->procs[1].cpu_ns, 300);
    assert_int_equal(c->procs[1].tail_ns, 280);
    assert_int_equal(c->procs[0].think_ns, 90);
    assert_int_equal(c->nthread_think, c->nthreads);
    /* thread 1 leads the process that thinks beside the others: before its exit; others
     * at their process's scale */
    assert_int_equal(trace_exit_think_ns(c, 1), 280);
    assert_int_equal(trace_exit_think_ns(c, 0), 0);
    assert_int_equal(c->procs[1].span_ns, 1000);
    /* worked over its leader's life as the time between its records, the rest at its exit */
    uint64_t spent = 0;
    assert_int_equal(trace_tail_think_ns(c, 1, 0, 250, false, &spent), 70);
    assert_int_equal(trace_tail_think_ns(c, 1, 250, 500, false, &spent), 70);
    assert_int_equal(trace_tail_think_ns(c, 1, 500, 5000, false, &spent), 140);
    assert_int_equal(trace_tail_think_ns(c, 1, 5000, 6000, true, &spent), 0);
    spent = 0;
    assert_int_equal(trace_tail_think_ns(c, 1, 0, 100, false, &spent), 28);
    assert_int_equal(trace_tail_think_ns(c, 1, 100, 100, true, &spent), 252);
    assert_int_equal(trace_tail_think_ns(c, 0, 0, 1000, true, &spent), 0);
    assert_int_equal(trace_thread_think_ns(c, 0, 12345 + 1000000, 0, 0), 250000);
    assert_int_equal(trace_thread_think_ns(c, 1, 12345 + 1000000, 0, 0), 0);
    trace_close(t);
    unlink(copy);
}

/* Written as format 5 (before the calls were priced), an info block with a table reads
 * back with the processes and without the table. */
static void test_file_format5(void **state)
{
    struct tfile *f = *state;
    struct trace_writer *w = trace_writer_open(f->path);
    assert_non_null(w);
    struct trace_proc p = {.leader = 0, .comm = "a", .cpu_ns = 5, .think_ns = 5, .tail_ns = 5};
    uint32_t tp = 0, ts = 1000000;
    struct trace_info in = {.command = "c", .root = "/r", .tracer = "t", .nthreads = 1,
                            .nslots = 1, .ncalls = 1, .nrecords = 1, .plain_cpu_ns = 8000,
                            .plain_replay_cpu_ns = 900, .plain_replay_calls = 1,
                            .nprocs = 1, .procs = &p, .nthread_think = 1, .thread_proc = &tp,
                            .thread_scale_ppm = &ts, .calib_calls_ns = 77, .plain_runs = 2,
                            .format = 5};
    in.calib.call_ns[CAL_OPEN] = 1234;
    in.count[TK_SYNC] = 1;
    struct trace_call c = {.kind = TK_SYNC};
    assert_int_equal(trace_writer_call(w, &c), 0);
    assert_int_equal(trace_writer_info(w, &in), 0);
    assert_int_equal(trace_writer_commit(w), 0);
    struct trace_file *t = trace_open(f->path);
    assert_non_null(t);
    assert_int_equal(trace_check(t), 0);
    const struct trace_info *r = trace_file_info(t);
    assert_int_equal(r->format, 5);
    assert_int_equal(r->plain_replay_cpu_ns, 900);
    assert_int_equal(r->nprocs, 1);
    assert_int_equal(r->procs[0].think_ns, 5);
    assert_int_equal(r->calib.call_ns[CAL_OPEN], 0);
    assert_int_equal(r->calib_calls_ns, 0);
    assert_int_equal(r->plain_runs, 0);
    trace_close(t);
}

/* Written as format 4 (before the think time per process), an info block with processes
 * reads back without them, and one scale for all threads. */
static void test_file_format4(void **state)
{
    struct tfile *f = *state;
    struct trace_writer *w = trace_writer_open(f->path);
    assert_non_null(w);
    struct trace_proc p = {.leader = 0, .comm = "a", .cpu_ns = 5, .think_ns = 5, .tail_ns = 5};
    uint32_t tp = 0, ts = 1000000;
    struct trace_info in = {.command = "c", .root = "/r", .tracer = "t", .nthreads = 1,
                            .nslots = 1, .ncalls = 1, .nrecords = 1, .plain_cpu_ns = 8000,
                            .nprocs = 1, .procs = &p, .nthread_think = 1, .thread_proc = &tp,
                            .thread_scale_ppm = &ts, .think_scale_ppm = 500000, .format = 4};
    in.count[TK_SYNC] = 1;
    struct trace_call c = {.kind = TK_SYNC};
    assert_int_equal(trace_writer_call(w, &c), 0);
    assert_int_equal(trace_writer_info(w, &in), 0);
    assert_int_equal(trace_writer_commit(w), 0);
    struct trace_file *t = trace_open(f->path);
    assert_non_null(t);
    assert_int_equal(trace_check(t), 0);
    const struct trace_info *r = trace_file_info(t);
    assert_int_equal(r->format, 4);
    assert_int_equal(r->plain_cpu_ns, 8000);
    assert_int_equal(r->nprocs, 0);
    assert_int_equal(r->nthread_think, 0);
    assert_int_equal(trace_exit_think_ns(r, 0), 0);
    assert_int_equal(trace_thread_think_ns(r, 0, 1000, 0, 0), 500);
    trace_close(t);
}

/* Written as format 3 (before the untraced run's figures), the same info block reads back
 * whole without them: the block of an older trace holds none. */
static void test_file_format3(void **state)
{
    struct tfile *f = *state;
    struct trace_writer *w = trace_writer_open(f->path);
    assert_non_null(w);
    struct trace_info in = {.command = "c", .root = "/r", .tracer = "t", .nthreads = 1,
                            .nslots = 1, .ncalls = 1, .nrecords = 1, .think_ns = 7000,
                            .plain_cpu_ns = 8000, .plain_wall_ns = 9000, .format = 3};
    in.count[TK_SYNC] = 1;
    struct trace_call c = {.kind = TK_SYNC};
    assert_int_equal(trace_writer_call(w, &c), 0);
    assert_int_equal(trace_writer_info(w, &in), 0);
    assert_int_equal(trace_writer_commit(w), 0);
    struct trace_file *t = trace_open(f->path);
    assert_non_null(t);
    assert_int_equal(trace_check(t), 0);
    const struct trace_info *r = trace_file_info(t);
    assert_int_equal(r->format, 3);
    assert_int_equal(r->think_ns, 7000);
    assert_int_equal(r->ncalls, 1);
    assert_int_equal(r->plain_cpu_ns, 0);
    assert_int_equal(r->plain_wall_ns, 0);
    trace_close(t);
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(p, 1, n, fp), n);
    fclose(fp);
}

static unsigned char *read_all(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    *n = (size_t)ftell(fp);
    rewind(fp);
    unsigned char *b = malloc(*n);
    assert_int_equal(fread(b, 1, *n, fp), *n);
    fclose(fp);
    return b;
}

/* Opens and checks path, with errors captured: 0 when both pass. */
static int opens(const char *path, char *msg, size_t len)
{
    msg[0] = '\0';
    err_set_quiet(0);
    err_capture_begin(msg, len);
    struct trace_file *t = trace_open(path);
    int rc = t ? trace_check(t) : -1;
    trace_close(t);
    err_capture_end();
    err_set_quiet(1);
    return rc;
}

static void test_file_damaged(void **state)
{
    struct tfile *f = *state;
    char msg[1024], other[4300];
    write_trace(f->path, 500);
    size_t n;
    unsigned char *b = read_all(f->path, &n);
    snprintf(other, sizeof other, "%s/bad.fsbt", f->dir);
    assert_int_equal(opens(f->path, msg, sizeof msg), 0);
    /* not a trace */
    write_bytes(other, "hello, world, this is not a trace at all, nope........................",
                70);
    assert_int_equal(opens(other, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "not an fsbench trace"));
    /* too short */
    write_bytes(other, b, 20);
    assert_int_equal(opens(other, msg, sizeof msg), -1);
    /* cut short: the footer is gone */
    write_bytes(other, b, n - 10);
    assert_int_equal(opens(other, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "end is missing"));
    /* a newer format */
    unsigned char *c = malloc(n);
    memcpy(c, b, n);
    c[8] = TRACE_FORMAT_VERSION + 1;
    write_bytes(other, c, n);
    assert_int_equal(opens(other, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "newer"));
    /* format 0: none ever was */
    c[8] = 0;
    write_bytes(other, c, n);
    assert_int_equal(opens(other, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "trace format 0"));
    /* footer offsets that do not fit */
    memcpy(c, b, n);
    trace_put_le(c + n - TRACE_FOOTER_LEN + 16, 1u << 30, 8);
    write_bytes(other, c, n);
    assert_int_equal(opens(other, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "do not fit"));
    /* flipped bytes inside the compressed calls: refused, never a crash */
    for (size_t at = TRACE_HEADER_LEN + 4; at < n - TRACE_FOOTER_LEN; at += 7) {
        memcpy(c, b, n);
        c[at] ^= 0x55;
        write_bytes(other, c, n);
        if (opens(other, msg, sizeof msg) == 0)
            continue; /* a flip zstd's checks and ours cannot see: the data still fits */
        assert_non_null(strstr(msg, other));
        assert_null(strchr(msg, '\n'));
    }
    /* a directory, and a FIFO, are no traces */
    assert_int_equal(opens(f->dir, msg, sizeof msg), -1);
    snprintf(other, sizeof other, "%s/fifo", f->dir);
    assert_int_equal(mkfifo(other, 0600), 0);
    assert_int_equal(opens(other, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "FIFO"));
    free(c);
    free(b);
}

/* A trace whose info block says other counts than its records. */
static void test_file_counts(void **state)
{
    struct tfile *f = *state;
    struct trace_writer *w = trace_writer_open(f->path);
    struct trace_info in = {.command = "", .root = "", .tracer = "", .nthreads = 1,
                            .nslots = 1, .ncalls = 2, .nrecords = 2};
    in.count[TK_SYNC] = 2;
    struct trace_call c = {.kind = TK_SYNC};
    assert_int_equal(trace_writer_call(w, &c), 0); /* one, where it says two */
    assert_int_equal(trace_writer_info(w, &in), 0);
    assert_int_equal(trace_writer_commit(w), 0);
    char msg[1024];
    assert_int_equal(opens(f->path, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "cut short"));
    /* state out of order */
    w = trace_writer_open(f->path);
    struct trace_info in2 = {.command = "", .root = "", .tracer = "", .nthreads = 1,
                             .nstate = 2};
    assert_int_equal(trace_writer_info(w, &in2), 0);
    struct trace_entry e1 = {.path = "b", .path_len = 1, .type = TT_DIR};
    struct trace_entry e2 = {.path = "a", .path_len = 1, .type = TT_DIR};
    assert_int_equal(trace_writer_entry(w, &e1), 0);
    assert_int_equal(trace_writer_entry(w, &e2), 0);
    assert_int_equal(trace_writer_commit(w), 0);
    assert_int_equal(opens(f->path, msg, sizeof msg), -1);
    if (!strstr(msg, "not in path order"))
        fail_msg("%s", msg);
}

/* ---- strace's lines ---- */

static void test_strace_lines(void **state)
{
    (void)state;
    struct strace_line l;
    const char *s = "4752  1796351520.292951043 openat(AT_FDCWD<\\x2f\\x74>, \"\\x64\\x2f\\x66\", "
                    "O_RDWR|O_CREAT|O_TRUNC, 0600) = 3<\\x2f\\x74\\x2f\\x64\\x2f\\x66> <0.000056957>";
    strace_parse_line(s, strlen(s), &l);
    assert_int_equal(l.kind, SL_CALL);
    assert_int_equal(l.tid, 4752);
    assert_true(l.ts_ns == 1796351520292951043ull);
    assert_true(strace_span_is(l.name, "openat"));
    assert_int_equal(l.ret, 3);
    assert_true(l.ret_known);
    assert_int_equal(l.dur_ns, 56957);
    assert_true(l.ret_decor.n > 0);
    struct strace_span a[8];
    assert_int_equal(strace_split_args(l.args, a, 8), 4);
    char p[64];
    long fd;
    bool del;
    assert_int_equal(strace_arg_fd(a[0], &fd, p, sizeof p, &del), 0);
    assert_int_equal(fd, STRACE_AT_FDCWD);
    assert_string_equal(p, "/t");
    assert_int_equal(strace_arg_string(a[1], p, sizeof p), 3);
    assert_string_equal(p, "d/f");
    assert_true(strace_arg_has(a[2], "O_CREAT"));
    int64_t v;
    assert_int_equal(strace_arg_num(a[3], &v), 0);
    assert_int_equal(v, 0600);
    /* an error */
    s = "9 1.5 unlink(\"\\x61\") = -1 ENOENT (No such file or directory) <0.000002>";
    strace_parse_line(s, strlen(s), &l);
    assert_int_equal(l.kind, SL_CALL);
    assert_int_equal(l.ret, -1);
    assert_string_equal(l.err, "ENOENT");
    assert_int_equal(l.ts_ns, 1500000000u);
    /* unfinished, resumed, exits, signals */
    s = "370   1796351117.012914614 execve(\"\\x2f\", [...], 0x5 /* 41 vars */ <unfinished ...>";
    strace_parse_line(s, strlen(s), &l);
    assert_int_equal(l.kind, SL_UNFINISHED);
    s = "369   1796351117.013102818 <... vfork resumed>) = 370 <0.000419651>";
    strace_parse_line(s, strlen(s), &l);
    assert_int_equal(l.kind, SL_RESUMED);
    assert_true(strace_span_is(l.name, "vfork"));
    s = "374   1796351117.088417858 +++ exited with 0 +++";
    strace_parse_line(s, strlen(s), &l);
    assert_int_equal(l.kind, SL_EXIT);
    s = "374   1796351117.088417858 +++ killed by SIGKILL +++";
    strace_parse_line(s, strlen(s), &l);
    assert_int_equal(l.kind, SL_EXIT);
    s = "369   1796351117.088462081 --- SIGCHLD {si_signo=SIGCHLD} ---";
    strace_parse_line(s, strlen(s), &l);
    assert_int_equal(l.kind, SL_OTHER);
    s = "374 1796351117.088030348 exit_group(0) = ?";
    strace_parse_line(s, strlen(s), &l);
    assert_int_equal(l.kind, SL_CALL);
    assert_false(l.ret_known);
    /* a deleted file's descriptor, nested braces, a clone3 */
    s = "1 2.0 write(3<\\x2f\\x61>(deleted), \"\"..., 1) = 1 <0.000023164>";
    strace_parse_line(s, strlen(s), &l);
    assert_int_equal(l.kind, SL_CALL);
    assert_int_equal(strace_split_args(l.args, a, 8), 3);
    assert_int_equal(strace_arg_fd(a[0], &fd, p, sizeof p, &del), 0);
    assert_true(del);
    assert_int_equal(strace_arg_string(a[1], p, sizeof p), -1); /* cut by -s 0 */
    s = "1 2.0 clone3({flags=CLONE_VM|CLONE_FILES, stack=0x7} => {parent_tid=[4753]}, 88) = "
        "4753 <0.000165543>";
    strace_parse_line(s, strlen(s), &l);
    assert_int_equal(l.kind, SL_CALL);
    assert_int_equal(l.ret, 4753);
    assert_int_equal(strace_split_args(l.args, a, 8), 2);
    /* garbage is SL_BAD, never a crash */
    const char *bad[] = {"", "x", "12", "12 ", "12 1.0", "12 1.0 open(", "12 1.0 open(\"a) = 1",
                         "12 1.0 (x) = 1", "99999999999999 1.0 sync() = 0",
                         /* a duration or a time that would wrap 64 bits: refused */
                         "12 1.0 sync() = 0 <18446744073709551617.0>",
                         "12 1.0 sync() = 0 <1000000001.0>",
                         "12 1000000000000.5 sync() = 0 <0.000001>",
                         "12 18446744073.709551617 sync() = 0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        strace_parse_line(bad[i], strlen(bad[i]), &l);
        assert_int_equal(l.kind, SL_BAD);
    }
    /* the bounds themselves still parse */
    s = "12 10000000000.999999999 sync() = 0 <1000000000.5>";
    strace_parse_line(s, strlen(s), &l);
    assert_int_equal(l.kind, SL_CALL);
    assert_true(l.ts_ns == 10000000000999999999ull);
    assert_true(l.dur_ns == 1000000000500000000ull);
    /* escapes */
    const char *esc = "\"a\\n\\t\\\"\\\\\\101\\x42\"";
    struct strace_span e = {esc, strlen(esc)};
    assert_int_equal(strace_arg_string(e, p, sizeof p), 7);
    assert_string_equal(p, "a\n\t\"\\AB");
    struct strace_span nul = {"NULL", 4};
    assert_int_equal(strace_arg_string(nul, p, sizeof p), -2);
    struct strace_span hex = {"0x1f", 4}, neg = {"-60", 3};
    assert_int_equal(strace_arg_num(hex, &v), 0);
    assert_int_equal(v, 31);
    assert_int_equal(strace_arg_num(neg, &v), 0);
    assert_int_equal(v, -60);
}

/* ---- the recorder ---- */

struct sink {
    struct trace_call c[256];
    char paths[256][2][128];
    int n;
    bool away;     /* keep the away records (the other tests leave them out) */
};

static int sink_emit(void *arg, const struct trace_call *c)
{
    struct sink *s = arg;
    if (c->kind == TK_AWAY && !s->away)
        return 0;
    if (s->n == 256)
        return -1;
    s->c[s->n] = *c;
    if (c->path) {
        snprintf(s->paths[s->n][0], 128, "%.*s", (int)c->path_len, c->path);
        s->c[s->n].path = s->paths[s->n][0];
    }
    if (c->path2) {
        snprintf(s->paths[s->n][1], 128, "%.*s", (int)c->path2_len, c->path2);
        s->c[s->n].path2 = s->paths[s->n][1];
    }
    s->n++;
    return 0;
}

/* Feeds lines; the strings use plain text for paths: hex-escaped here. */
static void feed(struct trace_recorder *r, const char *line)
{
    char out[4096];
    size_t o = 0;
    bool in_str = false;
    for (const char *p = line; *p && o + 8 < sizeof out; p++) {
        if (*p == '"' || (*p == '<' && p > line && p[-1] != ' ') || (*p == '>' && in_str)) {
            /* strings and descriptor paths go out hex-escaped, as strace -xx writes them */
            if (*p == '"')
                in_str = !in_str;
            else
                in_str = *p == '<';
            out[o++] = *p;
            continue;
        }
        if (in_str)
            o += (size_t)snprintf(out + o, sizeof out - o, "\\x%02x", (unsigned char)*p);
        else
            out[o++] = *p;
    }
    out[o] = '\0';
    assert_int_equal(trace_rec_line(r, out, o), 0);
}

/* The gaps between a thread's calls (all, and those below a bound), the quick calls'
 * durations, the first thread's left out when asked (record's traced replay), and the
 * think-time model with a tracer's gap given (trace_rec_rethink): the sum of the think
 * times is the sum of the gaps less that gap for each; and with the sum given
 * (trace_rec_think_cpu). */
static void test_rec_gaps(void **state)
{
    (void)state;
    for (int started = 0; started < 2; started++) {
        struct sink s;
        memset(&s, 0, sizeof s);
        struct trace_rec_opts o = {.root = "/r", .cwd = "/r", .emit = sink_emit, .arg = &s,
                                   .gaps_of_started = started};
        struct trace_recorder *r = trace_rec_new(&o);
        assert_non_null(r);
        struct trace_info in;
        /* thread 10 opens, starts 11, and closes 6 ms after its open ended */
        feed(r, "10 1.000000000 openat(AT_FDCWD</r>, \"a\", O_RDONLY) = 3</r/a> "
                "<0.000001000>");
        feed(r, "10 1.000100000 clone(child_stack=NULL, flags=CLONE_VM|CLONE_FS|CLONE_FILES|"
                "CLONE_THREAD|CLONE_SIGHAND) = 11 <0.000010000>");
        /* thread 11: calls 1 ms apart, each 1 us long: gaps of 999 us */
        for (int i = 0; i < 5; i++) {
            char line[256];
            snprintf(line, sizeof line,
                     "11 1.%06d000 fstat(3</r/a>, {st_mode=S_IFREG|0644, st_size=0, ...}) = 0 "
                     "<0.000001000>",
                     1000 + i * 1000);
            feed(r, line);
        }
        feed(r, "10 1.006001000 close(3</r/a>) = 0 <0.000002000>");
        assert_int_equal(trace_rec_finish(r, &in), 0);
        uint64_t n, total;
        trace_rec_gaps(r, 0, &n, &total);
        /* thread 11's start-up (from the clone, 900 us) is a gap too; thread 10's 6 ms
         * gap holds two stops of the tracer (the clone and the close): counted as two
         * gaps of 3 ms */
        assert_int_equal(n, started ? 5 : 7);
        assert_true(total == (started ? 4 * 999000ull + 900000ull
                                      : 4 * 999000ull + 900000ull + 6000000ull));
        trace_rec_gaps(r, 1000000, &n, &total);
        assert_int_equal(n, 5);
        assert_true(total == 4 * 999000ull + 900000ull);
        trace_rec_quick(r, &n, &total);
        assert_int_equal(n, started ? 5 : 6); /* fstats, and the close of thread 10 */
        assert_true(total == (started ? 5000ull : 7000ull));
        if (!started) {
            /* a tracer's gap of 499 us: every gap per stop is larger: a scale of one */
            trace_rec_rethink(r, 499000, &in);
            assert_int_equal(in.tracer_gap_ns, 499000);
            assert_in_range(in.think_scale_ppm, 999999, 1000000);
            /* 1.5 ms: only the 6 ms gap has think time (6 - 2 x 1.5 = 3 ms), but the sum
             * of all gaps (10.896 ms) less 1.5 ms a stop (7) is 0.396 ms: scaled by 0.132 */
            trace_rec_rethink(r, 1500000, &in);
            assert_in_range(in.think_scale_ppm, 131900, 132100);
            /* larger than every gap per stop: no think time at all */
            trace_rec_rethink(r, 6000000, &in);
            assert_int_equal(in.think_scale_ppm, 0);
            /* think times adding up to the program's CPU time (trace_rec_think_cpu): 2 ms
             * against the 7.403 ms the gaps hold above 499 us a stop: the gap kept, scaled */
            trace_rec_rethink(r, 499000, &in);
            trace_rec_think_cpu(r, 2000000, &in);
            assert_int_equal(in.think_ns, 2000000);
            assert_int_equal(in.tracer_gap_ns, 499000);
            assert_in_range(in.think_scale_ppm, 270100, 270200);
            /* 9 ms: more than the gaps hold above 499 us: the gap lowered until they hold
             * 9 ms (10.896 ms - 7 o = 9 ms: o = 270.9 us), scale one */
            trace_rec_rethink(r, 499000, &in);
            trace_rec_think_cpu(r, 9000000, &in);
            assert_in_range(in.tracer_gap_ns, 270700, 271000);
            assert_in_range(in.think_scale_ppm, 999990, 1000000);
            /* more than all the gaps: every gap is think time */
            trace_rec_think_cpu(r, 20000000, &in);
            assert_int_equal(in.tracer_gap_ns, 0);
            assert_int_equal(in.think_scale_ppm, 1000000);
            /* no CPU time left: no think time */
            trace_rec_rethink(r, 499000, &in);
            trace_rec_think_cpu(r, 0, &in);
            assert_int_equal(in.think_scale_ppm, 0);
        }
        trace_rec_free(r);
    }
}

static struct trace_recorder *recorder(struct sink *s, struct trace_prescan *pre)
{
    memset(s, 0, sizeof *s);
    struct trace_rec_opts o = {.root = "/r", .cwd = "/r", .pre = pre, .emit = sink_emit,
                               .arg = s};
    struct trace_recorder *r = trace_rec_new(&o);
    assert_non_null(r);
    return r;
}

/* A thread's waits between its calls (wait4, a pipe's read, a vfork-like clone, a sleep)
 * and the tracer's stops at calls the trace does not hold make an away record before its
 * next call; they are not in the gap histogram; a replay's think time is the gap less
 * both (trace_think_ns). */
static void test_rec_away(void **state)
{
    (void)state;
    struct sink s;
    struct trace_info in;
    struct trace_recorder *r = recorder(&s, NULL);
    s.away = true;
    feed(r, "10 1.000000000 mkdir(\"a\", 0755) = 0 <0.000001000>");
    feed(r, "10 1.000100000 clone(child_stack=NULL, flags=CLONE_VM|CLONE_VFORK|SIGCHLD) = 11 "
            "<0.000200000>");
    feed(r, "11 1.000200000 execve(\"/bin/x\", [\"x\"], 0x1 /* 1 var */) = 0 <0.000050000>");
    feed(r, "11 1.000400000 openat(AT_FDCWD</r>, \"/lib/libc.so\", O_RDONLY) = 3</lib/libc.so> "
            "<0.000001000>");
    feed(r, "11 1.002000000 mkdir(\"b\", 0755) = 0 <0.000001000>");
    feed(r, "11 1.003000000 +++ exited with 0 +++");
    feed(r, "10 1.100000000 wait4(-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 11 "
            "<0.400000000>");
    feed(r, "10 1.500100000 read(4<pipe:[77]>, \"\"..., 1) = 1 <0.200000000>");
    feed(r, "10 1.700200000 read(5</etc/x>, \"\"..., 1) = 1 <0.001000000>");
    feed(r, "10 1.801000000 mkdir(\"c\", 0755) = 0 <0.000001000>");
    feed(r, "10 1.900000000 +++ exited with 0 +++");
    assert_int_equal(trace_rec_finish(r, &in), 0);
    int k = 0;
    assert_int_equal(s.c[k++].kind, TK_MKDIR); /* a */
    assert_int_equal(s.c[k].kind, TK_SPAWN);
    assert_int_equal(s.c[k++].thread, 1);
    /* the child's start-up: execve and a library's open, two stops not in the trace */
    assert_int_equal(s.c[k].kind, TK_AWAY);
    assert_int_equal(s.c[k].thread, 1);
    assert_int_equal(s.c[k].dur_ns, 0);
    assert_int_equal(s.c[k++].size, 2);
    assert_int_equal(s.c[k].kind, TK_MKDIR); /* b */
    assert_int_equal(s.c[k++].thread, 1);
    assert_int_equal(s.c[k++].kind, TK_EXIT);
    /* the parent's wait4 returned the child, which had ended: a wait record */
    assert_int_equal(s.c[k].kind, TK_WAIT);
    assert_int_equal(s.c[k].thread, 0);
    assert_int_equal(s.c[k++].aux, 1);
    /* and its read of the pipe moved a byte through it: a chan record */
    assert_int_equal(s.c[k].kind, TK_CHAN);
    assert_int_equal(s.c[k].thread, 0);
    assert_int_equal(s.c[k].size, 1);
    assert_int_equal(s.c[k++].flags & TRP_WRITE, 0);
    /* the parent: a vfork (200 us), wait4 (400 ms) and a pipe's read (200 ms) waited; the
     * read of /etc/x was work; four stops besides the mkdir's own */
    assert_int_equal(s.c[k].kind, TK_AWAY);
    assert_int_equal(s.c[k].thread, 0);
    assert_int_equal(s.c[k].dur_ns, 600200000ull);
    assert_int_equal(s.c[k].size, 4);
    assert_int_equal(s.c[k].start_ns, 801000000ull);
    k++;
    assert_int_equal(s.c[k++].kind, TK_MKDIR); /* c */
    assert_int_equal(s.c[k++].kind, TK_EXIT);
    assert_int_equal(k, s.n);
    /* the histogram: the child's 1.9 ms from its clone over 3 stops, the parent's
     * 800.999 ms gap less the 600.2 ms it waited, 200.799 ms, over 5 stops */
    uint64_t n, total;
    trace_rec_gaps(r, 0, &n, &total);
    assert_int_equal(n, 8);
    assert_true(total == 1900000ull + 200799000ull);
    /* a replay's think time with a tracer's gap of 100 us, scale one */
    in.tracer_gap_ns = 100000;
    in.think_scale_ppm = 1000000;
    assert_int_equal(trace_think_ns(&in, 800999000ull, 600200000ull, 4), 200299000ull);
    assert_int_equal(trace_think_ns(&in, 1000000ull, 2000000ull, 0), 0);
    in.think_scale_ppm = 500000;
    assert_int_equal(trace_think_ns(&in, 1000000ull, 0, 1), 400000ull);
    trace_rec_free(r);
}

static void test_rec_descriptors(void **state)
{
    (void)state;
    struct sink s;
    struct trace_info in;
    struct trace_recorder *r = recorder(&s, NULL);
    feed(r, "10 1.000000000 openat(AT_FDCWD</r>, \"a\", O_WRONLY|O_CREAT|O_CLOEXEC, 0644) = "
            "3</r/a> <0.000001>");
    feed(r, "10 1.000001000 write(3</r/a>, \"\"..., 10) = 10 <0.000001>");
    feed(r, "10 1.000002000 openat(AT_FDCWD</r>, \"/etc/passwd\", O_RDONLY) = 4</etc/passwd> "
            "<0.000001>");
    feed(r, "10 1.000003000 read(4</etc/passwd>, \"\"..., 10) = 10 <0.000001>");
    feed(r, "10 1.000004000 read(0</dev/pts/0>, \"\"..., 10) = 10 <0.000001>");
    feed(r, "10 1.000005000 dup2(3</r/a>, 7) = 7</r/a> <0.000001>");
    feed(r, "10 1.000006000 close(3</r/a>) = 0 <0.000001>");
    feed(r, "10 1.000007000 fsync(7</r/a>) = 0 <0.000001>");
    feed(r, "10 1.000008000 mkdir(\"../r/sub/./d\", 0755) = 0 <0.000001>");
    feed(r, "10 1.000009000 rename(\"a\", \"/tmp/x\") = 0 <0.000001>");
    feed(r, "10 1.000010000 unlink(\"/r\") = -1 EISDIR (Is a directory) <0.000001>");
    feed(r, "10 1.000011000 +++ exited with 0 +++");
    assert_int_equal(trace_rec_finish(r, &in), 0);
    trace_rec_free(r);
    /* open, write, dup, close, fsync, mkdir, unlink, exit, drop of 7 */
    const unsigned want[] = {TK_OPEN, TK_WRITE, TK_DUP, TK_CLOSE, TK_FSYNC, TK_MKDIR, TK_UNLINK,
                             TK_EXIT, TK_DROP};
    assert_int_equal(s.n, sizeof want / sizeof want[0]);
    for (int i = 0; i < s.n; i++)
        assert_int_equal(s.c[i].kind, want[i]);
    assert_string_equal(s.c[0].path, "a");
    assert_int_equal(s.c[0].result, 0); /* slot 0 */
    assert_int_equal(s.c[0].flags & TRO_CREAT, TRO_CREAT);
    assert_int_equal(s.c[1].slot, 0);
    assert_int_equal(s.c[2].slot, 0);
    assert_int_equal(s.c[2].result, 1); /* a new slot for 7 */
    assert_int_equal(s.c[3].slot, 0);
    assert_int_equal(s.c[4].slot, 1);
    assert_string_equal(s.c[5].path, "sub/d");
    assert_string_equal(s.c[6].path, ".");
    assert_int_equal(s.c[6].result, -(int64_t)TE_ISDIR);
    assert_int_equal(s.c[8].slot, 1);
    assert_true(s.c[1].start_ns == 1000);
    assert_int_equal(in.ncalls, 7);
    assert_int_equal(in.left_outside, 3); /* the open and read of /etc/passwd, the rename */
    assert_int_equal(in.left_prestart, 1);
    assert_int_equal(in.nslots, 2);
    assert_int_equal(in.bytes_written, 10);
}

static void test_rec_processes(void **state)
{
    (void)state;
    struct sink s;
    struct trace_info in;
    struct trace_recorder *r = recorder(&s, NULL);
    feed(r, "10 1.0 openat(AT_FDCWD</r>, \"a\", O_RDONLY|O_CLOEXEC) = 3</r/a> <0.000001>");
    feed(r, "10 1.0 openat(AT_FDCWD</r>, \"b\", O_RDONLY) = 4</r/b> <0.000001>");
    /* the child's first lines come before its fork returns */
    feed(r, "10 1.1 clone(child_stack=NULL, flags=CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>");
    feed(r, "11 1.2 read(4</r/b>, \"\"..., 5) = 5 <0.000001>");
    feed(r, "10 1.3 <... clone resumed>, child_tidptr=0x7) = 11 <0.000001>");
    feed(r, "11 1.4 execve(\"/bin/x\", [...], 0x7 /* 1 vars */) = 0 <0.000001>");
    feed(r, "11 1.5 read(4</r/b>, \"\"..., 5) = 0 <0.000001>");
    /* a thread sharing the table */
    feed(r, "10 1.6 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_THREAD, stack=0x1} => "
            "{parent_tid=[12]}, 88) = 12 <0.000001>");
    feed(r, "12 1.7 close(3</r/a>) = 0 <0.000001>");
    feed(r, "12 1.8 chdir(\"sub\") = 0 <0.000001>");
    feed(r, "10 1.9 access(\"x\", R_OK) = -1 ENOENT (No such file or directory) <0.000001>");
    feed(r, "12 2.0 +++ exited with 0 +++");
    feed(r, "11 2.1 +++ exited with 0 +++");
    assert_int_equal(trace_rec_finish(r, &in), 0);
    /* the processes: the child runs /bin/x (named "x" from then on), the thread is its
     * creator's process; the calls each thread made */
    uint32_t lead;
    const char *comm;
    uint64_t calls;
    trace_rec_proc(r, 1, &lead, &comm, &calls);
    assert_int_equal(lead, 1);
    assert_string_equal(comm, "x");
    assert_int_equal(calls, 2);
    trace_rec_proc(r, 2, &lead, &comm, &calls);
    assert_int_equal(lead, 0);
    assert_int_equal(calls, 1);
    trace_rec_proc(r, 0, &lead, &comm, &calls);
    assert_int_equal(lead, 0);
    assert_string_equal(comm, ""); /* its own execve was not seen */
    trace_rec_free(r);
    int k = 0;
    assert_int_equal(s.c[k++].kind, TK_OPEN);  /* a: slot 0, close-on-exec */
    assert_int_equal(s.c[k++].kind, TK_OPEN);  /* b: slot 1 */
    assert_int_equal(s.c[k].kind, TK_SPAWN);   /* the child, thread 1 */
    assert_int_equal(s.c[k].thread, 1);
    assert_int_equal(s.c[k++].aux, 0);
    assert_int_equal(s.c[k].kind, TK_INHERIT); /* its copies of a and b */
    assert_int_equal(s.c[k].slot, 0);
    assert_int_equal(s.c[k++].result, 2);
    assert_int_equal(s.c[k].kind, TK_INHERIT);
    assert_int_equal(s.c[k].slot, 1);
    assert_int_equal(s.c[k++].result, 3);
    assert_int_equal(s.c[k].kind, TK_READ);    /* the line that came early, on its copy */
    assert_int_equal(s.c[k].slot, 3);
    assert_int_equal(s.c[k++].thread, 1);
    assert_int_equal(s.c[k].kind, TK_DROP);    /* execve drops the close-on-exec copy of a */
    assert_int_equal(s.c[k++].slot, 2);
    assert_int_equal(s.c[k++].kind, TK_READ);
    assert_int_equal(s.c[k].kind, TK_SPAWN);   /* the thread */
    assert_int_equal(s.c[k++].thread, 2);
    assert_int_equal(s.c[k].kind, TK_CLOSE);   /* the parent's a, closed by its thread */
    assert_int_equal(s.c[k].slot, 0);
    assert_int_equal(s.c[k++].thread, 2);
    assert_int_equal(s.c[k].kind, TK_ACCESS);  /* chdir of the thread moved the process too */
    assert_string_equal(s.c[k++].path, "sub/x");
    assert_int_equal(s.c[k++].kind, TK_EXIT);  /* the thread: its table lives on */
    assert_int_equal(s.c[k++].kind, TK_EXIT);  /* the child */
    assert_int_equal(s.c[k].kind, TK_DROP);    /* its copy of b */
    assert_int_equal(s.c[k++].slot, 3);
    /* at the end: the parent exits, dropping b */
    assert_int_equal(s.c[k++].kind, TK_EXIT);
    assert_int_equal(s.c[k].kind, TK_DROP);
    assert_int_equal(s.c[k++].slot, 1);
    assert_int_equal(k, s.n);
    assert_int_equal(in.nthreads, 3);
    assert_int_equal(in.max_concurrency, 3);
}

/* Pipes, socket pairs and waits (format 3): chan records for the bytes through them, named
 * by the inode they are read from; a wait record for a child that ended. */
static void test_rec_channels(void **state)
{
    (void)state;
    struct sink s;
    struct trace_info in;
    struct trace_recorder *r = recorder(&s, NULL);
    feed(r, "10 1.0 socketpair(AF_UNIX, SOCK_STREAM, 0, [3<socket:[500]>, 4<socket:[501]>]) = 0 "
            "<0.000001>");
    feed(r, "10 1.1 clone(child_stack=NULL, flags=CLONE_CHILD_SETTID|SIGCHLD) = 11 <0.000001>");
    feed(r, "10 1.2 write(3<socket:[500]>, ""..., 5) = 5 <0.000001>");
    feed(r, "11 1.3 read(4<socket:[501]>, ""..., 100) = 5 <0.000001>");
    feed(r, "11 1.4 write(1<pipe:[77]>, ""..., 3) = 3 <0.000001>");
    feed(r, "10 1.5 read(0<pipe:[77]>, ""..., 9) = -1 EAGAIN (Resource temporarily "
            "unavailable) <0.000001>");
    feed(r, "10 1.6 read(0<pipe:[77]>, ""..., 9) = 3 <0.000001>");
    /* a socket of no pair seen: left out as before */
    feed(r, "10 1.7 write(5<socket:[900]>, ""..., 2) = 2 <0.000001>");
    feed(r, "11 1.8 +++ exited with 0 +++");
    feed(r, "10 1.9 wait4(-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 11 "
            "<0.000001>");
    assert_int_equal(trace_rec_finish(r, &in), 0);
    trace_rec_free(r);
    int k = 0;
    assert_int_equal(s.c[k++].kind, TK_SPAWN);
    assert_int_equal(s.c[k].kind, TK_CHAN);      /* the write: bytes the other end reads */
    assert_int_equal(s.c[k].flags, TRP_WRITE | TRP_SOCKET);
    assert_int_equal(s.c[k].off, 501);
    assert_int_equal(s.c[k++].size, 5);
    assert_int_equal(s.c[k].kind, TK_CHAN);      /* the child's read of them */
    assert_int_equal(s.c[k].flags, TRP_SOCKET);
    assert_int_equal(s.c[k].off, 501);
    assert_int_equal(s.c[k++].thread, 1);
    assert_int_equal(s.c[k].kind, TK_CHAN);      /* a pipe: its own inode both ways */
    assert_int_equal(s.c[k].flags, TRP_WRITE);
    assert_int_equal(s.c[k++].off, 77);
    assert_int_equal(s.c[k].kind, TK_CHAN);      /* (the EAGAIN moved nothing: none) */
    assert_int_equal(s.c[k].flags, 0);
    assert_int_equal(s.c[k].off, 77);
    assert_int_equal(s.c[k++].size, 3);
    assert_int_equal(s.c[k++].kind, TK_EXIT);
    assert_int_equal(s.c[k].kind, TK_WAIT);      /* the parent's wait: for thread 1 */
    assert_int_equal(s.c[k].thread, 0);
    assert_int_equal(s.c[k++].aux, 1);
    assert_int_equal(s.c[k++].kind, TK_EXIT);
    assert_int_equal(k, s.n);
    assert_int_equal(in.ncalls, 0);
    assert_int_equal(in.left_prestart, 2);      /* the EAGAIN, the unpaired socket */
}

/* A close that another thread's open overtakes: thread 12's close of 3 is unfinished when
 * thread 10's open returns 3 (the kernel freed the number when the close started). The
 * open gets a slot of its own, its write and close are on it, and the close that comes
 * back later closes the slot it started on; nothing is left out as "opened before the
 * start". A thread that ends inside a close drops that slot. */
static void test_rec_close_overtaken(void **state)
{
    (void)state;
    struct sink s;
    struct trace_info in;
    struct trace_recorder *r = recorder(&s, NULL);
    feed(r, "10 1.0 openat(AT_FDCWD</r>, \"a\", O_WRONLY|O_CREAT, 0644) = 3</r/a> <0.000001>");
    feed(r, "10 1.1 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_THREAD, stack=0x1} => "
            "{parent_tid=[12]}, 88) = 12 <0.000001>");
    feed(r, "12 1.2 close(3</r/a> <unfinished ...>");
    feed(r, "10 1.3 openat(AT_FDCWD</r>, \"b\", O_WRONLY|O_CREAT, 0644) = 3</r/b> <0.000001>");
    feed(r, "10 1.4 write(3</r/b>, \"\"..., 16) = 16 <0.000001>");
    feed(r, "12 1.5 <... close resumed>) = 0 <0.000300>");
    feed(r, "10 1.6 close(3</r/b>) = 0 <0.000001>");
    feed(r, "10 1.7 openat(AT_FDCWD</r>, \"c\", O_RDONLY) = 4</r/c> <0.000001>");
    feed(r, "12 1.8 close(4</r/c> <unfinished ...>");
    feed(r, "12 1.9 +++ exited with 0 +++");
    feed(r, "10 2.0 +++ exited with 0 +++");
    assert_int_equal(trace_rec_finish(r, &in), 0);
    trace_rec_free(r);
    int k = 0;
    assert_int_equal(s.c[k].kind, TK_OPEN);    /* a: slot 0 */
    assert_int_equal(s.c[k++].result, 0);
    assert_int_equal(s.c[k++].kind, TK_SPAWN);
    assert_int_equal(s.c[k].kind, TK_OPEN);    /* b: slot 1, a's still closing */
    assert_int_equal(s.c[k++].result, 1);
    assert_int_equal(s.c[k].kind, TK_WRITE);   /* on b */
    assert_int_equal(s.c[k++].slot, 1);
    assert_int_equal(s.c[k].kind, TK_CLOSE);   /* a, by the thread, at its start */
    assert_int_equal(s.c[k].slot, 0);
    assert_int_equal(s.c[k].thread, 1);
    assert_true(s.c[k++].start_ns == 200000000);
    assert_int_equal(s.c[k].kind, TK_CLOSE);   /* b */
    assert_int_equal(s.c[k++].slot, 1);
    assert_int_equal(s.c[k].kind, TK_OPEN);    /* c: slot 0 again */
    assert_int_equal(s.c[k++].result, 0);
    assert_int_equal(s.c[k].kind, TK_DROP);    /* the thread ended inside c's close */
    assert_int_equal(s.c[k].slot, 0);
    assert_int_equal(s.c[k++].thread, 1);
    assert_int_equal(s.c[k++].kind, TK_EXIT);
    assert_int_equal(s.c[k++].kind, TK_EXIT);
    assert_int_equal(k, s.n);
    assert_int_equal(in.left_prestart, 0);
    assert_int_equal(in.bytes_written, 16);
}

static void test_rec_state(void **state)
{
    (void)state;
    struct trace_prescan *p = trace_prescan_new();
    assert_non_null(p);
    assert_int_equal(trace_prescan_add(p, "a", TT_DIR, 0755, 0, NULL), 0);
    assert_int_equal(trace_prescan_add(p, "a/b", TT_DIR, 0700, 0, NULL), 0);
    assert_int_equal(trace_prescan_add(p, "a/b/f", TT_REG, 0644, 123, NULL), 0);
    assert_int_equal(trace_prescan_add(p, "a/l", TT_SYMLINK, 0777, 0, "../x"), 0);
    assert_int_equal(trace_prescan_add(p, "unused", TT_REG, 0644, 5, NULL), 0);
    struct sink s;
    struct trace_info in;
    struct trace_recorder *r = recorder(&s, p);
    /* a new file in a/b: a and a/b existed; and a stat of the symlink */
    feed(r, "10 1.0 openat(AT_FDCWD</r>, \"a/b/new\", O_WRONLY|O_CREAT, 0600) = 3</r/a/b/new> "
            "<0.000001>");
    feed(r, "10 1.0 newfstatat(AT_FDCWD</r>, \"a/l\", 0x1, AT_SYMLINK_NOFOLLOW) = 0 <0.000001>");
    assert_int_equal(trace_rec_finish(r, &in), 0);
    trace_rec_free(r);
    uint64_t n, bytes;
    assert_int_equal(trace_prescan_used(p, NULL, NULL, &n, &bytes), 0);
    assert_int_equal(n, 3); /* a, a/b, a/l: not a/b/f, not unused */
    assert_int_equal(bytes, 0);
    trace_prescan_free(p);
    assert_int_equal(trace_rec_table_sorted(), 1);
}

static int collect(void *arg, const struct trace_entry *e)
{
    char *out = arg;
    size_t n = strlen(out);
    snprintf(out + n, 1024 - n, "%.*s:%u:%o:%llu%s%s;", (int)e->path_len, e->path, e->type,
             e->mode, (unsigned long long)e->size, e->target ? ">" : "",
             e->target ? e->target : "");
    return 0;
}

static void test_prescan_dir(void **state)
{
    struct tfile *f = *state;
    int d = open(f->dir, O_RDONLY | O_DIRECTORY);
    assert_true(d >= 0);
    assert_int_equal(mkdirat(d, "x", 0750), 0);
    int fd = openat(d, "x/f", O_WRONLY | O_CREAT, 0600);
    assert_int_equal(write(fd, "12345", 5), 5);
    close(fd);
    fchmodat(d, "x/f", 0600, 0);
    assert_int_equal(symlinkat("/etc/passwd", d, "x/l"), 0);
    assert_int_equal(mkfifoat(d, "x/fifo", 0600), 0);
    uint64_t skipped;
    struct trace_prescan *p = trace_prescan_dir(d, 1000, &skipped);
    assert_non_null(p);
    assert_int_equal(skipped, 1); /* the fifo */
    assert_int_equal(trace_prescan_count(p), 3);
    assert_int_equal(trace_prescan_use(p, "x/f", 3), 0);
    assert_int_equal(trace_prescan_use(p, "x/l", 3), 0);
    assert_int_equal(trace_prescan_use(p, "x/nothing", 9), 0);
    char out[1024] = "";
    assert_int_equal(trace_prescan_used(p, collect, out, NULL, NULL), 0);
    assert_string_equal(out, "x:2:750:0;x/f:1:600:5;x/l:3:777:11>/etc/passwd;");
    trace_prescan_free(p);
    /* too many entries: one clear error */
    assert_null(trace_prescan_dir(d, 2, &skipped));
    close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varint),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_codec_roundtrip),
        cmocka_unit_test(test_codec_refuses),
        cmocka_unit_test(test_codec_fast_path),
        cmocka_unit_test_setup_teardown(test_file_roundtrip, file_setup, file_teardown),
        cmocka_unit_test_setup_teardown(test_file_damaged, file_setup, file_teardown),
        cmocka_unit_test_setup_teardown(test_file_counts, file_setup, file_teardown),
        cmocka_unit_test_setup_teardown(test_file_format3, file_setup, file_teardown),
        cmocka_unit_test_setup_teardown(test_file_copy, file_setup, file_teardown),
        cmocka_unit_test_setup_teardown(test_file_format5, file_setup, file_teardown),
        cmocka_unit_test_setup_teardown(test_file_format4, file_setup, file_teardown),
        cmocka_unit_test(test_strace_lines),
        cmocka_unit_test(test_rec_descriptors),
        cmocka_unit_test(test_rec_processes),
        cmocka_unit_test(test_rec_channels),
        cmocka_unit_test(test_rec_close_overtaken),
        cmocka_unit_test(test_rec_gaps),
        cmocka_unit_test(test_rec_away),
        cmocka_unit_test(test_rec_state),
        cmocka_unit_test_setup_teardown(test_prescan_dir, file_setup, file_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
