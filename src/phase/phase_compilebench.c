/* phase_compilebench.c — the compilebench phases: cb_initial ("initial create" of
 * params->cb_initial trees) and cb_random (params->cb_runs operations drawn from ctx->seed),
 * with the per-kind totals kept for compilebench_last() and summed up in the note. The model
 * of the trees and operations, and its sources, are in compilebench.c.
 *
 * The trees are the directories "tree/kernel-N"; which exist and which are compiled is read
 * from the file system when a phase starts (a tree is compiled when its vmlinux.o exists),
 * so the phases share no state but the summary.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "phase/workload.h"

/* Relative weights of the random kinds (CB_CREATE..CB_STAT_COMPILED; see compilebench.c
 * for why they are equal). */
static const unsigned kind_weight[CB_KINDS] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

/* The totals of the last cb_initial / cb_random of this process (compilebench_last). */
static struct cb_summary last;
static bool have_last;

int compilebench_last(struct cb_summary *out)
{
    if (!have_last)
        return -1;
    *out = last;
    return 0;
}

/* ---- the trees present, and the phases ---- */

struct cb_tree {
    unsigned id;
    bool compiled;
};

struct cb_trees {
    struct cb_tree *t;
    size_t n, cap;
    unsigned next_id;
};

static int trees_add(struct cb_trees *ts, unsigned id, bool compiled)
{
    if (ts->n == ts->cap) {
        size_t ncap = ts->cap ? ts->cap * 2 : 16;
        struct cb_tree *p = realloc(ts->t, ncap * sizeof *p);
        if (!p)
            return -ENOMEM;
        ts->t = p;
        ts->cap = ncap;
    }
    ts->t[ts->n++] = (struct cb_tree){id, compiled};
    if (id >= ts->next_id)
        ts->next_id = id + 1;
    return 0;
}

