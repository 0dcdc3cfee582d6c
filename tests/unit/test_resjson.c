/* test_resjson.c — the JSON codec: a run set with every field set survives a round trip
 * (in memory, through a dumped string and through a file), newer schemas and wrong types
 * are refused with a message naming the member.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/err.h"
#include "results/resjson.h"
#include "measure/results.h"

/* A phase with every field set to a distinct value; odd phases have no block device. */
static void fill_phase(struct phase_result *p, unsigned n)
{
    snprintf(p->name, sizeof p->name, "phase-%u", n);
    p->status = (enum phase_status)(n % 3);
    snprintf(p->note, sizeof p->note, "note %u: \"quoted\", comma, tab\t, é ü", n);
    p->wall_s = 1.0 / 3.0 + n;
    p->user_s = 0.1 + n;
    p->sys_s = 2.718281828459045 * (n + 1);
    for (int k = 0; k < OP_KINDS; k++)
        p->ops[k] = (k % 3 == 0) ? 0 : 1000u * (n + 1) + (unsigned)k;
    p->ops_total = 123456789012ull + n;
    p->bytes_read = 9000000000000ull + n;
    p->bytes_written = 77 + n;
    p->files = 52000 + n;
    p->dirs = 3000 + n;
    p->symlinks = 12 + n;
    p->nvcsw = 10 + (long)n;
    p->nivcsw = 20 + (long)n;
    p->majflt = 30 + (long)n;
    p->minflt = 40 + (long)n;
    p->inblock = 50 + (long)n;
    p->oublock = 60 + (long)n;
    p->io_read_bytes = 4096u * (n + 1);
    p->io_write_bytes = 8192u * (n + 1);
    p->dev.valid = n % 2 == 0;
    if (p->dev.valid) {
        p->dev.rd_ios = 100 + n;
        p->dev.rd_sectors = 800 + n;
        p->dev.wr_ios = 200 + n;
        p->dev.wr_sectors = 1600 + n;
        p->dev.io_ticks_ms = 333 + n;
    }
    for (int k = 0; k < OP_KINDS; k += 2) {
        struct lat_summary *l = &p->lat[k];
        l->count = 1000 + (uint64_t)k;
        l->min_ns = 100 + (uint64_t)k;
        l->p50_ns = 200 + (uint64_t)k;
        l->p90_ns = 300 + (uint64_t)k;
        l->p99_ns = 400 + (uint64_t)k;
        l->p999_ns = 500 + (uint64_t)k;
        l->max_ns = 60000000000ull + (uint64_t)k;
        l->mean_ns = 250.125 + k / 7.0;
    }
    p->timeline_len = 5 + n;
    p->timeline = calloc(p->timeline_len, sizeof *p->timeline);
    assert_non_null(p->timeline);
    for (size_t i = 0; i < p->timeline_len; i++) {
        p->timeline[i].t = 0.1 * (double)(i + 1);
        p->timeline[i].ops = 1000 * i + n;
        p->timeline[i].bytes = 4096 * i * i;
    }
    p->longest_stall_s = 0.7 + n;
}

