/* compilebench.c — a model of Chris Mason's compilebench (seed 001: "Try Chris
 * Mason's compilebench, which is a decent aging simulation"): its operations and their
 * per-kind totals. The phases (cb_initial, cb_random) are in phase_compilebench.c.
 *
 * The model. compilebench (Python, oss.oracle.com/~mason/compilebench) describes a Linux
 * 2.6.20 tree in four states (clean, compiled, patched to 2.6.21, patched and compiled) as
 * lists of names and sizes. It creates -i copies of the clean tree in kernel-N directories
 * ("initial create"), then runs -r operations, each picked at random and applied to a random
 * tree: create a new tree, patch, compile, clean, read tree, read compiled tree, delete
 * tree, delete compiled tree, stat tree, stat compiled tree. Per kind it prints the runs and
 * the average, MB/s for the kinds that move data and seconds for delete and stat, with the
 * user and system time: "create total runs 5 avg 15.64 MB/s (user 1.08s sys 1.97s)".
 *
 * Here (written from that description, no code taken):
 *  - A tree is the run's tree spec (ctx->tree; the scenario should pass the kernel profile
 *    at WL_CB_KERNEL_SCALE, about a 2.6.20 checkout) created by phase_extract_into in
 *    "tree/kernel-N", so the runner's cleanup removes it. Every tree is the same bytes, as
 *    compilebench's copies are.
 *  - patch (adapted: no second data set): in name order, each source file is rewritten at
 *    1-3 random offsets (1-4096 bytes each) with probability 6%, appended to (1-8 KiB) with
 *    2%, deleted with 1%; each directory gets a new file "patch<hex>.c" sized from the
 *    profile with probability 20%. About 10% of the files change, as a point release does.
 *  - compile: every .c and .S gets a ".o" beside it of 1/2 to 1x its size (at least 1 KiB,
 *    an empty ELF object), the factor a hash of the seed and the path, so every compile of
 *    the same tree writes the same bytes; each top-level directory gets a "built-in.o" of
 *    half its objects' bytes and the tree root a "vmlinux.o" of half of all (at most
 *    256 MiB each): the few large link outputs. A tree is "compiled" when its vmlinux.o
 *    exists.
 *  - clean: removes every "*.o" (make clean); bytes are the removed files' sizes.
 *  - read tree / read compiled tree: read every file; stat: readdir + lstat of every entry;
 *    delete: rm -rf of the tree.
 *  - The kind is drawn with equal weights (adapted: compilebench's own weights are not
 *    reproduced; seed 001's 30 runs, 5 4 7 4 2 1 2 0 4 1 over the ten kinds, fit equal
 *    weights) and redrawn when no tree fits it: clean and the "compiled" kinds need a
 *    compiled tree, read/stat/delete tree an uncompiled one, and deletes never remove the
 *    last tree (so the population lives on).
 *  - MB are 2^20 bytes; averages are total bytes / total seconds per kind (seconds per run
 *    for delete and stat); user/sys come from os_thread_rusage around each run (0 where the system has none).
 * Directory listings are sorted by name (wl_walk), so the same seed changes the same files
 * on every file system.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "measure/measure.h"
#include "os/cputime.h"
#include "phase/workload.h"

#define CB_LINK_MAX (256ull << 20)
#define CB_OBJ_MIN 1024

static const char *const kind_names[CB_KINDS] = {
    "initial create",
    "create",
    "patch",
    "compile",
    "clean",
    "read tree",
    "read compiled tree",
    "delete tree",
    "delete compiled tree",
    "stat tree",
    "stat compiled tree",
};

/* Relative weights of the random kinds (index CB_CREATE..CB_STAT_COMPILED). */
const char *cb_kind_name(enum cb_kind k)
{
    return (unsigned)k < CB_KINDS ? kind_names[k] : "?";
}

bool cb_kind_is_throughput(enum cb_kind k)
{
    return !(k == CB_DELETE || k == CB_DELETE_COMPILED || k == CB_STAT || k == CB_STAT_COMPILED);
}

