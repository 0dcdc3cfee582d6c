/* compilebench.c — the operations of Chris Mason's compilebench (seed 001: "Try Chris
 * Mason's compilebench, which is a decent aging simulation") and their figures. The phases
 * (cb_initial, cb_random), which pick the operations and the trees, are in
 * phase_compilebench.c; the listings the operations follow are in cb_listing.c.
 *
 * Written from compilebench 0.6's documented method, no code taken. A tree is a directory
 * "tree/<name>" of the workspace (kernel-N, or native-N for the reference figures):
 *  - write (create, patch, compile): for each file of the listing, in the listing's order:
 *    its directories made when missing, then (patch: 1 time in 4 unlinked first) opened
 *    for appending, created if missing; patch truncates it first (compilebench's patch
 *    "reads the file it is patching", but it opens the file in Python's "a+" mode, which
 *    puts it at its end: its one read returns nothing, and so does the one made here); then
 *    its size written in pieces of the buffer size (-b, 256 KiB), every byte 'a'. The figure
 *    is the listing's bytes / the time, MB/s (MB = 2^20 bytes);
 *  - clean: unlinks each file of the listing (a file already gone is passed over), the
 *    listing's bytes / the time;
 *  - read: reads every file of the tree through the buffer, in the order the file system
 *    lists them (readdir), the bytes read / the time;
 *  - stat: stats every entry of the tree, seconds; delete: rm -rf, seconds; both bottom up,
 *    a directory's files and then its subdirectories once those are done (os.walk with
 *    topdown=False, as compilebench walks).
 * The time runs from the operation's start to the end of a sync of the file system when
 * env->sync (compilebench runs sync(1), here syncfs of the tree's file system), so the
 * writeback and, after a read, the atime updates are in it. User and system time are this
 * thread's (os_thread_rusage; 0 where the system has none).
 *
 * compilebench reads and writes through Python file objects, which make calls of their own
 * on each file: a file opened for writing ("a+") is opened read-write and then fstat'ed,
 * sought to its end, asked whether it is a terminal (an ioctl), told three times and sought
 * to its start, and told twice before it is closed (a patched file, after two tells, is
 * read once, at its end, which reads nothing, told twice, truncated and told twice before
 * that seek); one opened for reading is fstat'ed,
 * asked and told once, and each read of the buffer's size reads until the buffer is full
 * or a read returns nothing, so a file ends with two empty reads. The file system serves
 * these calls too (inode locks, attribute reads), so they are made here as well, on every
 * engine that touches the file system.
 *
 * The interpreter's own processor time (15-18 us a file written or read, 2-3 us an entry
 * stat'ed or removed, for CPython 3.11 on the machine of bench/RESULTS-compilebench.md) is
 * not the file system's, and by default is not spent. --cb-program-cpu FILE,ENTRY spends it
 * (progcpu.h): FILE before each file is written or read, ENTRY before each entry is
 * stat'ed, unlinked or removed and before a patch's read and truncate, so that the figures
 * include it as compilebench's do.
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
#include <unistd.h>

#include "measure/measure.h"
#include "os/cputime.h"
#include "phase/cb_listing.h"
#include "phase/progcpu.h"
#include "phase/workload.h"

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

static const char *const native_names[CB_NATIVES] = {
    "native unpatched",
    "native patched",
    "native patched compiled",
};

const char *cb_kind_name(enum cb_kind k)
{
    return (unsigned)k < CB_KINDS ? kind_names[k] : "?";
}

const char *cb_native_name(enum cb_native n)
{
    return (unsigned)n < CB_NATIVES ? native_names[n] : "?";
}

bool cb_kind_is_throughput(enum cb_kind k)
{
    return !(k == CB_DELETE || k == CB_DELETE_COMPILED || k == CB_STAT || k == CB_STAT_COMPILED);
}

double cb_kind_avg(const struct cb_kind_total *t, enum cb_kind k)
{
    (void)k;
    return t->runs ? t->value / (double)t->runs : 0;
}

/* One kind's line: compilebench's words, its figures averaged per run. */
static int kind_line(char *line, size_t len, const char *label, const struct cb_kind_total *t,
                     bool throughput)
{
    if (t->runs == 0)
        return snprintf(line, len, "no runs for %s\n", label);
    double r = (double)t->runs;
    return snprintf(line, len, "%s total runs %llu avg %.2f %s (user %.2fs sys %.2fs)\n", label,
                    (unsigned long long)t->runs, t->value / r, throughput ? "MB/s" : "seconds",
                    t->user_s / r, t->sys_s / r);
}