static void fill_set(struct run_set *rs)
{
    memset(rs, 0, sizeof *rs);
    rs->schema_version = RESULTS_SCHEMA_VERSION;
    strcpy(rs->label, "old-dirpref");
    strcpy(rs->scenario, "basic");
    strcpy(rs->engine, "posix");
    strcpy(rs->command_line, "fsbench run --label old-dirpref --tree pkgsrc 'a b' \"c\"");
    rs->created = 1764667200.123456789;
    rs->root = true;
    rs->warm_cache = true;
    struct machine_info *m = &rs->machine;
    strcpy(m->hostname, "bench1");
    strcpy(m->kernel, "6.1.0-13-amd64");
    strcpy(m->kernel_version, "#1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1 (2023-09-29)");
    strcpy(m->arch, "x86_64");
    strcpy(m->cpu, "AMD EPYC 7B13");
    m->ncpu = 2;
    m->ram_bytes = 8ull << 30;
    m->dirty_ratio = 20;
    m->dirty_background_ratio = 10;
    m->dirty_bytes = 0;
    m->dirty_background_bytes = -1; /* unreadable */
    m->dirty_expire_centisecs = 3000;
    m->dirty_writeback_centisecs = 500;
    m->vfs_cache_pressure = 100;
    struct target_info *t = &rs->target;
    strcpy(t->path, "/mnt/fsbench/run");
    strcpy(t->fstype, "ext4");
    strcpy(t->mount_point, "/mnt/fsbench");
    strcpy(t->mount_opts, "rw,relatime");
    strcpy(t->device, "/dev/loop0");
    strcpy(t->blockdev, "loop0");
    strcpy(rs->tree.profile, "pkgsrc");
    rs->tree.scale = 0.25;
    rs->tree.seed = UINT64_MAX - 5; /* above INT64_MAX: written as a string */
    rs->tree.files = 52000;
    rs->tree.dirs = 4100;
    rs->tree.symlinks = 17;
    rs->tree.bytes = 412345678;
    strcpy(rs->stop.rule, "until-verdict");
    strcpy(rs->stop.method, "mixture-sprt");
    strcpy(rs->stop.metric, "wall");
    rs->stop.confidence = 0.95;
    rs->stop.min_effect = 0.05;
    rs->stop.mixture_var = 2;
    rs->stop.max_rounds = 30;
    strcpy(rs->kept_kind, "image");
    strcpy(rs->kept_path, "/tmp/fsbench-nightly.img");
    for (unsigned r = 0; r < 3; r++) {
        struct run_result *run = run_set_add_run(rs, 3);
        assert_non_null(run);
        run->round = r / 2;
        snprintf(run->config, sizeof run->config, "cfg%u", r % 2);
        run->warmup = r == 0;
        run->interrupted = r == 2; /* a signal stopped the last one */
        run->started = 1764667200.5 + r * 61.25;
        for (unsigned i = 0; i < run->nphases; i++)
            fill_phase(&run->phases[i], r * 10 + i);
    }
}

static void assert_phase_equal(const struct phase_result *a, const struct phase_result *b)
{
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->status, b->status);
    assert_string_equal(a->note, b->note);
    assert_true(a->wall_s == b->wall_s);
    assert_true(a->user_s == b->user_s);
    assert_true(a->sys_s == b->sys_s);
    assert_memory_equal(a->ops, b->ops, sizeof a->ops);
    assert_int_equal(a->ops_total, b->ops_total);
    assert_int_equal(a->bytes_read, b->bytes_read);
    assert_int_equal(a->bytes_written, b->bytes_written);
    assert_int_equal(a->files, b->files);
    assert_int_equal(a->dirs, b->dirs);
    assert_int_equal(a->symlinks, b->symlinks);
    assert_int_equal(a->nvcsw, b->nvcsw);
    assert_int_equal(a->nivcsw, b->nivcsw);
    assert_int_equal(a->majflt, b->majflt);
    assert_int_equal(a->minflt, b->minflt);
    assert_int_equal(a->inblock, b->inblock);
    assert_int_equal(a->oublock, b->oublock);
    assert_int_equal(a->io_read_bytes, b->io_read_bytes);
    assert_int_equal(a->io_write_bytes, b->io_write_bytes);
    assert_int_equal(a->dev.valid, b->dev.valid);
    assert_int_equal(a->dev.rd_ios, b->dev.rd_ios);
    assert_int_equal(a->dev.rd_sectors, b->dev.rd_sectors);
    assert_int_equal(a->dev.wr_ios, b->dev.wr_ios);
    assert_int_equal(a->dev.wr_sectors, b->dev.wr_sectors);
    assert_int_equal(a->dev.io_ticks_ms, b->dev.io_ticks_ms);
    for (int k = 0; k < OP_KINDS; k++) {
        const struct lat_summary *x = &a->lat[k], *y = &b->lat[k];
        assert_int_equal(x->count, y->count);
        assert_int_equal(x->min_ns, y->min_ns);
        assert_int_equal(x->p50_ns, y->p50_ns);
        assert_int_equal(x->p90_ns, y->p90_ns);
        assert_int_equal(x->p99_ns, y->p99_ns);
        assert_int_equal(x->p999_ns, y->p999_ns);
        assert_int_equal(x->max_ns, y->max_ns);
        assert_true(x->mean_ns == y->mean_ns);
    }
    assert_int_equal(a->timeline_len, b->timeline_len);
    for (size_t i = 0; i < a->timeline_len; i++) {
        assert_true(a->timeline[i].t == b->timeline[i].t);
        assert_int_equal(a->timeline[i].ops, b->timeline[i].ops);
        assert_int_equal(a->timeline[i].bytes, b->timeline[i].bytes);
    }
    assert_true(a->longest_stall_s == b->longest_stall_s);
}