double cb_kind_avg(const struct cb_kind_total *t, enum cb_kind k)
{
    if (t->runs == 0)
        return 0;
    if (!cb_kind_is_throughput(k))
        return t->seconds / (double)t->runs;
    return t->seconds > 0 ? (double)t->bytes / 1048576.0 / t->seconds : 0;
}

int compilebench_format(const struct cb_summary *s, char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    for (int k = 0; k < CB_KINDS; k++) {
        const struct cb_kind_total *t = &s->k[k];
        char line[160];
        if (t->runs == 0)
            snprintf(line, sizeof line, "no runs for %s\n", kind_names[k]);
        else
            snprintf(line, sizeof line, "%s total runs %llu avg %.2f %s (user %.2fs sys %.2fs)\n",
                     kind_names[k], (unsigned long long)t->runs, cb_kind_avg(t, k),
                     cb_kind_is_throughput(k) ? "MB/s" : "seconds", t->user_s, t->sys_s);
        size_t l = strlen(line);
        if (n + l < len)
            memcpy(buf + n, line, l + 1);
        n += l;
    }
    return (int)n;
}

/* ---- measuring one operation ---- */

struct meter {
    uint64_t t0, rd0, wr0;
    struct rusage ru0;
};

static void meter_start(struct phase_ctx *ctx, struct meter *m)
{
    os_thread_rusage(&m->ru0);
    m->rd0 = ctx->w->st->bytes_read;
    m->wr0 = ctx->w->st->bytes_written;
    m->t0 = meas_now_ns();
}

static double tv_s(struct timeval a, struct timeval b)
{
    return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_usec - a.tv_usec) / 1e6;
}

/* Adds the operation to kind k of sum; `bytes` of UINT64_MAX means "what the engine
 * counted" (read for the read kinds, written otherwise). */
static void meter_stop(struct phase_ctx *ctx, const struct meter *m, enum cb_kind k, uint64_t bytes,
                       struct cb_summary *sum)
{
    uint64_t t1 = meas_now_ns();
    struct rusage ru;
    os_thread_rusage(&ru);
    if (!sum)
        return;
    struct cb_kind_total *t = &sum->k[k];
    if (bytes == UINT64_MAX)
        bytes = (k == CB_READ || k == CB_READ_COMPILED) ? ctx->w->st->bytes_read - m->rd0
                                                        : ctx->w->st->bytes_written - m->wr0;
    t->runs++;
    t->bytes += bytes;
    t->seconds += (double)(t1 - m->t0) / 1e9;
    t->user_s += tv_s(m->ru0.ru_utime, ru.ru_utime);
    t->sys_s += tv_s(m->ru0.ru_stime, ru.ru_stime);
}

/* ---- the operations ---- */

struct op {
    struct phase_ctx *ctx;
    struct wl_rng rng;
    size_t root_len;    /* length of "tree/kernel-N" in walker paths */
    uint64_t obj_total; /* compile: bytes of objects so far */
    uint64_t obj_mark;  /* compile: obj_total when the current top-level dir began */
    uint64_t removed;   /* clean: bytes removed */
};

static bool has_suffix(const char *name, const char *suf)
{
    size_t n = strlen(name), s = strlen(suf);
    return n > s && memcmp(name + n - s, suf, s) == 0;
}

static int fail_at(struct phase_ctx *ctx, const char *op, const char *path, const char *name,
                   int rc)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", path, name);
    return phase_fail(ctx, op, p, rc);
}

static int create_tree(struct phase_ctx *ctx, int tdir, const char *name, const char *path)
{
    const struct engine *e = ctx->eng;
    int rc = e->mkdir(ctx->w, tdir, name, 0755);
    if (rc < 0)
        return phase_fail(ctx, "mkdir", path, rc);
    int fd = e->opendir(ctx->w, tdir, name);
    if (fd < 0)
        return phase_fail_dir(ctx, "open", path, fd);
    rc = phase_extract_into(ctx, fd);
    e->close(ctx->w, fd);
    return rc;
}

