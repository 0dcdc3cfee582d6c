/* phase_compilebench.c — the compilebench phases: cb_initial (the reference figures, then
 * "initial create" of params->cb_initial trees) and cb_random (params->cb_runs operations
 * drawn from ctx->seed), with the per-kind figures kept for compilebench_last() and summed
 * up in the note. The operations are in compilebench.c, the listings in cb_listing.c.
 *
 * The method, compilebench 0.6's (its documentation and its "run complete" output):
 *  - before the trees, the reference figures: the clean tree, the patch and the patched
 *    objects each written in path order into a tree "native-N" of their own; the order the
 *    file system then lists those files in is the order every later write of that listing
 *    follows (compile's listing is shuffled instead); the native tree is removed untimed;
 *  - initial create: trees kernel-0 .. kernel-(i-1), no sync in their time; then one sync
 *    and a drop of the caches;
 *  - each random operation: caches dropped, then one of seven picked uniformly: patch,
 *    compile, clean, delete, create, read, stat. Each picks a state its trees may be in
 *    (clean, patched, compiled, patched and compiled) among those that have trees and
 *    that the operation applies to, uniformly, then a tree of that state uniformly; with
 *    none, the operation does not count and another is drawn. Patch takes a clean tree to
 *    patched (the patch listing, 1 time in 4 unlinking each file first) or a compiled one
 *    to patched and compiled (the patched objects); compile a clean one to compiled (the
 *    objects) or a patched one to patched and compiled (the patched objects); clean goes
 *    back the same way. Delete, read and stat take any tree: a compiled one's figure
 *    counts as "delete compiled tree" (and so on). Create makes kernel-R, R in 100..100000.
 *    A sync ends each operation's time;
 *  - the random numbers are compilebench's: Python's generator seeded 555 (--seed 1, the
 *    default; seed S draws from 554 + S), compile's listing shuffled with them first, then
 *    per operation the draws compilebench makes, the trees of a state in the order they
 *    came to it: on compilebench's listings the same operations on the same trees as
 *    compilebench (every run alike, as every compilebench invocation);
 *  - --cb-no-sync (compilebench -n): no sync, no caches dropped. Where caches cannot be
 *    dropped (not root), it is said once and the summary marks the figures as warm;
 *  - --cb-program-cpu: the interpreter's processor time per file and per entry, spent
 *    inside the operations (compilebench.c), and said in the summary.
 *
 * The trees' states live in this process between the phases: a tree found in "tree" that
 * is not known (a phase run alone) is taken as clean.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"
#include "os/machine.h"
#include "phase/cb_listing.h"
#include "phase/cb_rand.h"
#include "phase/progcpu.h"
#include "phase/workload.h"

/* The figures of the last cb_initial / cb_random of this process (compilebench_last). */
static struct cb_summary last;
static bool have_last;

int compilebench_last(struct cb_summary *out)
{
    if (!have_last)
        return -1;
    *out = last;
    return 0;
}

/* ---- the data set ---- */

/* The listings in use, in the order the writes follow, and what they were made from. */
static struct cb_dataset data;
static bool have_data;
static char data_key[PATH_MAX + 64];