static void assert_set_equal(const struct run_set *a, const struct run_set *b)
{
    assert_int_equal(a->schema_version, b->schema_version);
    assert_string_equal(a->label, b->label);
    assert_string_equal(a->scenario, b->scenario);
    assert_string_equal(a->engine, b->engine);
    assert_string_equal(a->command_line, b->command_line);
    assert_true(a->created == b->created);
    assert_int_equal(a->root, b->root);
    assert_int_equal(a->warm_cache, b->warm_cache);
    const struct machine_info *m = &a->machine, *n = &b->machine;
    assert_string_equal(m->hostname, n->hostname);
    assert_string_equal(m->kernel, n->kernel);
    assert_string_equal(m->kernel_version, n->kernel_version);
    assert_string_equal(m->arch, n->arch);
    assert_string_equal(m->cpu, n->cpu);
    assert_int_equal(m->ncpu, n->ncpu);
    assert_int_equal(m->ram_bytes, n->ram_bytes);
    assert_int_equal(m->dirty_ratio, n->dirty_ratio);
    assert_int_equal(m->dirty_background_ratio, n->dirty_background_ratio);
    assert_int_equal(m->dirty_bytes, n->dirty_bytes);
    assert_int_equal(m->dirty_background_bytes, n->dirty_background_bytes);
    assert_int_equal(m->dirty_expire_centisecs, n->dirty_expire_centisecs);
    assert_int_equal(m->dirty_writeback_centisecs, n->dirty_writeback_centisecs);
    assert_int_equal(m->vfs_cache_pressure, n->vfs_cache_pressure);
    assert_string_equal(a->target.path, b->target.path);
    assert_string_equal(a->target.fstype, b->target.fstype);
    assert_string_equal(a->target.mount_point, b->target.mount_point);
    assert_string_equal(a->target.mount_opts, b->target.mount_opts);
    assert_string_equal(a->target.device, b->target.device);
    assert_string_equal(a->target.blockdev, b->target.blockdev);
    assert_string_equal(a->tree.profile, b->tree.profile);
    assert_true(a->tree.scale == b->tree.scale);
    assert_true(a->tree.seed == b->tree.seed);
    assert_int_equal(a->tree.files, b->tree.files);
    assert_int_equal(a->tree.dirs, b->tree.dirs);
    assert_int_equal(a->tree.symlinks, b->tree.symlinks);
    assert_int_equal(a->tree.bytes, b->tree.bytes);
    assert_string_equal(a->stop.rule, b->stop.rule);
    assert_string_equal(a->stop.method, b->stop.method);
    assert_string_equal(a->stop.metric, b->stop.metric);
    assert_true(a->stop.confidence == b->stop.confidence);
    assert_true(a->stop.min_effect == b->stop.min_effect);
    assert_true(a->stop.mixture_var == b->stop.mixture_var);
    assert_int_equal(a->stop.max_rounds, b->stop.max_rounds);
    assert_string_equal(a->kept_kind, b->kept_kind); /* --keep-image's place */
    assert_string_equal(a->kept_path, b->kept_path);
    assert_int_equal(a->nruns, b->nruns);
    for (size_t i = 0; i < a->nruns; i++) {
        const struct run_result *r = &a->runs[i], *s = &b->runs[i];
        assert_int_equal(r->index, s->index);
        assert_int_equal(r->round, s->round);
        assert_string_equal(r->config, s->config);
        assert_int_equal(r->warmup, s->warmup);
        assert_int_equal(r->interrupted, s->interrupted);
        assert_true(r->started == s->started);
        assert_int_equal(r->nphases, s->nphases);
        for (size_t j = 0; j < r->nphases; j++)
            assert_phase_equal(&r->phases[j], &s->phases[j]);
    }
}

