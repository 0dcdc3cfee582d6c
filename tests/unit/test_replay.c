/* test_replay.c — unit tests of the replay phase on a scratch workspace: a trace written
 * here is laid down and replayed; the tree it leaves, its counts per operation kind, its
 * note; divergent calls counted and named, past 1 % a failed phase; paths that would
 * leave the run directory through a symlink refused with nothing touched outside;
 * renamed directories seen by the directory cache; several threads ordered by resource
 * (and only there: descriptors renamed, a directory's names apart from the directory);
 * original timing's think times; the null engine; the replay made ready by setup, before
 * the phase's clocks; a mapped file faulted in through a map, not read.
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
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "engine/engine.h"
#include "measure/measure.h"
#include "phase/phase.h"
#include "phase/replay.h"
#include "phase/replay_internal.h"
#include "trace/trace_read.h"
#include "trace/trace_write.h"
#include "testutil.h"

#define NW 4

struct fix {
    char dir[4096];
    char trace[4200];
    char outside[4200];
    struct opstats st[NW];
    struct eng_worker w[NW];
    struct phase_result res;
    struct phase_params params;
    struct phase_ctx ctx;
    /* the trace being written */
    struct trace_writer *tw;
    struct trace_info in;
    uint64_t t;
};

static int setup(void **state)
{
    struct fix *f = calloc(1, sizeof *f);
    if (!f || !tu_scratch_dir(f->dir, sizeof f->dir, "replay"))
        return -1;
    snprintf(f->trace, sizeof f->trace, "%s.fsbt", f->dir);
    snprintf(f->outside, sizeof f->outside, "%s.outside", f->dir);
    if (mkdir(f->outside, 0755) < 0)
        return -1;
    for (int i = 0; i < NW; i++)
        f->w[i].st = &f->st[i];
    f->ctx = (struct phase_ctx){.eng = &engine_posix, .w = &f->w[0], .res = &f->res,
                                .params = &f->params, .workers = f->w, .nworkers = NW};
    f->ctx.ws_fd = open(f->dir, O_RDONLY | O_DIRECTORY);
    if (f->ctx.ws_fd < 0)
        return -1;
    err_set_quiet(1);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;
    err_set_quiet(0);
    close(f->ctx.ws_fd);
    tu_rm_tree(f->dir);
    tu_rm_tree(f->outside);
    unlink(f->trace);
    free(f);
    return 0;
}

/* ---- writing a trace ---- */

static void begin(struct fix *f, uint32_t nthreads, uint32_t nslots)
{
    f->tw = trace_writer_open(f->trace);
    assert_non_null(f->tw);
    memset(&f->in, 0, sizeof f->in);
    f->in.command = "test";
    f->in.root = "/r";
    f->in.tracer = "none";
    f->in.nthreads = nthreads;
    f->in.nslots = nslots;
    f->in.max_concurrency = nthreads;
    f->in.think_scale_ppm = 1000000; /* think time: every gap, whole */
    f->t = 1000;
}

static void add(struct fix *f, struct trace_call c)
{
    if (c.path)
        c.path_len = (uint32_t)strlen(c.path);
    if (c.path2)
        c.path2_len = (uint32_t)strlen(c.path2);
    if (!c.start_ns)
        c.start_ns = f->t += 1000;
    c.dur_ns = c.dur_ns ? c.dur_ns : 100;
    assert_int_equal(trace_writer_call(f->tw, &c), 0);
    f->in.nrecords++;
    if (c.kind < TK_CALL_KINDS) {
        f->in.ncalls++;
        f->in.count[c.kind]++;
        uint64_t rd, wr;
        trace_call_bytes(&c, &rd, &wr);
        f->in.bytes_read += rd;
        f->in.bytes_written += wr;
        if (c.size > f->in.max_io)
            f->in.max_io = c.size;
    }
}

/* Ends the trace with the state entries given ("d:path", "f:path:size", "l:path:target"),
 * and opens it for the phase. */
static void finish(struct fix *f, const char *const *state, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        f->in.nstate++;
        if (state[i][0] == 'f')
            f->in.state_bytes += strtoull(strrchr(state[i], ':') + 1, NULL, 10);
    }
    assert_int_equal(trace_writer_info(f->tw, &f->in), 0);
    for (size_t i = 0; i < n; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s", state[i] + 2);
        char *colon = strchr(p, ':');
        struct trace_entry e = {.path = p, .mode = 0755};
        if (colon)
            *colon = '\0';
        e.path_len = (uint32_t)strlen(p);
        e.type = state[i][0] == 'd' ? TT_DIR : state[i][0] == 'f' ? TT_REG : TT_SYMLINK;
        if (e.type == TT_REG)
            e.size = strtoull(colon + 1, NULL, 10), e.mode = 0644;
        if (e.type == TT_SYMLINK)
            e.target = colon + 1, e.target_len = (uint32_t)strlen(colon + 1);
        assert_int_equal(trace_writer_entry(f->tw, &e), 0);
    }
    assert_int_equal(trace_writer_commit(f->tw), 0);
    f->params.replay = trace_open(f->trace);
    assert_non_null(f->params.replay);
    assert_int_equal(trace_check(f->params.replay), 0);
}