/* The data set of this run: --cb-dataset's listings, or the model of the run's tree. */
static const struct cb_dataset *dataset_for(struct phase_ctx *ctx, const struct phase_params *p)
{
    char key[sizeof data_key];
    if (p->cb_dataset)
        snprintf(key, sizeof key, "d:%s", p->cb_dataset);
    else if (ctx->tree && ctx->tree->prof && !ctx->tar)
        snprintf(key, sizeof key, "m:%s:%.17g:%llu", ctx->tree->prof->name, ctx->tree->scale,
                 (unsigned long long)ctx->tree->seed);
    else {
        phase_fail(ctx, "compilebench", PHASE_TREE_DIR, -EINVAL);
        snprintf(ctx->res->note, sizeof ctx->res->note,
                 "compilebench needs a tree profile or --cb-dataset (not an archive)");
        return NULL;
    }
    if (have_data && !strcmp(key, data_key))
        return &data;
    if (have_data)
        cb_dataset_free(&data);
    have_data = false;
    char msg[256] = "";
    err_capture_begin(msg, sizeof msg);
    int rc =
        p->cb_dataset ? cb_dataset_load(p->cb_dataset, &data) : cb_dataset_model(ctx->tree, &data);
    err_capture_end();
    if (rc < 0) {
        phase_fail(ctx, "compilebench", PHASE_TREE_DIR, -EINVAL);
        snprintf(ctx->res->note, sizeof ctx->res->note, "%s", msg);
        return NULL;
    }
    snprintf(data_key, sizeof data_key, "%s", key);
    have_data = true;
    return &data;
}

/* ---- the trees and their states ---- */

enum cb_state { ST_CLEAN, ST_PATCHED, ST_COMPILED, ST_PATCHED_COMPILED, ST_STATES };

struct cb_tree {
    char name[32];
    enum cb_state st;
    uint64_t since; /* when it came to this state: a state's trees are picked in this order */
};

static struct {
    struct cb_tree *t;
    size_t n, cap;
    uint64_t clock;
} trees;

/* compilebench's random numbers, from cb_initial on to the end of cb_random. */
static struct cb_rand rnd;
static bool have_rnd;

static int trees_add(const char *name, enum cb_state st)
{
    if (trees.n == trees.cap) {
        size_t ncap = trees.cap ? trees.cap * 2 : 16;
        struct cb_tree *p = realloc(trees.t, ncap * sizeof *p);
        if (!p)
            return -ENOMEM;
        trees.t = p;
        trees.cap = ncap;
    }
    struct cb_tree *t = &trees.t[trees.n++];
    snprintf(t->name, sizeof t->name, "%s", name);
    t->st = st;
    t->since = ++trees.clock;
    return 0;
}

static void trees_move(size_t i, enum cb_state st)
{
    trees.t[i].st = st;
    trees.t[i].since = ++trees.clock;
}

static ssize_t trees_find(const char *name)
{
    for (size_t i = 0; i < trees.n; i++)
        if (!strcmp(trees.t[i].name, name))
            return (ssize_t)i;
    return -1;
}

static void trees_remove(size_t i)
{
    memmove(&trees.t[i], &trees.t[i + 1], (trees.n - i - 1) * sizeof *trees.t);
    trees.n--;
}

/* The kernel-N directories of "tree" (open as tdir): the known keep their state and order,
 * the others come after them as clean, by name; known ones gone are dropped. */
static int scan_visit(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                      unsigned depth, void *arg)
{
    bool *seen = arg;
    (void)dirfd, (void)depth;
    const size_t plen = strlen(WL_CB_PREFIX);
    size_t known = trees.n;
    for (size_t i = 0; i < l->n; i++) {
        const char *name = wl_name(l, i);
        if (l->ent[i].type != DT_DIR || strncmp(name, WL_CB_PREFIX, plen) != 0 ||
            strlen(name) >= sizeof trees.t[0].name)
            continue;
        ssize_t j = trees_find(name);
        if (j >= 0 && (size_t)j < known)
            seen[j] = true;
        else if (j < 0 && trees_add(name, ST_CLEAN) < 0)
            return phase_fail(ctx, "list", path, -ENOMEM);
    }
    for (size_t i = known; i-- > 0;)
        if (!seen[i])
            trees_remove(i);
    return 0;
}