/* Runs fn with stderr captured into buf (error() messages), returning fn's result. */
static int capture_stderr(int (*fn)(void *), void *arg, char *buf, size_t len)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    err_set_quiet(0);
    int rc = fn(arg);
    err_set_quiet(1);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(buf, 1, len - 1, tmp);
    buf[n] = '\0';
    fclose(tmp);
    return rc;
}

static void test_round_trip_memory(void **state)
{
    struct run_set a, b;
    fill_set(&a);
    json_t *j = resjson_from_run_set(&a);
    assert_non_null(j);
    memset(&b, 0, sizeof b);
    assert_int_equal(resjson_to_run_set(j, &b), 0);
    assert_set_equal(&a, &b);
    json_decref(j);
    run_set_free(&a);
    run_set_free(&b);
}

static void test_round_trip_text(void **state)
{
    struct run_set a, b;
    fill_set(&a);
    json_t *j = resjson_from_run_set(&a);
    char *text = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    assert_non_null(text);
    json_decref(j);
    /* derived figures are written, and null where there is no device */
    assert_non_null(strstr(text, "\"ops_per_s\""));
    assert_non_null(strstr(text, "\"mb_per_s\""));
    assert_non_null(strstr(text, "\"created_utc\": \"2025-12-02T09:20:00Z\""));
    assert_non_null(strstr(text, "\"device\": null"));
    assert_non_null(strstr(text, "\"seed\": \"18446744073709551610\""));
    assert_non_null(strstr(text, "\"dirty_background_bytes\": null"));
    assert_null(strstr(text, "\"rmdir\"")); /* kinds with no ops and no latency left out */
    json_error_t je;
    j = json_loads(text, 0, &je);
    assert_non_null(j);
    memset(&b, 0, sizeof b);
    assert_int_equal(resjson_to_run_set(j, &b), 0);
    assert_set_equal(&a, &b);
    json_decref(j);
    free(text);
    run_set_free(&a);
    run_set_free(&b);
}

static void test_round_trip_file(void **state)
{
    char path[] = "/tmp/test_resjson.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct run_set a, b;
    fill_set(&a);
    assert_int_equal(resjson_write_file(&a, path), 0);
    memset(&b, 0, sizeof b);
    assert_int_equal(resjson_read_file(path, &b), 0);
    assert_set_equal(&a, &b);
    run_set_free(&a);
    run_set_free(&b);
    unlink(path);
}

static void test_phase_round_trip(void **state)
{
    struct phase_result a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    fill_phase(&a, 4);
    json_t *j = resjson_from_phase(&a);
    assert_non_null(j);
    assert_int_equal(resjson_to_phase(j, &b, "x"), 0);
    assert_phase_equal(&a, &b);
    json_decref(j);
    phase_result_free(&a);
    phase_result_free(&b);
}

/* Device counters in the time line and the stalls come back as written; a time line
 * mixing point lengths is refused. */