static void append(char *buf, size_t len, size_t *n, const char *s)
{
    size_t l = strlen(s);
    if (*n + l < len)
        memcpy(buf + *n, s, l + 1);
    *n += l;
}

int compilebench_format(const struct cb_summary *s, char *buf, size_t len)
{
    size_t n = 0;
    char line[200];
    if (len)
        buf[0] = '\0';
    for (int k = 0; k < CB_KINDS; k++) {
        kind_line(line, sizeof line, kind_names[k], &s->k[k], cb_kind_is_throughput(k));
        append(buf, len, &n, line);
    }
    for (int k = 0; k < CB_NATIVES; k++) {
        if (!s->native[k].runs)
            continue;
        kind_line(line, sizeof line, native_names[k], &s->native[k], true);
        append(buf, len, &n, line);
    }
    if (s->cpu_file_ns || s->cpu_entry_ns) {
        snprintf(line, sizeof line,
                 "(--cb-program-cpu: the program's own processor time included: %g us a file "
                 "written or read, %g us an entry stat'ed or removed)\n",
                 s->cpu_file_ns / 1e3, s->cpu_entry_ns / 1e3);
        append(buf, len, &n, line);
    }
    if (s->no_sync)
        append(buf, len, &n, "(--cb-no-sync: no sync in the times, caches kept)\n");
    else if (s->warm)
        append(buf, len, &n, "(caches could not be dropped: reads and stats may be warm)\n");
    return (int)n;
}

int compilebench_format_original(const struct cb_summary *s, char *buf, size_t len)
{
    size_t n = 0;
    char line[200];
    if (len)
        buf[0] = '\0';
    append(buf, len, &n, "\nrun complete:\n");
    memset(line, '=', 74);
    memcpy(line + 74, "\n", 2);
    append(buf, len, &n, line);
    for (int k = 0; k < CB_KINDS; k++) {
        /* compilebench's own labels are these names, its misspelt first one included
         * (parsers match on it) */
        const char *label = k == CB_INITIAL ? "intial create" : kind_names[k];
        kind_line(line, sizeof line, label, &s->k[k], cb_kind_is_throughput(k));
        append(buf, len, &n, line);
    }
    return (int)n;
}

/* ---- measuring one operation ---- */

struct meter {
    uint64_t t0;
    struct rusage ru0;
};

static double tv_s(struct timeval a, struct timeval b)
{
    return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_usec - a.tv_usec) / 1e6;
}

static void meter_stop(const struct meter *m, uint64_t bytes, bool throughput,
                       struct cb_kind_total *t)
{
    uint64_t t1 = meas_now_ns();
    struct rusage ru;
    os_thread_rusage(&ru);
    if (!t)
        return;
    double secs = (double)(t1 - m->t0) / 1e9;
    if (secs <= 0)
        secs = 1e-9;
    t->runs++;
    t->bytes += bytes;
    t->seconds += secs;
    t->value += throughput ? (double)bytes / 1048576.0 / secs : secs;
    t->user_s += tv_s(m->ru0.ru_utime, ru.ru_utime);
    t->sys_s += tv_s(m->ru0.ru_stime, ru.ru_stime);
}

/* ---- writing and cleaning from a listing ---- */

/* The directory of the listing's current file, open below the tree. */
struct dircache {
    int fd;
    char rel[CB_PATH_MAX + 1]; /* its path below the tree ("" the tree itself) */
};

static int fail_at(struct phase_ctx *ctx, const char *op, const char *tree, const char *rel, int rc,
                   bool dir)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, PHASE_TREE_DIR "/%s%s%s", tree, rel[0] ? "/" : "", rel);
    return dir ? phase_fail_dir(ctx, op, p, rc) : phase_fail(ctx, op, p, rc);
}