static int scan_trees(struct phase_ctx *ctx, int tdir)
{
    if (!(ctx->eng->caps & ENG_CAP_REAL))
        return 0; /* nothing is made: the trees are those the phases made */
    bool *seen = calloc(trees.n + 1, sizeof *seen);
    if (!seen)
        return phase_fail(ctx, "list", PHASE_TREE_DIR, -ENOMEM);
    struct wl_walk wk = {.visit = scan_visit, .shallow = true, .arg = seen};
    int rc = wl_walk(ctx, tdir, ".", PHASE_TREE_DIR, &wk);
    free(seen);
    return rc;
}

/* ---- notes ---- */

/* "create 5 runs 15.64 MB/s; ..." for the kinds [from, to] that ran (and, from cb_initial,
 * the reference figures), into the note. The note holds 255 characters, so when the full
 * wording does not fit, shorter forms are tried ("create 5x 15.6 MB/s", then "create 5x
 * 15.6MB/s;patch ..."); a note that still does not fit ends with "...".
 * compilebench_format() gives the full table. */
static void write_note(struct phase_ctx *ctx, const struct cb_summary *s, int from, int to,
                       bool natives)
{
    static const struct {
        const char *sep, *runs, *unit_sep;
        bool g3;
    } form[] = {{"; ", " runs", " ", false}, {"; ", "x", " ", true}, {";", "x", "", true}};
    const int nforms = (int)(sizeof form / sizeof form[0]);
    char *note = ctx->res->note;
    size_t cap = sizeof ctx->res->note;
    char mark[96];
    const char *how = s->no_sync ? "no sync: " : s->warm ? "warm caches: " : "";
    int ml = snprintf(mark, sizeof mark, "%s", how);
    if (s->cpu_file_ns || s->cpu_entry_ns)
        snprintf(mark + ml, sizeof mark - (size_t)ml, "program cpu %g/%g us: ",
                 s->cpu_file_ns / 1e3, s->cpu_entry_ns / 1e3);
    for (int f = 0; f < nforms; f++) {
        size_t n = strlen(mark);
        bool fits = true;
        memcpy(note, mark, n + 1);
        int total = (to - from + 1) + (natives ? CB_NATIVES : 0);
        for (int i = 0; i < total; i++) {
            bool nat = i >= to - from + 1;
            int k = nat ? i - (to - from + 1) : from + i;
            const struct cb_kind_total *t = nat ? &s->native[k] : &s->k[k];
            if (t->runs == 0)
                continue;
            char item[128];
            bool thr = nat || cb_kind_is_throughput((enum cb_kind)k);
            double avg = t->value / (double)t->runs;
            snprintf(item, sizeof item,
                     form[f].g3 ? "%s%s %llu%s %.3g%s%s" : "%s%s %llu%s %.2f%s%s",
                     n > strlen(mark) ? form[f].sep : "",
                     nat ? cb_native_name((enum cb_native)k) : cb_kind_name((enum cb_kind)k),
                     (unsigned long long)t->runs, form[f].runs, avg, form[f].unit_sep,
                     thr ? "MB/s" : "s");
            size_t l = strlen(item);
            if (n + l + 4 >= cap) {
                fits = false;
                if (f == nforms - 1)
                    memcpy(note + n, " ...", 5);
                break;
            }
            memcpy(note + n, item, l + 1);
            n += l;
        }
        if (fits)
            return;
    }
}

/* ---- what a phase sets up ---- */

static const struct phase_params *params_of(const struct phase_ctx *ctx)
{
    static const struct phase_params defaults = {
        .cb_initial = WL_DEFAULT_CB_INITIAL,
        .cb_runs = WL_DEFAULT_CB_RUNS,
        .fsync_rounds = WL_DEFAULT_FSYNC_ROUNDS,
        .age_written = WL_DEFAULT_AGE_WRITTEN,
        .age_fullness = WL_DEFAULT_AGE_FULLNESS,
    };
    return ctx->params ? ctx->params : &defaults;
}

struct session {
    struct cb_env env;
    const struct cb_dataset *ds;
    bool drop; /* drop the caches before each operation */
};

static bool warned_warm;