static void test_phase_stalls_round_trip(void **state)
{
    struct phase_result a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    fill_phase(&a, 4);
    a.timeline_dev = true;
    for (size_t i = 0; i < a.timeline_len; i++) {
        a.timeline[i].dev_rd_sectors = 8 * i;
        a.timeline[i].dev_wr_sectors = 1000 + i;
        a.timeline[i].dev_inflight = i % 3;
        a.timeline[i].dev_busy_ms = 50 * i;
    }
    a.nstalls = 2;
    a.stalls = calloc(2, sizeof *a.stalls);
    assert_non_null(a.stalls);
    a.stalls[0] = (struct stall){.start_s = 1.5, .length_s = 2.25, .ops = 3,
                                 .dev_wr_sectors = 4096, .dev_busy_ms = 2000,
                                 .dev_inflight_max = 7};
    a.stalls[1] = (struct stall){.start_s = 9, .length_s = 1, .dev_busy_ms = 10};
    json_t *j = resjson_from_phase(&a);
    assert_non_null(j);
    assert_int_equal(resjson_to_phase(j, &b, "x"), 0);
    assert_true(b.timeline_dev);
    assert_int_equal(b.timeline_len, a.timeline_len);
    for (size_t i = 0; i < a.timeline_len; i++) {
        assert_int_equal(b.timeline[i].dev_rd_sectors, a.timeline[i].dev_rd_sectors);
        assert_int_equal(b.timeline[i].dev_wr_sectors, a.timeline[i].dev_wr_sectors);
        assert_int_equal(b.timeline[i].dev_inflight, a.timeline[i].dev_inflight);
        assert_int_equal(b.timeline[i].dev_busy_ms, a.timeline[i].dev_busy_ms);
    }
    assert_int_equal(b.nstalls, 2);
    assert_true(b.stalls[0].start_s == 1.5 && b.stalls[0].length_s == 2.25);
    assert_int_equal(b.stalls[0].ops, 3);
    assert_int_equal(b.stalls[0].dev_wr_sectors, 4096);
    assert_int_equal(b.stalls[0].dev_busy_ms, 2000);
    assert_int_equal(b.stalls[0].dev_inflight_max, 7);
    assert_true(json_is_true(json_object_get(
        json_object_get(json_array_get(json_object_get(j, "stalls"), 0), "device"), "busy")));
    assert_true(json_is_false(json_object_get(
        json_object_get(json_array_get(json_object_get(j, "stalls"), 1), "device"), "busy")));
    phase_result_free(&b);
    memset(&b, 0, sizeof b);
    /* one point of three among points of seven */
    json_t *tl = json_object_get(j, "timeline");
    json_array_set_new(tl, 1, json_pack("[f, i, i]", 0.1, 1, 1));
    err_set_quiet(1);
    assert_int_equal(resjson_to_phase(j, &b, "x"), -1);
    err_set_quiet(0);
    json_decref(j);
    phase_result_free(&b);
    memset(&b, 0, sizeof b);
    /* no device behind the target (a tmpfs): the stall's device is written null and read */
    a.timeline_dev = false;
    j = resjson_from_phase(&a);
    assert_non_null(j);
    assert_true(json_is_null(
        json_object_get(json_array_get(json_object_get(j, "stalls"), 0), "device")));
    assert_int_equal(resjson_to_phase(j, &b, "x"), 0);
    assert_int_equal(b.nstalls, 2);
    assert_int_equal(b.stalls[0].ops, 3);
    json_decref(j);
    phase_result_free(&a);
    phase_result_free(&b);
}

static json_t *set_json(void)
{
    struct run_set a;
    fill_set(&a);
    json_t *j = resjson_from_run_set(&a);
    run_set_free(&a);
    assert_non_null(j);
    return j;
}

struct decode_arg {
    json_t *j;
    struct run_set rs;
};

static int decode(void *p)
{
    struct decode_arg *d = p;
    memset(&d->rs, 0, sizeof d->rs);
    return resjson_to_run_set(d->j, &d->rs);
}

static void test_schema_too_new(void **state)
{
    struct decode_arg d;
    memset(&d, 0, sizeof d);
    d.j = set_json();
    json_object_set_new(d.j, "schema_version", json_integer(RESULTS_SCHEMA_VERSION + 1));
    char msg[512];
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "schema_version"));
    assert_non_null(strstr(msg, "newer"));
    assert_int_equal(d.rs.nruns, 0);
    assert_null(d.rs.runs);

    json_object_del(d.j, "schema_version");
    assert_int_equal(decode(&d), -1);
    json_decref(d.j);
}