static int patch_file(struct op *o, int dirfd, const char *path, const char *name, uint64_t size,
                      unsigned action)
{
    struct phase_ctx *ctx = o->ctx;
    const struct engine *e = ctx->eng;
    if (action == 2) {
        int rc = e->unlink(ctx->w, dirfd, name, 0);
        return rc < 0 ? fail_at(ctx, "unlink", path, name, rc) : 0;
    }
    if (size == 0)
        action = 1;
    int fd = e->open(ctx->w, dirfd, name, O_WRONLY | O_NOFOLLOW | (action == 1 ? O_APPEND : 0), 0);
    if (fd < 0)
        return fail_at(ctx, "open", path, name, fd);
    int rc = 0;
    if (action == 1) {
        rc = wl_write_pattern(ctx, fd, 1 + wl_rng_below(&o->rng, 8192), wl_rng_next(&o->rng));
    } else {
        unsigned k = 1 + (unsigned)wl_rng_below(&o->rng, 3);
        for (unsigned i = 0; i < k && rc == 0; i++) {
            size_t len = 1 + (size_t)wl_rng_below(&o->rng, 4096);
            uint64_t off = wl_rng_below(&o->rng, size);
            const unsigned char *p = wl_pattern() + wl_rng_below(&o->rng, WL_PATTERN_LEN - len);
            long r = e->pwrite(ctx->w, fd, p, len, off);
            rc = r < 0 ? (int)r : 0;
        }
    }
    int rc2 = e->close(ctx->w, fd);
    if (rc == 0)
        rc = rc2;
    return rc < 0 ? fail_at(ctx, action == 1 ? "append" : "write", path, name, rc) : 0;
}

static int patch_visit(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                       unsigned depth, void *arg)
{
    struct op *o = arg;
    for (size_t i = 0; i < l->n; i++) {
        if (phase_check_interrupt(ctx))
            return -1;
        const char *name = wl_name(l, i);
        if (l->ent[i].type != DT_REG || has_suffix(name, ".o"))
            continue;
        unsigned r = (unsigned)wl_rng_below(&o->rng, 1000);
        unsigned action = r < 60 ? 0 : r < 80 ? 1 : r < 90 ? 2 : 3;
        if (action == 3)
            continue;
        if (patch_file(o, dirfd, path, name, l->ent[i].size, action) < 0)
            return -1;
        ctx->res->files++;
    }
    if (wl_rng_below(&o->rng, 100) < 20) {
        char name[32];
        snprintf(name, sizeof name, "patch%08llx.c",
                 (unsigned long long)(wl_rng_next(&o->rng) & 0xffffffffu));
        uint64_t size = wl_profile_size(ctx->tree->prof, &o->rng);
        size_t off = (size_t)wl_rng_below(&o->rng, 4096);
        int rc = ctx->eng->create_file(ctx->w, dirfd, name, 0644, wl_pattern() + off,
                                       WL_PATTERN_LEN - off, size, ENG_CREATE_EXCL);
        if (rc < 0 && rc != -EEXIST)
            return fail_at(ctx, "create", path, name, rc);
        if (rc == 0)
            ctx->res->files++;
    }
    return 0;
}

/* Creates object or link output `name` of `size` bytes, its content chosen by salt. */
static int write_obj(struct phase_ctx *ctx, int dirfd, const char *path, const char *name,
                     uint64_t size, uint64_t salt)
{
    size_t off = (size_t)(salt % 4096);
    int rc = ctx->eng->create_file(ctx->w, dirfd, name, 0644, wl_pattern() + off,
                                   WL_PATTERN_LEN - off, size, 0);
    if (rc < 0)
        return fail_at(ctx, "create", path, name, rc);
    ctx->res->files++;
    return 0;
}