static int session_open(struct phase_ctx *ctx, struct session *s)
{
    const struct phase_params *p = params_of(ctx);
    memset(s, 0, sizeof *s);
    s->ds = dataset_for(ctx, p);
    if (!s->ds)
        return -1;
    bool real = (ctx->eng->caps & ENG_CAP_REAL) != 0;
    s->env.bufsize = p->cb_buffer_size ? p->cb_buffer_size : WL_CB_DEFAULT_BUFFER;
    s->env.sync = !p->cb_no_sync && real;
    s->drop = s->env.sync;
    s->env.cpu_file_ns = p->cb_cpu_file_ns;
    s->env.cpu_entry_ns = p->cb_cpu_entry_ns;
    if (p->cb_cpu_file_ns || p->cb_cpu_entry_ns)
        progcpu_calibrate(); /* once, here: not inside an operation's time */
    s->env.wbuf = malloc(s->env.bufsize);
    s->env.rbuf = malloc(s->env.bufsize);
    if (!s->env.wbuf || !s->env.rbuf) {
        free(s->env.wbuf);
        free(s->env.rbuf);
        return phase_fail(ctx, "compilebench", PHASE_TREE_DIR, -ENOMEM);
    }
    memset(s->env.wbuf, 'a', s->env.bufsize);
    s->env.tdir = compilebench_open_trees(ctx);
    if (s->env.tdir < 0) {
        free(s->env.wbuf);
        free(s->env.rbuf);
        return -1;
    }
    last.no_sync = p->cb_no_sync;
    last.cpu_file_ns = p->cb_cpu_file_ns;
    last.cpu_entry_ns = p->cb_cpu_entry_ns;
    return 0;
}

static void session_close(struct phase_ctx *ctx, struct session *s)
{
    ctx->eng->close(ctx->w, s->env.tdir);
    free(s->env.wbuf);
    free(s->env.rbuf);
}

/* Drops the caches (untimed); where it cannot, says so once and marks the figures. */
static void drop_caches(struct session *s)
{
    if (!s->drop)
        return;
    char why[256];
    if (os_drop_caches(why, sizeof why) == 0)
        return;
    s->drop = false;
    last.warm = true;
    if (!warned_warm)
        warning("compilebench: caches cannot be dropped (%s): its reads and stats may be warm, "
                "as with --cb-no-sync; the summary says so",
                why);
    warned_warm = true;
}

/* ---- cb_initial ---- */

/* A free "<prefix>N" name in "tree" (N from 0; an engine that touches nothing has every
 * name free). */
static void free_name(struct phase_ctx *ctx, int tdir, const char *prefix, char *out, size_t len)
{
    struct stat st;
    bool real = (ctx->eng->caps & ENG_CAP_REAL) != 0;
    for (unsigned i = 0; i < 1000000; i++) {
        snprintf(out, len, "%s%u", prefix, i);
        if (trees_find(out) < 0 && (!real || ctx->eng->stat(ctx->w, tdir, out, &st) < 0))
            return;
    }
}