/* Runs set-up and replay: the replay's result. */
static int replay(struct fix *f)
{
    char t[4200];
    snprintf(t, sizeof t, "%s/tree", f->dir);
    tu_rm_tree(t); /* each replay starts from an empty workspace, as in a run */
    memset(&f->res, 0, sizeof f->res);
    for (int i = 0; i < NW; i++)
        opstats_reset(&f->st[i]);
    int rc = phase_replay_setup(&f->ctx);
    if (rc != 0)
        fail_msg("setup: %s", f->res.note);
    for (int i = 0; i < NW; i++)
        opstats_reset(&f->st[i]);
    rc = phase_replay(&f->ctx);
    trace_close(f->params.replay);
    f->params.replay = NULL;
    return rc;
}

static uint64_t ops(const struct fix *f, enum op_kind k)
{
    uint64_t n = 0;
    for (int i = 0; i < NW; i++)
        n += f->st[i].count[k];
    return n;
}

static int tree(const struct fix *f)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/tree", f->dir);
    return open(p, O_RDONLY | O_DIRECTORY);
}

#define CREAT (TRO_CREAT | TRO_WRONLY | TRO_TRUNC)

/* ---- tests ---- */

static void test_basic(void **state)
{
    struct fix *f = *state;
    begin(f, 1, 2);
    add(f, (struct trace_call){.kind = TK_MKDIR, .path = "out", .mode = 0755});
    add(f, (struct trace_call){.kind = TK_OPEN, .path = "in/data", .result = 0});
    add(f, (struct trace_call){.kind = TK_OPEN, .path = "out/copy", .flags = CREAT, .mode = 0640,
                               .result = 1});
    for (int i = 0; i < 3; i++) {
        add(f, (struct trace_call){.kind = TK_READ, .slot = 0, .size = 4096, .result = 4096});
        add(f, (struct trace_call){.kind = TK_WRITE, .slot = 1, .size = 4096, .result = 4096});
    }
    add(f, (struct trace_call){.kind = TK_READ, .slot = 0, .size = 4096, .result = 1000});
    add(f, (struct trace_call){.kind = TK_READ, .slot = 0, .size = 4096, .result = 0});
    add(f, (struct trace_call){.kind = TK_PWRITE, .slot = 1, .size = 1000, .off = 12288,
                               .result = 1000});
    add(f, (struct trace_call){.kind = TK_LSEEK, .slot = 0, .soff = -100, .flags = TRW_END,
                               .result = 13188});
    add(f, (struct trace_call){.kind = TK_FSYNC, .slot = 1});
    add(f, (struct trace_call){.kind = TK_CLOSE, .slot = 1});
    add(f, (struct trace_call){.kind = TK_CLOSE, .slot = 0});
    add(f, (struct trace_call){.kind = TK_STAT, .path = "out/copy"});
    add(f, (struct trace_call){.kind = TK_STAT, .path = "nothing/here",
                               .result = -(int64_t)TE_NOENT});
    add(f, (struct trace_call){.kind = TK_SYMLINK, .path = "out/link", .path2 = "copy"});
    add(f, (struct trace_call){.kind = TK_READLINK, .path = "out/link", .size = 100,
                               .result = 4});
    add(f, (struct trace_call){.kind = TK_RENAME, .path = "out/copy", .path2 = "out/moved"});
    add(f, (struct trace_call){.kind = TK_UNLINK, .path = "in/data"});
    add(f, (struct trace_call){.kind = TK_OPEN, .path = "out", .flags = TRO_DIRECTORY,
                               .result = 0});
    add(f, (struct trace_call){.kind = TK_GETDENTS, .slot = 0, .size = 32768, .result = 88});
    add(f, (struct trace_call){.kind = TK_GETDENTS, .slot = 0, .size = 32768, .result = 0});
    add(f, (struct trace_call){.kind = TK_CLOSE, .slot = 0});
    add(f, (struct trace_call){.kind = TK_CHMOD, .path = "out/moved", .mode = 0600});
    add(f, (struct trace_call){.kind = TK_TRUNCATE, .path = "out/moved", .size = 5000});
    const char *st[] = {"d:in", "f:in/data:13288"};
    finish(f, st, 2);
    assert_int_equal(replay(f), 0);
    assert_non_null(strstr(f->res.note, "none diverged"));
    assert_int_equal(ops(f, OP_READ), 5);
    assert_int_equal(ops(f, OP_WRITE), 4);
    assert_int_equal(ops(f, OP_CREATE), 1);
    assert_int_equal(ops(f, OP_OPEN), 2);
    assert_int_equal(ops(f, OP_CLOSE), 3);
    assert_int_equal(ops(f, OP_SEEK), 1);
    assert_int_equal(ops(f, OP_READDIR), 2);
    assert_int_equal(ops(f, OP_STAT), 2);
    assert_int_equal(ops(f, OP_SETATTR), 2);
    int t = tree(f);
    struct stat sb;
    assert_int_equal(fstatat(t, "out/moved", &sb, AT_SYMLINK_NOFOLLOW), 0);
    assert_int_equal(sb.st_size, 5000);
    assert_int_equal(sb.st_mode & 07777, 0600);
    assert_int_equal(fstatat(t, "out/link", &sb, AT_SYMLINK_NOFOLLOW), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(fstatat(t, "in/data", &sb, AT_SYMLINK_NOFOLLOW), -1);
    close(t);
}

static void test_divergence(void **state)
{
    struct fix *f = *state;
    begin(f, 1, 1);
    for (int i = 0; i < 150; i++)
        add(f, (struct trace_call){.kind = TK_STAT, .path = "."});
    add(f, (struct trace_call){.kind = TK_UNLINK, .path = "a/b"}); /* recorded: it worked */
    add(f, (struct trace_call){.kind = TK_OPEN, .path = "missing", .result = 0});
    add(f, (struct trace_call){.kind = TK_READ, .slot = 0, .size = 10, .result = 10});
    const char *st[] = {"d:a"};
    finish(f, st, 1);
    assert_int_equal(replay(f), -1); /* 3 of 153 diverged: past 1 % */
    assert_int_equal(f->res.status, PHASE_FAILED);
    assert_string_equal(f->res.note, "3 of 153 calls diverged; first: unlink a/b: ENOENT, "
                                     "recorded 0 (by kind: open 1, read 1, unlink 1)");
    /* one in 200: noted, not failed */
    begin(f, 1, 1);
    for (int i = 0; i < 199; i++)
        add(f, (struct trace_call){.kind = TK_STAT, .path = "."});
    add(f, (struct trace_call){.kind = TK_MKDIR, .path = "a", .result = -(int64_t)TE_EXIST});
    finish(f, NULL, 0);
    assert_int_equal(replay(f), 0);
    assert_int_equal(f->res.status, PHASE_OK);
    if (!strstr(f->res.note, "1 of 200 calls diverged; first: mkdir a: 0, recorded EEXIST"))
        fail_msg("%s", f->res.note);
}

/* A symlink of the initial state leads outside: nothing is followed through it. */
static void test_no_escape(void **state)
{
    struct fix *f = *state;
    char target[4300];
    snprintf(target, sizeof target, "%s", f->outside);
    begin(f, 1, 1);
    add(f, (struct trace_call){.kind = TK_OPEN, .path = "lnk/owned", .flags = CREAT,
                               .mode = 0644, .result = 0});
    add(f, (struct trace_call){.kind = TK_WRITE, .slot = 0, .size = 10, .result = 10});
    add(f, (struct trace_call){.kind = TK_CLOSE, .slot = 0});
    add(f, (struct trace_call){.kind = TK_MKDIR, .path = "lnk/d", .mode = 0755});
    add(f, (struct trace_call){.kind = TK_CHMOD, .path = "lnk", .mode = 0700});
    add(f, (struct trace_call){.kind = TK_OPEN, .path = "lnk", .flags = CREAT, .result = 0});
    add(f, (struct trace_call){.kind = TK_TRUNCATE, .path = "lnk", .size = 0});
    add(f, (struct trace_call){.kind = TK_UTIMENS, .path = "lnk"});
    add(f, (struct trace_call){.kind = TK_CHOWN, .path = "lnk"});
    char st0[4400];
    snprintf(st0, sizeof st0, "l:lnk:%s", target);
    const char *st[] = {st0};
    finish(f, st, 1);
    struct stat before, after;
    assert_int_equal(stat(f->outside, &before), 0);
    replay(f);
    assert_null(strstr(f->res.note, "none diverged"));
    assert_non_null(strstr(f->res.note, "ELOOP"));
    int o = open(f->outside, O_RDONLY | O_DIRECTORY);
    assert_true(o >= 0);
    assert_int_equal(tu_count_dir(fdopendir(o)), 0); /* nothing made outside */
    assert_int_equal(stat(f->outside, &after), 0);
    assert_int_equal(before.st_mode, after.st_mode);
    assert_true(before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
                before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
}

/* A renamed directory: the cached descriptor of its old name is not used again. */
static void test_rename_dir(void **state)
{
    struct fix *f = *state;
    begin(f, 1, 0);
    add(f, (struct trace_call){.kind = TK_MKDIR, .path = "a"});
    add(f, (struct trace_call){.kind = TK_MKDIR, .path = "a/sub"});
    add(f, (struct trace_call){.kind = TK_STAT, .path = "a/sub/x", .result = -(int64_t)TE_NOENT});
    add(f, (struct trace_call){.kind = TK_RENAME, .path = "a/sub", .path2 = "b"});
    add(f, (struct trace_call){.kind = TK_MKDIR, .path = "a/sub"});
    add(f, (struct trace_call){.kind = TK_MKDIR, .path = "a/sub/new"});
    add(f, (struct trace_call){.kind = TK_STAT, .path = "b/new", .result = -(int64_t)TE_NOENT});
    add(f, (struct trace_call){.kind = TK_RMDIR, .path = "a/sub/new"});
    add(f, (struct trace_call){.kind = TK_RMDIR, .path = "a/sub"});
    add(f, (struct trace_call){.kind = TK_STAT, .path = "a/sub/new",
                               .result = -(int64_t)TE_NOENT});
    finish(f, NULL, 0);
    assert_int_equal(replay(f), 0);
    assert_non_null(strstr(f->res.note, "none diverged"));
}

/* Two recorded threads: one makes files the other reads; resource order holds, on
 * several replay threads, every time. */
static void test_threads(void **state)
{
    struct fix *f = *state;
    static char paths[200][32], dirs[4][8];
    for (int round = 0; round < 20; round++) {
        begin(f, 2, 2);
        add(f, (struct trace_call){.kind = TK_SPAWN, .thread = 1, .aux = 0});
        for (int i = 0; i < 200; i++) {
            snprintf(dirs[i % 4], sizeof dirs[0], "d%d", i % 4);
            if (i < 4)
                add(f, (struct trace_call){.kind = TK_MKDIR, .path = dirs[i % 4]});
            snprintf(paths[i], sizeof paths[0], "d%d/f%d", i % 4, i);
            const char *path = paths[i];
            add(f, (struct trace_call){.kind = TK_OPEN, .thread = 0, .path = path,
                                       .flags = CREAT, .result = 0});
            add(f, (struct trace_call){.kind = TK_WRITE, .thread = 0, .slot = 0, .size = 100,
                                       .result = 100});
            add(f, (struct trace_call){.kind = TK_CLOSE, .thread = 0, .slot = 0});
            add(f, (struct trace_call){.kind = TK_OPEN, .thread = 1, .path = path, .result = 1});
            add(f, (struct trace_call){.kind = TK_READ, .thread = 1, .slot = 1, .size = 1000,
                                       .result = 100});
            add(f, (struct trace_call){.kind = TK_CLOSE, .thread = 1, .slot = 1});
            if (i % 3 == 0)
                add(f, (struct trace_call){.kind = TK_UNLINK, .thread = 1, .path = path});
        }
        add(f, (struct trace_call){.kind = TK_EXIT, .thread = 1});
        finish(f, NULL, 0);
        assert_int_equal(replay(f), 0);
        if (!strstr(f->res.note, "on 2 threads (afap), none diverged"))
            fail_msg("round %d: %s", round, f->res.note);
    }
}

static void test_original_timing(void **state)
{
    struct fix *f = *state;
    begin(f, 1, 0);
    add(f, (struct trace_call){.kind = TK_STAT, .path = ".", .start_ns = 1000});
    /* 300 ms of think time between the two (spent spinning); afap's bound below leaves
     * room for a loaded machine under the sanitizers */
    add(f, (struct trace_call){.kind = TK_STAT, .path = ".", .start_ns = 1000 + 100 + 300000000});
    finish(f, NULL, 0);
    f->params.replay_timing = REPLAY_ORIGINAL;
    uint64_t t0 = meas_now_ns();
    assert_int_equal(replay(f), 0);
    double s = (double)(meas_now_ns() - t0) / 1e9;
    assert_true(s >= 0.295);
    assert_non_null(strstr(f->res.note, "(original)"));
    /* afap: no wait */
    begin(f, 1, 0);
    add(f, (struct trace_call){.kind = TK_STAT, .path = ".", .start_ns = 1000});
    add(f, (struct trace_call){.kind = TK_STAT, .path = ".", .start_ns = 1000 + 100 + 300000000});
    finish(f, NULL, 0);
    f->params.replay_timing = REPLAY_AFAP;
    t0 = meas_now_ns();
    assert_int_equal(replay(f), 0);
    assert_true((double)(meas_now_ns() - t0) / 1e9 < 0.25);
}

/* The dependencies the dispatcher gives: calls of two replay threads (each its own
 * recorded thread), in trace order. */
struct depfix {
    struct trace_info info;
    struct replay rp;
    struct rp_thread th[RP_READERS_MAX + 2];
    uint64_t pos[RP_READERS_MAX + 2];
    char arena[256];
};

static void depfix_init_n(struct depfix *d, unsigned n)
{
    memset(d, 0, sizeof *d);
    d->info.nthreads = n;
    d->info.nslots = 4;
    d->rp.info = &d->info;
    d->rp.nthreads = n;
    d->rp.nslots = d->info.nslots * 2 + 256;
    d->rp.th = d->th;
    assert_int_equal(rp_deps_init(&d->rp), 0);
}

static void depfix_init(struct depfix *d)
{
    depfix_init_n(d, 2);
}

/* Dispatches a call of thread t (slots renamed as the dispatcher does): its deps' count;
 * the first dep's thread in *on (when any). */
static int dep(struct depfix *d, unsigned t, struct rp_call c, const char *path, unsigned *on)
{
    c.rthread = t;
    c.path = c.path2 = UINT32_MAX;
    if (path) {
        snprintf(d->arena, sizeof d->arena, "%s", path);
        c.path = 0;
        c.path_len = (uint32_t)strlen(path);
    }
    rp_slots_rename(&d->rp, c.kind, &c.slot, &c.slot2, &c.result);
    uint64_t out[8];
    int n = rp_deps_of(&d->rp, &c, d->arena, t, d->pos[t]++, out, 8);
    assert_true(n >= 0);
    if (n > 0 && on)
        *on = RP_DEP_THREAD(out[0]);
    return n;
}

static void test_deps(void **state)
{
    (void)state;
    struct depfix d;
    depfix_init(&d);
    unsigned on = 9;
    /* thread 0 opens and closes slot 0; thread 1 then opens slot 0 too: a descriptor of
     * its own, no wait for thread 0's close */
    assert_int_equal(dep(&d, 0, (struct rp_call){.kind = TK_OPEN, .flags = CREAT, .result = 0},
                         "d/x", NULL),
                     0);
    assert_int_equal(dep(&d, 0, (struct rp_call){.kind = TK_CLOSE, .slot = 0}, NULL, NULL), 0);
    assert_int_equal(dep(&d, 1, (struct rp_call){.kind = TK_OPEN, .result = 0}, "e/y", NULL), 0);
    /* a lookup of another name in d: no wait for the create of d/x */
    assert_int_equal(dep(&d, 1, (struct rp_call){.kind = TK_STAT}, "d/z", NULL), 0);
    /* the same name: waits for thread 0 */
    assert_int_equal(dep(&d, 1, (struct rp_call){.kind = TK_STAT}, "d/x", &on), 1);
    assert_int_equal(on, 0);
    /* d's listing waits for the change of its names */
    rp_deps_free(&d.rp);
    depfix_init(&d);
    dep(&d, 0, (struct rp_call){.kind = TK_OPEN, .flags = CREAT, .result = 0}, "d/x", NULL);
    assert_int_equal(dep(&d, 1, (struct rp_call){.kind = TK_OPEN, .result = 1, .flags = TRO_DIRECTORY},
                         "d", NULL),
                     0);
    on = 9;
    assert_int_equal(dep(&d, 1, (struct rp_call){.kind = TK_GETDENTS, .slot = 1, .size = 4096},
                         NULL, &on),
                     1);
    assert_int_equal(on, 0);
    /* removing d waits for the names made in it */
    rp_deps_free(&d.rp);
    depfix_init(&d);
    dep(&d, 0, (struct rp_call){.kind = TK_UNLINK}, "d/x", NULL);
    on = 9;
    assert_int_equal(dep(&d, 1, (struct rp_call){.kind = TK_RMDIR}, "d", &on), 1);
    assert_int_equal(on, 0);
    rp_deps_free(&d.rp);
}

/* Dispatches a call of thread t with no path: its deps in out (at most 8); their count. */
static int deps_out(struct depfix *d, unsigned t, struct rp_call c, uint64_t *out)
{
    c.rthread = t;
    c.path = c.path2 = UINT32_MAX;
    int n = rp_deps_of(&d->rp, &c, d->arena, t, d->pos[t]++, out, 8);
    assert_true(n >= 0);
    return n;
}

/* Pipes and socket pairs (format 3): a read waits for the writes of the bytes it got, not
 * for every call before it; a wait for the child's last call. */
static void test_chan_deps(void **state)
{
    (void)state;
    struct depfix d;
    depfix_init(&d);
    uint64_t out[8];
    struct rp_call w8 = {.kind = TK_CHAN, .off = 7, .size = 8, .flags = TRP_WRITE};
    /* thread 0: two writes of 8 bytes (positions 0, 1), then a create (2) */
    assert_int_equal(deps_out(&d, 0, w8, out), 0);
    assert_int_equal(deps_out(&d, 0, w8, out), 0);
    assert_int_equal(dep(&d, 0, (struct rp_call){.kind = TK_MKDIR}, "a", NULL), 0);
    /* thread 1 reads 4 bytes: the first write's, not the mkdir after it */
    assert_int_equal(deps_out(&d, 1, (struct rp_call){.kind = TK_CHAN, .off = 7, .size = 4}, out), 1);
    assert_int_equal(out[0], RP_DEP(0, 0));
    /* 8 more (to 12): the rest of the first write and the second's first 4: the second */
    assert_int_equal(deps_out(&d, 1, (struct rp_call){.kind = TK_CHAN, .off = 7, .size = 8}, out), 1);
    assert_int_equal(out[0], RP_DEP(0, 1));
    /* the other pipe's bytes, and a socket of the same inode number: no write to wait for */
    assert_int_equal(deps_out(&d, 1, (struct rp_call){.kind = TK_CHAN, .off = 8, .size = 4}, out), 0);
    assert_int_equal(deps_out(&d, 1, (struct rp_call){.kind = TK_CHAN, .off = 7, .size = 4,
                                                      .flags = TRP_SOCKET}, out), 0);
    /* a wait for thread 0 (ended): after its last call, the mkdir */
    assert_int_equal(deps_out(&d, 1, (struct rp_call){.kind = TK_WAIT, .aux = 0}, out), 1);
    assert_int_equal(out[0], RP_DEP(0, 2));
    rp_deps_free(&d.rp);
    /* a socket pair's write on the socket side: read by the same channel's reader */
    depfix_init(&d);
    struct rp_call sw = {.kind = TK_CHAN, .off = 9, .size = 100, .flags = TRP_WRITE | TRP_SOCKET};
    assert_int_equal(deps_out(&d, 0, sw, out), 0);
    assert_int_equal(deps_out(&d, 1, (struct rp_call){.kind = TK_CHAN, .off = 9, .size = 100,
                                                      .flags = TRP_SOCKET}, out), 1);
    assert_int_equal(out[0], RP_DEP(0, 0));
    /* a read of bytes written before the trace began (none kept): nothing to wait for */
    assert_int_equal(deps_out(&d, 1, (struct rp_call){.kind = TK_CHAN, .off = 9, .size = 50,
                                                      .flags = TRP_SOCKET}, out), 0);
    rp_deps_free(&d.rp);
}

/* make -j2: six replay threads (compilers side by side) each look names up in "." while
 * the others' lookups have not run yet: none waits for another (with four shared users
 * kept per resource the fifth was made exclusive and every later lookup waited for it,
 * the processes one after the other); a change of "." still waits for them all. Past
 * RP_READERS_MAX threads at once a reader is made exclusive (more order, never less). */
static void test_shared_readers(void **state)
{
    (void)state;
    struct depfix d;
    depfix_init_n(&d, 6);
    uint64_t out[8];
    for (int round = 0; round < 3; round++)
        for (unsigned t = 0; t < 6; t++) {
            char name[16];
            snprintf(name, sizeof name, "f%u.c", t);
            assert_int_equal(dep(&d, t, (struct rp_call){.kind = TK_STAT}, name, NULL), 0);
            assert_int_equal(dep(&d, t, (struct rp_call){.kind = TK_STAT}, ".", NULL), 0);
        }
    /* a chmod of "." by thread 0: after the lookups of the five others */
    struct rp_call ch = {.kind = TK_CHMOD, .rthread = 0, .path = 0, .path2 = UINT32_MAX,
                         .path_len = 1};
    snprintf(d.arena, sizeof d.arena, ".");
    assert_int_equal(rp_deps_of(&d.rp, &ch, d.arena, 0, d.pos[0]++, out, 8), 5);
    rp_deps_free(&d.rp);
    /* one thread more than the resource keeps: the last reader orders after the others */
    unsigned n = RP_READERS_MAX + 1;
    depfix_init_n(&d, n);
    for (unsigned t = 0; t + 1 < n; t++)
        assert_int_equal(dep(&d, t, (struct rp_call){.kind = TK_STAT}, "x", NULL), 0);
    uint64_t many[RP_READERS_MAX + 2];
    struct rp_call st = {.kind = TK_STAT, .rthread = n - 1, .path = 0, .path2 = UINT32_MAX,
                         .path_len = 1};
    snprintf(d.arena, sizeof d.arena, "x");
    assert_int_equal(rp_deps_of(&d.rp, &st, d.arena, n - 1, d.pos[n - 1]++, many,
                                RP_READERS_MAX + 2),
                     RP_READERS_MAX);
    rp_deps_free(&d.rp);
}

/* make -j2: each job's assembler creates its own .o in "." (two replay threads): the
 * creates of different names do not wait for one another (they did, in the trace's order,
 * and the replay's jobs ran in step); a listing of "." waits for both, and a create after
 * the listing waits for it; a create of the same name still waits for the other's. */
static void test_names_commute(void **state)
{
    (void)state;
    struct depfix d;
    depfix_init_n(&d, 3);
    unsigned on = 9;
    struct rp_call cr = {.kind = TK_OPEN, .flags = CREAT, .result = 0};
    assert_int_equal(dep(&d, 0, cr, "f1.o", NULL), 0);
    assert_int_equal(dep(&d, 0, (struct rp_call){.kind = TK_CLOSE, .slot = 0}, NULL, NULL), 0);
    assert_int_equal(dep(&d, 1, cr, "f2.o", NULL), 0);
    assert_int_equal(dep(&d, 1, (struct rp_call){.kind = TK_CLOSE, .slot = 0}, NULL, NULL), 0);
    assert_int_equal(dep(&d, 1, (struct rp_call){.kind = TK_UNLINK}, "old.o", NULL), 0);
    /* thread 2 lists ".": after the creates of both */
    assert_int_equal(dep(&d, 2, (struct rp_call){.kind = TK_OPEN, .result = 1,
                                                 .flags = TRO_DIRECTORY},
                         ".", NULL),
                     0);
    assert_int_equal(dep(&d, 2, (struct rp_call){.kind = TK_GETDENTS, .slot = 1, .size = 4096},
                         NULL, NULL),
                     2);
    /* a create after the listing: after it */
    assert_int_equal(dep(&d, 0, cr, "f3.o", &on), 1);
    assert_int_equal(on, 2);
    /* the same name as another thread's: after that one (and the listing) */
    on = 9;
    assert_int_equal(dep(&d, 1, cr, "f3.o", &on), 2);
    assert_int_equal(on, 0);
    rp_deps_free(&d.rp);
}

static void test_null_engine(void **state)
{
    struct fix *f = *state;
    begin(f, 1, 1);
    add(f, (struct trace_call){.kind = TK_MKDIR, .path = "x"});
    add(f, (struct trace_call){.kind = TK_OPEN, .path = "x/y", .flags = CREAT, .result = 0});
    add(f, (struct trace_call){.kind = TK_CLOSE, .slot = 0});
    const char *st[] = {"d:pre"};
    finish(f, st, 1);
    f->ctx.eng = &engine_null;
    assert_int_equal(replay(f), 0);
    assert_int_equal(ops(f, OP_MKDIR), 1);
    assert_int_equal(ops(f, OP_CREATE), 1);
    int t = tree(f);
    assert_true(t < 0); /* nothing made: not even the tree */
    f->ctx.eng = &engine_posix;
}

/* The replay's own machinery is made ready by setup, before the phase's clocks start: setup
 * leaves it armed (its threads started, the calls' stream open) and makes no call; the
 * phase takes it. One armed and not run is stopped and freed (disarm); a phase run without
 * setup (trace replay --part calls) arms itself. */
static void test_armed(void **state)
{
    struct fix *f = *state;
    begin(f, 2, 2);
    add(f, (struct trace_call){.kind = TK_SPAWN, .thread = 1, .aux = 0});
    add(f, (struct trace_call){.kind = TK_MKDIR, .thread = 0, .path = "a"});
    add(f, (struct trace_call){.kind = TK_OPEN, .thread = 1, .path = "a/f", .flags = CREAT,
                               .result = 1});
    add(f, (struct trace_call){.kind = TK_CLOSE, .thread = 1, .slot = 1});
    add(f, (struct trace_call){.kind = TK_EXIT, .thread = 1});
    const char *st[] = {"d:pre"};
    finish(f, st, 1);
    memset(&f->res, 0, sizeof f->res);
    assert_int_equal(phase_replay_setup(&f->ctx), 0);
    struct replay *rp = f->ctx.replay_armed;
    assert_non_null(rp);
    assert_int_equal(rp->started, 2);
    assert_non_null(rp->calls);
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL); /* threads that ran ahead would have made a call by now */
    assert_int_equal(ops(f, OP_MKDIR) + ops(f, OP_CREATE) + ops(f, OP_CLOSE), 0);
    int t = tree(f);
    struct stat sb;
    assert_int_equal(fstatat(t, "a", &sb, AT_SYMLINK_NOFOLLOW), -1);
    assert_int_equal(phase_replay(&f->ctx), 0);
    assert_null(f->ctx.replay_armed);
    assert_non_null(strstr(f->res.note, "on 2 threads (afap), none diverged"));
    assert_int_equal(ops(f, OP_MKDIR), 1);
    assert_int_equal(ops(f, OP_CREATE), 1);
    assert_int_equal(fstatat(t, "a/f", &sb, AT_SYMLINK_NOFOLLOW), 0);
    close(t);
    /* armed, then not run: stopped, freed (the sanitizers' build finds a leak or a thread
     * left), nothing made */
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/tree", f->dir);
    tu_rm_tree(dir);
    memset(&f->res, 0, sizeof f->res);
    for (int i = 0; i < NW; i++)
        opstats_reset(&f->st[i]);
    assert_int_equal(phase_replay_setup(&f->ctx), 0);
    assert_non_null(f->ctx.replay_armed);
    phase_replay_disarm(&f->ctx);
    assert_null(f->ctx.replay_armed);
    phase_replay_disarm(&f->ctx); /* none armed: nothing */
    assert_int_equal(ops(f, OP_MKDIR), 0);
    t = tree(f);
    assert_int_equal(fstatat(t, "pre", &sb, AT_SYMLINK_NOFOLLOW), 0); /* the state laid */
    assert_int_equal(fstatat(t, "a", &sb, AT_SYMLINK_NOFOLLOW), -1);
    /* the phase alone, on the state laid: it arms itself */
    assert_int_equal(phase_replay(&f->ctx), 0);
    assert_non_null(strstr(f->res.note, "none diverged"));
    assert_int_equal(fstatat(t, "a/f", &sb, AT_SYMLINK_NOFOLLOW), 0);
    close(t);
    trace_close(f->params.replay);
    f->params.replay = NULL;
}

/* This process's bytes read by read calls (/proc/self/io's rchar), or -1 unknown. */
static long long rchar_now(void)
{
    FILE *io = fopen("/proc/self/io", "r");
    long long v = -1;
    char line[128];
    while (io && fgets(line, sizeof line, io))
        if (sscanf(line, "rchar: %lld", &v) == 1)
            break;
    if (io)
        fclose(io);
    return v;
}

/* cvs maps each ,v file it reads: the replay maps it too, its pages faulted in (the
 * kernel's work of a map, its faults and its unmap), and reads none of it with read. */
static void test_mapped_read(void **state)
{
    struct fix *f = *state;
    if (rchar_now() < 0)
        skip();
    enum { SIZE = 1 << 20 };
    begin(f, 1, 1);
    add(f, (struct trace_call){.kind = TK_OPEN, .path = "in/data,v", .result = 0});
    for (int i = 0; i < 3; i++)
        add(f, (struct trace_call){.kind = TK_MMAP, .slot = 0, .size = SIZE,
                                   .flags = TRM_READ | TRM_WRITE});
    add(f, (struct trace_call){.kind = TK_CLOSE, .slot = 0});
    const char *st[] = {"d:in", "f:in/data,v:1048576"};
    finish(f, st, 2);
    long long before = rchar_now();
    assert_int_equal(replay(f), 0);
    long long read_by_calls = rchar_now() - before;
    assert_non_null(strstr(f->res.note, "none diverged"));
    assert_int_equal(ops(f, OP_READ), 3);
    /* the trace and the tree's set-up read a little; three reads of the map, 3 MiB */
    assert_true(read_by_calls < SIZE / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_basic),     T(test_divergence),      T(test_no_escape),   T(test_rename_dir),
        T(test_threads),   T(test_original_timing), T(test_null_engine), T(test_deps),
        T(test_chan_deps), T(test_shared_readers),  T(test_armed),
        T(test_names_commute),
        T(test_mapped_read),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