/* Makes directory rel below treefd and those above it (each by its name in its parent,
 * opened beneath the tree). 0 or -1 after phase_fail. */
static int make_dirs(struct phase_ctx *ctx, int treefd, const char *tree, const char *rel)
{
    const struct engine *e = ctx->eng;
    char part[CB_PATH_MAX + 1];
    size_t len = strlen(rel);
    for (size_t i = 0; i <= len; i++) {
        if (i < len && rel[i] != '/')
            continue;
        memcpy(part, rel, i);
        part[i] = '\0';
        char *slash = strrchr(part, '/');
        const char *base = slash ? slash + 1 : part;
        int pfd = treefd;
        if (slash) {
            *slash = '\0';
            pfd = e->opendir(ctx->w, treefd, part);
            *slash = '/';
            if (pfd < 0)
                return fail_at(ctx, "open", tree, part, pfd, true);
        }
        int rc = e->mkdir(ctx->w, pfd, base, 0755);
        if (pfd != treefd)
            e->close(ctx->w, pfd);
        if (rc < 0 && rc != -EEXIST)
            return fail_at(ctx, "mkdir", tree, part, rc, true);
    }
    return 0;
}

/* Points dc at the directory of path (made when create), below treefd. */
static int enter_dir(struct phase_ctx *ctx, int treefd, const char *tree, const char *path,
                     bool create, struct dircache *dc)
{
    const struct engine *e = ctx->eng;
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) : 0;
    if (dc->fd >= 0 && strlen(dc->rel) == dl && !memcmp(dc->rel, path, dl))
        return 0;
    if (dc->fd >= 0 && dc->fd != treefd)
        e->close(ctx->w, dc->fd);
    dc->fd = -1;
    memcpy(dc->rel, path, dl);
    dc->rel[dl] = '\0';
    if (dl == 0) {
        dc->fd = treefd;
        return 0;
    }
    int fd = e->opendir(ctx->w, treefd, dc->rel);
    if (fd == -ENOENT && create) {
        if (make_dirs(ctx, treefd, tree, dc->rel) < 0)
            return -1;
        fd = e->opendir(ctx->w, treefd, dc->rel);
    }
    if (fd < 0)
        return fd == -ENOENT && !create ? -ENOENT : fail_at(ctx, "open", tree, dc->rel, fd, true);
    dc->fd = fd;
    return 0;
}

/* ---- the calls of compilebench's Python file objects ---- */

/* How compilebench uses a file object: written ("a+", then seek(0)), patched ("a+", read to
 * the end, truncate(0), seek(0)) or read ("r"). */
enum py_use { PY_WRITE, PY_PATCH, PY_READ };

static void py_tells(int fd, int n)
{
    while (n-- > 0)
        (void)lseek(fd, 0, SEEK_CUR);
}

/* After an open: the calls of opening the file object and, for a patch, of its read (at the
 * end of the file, where "a+" puts it: one read that returns nothing) and its truncate (the
 * truncate itself is the caller's, through the engine); then the seek to the start. */
static void py_opened(const struct phase_ctx *ctx, const struct cb_env *env, int fd,
                      enum py_use use)
{
    if (!(ctx->eng->caps & ENG_CAP_REAL))
        return;
    struct stat st;
    (void)fstat(fd, &st);
    if (use != PY_READ)
        (void)lseek(fd, 0, SEEK_END);
    (void)isatty(fd);
    switch (use) {
    case PY_READ: py_tells(fd, 1); return;
    case PY_WRITE: py_tells(fd, 3); break;
    case PY_PATCH:
        py_tells(fd, 2);
        (void)!read(fd, env->rbuf, env->bufsize);
        py_tells(fd, 2);
        break;
    }
}

/* After a patch's truncate, or at once for a write: the seek to the start. */
static void py_seek_start(const struct phase_ctx *ctx, int fd, enum py_use use)
{
    if (!(ctx->eng->caps & ENG_CAP_REAL))
        return;
    if (use == PY_PATCH)
        py_tells(fd, 2);
    (void)lseek(fd, 0, SEEK_SET);
}

/* Before the close of a file object that was written. */
static void py_closing(const struct phase_ctx *ctx, int fd)
{
    if (!(ctx->eng->caps & ENG_CAP_REAL))
        return;
    py_tells(fd, 2);
}