static int compile_visit(struct phase_ctx *ctx, int dirfd, const char *path,
                         const struct wl_list *l, unsigned depth, void *arg)
{
    struct op *o = arg;
    if (depth == 1)
        o->obj_mark = o->obj_total;
    for (size_t i = 0; i < l->n; i++) {
        const char *name = wl_name(l, i);
        if (l->ent[i].type != DT_REG || !(has_suffix(name, ".c") || has_suffix(name, ".S")))
            continue;
        if (phase_check_interrupt(ctx))
            return -1;
        char obj[NAME_MAX + 1];
        size_t stem = strlen(name) - 2;
        if (stem + 3 > NAME_MAX)
            continue;
        snprintf(obj, sizeof obj, "%.*s.o", (int)stem, name);
        uint64_t h = wl_hash_str(wl_hash_str(WL_HASH_INIT ^ ctx->seed, path + o->root_len), name);
        double f = 0.5 + 0.5 * (double)(wl_mix64(h) >> 11) * 0x1p-53;
        uint64_t size = (uint64_t)((double)l->ent[i].size * f);
        if (size < CB_OBJ_MIN)
            size = CB_OBJ_MIN;
        if (write_obj(ctx, dirfd, path, obj, size, h) < 0)
            return -1;
        o->obj_total += size;
    }
    return 0;
}

static int compile_leave(struct phase_ctx *ctx, int dirfd, const char *path,
                         const struct wl_list *l, unsigned depth, void *arg)
{
    struct op *o = arg;
    uint64_t objs = depth == 1 ? o->obj_total - o->obj_mark : depth == 0 ? o->obj_total : 0;
    if (depth > 1 || (depth == 1 && objs == 0))
        return 0;
    uint64_t size = objs / 2 < CB_OBJ_MIN ? CB_OBJ_MIN : objs / 2;
    if (size > CB_LINK_MAX)
        size = CB_LINK_MAX;
    return write_obj(ctx, dirfd, path, depth == 0 ? "vmlinux.o" : "built-in.o", size,
                     wl_hash_str(ctx->seed, path + o->root_len));
}

static int clean_visit(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                       unsigned depth, void *arg)
{
    struct op *o = arg;
    for (size_t i = 0; i < l->n; i++) {
        if (phase_check_interrupt(ctx))
            return -1;
        const char *name = wl_name(l, i);
        if (l->ent[i].type != DT_REG || !has_suffix(name, ".o"))
            continue;
        int rc = ctx->eng->unlink(ctx->w, dirfd, name, 0);
        if (rc < 0)
            return fail_at(ctx, "unlink", path, name, rc);
        o->removed += l->ent[i].size;
        ctx->res->files++;
    }
    return 0;
}

static int read_visit(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                      unsigned depth, void *arg)
{
    for (size_t i = 0; i < l->n; i++) {
        if (phase_check_interrupt(ctx))
            return -1;
        if (l->ent[i].type != DT_REG)
            continue;
        uint64_t got;
        int rc = ctx->eng->read_file(ctx->w, dirfd, wl_name(l, i), ctx->buf, ctx->buflen, &got);
        if (rc < 0)
            return fail_at(ctx, "read", path, wl_name(l, i), rc);
        ctx->res->files++;
    }
    return 0;
}

static int count_visit(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                       unsigned depth, void *arg)
{
    for (size_t i = 0; i < l->n; i++) {
        if (phase_check_interrupt(ctx))
            return -1;
        if (l->ent[i].type == DT_LNK)
            ctx->res->symlinks++;
        else if (l->ent[i].type != DT_DIR)
            ctx->res->files++;
    }
    return 0;
}

static int delete_visit(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                        unsigned depth, void *arg)
{
    for (size_t i = 0; i < l->n; i++) {
        if (phase_check_interrupt(ctx))
            return -1;
        if (l->ent[i].type == DT_DIR)
            continue;
        int rc = ctx->eng->unlink(ctx->w, dirfd, wl_name(l, i), 0);
        if (rc < 0)
            return fail_at(ctx, "unlink", path, wl_name(l, i), rc);
        if (l->ent[i].type == DT_LNK)
            ctx->res->symlinks++;
        else
            ctx->res->files++;
    }
    return 0;
}

