/* workload.c — helpers shared by the workload phases (fsync storms, compilebench, age):
 * a listing tree walker, profile-shaped file sizes, a write pattern and small utilities.
 *
 * The walker lists a whole directory (sorted by name) before its callback runs, so the
 * callback may create, rename and unlink entries in that directory without the scan
 * seeing them: readdir order after a change is file-system specific (btrfs gives a renamed
 * entry a new, later index, so an in-place scan would visit a file twice). Memory is one
 * listing per level of the current path, never the whole tree.
 */
#include "phase/workload.h"

#include "base/grow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/dirscan.h"

uint64_t wl_hash_str(uint64_t h, const char *s)
{
    return hash_fnv1a_more(h, s, strlen(s));
}

/* Standard normal by Box-Muller (one of the pair; simplicity over speed). */
static double normal(struct wl_rng *r)
{
    double u1 = wl_rng_unit(r), u2 = wl_rng_unit(r);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

uint64_t wl_profile_size(const struct profile *p, struct wl_rng *r)
{
    bool large = p->large_share > 0 && wl_rng_unit(r) < p->large_share;
    double mu = large ? p->large_mu : p->size_mu;
    double sigma = large ? p->large_sigma : p->size_sigma;
    double lo = large ? 0 : (double)p->size_min;
    double hi = large ? (double)p->large_max : (double)p->size_max;
    double v = 0;
    for (int i = 0; i < 8; i++) {
        v = exp(mu + sigma * normal(r));
        if (v >= lo && v <= hi)
            break;
    }
    if (v < lo)
        v = lo;
    if (hi > 0 && v > hi)
        v = hi;
    return (uint64_t)v;
}

static unsigned char pattern[WL_PATTERN_LEN];
static pthread_once_t pattern_once = PTHREAD_ONCE_INIT;

static void pattern_init(void)
{
    /* Printable text-like bytes, as source and object files are mostly compressible. */
    struct wl_rng r;
    wl_rng_seed(&r, 0x70617474ull, 1);
    for (size_t i = 0; i < WL_PATTERN_LEN; i++)
        pattern[i] = (unsigned char)(' ' + wl_rng_below(&r, 95));
}

const unsigned char *wl_pattern(void)
{
    pthread_once(&pattern_once, pattern_init);
    return pattern;
}

int wl_write_pattern(struct phase_ctx *ctx, int fd, uint64_t size, uint64_t salt)
{
    const unsigned char *p = wl_pattern();
    size_t off = (size_t)(salt % WL_PATTERN_LEN);
    while (size > 0) {
        size_t n = WL_PATTERN_LEN - off;
        if (n > size)
            n = (size_t)size;
        long r = ctx->eng->write(ctx->w, fd, p + off, n);
        if (r < 0)
            return (int)r;
        if (r == 0)
            return -EIO;
        size -= (uint64_t)r;
        off = (off + (size_t)r) % WL_PATTERN_LEN;
    }
    return 0;
}

int wl_mkdir_p(struct phase_ctx *ctx, int dirfd, const char *name)
{
    int rc = ctx->eng->mkdir(ctx->w, dirfd, name, 0755);
    if (rc == -EEXIST) {
        struct stat st;
        rc = ctx->eng->stat(ctx->w, dirfd, name, &st);
        if (rc == 0 && !S_ISDIR(st.st_mode))
            rc = -ENOTDIR;
    }
    return rc;
}

/* ---- the walker ---- */

struct walk_state {
    struct phase_ctx *ctx;
    const struct wl_walk *wk;
    struct dirscan_stack ds;
    char path[PATH_MAX];
    size_t plen;
};

static int list_add(struct wl_list *l, const char *name, unsigned char type)
{
    size_t len = strlen(name) + 1;
    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 64;
        struct wl_ent *p = realloc(l->ent, ncap * sizeof *p);
        if (!p)
            return -ENOMEM;
        l->ent = p;
        l->cap = ncap;
    }
    size_t off = l->used;
    if (grow_append(&l->names, &l->ncap, &l->used, name, len, false, 2048) < 0)
        return -ENOMEM;
    l->ent[l->n++] = (struct wl_ent){.name_off = off, .type = type};
    return 0;
}

/* The names live in the listing's arena. qsort_r's argument order differs between glibc and
 * the BSDs, so the arena reaches the comparison through a thread-local for the sort. */
static _Thread_local const char *cmp_names;

static int cmp_ent(const void *a, const void *b)
{
    const struct wl_ent *x = a, *y = b;
    return strcmp(cmp_names + x->name_off, cmp_names + y->name_off);
}