static int write_one(struct phase_ctx *ctx, const struct cb_env *env, int dfd, const char *base,
                     uint64_t size, unsigned flags)
{
    const struct engine *e = ctx->eng;
    enum py_use use = flags & CB_TRUNCATE_FIRST ? PY_PATCH : PY_WRITE;
    progcpu_spend(env->cpu_file_ns);
    if (flags & CB_UNLINK_FIRST) {
        progcpu_spend(env->cpu_entry_ns);
        int rc = e->unlink(ctx->w, dfd, base, 0);
        if (rc < 0 && rc != -ENOENT)
            return rc;
    }
    int fd = e->open(ctx->w, dfd, base, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
                     0644);
    if (fd < 0)
        return fd;
    py_opened(ctx, env, fd, use);
    long r = 0;
    if (use == PY_PATCH) {
        progcpu_spend(2 * (uint64_t)env->cpu_entry_ns); /* the read and the truncate */
        r = e->ftruncate(ctx->w, fd, 0);
    }
    py_seek_start(ctx, fd, use);
    while (r >= 0 && size > 0) {
        /* a short write (the file system filling up) is followed by one for the rest, which
         * says why */
        size_t n = size < env->bufsize ? (size_t)size : env->bufsize;
        r = e->write(ctx->w, fd, env->wbuf, n);
        if (r == 0)
            r = -EIO;
        if (r > 0)
            size -= (uint64_t)r;
    }
    if (r >= 0)
        py_closing(ctx, fd);
    int rc2 = e->close(ctx->w, fd);
    return r < 0 ? (int)r : rc2 < 0 ? rc2 : 0;
}

