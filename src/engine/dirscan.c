/* dirscan.c — directory records (os/dirent.h) through the engine, one buffer per depth, with
 * a window of open levels (see dirscan.h). */
#include "engine/dirscan.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "base/err.h"
#include "os/dirent.h"


/* fds kept for everything but the walk: stdio, the store, the sampler, the workspace, an
 * archive, an io_uring ring... */
#define DIRSCAN_RESERVE 24
/* Queue items per thread a walking phase may hold open (workq_short: 2 per thread, plus
 * the ones handed to waiting workers). */
#define DIRSCAN_QUEUED 3

void dirscan_init(struct dirscan_stack *s, const struct engine *e, struct eng_worker *w,
                  size_t window)
{
    s->e = e;
    s->w = w;
    s->window = window;
    s->check_ids = (e->caps & ENG_CAP_REAL) != 0;
}

size_t dirscan_window(unsigned threads, unsigned fds_per_level)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
        return DIRSCAN_WINDOW_MAX;
    if (!threads)
        threads = 1;
    if (!fds_per_level)
        fds_per_level = 1;
    uint64_t per = (uint64_t)threads * fds_per_level;
    uint64_t reserve = DIRSCAN_RESERVE + DIRSCAN_QUEUED * per;
    uint64_t w = rl.rlim_cur > reserve ? (rl.rlim_cur - reserve) / per : 0;
    return w < 2 ? 2 : w > DIRSCAN_WINDOW_MAX ? DIRSCAN_WINDOW_MAX : (size_t)w;
}

struct dirscan *dirscan_push(struct dirscan_stack *s, int fd, const char *name)
{
    if (s->n == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 16;
        struct dirscan *lv = realloc(s->lv, ncap * sizeof *lv);
        if (!lv) {
            error("out of memory");
            return NULL;
        }
        memset(lv + s->cap, 0, (ncap - s->cap) * sizeof *lv);
        s->lv = lv;
        s->cap = ncap;
    }
    struct dirscan *d = &s->lv[s->n];
    if (d->cap < DIRSCAN_BUF) {
        free(d->buf);
        d->cap = 0;
        d->buf = malloc(DIRSCAN_BUF);
        if (!d->buf) {
            error("out of memory");
            return NULL;
        }
        d->cap = DIRSCAN_BUF;
    }
    d->filled = d->pos = 0;
    d->drained = false;
    d->fd = fd;
    d->fd2 = -1;
    d->node = NULL;
    d->pass = 0;
    size_t nl = strlen(name);
    if (nl < sizeof d->own) {
        memmove(d->own, name, nl + 1); /* name may be this slot's own old name */
        d->ext = NULL;
    } else {
        d->ext = name;
    }
    s->n++;
    return d;
}

void dirscan_pop(struct dirscan_stack *s)
{
    if (s->n)
        s->n--;
    if (s->first_open > s->n)
        s->first_open = s->n;
}

void dirscan_free(struct dirscan_stack *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->lv[i].buf);
    free(s->lv);
    free(s->scratch);
    memset(s, 0, sizeof *s);
}

/* The window's own opens and closes (draining a level, reopening it as "..") are
 * fsbench's bookkeeping, not the phase's workload: their time is in the phase's wall time,
 * but they are counted in a scratch opstats, so that a phase counts the same operations
 * however deep the tree and however many threads share it. Returns the worker's own. */
static struct opstats *uncounted_begin(struct dirscan_stack *s)
{
    if (!s->scratch)
        s->scratch = calloc(1, sizeof *s->scratch);
    return eng_uncounted_begin(s->w, s->scratch);
}

static void uncounted_end(struct dirscan_stack *s, struct opstats *own)
{
    eng_uncounted_end(s->w, own);
}

static void close_fd(struct dirscan_stack *s, int *fd)
{
    if (*fd >= 0)
        s->e->close(s->w, *fd);
    *fd = -1;
}

/* Records the identity of level d's fds, to check them when they are reopened. */
static int record_ids(struct dirscan_stack *s, struct dirscan *d)
{
    struct stat st;
    if (!s->check_ids)
        return 0;
    if (fstat(d->fd, &st) < 0)
        return -errno;
    d->dev = st.st_dev;
    d->ino = st.st_ino;
    if (d->fd2 >= 0) {
        if (fstat(d->fd2, &st) < 0)
            return -errno;
        d->dev2 = st.st_dev;
        d->ino2 = st.st_ino;
    }
    return 0;
}

/* Reads the rest of level d into memory and closes its fds (see dirscan.h). A level
 * drained before (and reopened since) has its rest in memory already: a reopened fd reads
 * from the start. 0 or -errno. */
static int drain_level(struct dirscan_stack *s, struct dirscan *d)
{
    if (d->drained) {
        int rc = record_ids(s, d);
        if (rc < 0)
            return rc;
        struct opstats *own = uncounted_begin(s);
        close_fd(s, &d->fd);
        close_fd(s, &d->fd2);
        uncounted_end(s, own);
        return 0;
    }
    size_t have = (size_t)(d->filled - d->pos), cap = have + DIRSCAN_BUF;
    char *nb = malloc(cap);
    if (!nb)
        return -ENOMEM;
    memcpy(nb, d->buf + d->pos, have);
    for (;;) {
        if (cap - have < DIRSCAN_BUF) {
            char *g = have > (size_t)INT32_MAX / 2 ? NULL : realloc(nb, cap * 2);
            if (!g) {
                free(nb);
                return -ENOMEM;
            }
            nb = g;
            cap *= 2;
        }
        int r = s->e->getdents(s->w, d->fd, nb + have, DIRSCAN_BUF);
        if (r < 0) {
            free(nb);
            return r;
        }
        if (r == 0)
            break;
        have += (size_t)r;
    }
    int rc = record_ids(s, d);
    if (rc < 0) {
        free(nb);
        return rc;
    }
    /* Only what is left stays allocated; a shrink the allocator refuses keeps the larger
     * buffer (nb is still valid then, and holds every byte). */
    char *fit = have ? realloc(nb, have) : NULL;
    if (!have)
        free(nb);
    free(d->buf);
    d->buf = fit ? fit : have ? nb : NULL;
    d->cap = fit || !have ? have : cap;
    d->filled = (int)have;
    d->pos = 0;
    d->drained = true;
    struct opstats *own = uncounted_begin(s);
    close_fd(s, &d->fd);
    close_fd(s, &d->fd2);
    uncounted_end(s, own);
    return 0;
}