/* Appends "/name" to the path for messages; returns the old length to restore. */
static size_t path_push(struct walk_state *s, const char *name)
{
    size_t old = s->plen;
    int n = snprintf(s->path + s->plen, sizeof s->path - s->plen, "/%s", name);
    if (n > 0)
        s->plen += (size_t)n < sizeof s->path - s->plen ? (size_t)n : sizeof s->path - s->plen - 1;
    return old;
}

static int walk_fail(struct walk_state *s, const char *op, const char *name, int rc)
{
    size_t old = name ? path_push(s, name) : s->plen;
    if (strcmp(op, "open") == 0 || strcmp(op, "rmdir") == 0)
        phase_fail_dir(s->ctx, op, s->path, rc); /* a directory of the tree */
    else
        phase_fail(s->ctx, op, s->path, rc);
    s->plen = old;
    s->path[old] = '\0';
    return -1;
}

/* Reads directory fd into l (sorted unless native_order), resolving unknown types (and sizes if stat_all). */
static int list_dir(struct walk_state *s, int fd, struct wl_list *l)
{
    const struct engine *e = s->ctx->eng;
    struct dirscan *d = dirscan_push(&s->ds, fd, "");
    if (!d)
        return walk_fail(s, "list", NULL, -ENOMEM);
    struct dirscan_ent de;
    int r;
    while ((r = dirscan_next(e, s->ctx->w, d, &de)) > 0) {
        if (list_add(l, de.name, de.type) < 0) {
            dirscan_pop(&s->ds);
            return walk_fail(s, "list", NULL, -ENOMEM);
        }
    }
    dirscan_pop(&s->ds);
    if (r < 0)
        return walk_fail(s, "readdir", NULL, r);
    if (l->n > 1 && !s->wk->native_order) {
        cmp_names = l->names;
        qsort(l->ent, l->n, sizeof *l->ent, cmp_ent);
    }
    for (size_t i = 0; i < l->n; i++) {
        struct wl_ent *en = &l->ent[i];
        if (!s->wk->stat_all && en->type != DT_UNKNOWN)
            continue;
        struct stat st;
        int rc = e->stat(s->ctx->w, fd, wl_name(l, i), &st);
        if (rc < 0)
            return walk_fail(s, "stat", wl_name(l, i), rc);
        en->type = (unsigned char)IFTODT(st.st_mode);
        en->size = (uint64_t)st.st_size;
        en->mode = (uint32_t)(st.st_mode & 07777);
    }
    return 0;
}

static int walk_level(struct walk_state *s, int fd, unsigned depth)
{
    struct phase_ctx *ctx = s->ctx;
    const struct engine *e = ctx->eng;
    const struct wl_walk *wk = s->wk;
    struct wl_list l = {0};
    int rc = phase_check_interrupt(ctx);
    if (rc == 0)
        rc = list_dir(s, fd, &l);
    if (rc == 0 && wk->visit)
        rc = wk->visit(ctx, fd, s->path, &l, depth, wk->arg);
    for (size_t i = 0; rc == 0 && !wk->shallow && i < l.n; i++) {
        if (l.ent[i].type != DT_DIR)
            continue;
        const char *name = wl_name(&l, i);
        int cfd = e->opendir(ctx->w, fd, name);
        if (cfd < 0) {
            rc = walk_fail(s, "open", name, cfd);
            break;
        }
        size_t old = path_push(s, name);
        rc = walk_level(s, cfd, depth + 1);
        s->plen = old;
        s->path[old] = '\0';
        e->close(ctx->w, cfd);
        if (rc == 0 && wk->rmdirs) {
            int r = e->unlink(ctx->w, fd, name, AT_REMOVEDIR);
            if (r < 0)
                rc = walk_fail(s, "rmdir", name, r);
        }
        if (rc == 0 && wk->count_dirs)
            ctx->res->dirs++;
    }
    if (rc == 0 && wk->leave)
        rc = wk->leave(ctx, fd, s->path, &l, depth, wk->arg);
    free(l.ent);
    free(l.names);
    return rc < 0 ? -1 : 0;
}

int wl_walk(struct phase_ctx *ctx, int dirfd, const char *name, const char *path,
            const struct wl_walk *wk)
{
    struct walk_state *s = calloc(1, sizeof *s);
    if (!s)
        return phase_fail(ctx, "walk", path, -ENOMEM);
    s->ctx = ctx;
    s->wk = wk;
    snprintf(s->path, sizeof s->path, "%s", path);
    s->plen = strlen(s->path);
    int fd = ctx->eng->opendir(ctx->w, dirfd, name);
    int rc;
    if (fd < 0) {
        rc = phase_fail_dir(ctx, "open", path, fd);
    } else {
        rc = walk_level(s, fd, 0);
        ctx->eng->close(ctx->w, fd);
    }
    dirscan_free(&s->ds);
    free(s);
    return rc;
}