/* The reference figures, and the native order of the three listings they write. */
static int natives(struct phase_ctx *ctx, struct session *s)
{
    static const enum cb_list lists[CB_NATIVES] = {CB_LIST_CLEAN, CB_LIST_PATCH,
                                                   CB_LIST_PATCH_OBJS};
    struct cb_dataset *ds = &data;
    for (int k = 0; k < CB_NATIVES; k++) {
        struct cb_listing *l = &ds->l[lists[k]];
        if (l->n == 0)
            continue;
        char name[32];
        free_name(ctx, s->env.tdir, WL_CB_NATIVE_PREFIX, name, sizeof name);
        cb_listing_sort(l);
        uint64_t files = ctx->res->files;
        struct cb_env env = s->env;
        env.sync = false;
        if (compilebench_run(ctx, &env, CB_OP_WRITE, l, 0, name, &last.native[k], true) < 0)
            return -1;
        struct cb_listing order = {0};
        int rc = compilebench_native_order(ctx, &env, name, l, &order);
        if (rc == 0 && order.n == l->n) {
            cb_listing_free(l);
            *l = order;
        } else {
            cb_listing_free(&order);
        }
        if (rc == 0)
            rc = compilebench_run(ctx, &env, CB_OP_DELETE, NULL, 0, name, NULL, false);
        ctx->res->files = files; /* the reference trees are not the run's files */
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* Files compile writes in 2.6.20's listings (its shuffle's length). */
#define CB_OBJS_2620 3263u

static int cmp_line(const void *a, const void *b)
{
    const struct cb_entry *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Seeds compilebench's random numbers (seed 1, the default, is compilebench's own 555) and
 * shuffles compile's listing with them as compilebench does first, from its file's order. */
static void start_random(struct phase_ctx *ctx)
{
    /* the run's --seed (ctx->seed mixes in the round): every run draws the same, as every
     * compilebench invocation does */
    cb_rand_seed(&rnd, 554 + (ctx->tree ? ctx->tree->seed : ctx->seed));
    have_rnd = true;
    struct cb_listing *l = &data.l[CB_LIST_OBJS];
    cb_listing_sort(l);
    if (l->n > 1)
        qsort(l->e, l->n, sizeof *l->e, cmp_line);
    /* the model shuffles with a stream of its own and leaves compilebench's where its
     * shuffle of 2.6.20's objects leaves it, so that its operations are compilebench's too */
    uint64_t seed = ctx->tree ? ctx->tree->seed : ctx->seed;
    struct cb_rand own, *r = &rnd;
    if (!params_of(ctx)->cb_dataset) {
        for (uint32_t i = CB_OBJS_2620; i > 1; i--)
            cb_rand_below(&rnd, i);
        cb_rand_seed(&own, 0x5407f1eull + seed);
        r = &own;
    }
    for (size_t i = l->n; i > 1; i--) {
        size_t j = cb_rand_below(r, (uint32_t)i);
        struct cb_entry t = l->e[i - 1];
        l->e[i - 1] = l->e[j];
        l->e[j] = t;
    }
}

int phase_cb_initial(struct phase_ctx *ctx)
{
    unsigned n = params_of(ctx)->cb_initial;
    struct session s;
    memset(&last, 0, sizeof last);
    have_last = true;
    if (session_open(ctx, &s) < 0)
        return -1;
    int rc = scan_trees(ctx, s.env.tdir);
    if (rc == 0)
        rc = natives(ctx, &s);
    if (rc == 0)
        start_random(ctx);
    for (unsigned i = 0; rc == 0 && i < n; i++) {
        char name[32];
        free_name(ctx, s.env.tdir, WL_CB_PREFIX, name, sizeof name);
        struct cb_env env = s.env;
        env.sync = false;
        rc = compilebench_run(ctx, &env, CB_OP_WRITE, &data.l[CB_LIST_CLEAN], 0, name,
                              &last.k[CB_INITIAL], true);
        if (rc == 0 && trees_add(name, ST_CLEAN) < 0)
            rc = phase_fail(ctx, "compilebench", PHASE_TREE_DIR, -ENOMEM);
    }
    if (rc == 0 && s.env.sync) {
        int r = ctx->eng->syncfs(ctx->w, s.env.tdir);
        if (r < 0)
            rc = phase_fail(ctx, "sync", PHASE_TREE_DIR, r);
    }
    if (rc == 0)
        drop_caches(&s);
    last.trees = (unsigned)trees.n;
    session_close(ctx, &s);
    if (rc == 0)
        write_note(ctx, &last, CB_INITIAL, CB_INITIAL, true);
    return rc;
}

/* ---- cb_random ---- */

enum cb_pick {
    PICK_PATCH,
    PICK_COMPILE,
    PICK_CLEAN,
    PICK_DELETE,
    PICK_CREATE,
    PICK_READ,
    PICK_STAT,
    PICKS
};

/* A transition of an operation: the listing it writes, the state it takes and gives. */
struct move {
    enum cb_list list;
    enum cb_state from, to;
};

static const struct move patch_moves[] = {{CB_LIST_PATCH, ST_CLEAN, ST_PATCHED},
                                          {CB_LIST_PATCH_OBJS, ST_COMPILED, ST_PATCHED_COMPILED}};
static const struct move compile_moves[] = {{CB_LIST_OBJS, ST_CLEAN, ST_COMPILED},
                                            {CB_LIST_PATCH_OBJS, ST_PATCHED, ST_PATCHED_COMPILED}};
static const struct move clean_moves[] = {{CB_LIST_PATCH_OBJS, ST_PATCHED_COMPILED, ST_PATCHED},
                                          {CB_LIST_OBJS, ST_COMPILED, ST_CLEAN}};

static size_t count_in(enum cb_state st)
{
    size_t c = 0;
    for (size_t i = 0; i < trees.n; i++)
        c += trees.t[i].st == st;
    return c;
}

/* The pick-th tree of state st, in the order they came to it. */
static size_t nth_in(enum cb_state st, size_t pick)
{
    uint64_t after = 0;
    for (;;) {
        size_t best = (size_t)-1;
        for (size_t i = 0; i < trees.n; i++)
            if (trees.t[i].st == st && trees.t[i].since > after &&
                (best == (size_t)-1 || trees.t[i].since < trees.t[best].since))
                best = i;
        if (best == (size_t)-1 || pick-- == 0)
            return best;
        after = trees.t[best].since;
    }
}

/* Of moves (2), one whose state has trees, uniformly; then one of its trees: its index,
 * or (size_t)-1 when none has any. */
static size_t pick_move(struct cb_rand *r, const struct move *mv, const struct move **out)
{
    const struct move *good[2];
    size_t ng = 0;
    for (size_t i = 0; i < 2; i++)
        if (count_in(mv[i].from))
            good[ng++] = &mv[i];
    if (!ng)
        return (size_t)-1;
    *out = good[cb_rand_below(r, (uint32_t)ng)];
    return nth_in((*out)->from, cb_rand_below(r, (uint32_t)count_in((*out)->from)));
}

/* Of the states that have trees, one uniformly, then one of its trees. */
static size_t pick_any(struct cb_rand *r)
{
    enum cb_state good[ST_STATES];
    size_t ng = 0;
    static const enum cb_state order[ST_STATES] = {ST_PATCHED, ST_CLEAN, ST_COMPILED,
                                                   ST_PATCHED_COMPILED};
    for (size_t i = 0; i < ST_STATES; i++)
        if (count_in(order[i]))
            good[ng++] = order[i];
    if (!ng)
        return (size_t)-1;
    enum cb_state st = good[cb_rand_below(r, (uint32_t)ng)];
    return nth_in(st, cb_rand_below(r, (uint32_t)count_in(st)));
}

static bool compiled(enum cb_state st)
{
    return st == ST_COMPILED || st == ST_PATCHED_COMPILED;
}

/* Draws and runs one operation: 1 done, 0 none applied (draw again), -1 failed. */
static int random_op(struct phase_ctx *ctx, struct session *s, struct cb_rand *r)
{
    enum cb_pick pick = (enum cb_pick)cb_rand_below(r, PICKS);
    const struct move *mv = NULL;
    size_t at = (size_t)-1;
    char name[32];
    switch (pick) {
    case PICK_PATCH:
        at = pick_move(r, patch_moves, &mv);
        break;
    case PICK_COMPILE:
        at = pick_move(r, compile_moves, &mv);
        break;
    case PICK_CLEAN:
        at = pick_move(r, clean_moves, &mv);
        break;
    case PICK_DELETE:
    case PICK_READ:
    case PICK_STAT:
        at = pick_any(r);
        break;
    case PICK_CREATE:
    default: {
        do
            snprintf(name, sizeof name, WL_CB_PREFIX "%u", 100u + cb_rand_below(r, 99901));
        while (trees_find(name) >= 0);
        break;
    }
    }
    if (pick != PICK_CREATE && at == (size_t)-1)
        return 0;
    if (pick != PICK_CREATE)
        snprintf(name, sizeof name, "%s", trees.t[at].name);
    bool unlink = pick == PICK_PATCH && cb_rand_below(r, 4) == 1;
    drop_caches(s);
    const struct cb_env *env = &s->env;
    struct cb_kind_total *k = last.k;
    bool comp = at != (size_t)-1 && compiled(trees.t[at].st);
    int rc;
    switch (pick) {
    case PICK_PATCH:
        rc = compilebench_run(ctx, env, CB_OP_WRITE, &data.l[mv->list],
                              CB_TRUNCATE_FIRST | (unlink ? CB_UNLINK_FIRST : 0), name, &k[CB_PATCH],
                              true);
        break;
    case PICK_COMPILE:
        rc = compilebench_run(ctx, env, CB_OP_WRITE, &data.l[mv->list], 0, name, &k[CB_COMPILE],
                              true);
        break;
    case PICK_CLEAN:
        rc =
            compilebench_run(ctx, env, CB_OP_CLEAN, &data.l[mv->list], 0, name, &k[CB_CLEAN], true);
        break;
    case PICK_DELETE:
        rc = compilebench_run(ctx, env, CB_OP_DELETE, NULL, 0, name,
                              &k[comp ? CB_DELETE_COMPILED : CB_DELETE], false);
        break;
    case PICK_READ:
        rc = compilebench_run(ctx, env, CB_OP_READ, NULL, 0, name,
                              &k[comp ? CB_READ_COMPILED : CB_READ], true);
        break;
    case PICK_STAT:
        rc = compilebench_run(ctx, env, CB_OP_STAT, NULL, 0, name,
                              &k[comp ? CB_STAT_COMPILED : CB_STAT], false);
        break;
    case PICK_CREATE:
    default:
        rc = compilebench_run(ctx, env, CB_OP_WRITE, &data.l[CB_LIST_CLEAN], 0, name, &k[CB_CREATE],
                              true);
        break;
    }
    if (rc < 0)
        return -1;
    if (mv)
        trees_move(at, mv->to);
    else if (pick == PICK_DELETE)
        trees_remove(at);
    else if (pick == PICK_CREATE && trees_add(name, ST_CLEAN) < 0)
        return phase_fail(ctx, "compilebench", PHASE_TREE_DIR, -ENOMEM);
    return 1;
}

int phase_cb_random(struct phase_ctx *ctx)
{
    unsigned runs = params_of(ctx)->cb_runs;
    struct cb_summary keep = have_last ? last : (struct cb_summary){0};
    memset(&last, 0, sizeof last);
    last.k[CB_INITIAL] = keep.k[CB_INITIAL];
    memcpy(last.native, keep.native, sizeof last.native);
    last.warm = keep.warm;
    have_last = true;
    struct session s;
    if (session_open(ctx, &s) < 0)
        return -1;
    int rc = scan_trees(ctx, s.env.tdir);
    if (!have_rnd)
        start_random(ctx); /* run alone: as compilebench starts */
    for (unsigned done = 0; rc == 0 && done < runs;) {
        if (phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        int r = random_op(ctx, &s, &rnd);
        if (r < 0)
            rc = -1;
        done += (unsigned)(r > 0);
    }
    last.trees = (unsigned)trees.n;
    session_close(ctx, &s);
    if (rc == 0)
        write_note(ctx, &last, CB_CREATE, CB_KINDS - 1, false);
    return rc;
}