int compilebench_run(struct phase_ctx *ctx, int tdir, enum cb_kind k, enum cb_kind as,
                     unsigned tree, uint64_t opseed, struct cb_summary *sum)
{
    char name[32], path[64];
    snprintf(name, sizeof name, WL_CB_PREFIX "%u", tree);
    snprintf(path, sizeof path, PHASE_TREE_DIR "/%s", name);
    struct op o = {.ctx = ctx, .root_len = strlen(path)};
    wl_rng_seed(&o.rng, ctx->seed, opseed);
    struct wl_walk wk = {.count_dirs = true, .arg = &o};
    uint64_t bytes = UINT64_MAX;
    struct meter m;
    int rc;

    meter_start(ctx, &m);
    switch (k) {
    case CB_INITIAL:
    case CB_CREATE:
        rc = create_tree(ctx, tdir, name, path);
        break;
    case CB_PATCH:
        wk.visit = patch_visit;
        wk.stat_all = true;
        rc = wl_walk(ctx, tdir, name, path, &wk);
        break;
    case CB_COMPILE:
        wk.visit = compile_visit;
        wk.leave = compile_leave;
        wk.stat_all = true;
        rc = wl_walk(ctx, tdir, name, path, &wk);
        break;
    case CB_CLEAN:
        wk.visit = clean_visit;
        wk.stat_all = true;
        rc = wl_walk(ctx, tdir, name, path, &wk);
        bytes = o.removed;
        break;
    case CB_READ:
    case CB_READ_COMPILED:
        wk.visit = read_visit;
        rc = wl_walk(ctx, tdir, name, path, &wk);
        break;
    case CB_STAT:
    case CB_STAT_COMPILED:
        wk.visit = count_visit;
        wk.stat_all = true;
        rc = wl_walk(ctx, tdir, name, path, &wk);
        bytes = 0;
        break;
    case CB_DELETE:
    case CB_DELETE_COMPILED:
        wk.visit = delete_visit;
        wk.rmdirs = true;
        rc = wl_walk(ctx, tdir, name, path, &wk);
        if (rc == 0) {
            int r = ctx->eng->unlink(ctx->w, tdir, name, AT_REMOVEDIR);
            if (r < 0)
                rc = phase_fail(ctx, "rmdir", path, r);
        }
        bytes = 0;
        break;
    default:
        return phase_fail(ctx, "compilebench", path, -EINVAL);
    }
    if (rc == 0) {
        int d = ctx->eng->drain(ctx->w);
        if (d < 0)
            rc = phase_fail(ctx, cb_kind_name(k), path, d);
    }
    if (rc == 0)
        meter_stop(ctx, &m, as, bytes, sum);
    return rc;
}

int compilebench_open_trees(struct phase_ctx *ctx)
{
    int rc = wl_mkdir_p(ctx, ctx->ws_fd, PHASE_TREE_DIR);
    if (rc < 0)
        return phase_fail(ctx, "mkdir", PHASE_TREE_DIR, rc);
    int fd = ctx->eng->opendir(ctx->w, ctx->ws_fd, PHASE_TREE_DIR);
    if (fd < 0)
        return phase_fail_dir(ctx, "open", PHASE_TREE_DIR, fd);
    return fd;
}

int compilebench_op(struct phase_ctx *ctx, enum cb_kind k, unsigned tree, struct cb_summary *sum)
{
    int tdir = compilebench_open_trees(ctx);
    if (tdir < 0)
        return -1;
    int rc = compilebench_run(ctx, tdir, k, k, tree, wl_mix64(tree + 0x100u * (unsigned)k), sum);
    ctx->eng->close(ctx->w, tdir);
    return rc;
}