static int write_listing(struct phase_ctx *ctx, const struct cb_env *env, int treefd,
                         const char *tree, const struct cb_listing *l, unsigned flags)
{
    struct dircache dc = {.fd = -1};
    int rc = 0;
    for (size_t i = 0; i < l->n && rc == 0; i++) {
        if ((i & 63) == 0 && phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        const char *p = cb_path(l, i);
        rc = enter_dir(ctx, treefd, tree, p, true, &dc);
        if (rc < 0)
            break;
        const char *slash = strrchr(p, '/');
        const char *base = slash ? slash + 1 : p;
        int w = write_one(ctx, env, dc.fd, base, l->e[i].size, flags);
        if (w < 0)
            rc = fail_at(ctx, "write", tree, p, w, false);
        else
            ctx->res->files++;
    }
    if (dc.fd >= 0 && dc.fd != treefd)
        ctx->eng->close(ctx->w, dc.fd);
    return rc;
}

static int clean_listing(struct phase_ctx *ctx, const struct cb_env *env, int treefd,
                         const char *tree, const struct cb_listing *l)
{
    struct dircache dc = {.fd = -1};
    int rc = 0;
    for (size_t i = 0; i < l->n && rc == 0; i++) {
        if ((i & 63) == 0 && phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        const char *p = cb_path(l, i);
        int d = enter_dir(ctx, treefd, tree, p, false, &dc);
        if (d == -ENOENT) {
            dc.fd = -1; /* a directory already gone: nothing of it to clean */
            continue;
        }
        if (d < 0) {
            rc = -1;
            break;
        }
        const char *slash = strrchr(p, '/');
        progcpu_spend(env->cpu_entry_ns);
        int u = ctx->eng->unlink(ctx->w, dc.fd, slash ? slash + 1 : p, 0);
        if (u < 0 && u != -ENOENT)
            rc = fail_at(ctx, "unlink", tree, p, u, false);
        else if (u == 0)
            ctx->res->files++;
    }
    if (dc.fd >= 0 && dc.fd != treefd)
        ctx->eng->close(ctx->w, dc.fd);
    return rc;
}

/* ---- walking a tree ---- */

struct walk_arg {
    const struct cb_env *env;
    uint64_t bytes;
    const struct cb_listing *from; /* native order: sizes */
    struct cb_listing *out;
    size_t root_len; /* of "tree/<name>" in walker paths */
};

/* Reads file name in dirfd as compilebench does: fp.read(bufsize) until it returns nothing,
 * each fp.read reading until its buffer is full or a read returns nothing. */
static int read_one(struct phase_ctx *ctx, const struct cb_env *env, int dirfd, const char *name,
                    uint64_t *got)
{
    const struct engine *e = ctx->eng;
    progcpu_spend(env->cpu_file_ns);
    int fd = e->open(ctx->w, dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
    if (fd < 0)
        return fd;
    py_opened(ctx, env, fd, PY_READ);
    long r = 0;
    for (;;) {
        size_t filled = 0;
        while (filled < env->bufsize) {
            r = e->read(ctx->w, fd, env->rbuf, env->bufsize - filled);
            if (r <= 0)
                break;
            filled += (size_t)r;
        }
        *got += filled;
        if (r < 0 || filled == 0)
            break;
    }
    int rc2 = e->close(ctx->w, fd);
    return r < 0 ? (int)r : rc2;
}

static int read_visit(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                      unsigned depth, void *arg)
{
    struct walk_arg *a = arg;
    (void)depth;
    for (size_t i = 0; i < l->n; i++) {
        if (phase_check_interrupt(ctx))
            return -1;
        if (l->ent[i].type != DT_REG)
            continue;
        uint64_t got = 0;
        int rc = read_one(ctx, a->env, dirfd, wl_name(l, i), &got);
        if (rc < 0) {
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/%s", path, wl_name(l, i));
            return phase_fail(ctx, "read", p, rc);
        }
        a->bytes += got;
        ctx->res->files++;
    }
    return 0;
}

static int count_visit(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                       unsigned depth, void *arg)
{
    (void)dirfd, (void)path, (void)depth, (void)arg;
    for (size_t i = 0; i < l->n; i++)
        if (l->ent[i].type == DT_LNK)
            ctx->res->symlinks++;
        else if (l->ent[i].type != DT_DIR)
            ctx->res->files++;
    return phase_check_interrupt(ctx);
}

/* stat and delete go bottom up, as compilebench's os.walk(topdown=False) does: when a
 * directory's subdirectories are done, its files in the order the file system lists them,
 * then its subdirectories (stat: each stat'ed; delete: files unlinked, then the emptied
 * subdirectories removed). */
static int stat_leave(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                      unsigned depth, void *arg)
{
    const struct walk_arg *a = arg;
    (void)depth;
    for (int dirs = 0; dirs < 2; dirs++)
        for (size_t i = 0; i < l->n; i++) {
            if ((l->ent[i].type == DT_DIR) != dirs)
                continue;
            if (phase_check_interrupt(ctx))
                return -1;
            progcpu_spend(a->env->cpu_entry_ns);
            struct stat st;
            int rc = ctx->eng->stat(ctx->w, dirfd, wl_name(l, i), &st);
            if (rc < 0) {
                char p[PATH_MAX];
                snprintf(p, sizeof p, "%s/%s", path, wl_name(l, i));
                return phase_fail(ctx, "stat", p, rc);
            }
        }
    return 0;
}

static int delete_leave(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                        unsigned depth, void *arg)
{
    const struct walk_arg *a = arg;
    (void)depth;
    for (int dirs = 0; dirs < 2; dirs++)
        for (size_t i = 0; i < l->n; i++) {
            bool is_dir = l->ent[i].type == DT_DIR;
            if (is_dir != dirs)
                continue;
            if (phase_check_interrupt(ctx))
                return -1;
            progcpu_spend(a->env->cpu_entry_ns);
            int rc = ctx->eng->unlink(ctx->w, dirfd, wl_name(l, i), is_dir ? AT_REMOVEDIR : 0);
            if (rc < 0) {
                char p[PATH_MAX];
                snprintf(p, sizeof p, "%s/%s", path, wl_name(l, i));
                return is_dir ? phase_fail_dir(ctx, "rmdir", p, rc) : phase_fail(ctx, "unlink", p, rc);
            }
            if (is_dir)
                continue;
            if (l->ent[i].type == DT_LNK)
                ctx->res->symlinks++;
            else
                ctx->res->files++;
        }
    return 0;
}

static int order_visit(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                       unsigned depth, void *arg)
{
    struct walk_arg *a = arg;
    (void)dirfd, (void)depth;
    const char *sub = path + a->root_len;
    if (*sub == '/')
        sub++;
    for (size_t i = 0; i < l->n; i++) {
        if (l->ent[i].type != DT_REG)
            continue;
        char rel[CB_PATH_MAX + 1];
        int n = snprintf(rel, sizeof rel, "%s%s%s", sub, *sub ? "/" : "", wl_name(l, i));
        if (n < 0 || (size_t)n >= sizeof rel)
            continue;
        size_t j = cb_listing_find(a->from, rel);
        if (j == (size_t)-1)
            continue;
        if (cb_listing_add(a->out, rel, (size_t)n, a->from->e[j].size, a->from->e[j].line) < 0)
            return phase_fail(ctx, "list", path, -ENOMEM);
    }
    return 0;
}

int compilebench_native_order(struct phase_ctx *ctx, const struct cb_env *env, const char *name,
                              const struct cb_listing *from, struct cb_listing *out)
{
    char path[64];
    snprintf(path, sizeof path, PHASE_TREE_DIR "/%s", name);
    struct walk_arg a = {.env = env, .from = from, .out = out, .root_len = strlen(path)};
    struct wl_walk wk = {.visit = order_visit, .native_order = true, .arg = &a};
    return wl_walk(ctx, env->tdir, name, path, &wk);
}

int compilebench_run(struct phase_ctx *ctx, const struct cb_env *env, enum cb_op op,
                     const struct cb_listing *l, unsigned flags, const char *name,
                     struct cb_kind_total *t, bool throughput)
{
    const struct engine *e = ctx->eng;
    char path[64];
    snprintf(path, sizeof path, PHASE_TREE_DIR "/%s", name);
    struct walk_arg a = {.env = env};
    struct wl_walk wk = {.count_dirs = true, .native_order = true, .arg = &a};
    uint64_t bytes = 0;
    struct meter m;
    int rc = 0, treefd = -1;

    os_thread_rusage(&m.ru0);
    m.t0 = meas_now_ns();
    switch (op) {
    case CB_OP_WRITE:
    case CB_OP_CLEAN:
        rc = e->mkdir(ctx->w, env->tdir, name, 0755);
        if (rc < 0 && rc != -EEXIST) {
            rc = phase_fail_dir(ctx, "mkdir", path, rc);
            break;
        }
        treefd = e->opendir(ctx->w, env->tdir, name);
        if (treefd < 0) {
            rc = phase_fail_dir(ctx, "open", path, treefd);
            break;
        }
        rc = op == CB_OP_WRITE ? write_listing(ctx, env, treefd, name, l, flags)
                               : clean_listing(ctx, env, treefd, name, l);
        for (size_t i = 0; i < l->n; i++)
            bytes += l->e[i].size;
        break;
    case CB_OP_READ:
        wk.visit = read_visit;
        rc = wl_walk(ctx, env->tdir, name, path, &wk);
        break;
    case CB_OP_STAT:
        wk.visit = count_visit;
        wk.leave = stat_leave;
        rc = wl_walk(ctx, env->tdir, name, path, &wk);
        break;
    case CB_OP_DELETE:
        wk.leave = delete_leave;
        rc = wl_walk(ctx, env->tdir, name, path, &wk);
        if (rc == 0) {
            int r = e->unlink(ctx->w, env->tdir, name, AT_REMOVEDIR);
            if (r < 0)
                rc = phase_fail_dir(ctx, "rmdir", path, r);
        }
        break;
    default:
        return phase_fail(ctx, "compilebench", path, -EINVAL);
    }
    if (op == CB_OP_READ)
        bytes = a.bytes;
    if (rc == 0 && env->sync) {
        int s = e->syncfs(ctx->w, treefd >= 0 ? treefd : env->tdir);
        if (s < 0)
            rc = phase_fail(ctx, "sync", path, s);
    }
    if (treefd >= 0)
        e->close(ctx->w, treefd);
    if (rc == 0) {
        int d = e->drain(ctx->w);
        if (d < 0)
            rc = phase_fail(ctx, "compilebench", path, d);
    }
    if (rc == 0)
        meter_stop(&m, bytes, throughput, t);
    return rc < 0 ? -1 : 0;
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