static int cmp_tree(const void *a, const void *b)
{
    const struct cb_tree *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Collects the kernel-N directories of "tree" and whether each is compiled. */
static int find_visit(struct phase_ctx *ctx, int dirfd, const char *path, const struct wl_list *l,
                      unsigned depth, void *arg)
{
    struct cb_trees *ts = arg;
    const size_t plen = strlen(WL_CB_PREFIX);
    for (size_t i = 0; i < l->n; i++) {
        const char *name = wl_name(l, i);
        char *end;
        if (l->ent[i].type != DT_DIR || strncmp(name, WL_CB_PREFIX, plen) != 0)
            continue;
        unsigned long id = strtoul(name + plen, &end, 10);
        if (*end || end == name + plen || id > 1000000)
            continue;
        /* vmlinux.o by its name in the tree's own fd: a stat of "kernel-N/vmlinux.o" would
         * follow kernel-N if it had been swapped for a symlink */
        struct stat st;
        int tfd = ctx->eng->opendir(ctx->w, dirfd, name);
        if (tfd < 0) {
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/%s", path, name);
            return phase_fail_dir(ctx, "open", p, tfd);
        }
        bool compiled = ctx->eng->stat(ctx->w, tfd, "vmlinux.o", &st) == 0;
        ctx->eng->close(ctx->w, tfd);
        if (trees_add(ts, (unsigned)id, compiled) < 0)
            return phase_fail(ctx, "list", path, -ENOMEM);
    }
    return 0;
}

/* The trees present in "tree" (open as tdir), by id. 0 or -1 after phase_fail. */
static int find_trees(struct phase_ctx *ctx, int tdir, struct cb_trees *ts)
{
    struct wl_walk wk = {.visit = find_visit, .shallow = true, .arg = ts};
    if (wl_walk(ctx, tdir, ".", PHASE_TREE_DIR, &wk) < 0)
        return -1;
    if (ts->n > 1)
        qsort(ts->t, ts->n, sizeof *ts->t, cmp_tree);
    return 0;
}

/* "create 5 runs 15.64 MB/s; ..." for the kinds [from, to] that ran, into the note. The
 * note holds 255 characters, so when compilebench's full wording does not fit, shorter forms
 * are tried ("create 5x 15.6 MB/s", then "create 5x 15.6MB/s;patch ..."); a note that still
 * does not fit ends with "...". compilebench_format() gives the full table. */
static void write_note(struct phase_ctx *ctx, const struct cb_summary *s, int from, int to)
{
    static const struct {
        const char *sep, *runs, *unit_sep;
        bool g3;
    } form[] = {{"; ", " runs", " ", false}, {"; ", "x", " ", true}, {";", "x", "", true}};
    const int nforms = (int)(sizeof form / sizeof form[0]);
    char *note = ctx->res->note;
    size_t cap = sizeof ctx->res->note;
    for (int f = 0; f < nforms; f++) {
        size_t n = 0;
        bool fits = true;
        note[0] = '\0';
        for (int k = from; k <= to; k++) {
            const struct cb_kind_total *t = &s->k[k];
            if (t->runs == 0)
                continue;
            char item[128];
            double avg = cb_kind_avg(t, (enum cb_kind)k);
            snprintf(item, sizeof item,
                     form[f].g3 ? "%s%s %llu%s %.3g%s%s" : "%s%s %llu%s %.2f%s%s",
                     n ? form[f].sep : "", cb_kind_name((enum cb_kind)k),
                     (unsigned long long)t->runs, form[f].runs, avg, form[f].unit_sep,
                     cb_kind_is_throughput((enum cb_kind)k) ? "MB/s" : "s");
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

int phase_cb_initial(struct phase_ctx *ctx)
{
    unsigned n = params_of(ctx)->cb_initial;
    struct cb_trees ts = {0};
    int tdir = compilebench_open_trees(ctx);
    if (tdir < 0)
        return -1;
    memset(&last, 0, sizeof last);
    have_last = true;
    int rc = find_trees(ctx, tdir, &ts);
    for (unsigned i = 0; rc == 0 && i < n; i++) {
        if (phase_check_interrupt(ctx))
            rc = -1;
        else
            rc = compilebench_run(ctx, tdir, CB_CREATE, CB_INITIAL, ts.next_id + i, 0, &last);
    }
    last.trees = (unsigned)ts.n + (rc == 0 ? n : 0);
    ctx->eng->close(ctx->w, tdir);
    free(ts.t);
    if (rc == 0)
        write_note(ctx, &last, CB_INITIAL, CB_INITIAL);
    return rc;
}

/* Whether tree t can take kind k (with n trees present). */
static bool fits(enum cb_kind k, const struct cb_tree *t, size_t n)
{
    switch (k) {
    case CB_CREATE:
    case CB_PATCH:
    case CB_COMPILE:
        return true;
    case CB_CLEAN:
    case CB_READ_COMPILED:
    case CB_STAT_COMPILED:
        return t->compiled;
    case CB_READ:
    case CB_STAT:
        return !t->compiled;
    case CB_DELETE:
        return !t->compiled && n > 1;
    case CB_DELETE_COMPILED:
        return t->compiled && n > 1;
    default:
        return false;
    }
}

/* Draws a kind and a tree for it: the tree's index in ts, or ts->n for a new tree. */
static size_t draw(struct wl_rng *r, const struct cb_trees *ts, enum cb_kind *kind)
{
    unsigned wsum = 0;
    for (int k = CB_CREATE; k < CB_KINDS; k++)
        wsum += kind_weight[k];
    for (;;) {
        unsigned x = (unsigned)wl_rng_below(r, wsum);
        enum cb_kind k = CB_CREATE;
        while (x >= kind_weight[k])
            x -= kind_weight[k++];
        if (k == CB_CREATE) {
            *kind = k;
            return ts->n;
        }
        size_t ok = 0;
        for (size_t i = 0; i < ts->n; i++)
            ok += fits(k, &ts->t[i], ts->n);
        if (ok == 0)
            continue; /* create always fits, so this ends */
        size_t pick = (size_t)wl_rng_below(r, ok);
        for (size_t i = 0; i < ts->n; i++)
            if (fits(k, &ts->t[i], ts->n) && pick-- == 0) {
                *kind = k;
                return i;
            }
    }
}

int phase_cb_random(struct phase_ctx *ctx)
{
    unsigned runs = params_of(ctx)->cb_runs;
    struct cb_trees ts = {0};
    struct wl_rng rng;
    wl_rng_seed(&rng, ctx->seed, 0xcb7a11d0ull);
    int tdir = compilebench_open_trees(ctx);
    if (tdir < 0)
        return -1;
    struct cb_kind_total initial = have_last ? last.k[CB_INITIAL] : (struct cb_kind_total){0};
    memset(&last, 0, sizeof last);
    last.k[CB_INITIAL] = initial;
    have_last = true;
    int rc = find_trees(ctx, tdir, &ts);
    for (unsigned i = 0; rc == 0 && i < runs; i++) {
        if (phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        enum cb_kind k;
        size_t at = draw(&rng, &ts, &k);
        unsigned id = at == ts.n ? ts.next_id : ts.t[at].id;
        rc = compilebench_run(ctx, tdir, k, k, id, wl_rng_next(&rng), &last);
        if (rc < 0)
            break;
        if (k == CB_CREATE) {
            if (trees_add(&ts, id, false) < 0)
                rc = phase_fail(ctx, "compilebench", PHASE_TREE_DIR, -ENOMEM);
        } else if (k == CB_COMPILE) {
            ts.t[at].compiled = true;
        } else if (k == CB_CLEAN) {
            ts.t[at].compiled = false;
        } else if (k == CB_DELETE || k == CB_DELETE_COMPILED) {
            memmove(&ts.t[at], &ts.t[at + 1], (ts.n - at - 1) * sizeof *ts.t);
            ts.n--;
        }
    }
    last.trees = (unsigned)ts.n;
    ctx->eng->close(ctx->w, tdir);
    free(ts.t);
    if (rc == 0)
        write_note(ctx, &last, CB_CREATE, CB_KINDS - 1);
    return rc;
}