static void test_wrong_types(void **state)
{
    struct decode_arg d;
    memset(&d, 0, sizeof d);
    d.j = set_json();
    json_t *phase = json_array_get(json_object_get(json_array_get(json_object_get(d.j, "runs"),
                                                                  2),
                                                   "phases"),
                                   0);
    json_object_set_new(phase, "wall_s", json_string("fast"));
    char msg[512];
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_string_equal(msg, "fsbench: runs[2].phases[0].wall_s: expected a number\n");
    assert_int_equal(d.rs.nruns, 0); /* partial results freed */
    json_object_set_new(phase, "wall_s", json_real(1.5));

    /* kept: an object with two strings */
    json_object_set_new(d.j, "kept", json_string("/tmp/x.img"));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_string_equal(msg, "fsbench: kept: expected {\"kind\": \"...\", \"path\": \"...\"}\n");
    json_object_del(d.j, "kept");

    /* a nested member, an unknown op kind, a negative counter, a bad timeline point */
    json_t *rusage = json_object_get(phase, "rusage");
    json_object_set_new(rusage, "majflt", json_real(1.5));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_string_equal(msg, "fsbench: runs[2].phases[0].rusage.majflt: expected an integer\n");
    json_object_set_new(rusage, "majflt", json_integer(3));

    json_object_set_new(json_object_get(phase, "ops"), "teleport", json_integer(1));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_string_equal(msg, "fsbench: runs[2].phases[0].ops.teleport: unknown operation kind\n");
    json_object_del(json_object_get(phase, "ops"), "teleport");

    json_object_set_new(phase, "files", json_integer(-4));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "runs[2].phases[0].files: expected a non-negative integer"));
    json_object_set_new(phase, "files", json_integer(4));

    json_array_set_new(json_object_get(phase, "timeline"), 1, json_string("x"));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "runs[2].phases[0].timeline[1]: expected [t, ops, bytes]"));
    json_array_remove(json_object_get(phase, "timeline"), 1);

    json_object_set_new(phase, "status", json_string("great"));
    assert_int_equal(decode(&d), -1);
    json_object_set_new(phase, "status", json_string("ok"));

    json_object_set_new(json_object_get(d.j, "target"), "fstype", json_integer(4));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_string_equal(msg, "fsbench: target.fstype: expected a string\n");
    json_object_set_new(json_object_get(d.j, "target"), "fstype", json_string("xfs"));

    char big[RES_NAME_MAX + 10];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    json_object_set_new(d.j, "label", json_string(big));
    assert_int_equal(decode(&d), -1);
    json_object_set_new(d.j, "label", json_string("ok"));

    /* a stopping rule with numbers no design has */
    json_t *stop = json_object_get(d.j, "stopping");
    assert_non_null(stop);
    json_object_set_new(stop, "confidence", json_real(7));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_string_equal(msg, "fsbench: stopping.confidence: expected a number from 0.5 to "
                             "below 1\n");
    json_object_set_new(stop, "confidence", json_real(0.95));
    json_object_set_new(stop, "mixture_var", json_string("x"));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_string_equal(msg, "fsbench: stopping.mixture_var: expected a number\n");
    json_object_set_new(stop, "mixture_var", json_real(2));
    json_object_set_new(stop, "rule", json_string("whenever"));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_string_equal(msg, "fsbench: stopping.rule: expected \"until-verdict\" or \"auto\"\n");
    json_object_set_new(stop, "rule", json_string("auto"));

    json_object_set_new(d.j, "runs", json_object());
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_string_equal(msg, "fsbench: runs: expected an array\n");
    json_object_set_new(d.j, "runs", json_array());

    assert_int_equal(decode(&d), 0); /* everything repaired: accepted again */
    run_set_free(&d.rs);
    json_decref(d.j);
}

/* Times are measurements: finite, >= 0, 0 or at least 1 ns, at most 1e9 s; names (a
 * configuration, a phase) hold no control character. The one place that refuses them. */