int dirscan_enter(struct dirscan_stack *s, int fd, int fd2, const char *name)
{
    if (!dirscan_push(s, fd, name)) {
        if (fd >= 0)
            s->e->close(s->w, fd);
        if (fd2 >= 0)
            s->e->close(s->w, fd2);
        return -ENOMEM;
    }
    s->lv[s->n - 1].fd2 = fd2;
    if (s->n == 1)
        s->first_open = 0;
    while (s->window && s->n - s->first_open > s->window) {
        int rc = drain_level(s, &s->lv[s->first_open]);
        if (rc < 0)
            return rc;
        s->first_open++;
    }
    return 0;
}

/* Reopens *fd as ".." of child, checked against the recorded identity. 0 or -errno. */
static int reopen(struct dirscan_stack *s, int child, int *fd, dev_t dev, ino_t ino)
{
    struct opstats *own = uncounted_begin(s);
    int r = s->e->opendir(s->w, child, "..");
    if (r >= 0 && s->check_ids) {
        struct stat st;
        if (fstat(r, &st) < 0 || st.st_dev != dev || st.st_ino != ino) {
            s->e->close(s->w, r);
            r = -ESTALE;
        }
    }
    uncounted_end(s, own);
    if (r < 0)
        return r;
    *fd = r;
    return 0;
}

int dirscan_leave(struct dirscan_stack *s)
{
    struct dirscan *c = &s->lv[s->n - 1];
    int rc = 0;
    if (s->n >= 2 && s->first_open > s->n - 2) {
        struct dirscan *p = &s->lv[s->n - 2];
        rc = reopen(s, c->fd, &p->fd, p->dev, p->ino);
        if (rc == 0 && c->fd2 >= 0) {
            rc = reopen(s, c->fd2, &p->fd2, p->dev2, p->ino2);
            if (rc < 0)
                close_fd(s, &p->fd);
        }
        if (rc == 0)
            s->first_open = s->n - 2;
    }
    close_fd(s, &c->fd);
    close_fd(s, &c->fd2);
    dirscan_pop(s);
    return rc;
}

void dirscan_unwind(struct dirscan_stack *s, size_t n)
{
    while (s->n > n) {
        struct dirscan *c = &s->lv[s->n - 1];
        close_fd(s, &c->fd);
        close_fd(s, &c->fd2);
        dirscan_pop(s);
    }
}

int dirscan_next(const struct engine *e, struct eng_worker *w, struct dirscan *d,
                 struct dirscan_ent *out)
{
    for (;;) {
        if (d->pos >= d->filled) {
            if (d->drained)
                return 0;
            int r = e->getdents(w, d->fd, d->buf, DIRSCAN_BUF);
            if (r <= 0)
                return r;
            d->filled = r;
            d->pos = 0;
        }
        const struct os_dirent *de = os_dirent_at(d->buf, (size_t)d->pos);
        d->pos += de->d_reclen;
        const char *n = de->d_name;
        if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
            continue;
        out->name = n;
        out->type = de->d_type;
        return 1;
    }
}

/* Where dirscan_path's characters go: a first pass counts them; a path that does not fit
 * keeps its first `head` characters and its end. */
struct path_out {
    char *buf;
    size_t len, total, head, tail_from, at;
    bool counting;
};

static void path_put(struct path_out *o, char c)
{
    size_t p = o->at++;
    if (o->counting)
        return;
    if (o->total < o->len) {
        o->buf[p] = c;
    } else if (p < o->head) {
        o->buf[p] = c;
    } else if (p >= o->tail_from) {
        o->buf[o->head + 3 + (p - o->tail_from)] = c;
    }
}

static void path_walk(const struct dirscan_stack *s, const char *last, struct path_out *o)
{
    bool any = false;
    for (size_t i = 0; i <= s->n; i++) {
        const char *n = i < s->n ? dirscan_name(&s->lv[i]) : last;
        if (!n)
            continue;
        if (any)
            path_put(o, '/');
        any = true;
        for (; *n; n++)
            path_put(o, *n);
    }
}

const char *dirscan_path(const struct dirscan_stack *s, const char *last, char *buf,
                         size_t len)
{
    struct path_out o = {.buf = buf, .len = len, .counting = true};
    if (len == 0)
        return buf;
    path_walk(s, last, &o);
    o.total = o.at;
    o.at = 0;
    o.counting = false;
    if (o.total >= len && len < 16) {
        buf[0] = '\0';
        return buf;
    }
    if (o.total >= len) {
        o.head = (len - 4) / 4;
        size_t tail = len - 4 - o.head;
        o.tail_from = o.total - tail;
        memcpy(buf + o.head, "...", 3);
        buf[len - 1] = '\0';
    }
    path_walk(s, last, &o);
    if (o.total < len)
        buf[o.total] = '\0';
    return buf;
}