static void test_times_and_names(void **state)
{
    struct decode_arg d;
    memset(&d, 0, sizeof d);
    d.j = set_json();
    json_t *run = json_array_get(json_object_get(d.j, "runs"), 1);
    json_t *phase = json_array_get(json_object_get(run, "phases"), 0);
    char msg[512];
    static const struct {
        const char *key;
        double v;
        const char *want;
    } bad[] = {
        {"wall_s", -1, "runs[1].phases[0].wall_s: -1 is out of range (0 to 1e+09)"},
        {"wall_s", 5e-324, "runs[1].phases[0].wall_s: 4.94066e-324 s is below the clock's "
                           "resolution (1 ns): not a measured time"},
        {"user_s", 1e300, "runs[1].phases[0].user_s: 1e+300 is out of range"},
        {"sys_s", -0.5, "runs[1].phases[0].sys_s: -0.5 is out of range"},
        {"longest_stall_s", 1e-12, "longest_stall_s: 1e-12 s is below the clock's"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *old = json_incref(json_object_get(phase, bad[i].key));
        json_object_set_new(phase, bad[i].key, json_real(bad[i].v));
        assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
        if (!strstr(msg, bad[i].want))
            fail_msg("%s = %g: got '%s'", bad[i].key, bad[i].v, msg);
        json_object_set_new(phase, bad[i].key, old ? old : json_null());
    }
    /* zero and null are fine: a zero-length phase, a phase not measured */
    json_object_set_new(phase, "wall_s", json_real(0));
    json_object_set_new(phase, "user_s", json_null());
    assert_int_equal(decode(&d), 0);
    run_set_free(&d.rs);
    memset(&d.rs, 0, sizeof d.rs);
    json_object_set_new(phase, "wall_s", json_real(1.5));
    json_object_set_new(phase, "user_s", json_real(0.5));
    /* a time line point and a run's start time */
    json_t *pt = json_array_get(json_object_get(phase, "timeline"), 0);
    json_t *t0 = json_incref(json_array_get(pt, 0));
    json_array_set_new(pt, 0, json_real(-3));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "timeline[0][0]: -3 is out of range"));
    json_array_set_new(pt, 0, t0);
    json_object_set_new(run, "started", json_real(-1));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "runs[1].started: -1 is out of range"));
    json_object_set_new(run, "started", json_real(1e9));
    /* names */
    json_object_set_new(run, "config", json_string("ext4:a\nb"));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_string_equal(msg, "fsbench: runs[1].config: holds a line break\n");
    json_object_set_new(run, "config", json_string("ext4:defaults"));
    json_object_set_new(phase, "name", json_string("ex\xe2\x80\xaetract"));
    assert_int_equal(capture_stderr(decode, &d, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "runs[1].phases[0].name: holds a bidirectional-text control"));
    json_object_set_new(phase, "name", json_string("extract"));
    assert_int_equal(decode(&d), 0);
    run_set_free(&d.rs);
    json_decref(d.j);
}

static void test_bad_files(void **state)
{
    struct run_set rs;
    memset(&rs, 0, sizeof rs);
    assert_int_equal(resjson_read_file("/nonexistent/x.json", &rs), -1);
    char path[] = "/tmp/test_resjson.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "{\"schema_version\": 1, \"runs\": [", 31), 31);
    close(fd);
    assert_int_equal(resjson_read_file(path, &rs), -1);
    unlink(path);
    struct run_set a;
    fill_set(&a);
    assert_int_equal(resjson_write_file(&a, "/nonexistent/dir/x.json"), -1);
    run_set_free(&a);
}

int main(void)
{
    err_set_quiet(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_memory), cmocka_unit_test(test_round_trip_text),
        cmocka_unit_test(test_round_trip_file),   cmocka_unit_test(test_phase_round_trip),
        cmocka_unit_test(test_phase_stalls_round_trip),
        cmocka_unit_test(test_schema_too_new),    cmocka_unit_test(test_wrong_types),
        cmocka_unit_test(test_bad_files),         cmocka_unit_test(test_times_and_names),
    };
    return cmocka_run_group_tests_name("resjson", tests, NULL, NULL);
}
