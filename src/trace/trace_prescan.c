/* trace_prescan.c — the scan of a directory before a recording (trace_prescan.h). The
 * table is open addressing on a 64-bit hash of the path (two paths with one hash would be
 * taken for one: 1 in 2^64 a pair). Strings (symlink targets when scanned, paths when
 * used) go to one growing arena, referred to by offset.
 */
#include "trace/trace_prescan.h"

#include "base/grow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/hash.h"
#include "os/beneath.h"
#include "os/dirent.h"

#define SCAN_BUF (32 * 1024)

struct pent {
    uint64_t hash;       /* 0: empty slot */
    uint64_t size;
    uint64_t path_off;   /* into the arena + 1; 0: not used */
    uint64_t target_off; /* into the arena + 1; 0: none */
    uint32_t path_len, target_len;
    uint32_t mode;
    uint8_t type;
};

struct trace_prescan {
    struct pent *tab;
    size_t cap, n;
    char *arena;
    size_t alen, acap;
    uint64_t nused;
};

static uint64_t path_hash(const char *s, size_t n)
{
    uint64_t h = hash_fnv1a(s, n);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h ? h : 1;
}

struct trace_prescan *trace_prescan_new(void)
{
    struct trace_prescan *p = calloc(1, sizeof *p);
    if (p) {
        p->cap = 1024;
        p->tab = calloc(p->cap, sizeof *p->tab);
        if (!p->tab) {
            free(p);
            p = NULL;
        }
    }
    if (!p)
        error("out of memory");
    return p;
}

static struct pent *slot_of(const struct trace_prescan *p, uint64_t h)
{
    size_t mask = p->cap - 1, i = (size_t)h & mask;
    while (p->tab[i].hash && p->tab[i].hash != h)
        i = (i + 1) & mask;
    return &p->tab[i];
}

static int grow(struct trace_prescan *p)
{
    size_t cap = p->cap * 2;
    struct pent *old = p->tab, *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    size_t ocap = p->cap;
    p->tab = t;
    p->cap = cap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].hash)
            *slot_of(p, old[i].hash) = old[i];
    free(old);
    return 0;
}

/* Copies n bytes of s to the arena: offset + 1, or 0 when out of memory. */
static uint64_t keep(struct trace_prescan *p, const char *s, size_t n)
{
    if (p->alen + n + 1 > p->acap) {
        size_t cap = p->acap ? p->acap : 65536;
        while (cap < p->alen + n + 1)
            cap *= 2;
        char *a = realloc(p->arena, cap);
        if (!a)
            return 0;
        p->arena = a;
        p->acap = cap;
    }
    memcpy(p->arena + p->alen, s, n);
    p->arena[p->alen + n] = '\0';
    p->alen += n + 1;
    return p->alen - n - 1 + 1;
}

int trace_prescan_add(struct trace_prescan *p, const char *path, uint8_t type, uint32_t mode,
                      uint64_t size, const char *target)
{
    if ((p->n + 1) * 2 > p->cap && grow(p) < 0)
        return -1;
    uint64_t h = path_hash(path, strlen(path));
    struct pent *e = slot_of(p, h);
    if (!e->hash)
        p->n++;
    memset(e, 0, sizeof *e);
    e->hash = h;
    e->type = type;
    e->mode = mode & 07777;
    e->size = size;
    if (target) {
        e->target_len = (uint32_t)strlen(target);
        if (!(e->target_off = keep(p, target, e->target_len)))
            return -1;
        e->size = e->target_len;
    }
    return 0;
}

uint64_t trace_prescan_count(const struct trace_prescan *p)
{
    return p->n;
}

/* ---- the scan ---- */

struct queue {
    char *buf;
    size_t len, cap, head;
};

static int push(struct queue *q, const char *s, size_t n)
{
    return grow_append(&q->buf, &q->cap, &q->len, s, n, true, 65536);
}

/* Scans one directory (rel "" for the root): its entries into p, its subdirectories
 * onto q. 0, or -1 after error(). */
static int scan_one(struct trace_prescan *p, int rootfd, dev_t dev, const char *rel,
                    struct queue *q, uint64_t max, uint64_t *skipped, char *buf)
{
    int dfd = os_open_beneath(rootfd, rel[0] ? rel : ".", O_RDONLY | O_DIRECTORY, 0);
    if (dfd < 0) {
        if (errno == EXDEV || errno == ELOOP || errno == ENOENT || errno == EACCES) {
            (*skipped)++; /* a mount point, or changed under the scan */
            return 0;
        }
        return error_errno("record: scan %s", rel[0] ? rel : ".");
    }
    char child[TRACE_PATH_MAX], target[TRACE_PATH_MAX];
    size_t rl = strlen(rel);
    int rc = 0;
    for (;;) {
        long n = os_getdents(dfd, buf, SCAN_BUF);
        if (n < 0) {
            rc = error_errno("record: scan %s", rel[0] ? rel : ".");
            break;
        }
        if (n == 0)
            break;
        for (long off = 0; off < n;) {
            const struct os_dirent *d = os_dirent_at(buf, (size_t)off);
            off += d->d_reclen;
            const char *name = d->d_name;
            if (!strcmp(name, ".") || !strcmp(name, ".."))
                continue;
            size_t cl = (size_t)snprintf(child, sizeof child, "%s%s%s", rel, rl ? "/" : "", name);
            struct stat st;
            if (cl >= sizeof child || fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
                st.st_dev != dev) {
                (*skipped)++;
                continue;
            }
            if (p->n >= max) {
                rc = error("record: more than %llu entries below the directory; name a smaller "
                           "one with --root", (unsigned long long)max);
                break;
            }
            const char *tgt = NULL;
            uint8_t type;
            if (S_ISDIR(st.st_mode)) {
                type = TT_DIR;
            } else if (S_ISREG(st.st_mode)) {
                type = TT_REG;
            } else if (S_ISLNK(st.st_mode)) {
                ssize_t k = readlinkat(dfd, name, target, sizeof target - 1);
                if (k <= 0) {
                    (*skipped)++;
                    continue;
                }
                target[k] = '\0';
                tgt = target;
                type = TT_SYMLINK;
            } else {
                (*skipped)++; /* a device, fifo or socket: nothing a replay makes */
                continue;
            }
            if (trace_prescan_add(p, child, type, (uint32_t)st.st_mode,
                                  type == TT_REG ? (uint64_t)st.st_size : 0, tgt) < 0 ||
                (type == TT_DIR && push(q, child, cl) < 0)) {
                rc = error("out of memory");
                break;
            }
        }
        if (rc)
            break;
    }
    os_dirent_release(dfd);
    close(dfd);
    return rc;
}

struct trace_prescan *trace_prescan_dir(int dirfd, uint64_t max_entries, uint64_t *skipped)
{
    struct stat st;
    *skipped = 0;
    if (fstat(dirfd, &st) < 0) {
        error_errno("record: the directory");
        return NULL;
    }
    struct trace_prescan *p = trace_prescan_new();
    char *buf = malloc(SCAN_BUF);
    struct queue q = {0};
    if (!p || !buf || push(&q, "", 0) < 0) {
        if (p)
            error("out of memory");
        trace_prescan_free(p);
        free(buf);
        return NULL;
    }
    int rc = 0;
    while (rc == 0 && q.head < q.len) {
        /* the queue may move when it grows: copy the path out */
        char rel[TRACE_PATH_MAX];
        snprintf(rel, sizeof rel, "%s", q.buf + q.head);
        q.head += strlen(q.buf + q.head) + 1;
        rc = scan_one(p, dirfd, st.st_dev, rel, &q, max_entries, skipped, buf);
    }
    free(q.buf);
    free(buf);
    if (rc) {
        trace_prescan_free(p);
        return NULL;
    }
    return p;
}

/* ---- use ---- */

int trace_prescan_use(struct trace_prescan *p, const char *path, size_t n)
{
    /* from the path up: stop at the first ancestor already used (so are its ancestors) */
    while (n > 0 && !(n == 1 && path[0] == '.')) {
        struct pent *e = slot_of(p, path_hash(path, n));
        if (e->hash) {
            if (e->path_off)
                return 0;
            if (!(e->path_off = keep(p, path, n)))
                return -1;
            e->path_len = (uint32_t)n;
            p->nused++;
        }
        while (n > 0 && path[n - 1] != '/')
            n--;
        if (n > 0)
            n--; /* the '/' */
    }
    return 0;
}

static const struct trace_prescan *sort_p;

static int by_path(const void *a, const void *b)
{
    const struct pent *x = *(const struct pent *const *)a, *y = *(const struct pent *const *)b;
    size_t n = x->path_len < y->path_len ? x->path_len : y->path_len;
    int r = memcmp(sort_p->arena + x->path_off - 1, sort_p->arena + y->path_off - 1, n);
    return r ? r : (x->path_len > y->path_len) - (x->path_len < y->path_len);
}

int trace_prescan_used(struct trace_prescan *p, int (*fn)(void *arg, const struct trace_entry *e),
                       void *arg, uint64_t *count, uint64_t *bytes)
{
    struct pent **v = malloc((p->nused ? p->nused : 1) * sizeof *v);
    if (!v)
        return error("out of memory");
    size_t k = 0;
    uint64_t sum = 0;
    for (size_t i = 0; i < p->cap; i++)
        if (p->tab[i].hash && p->tab[i].path_off) {
            v[k++] = &p->tab[i];
            if (p->tab[i].type == TT_REG)
                sum += p->tab[i].size;
        }
    if (count)
        *count = k;
    if (bytes)
        *bytes = sum;
    sort_p = p;
    qsort(v, k, sizeof *v, by_path);
    int rc = 0;
    for (size_t i = 0; i < k && rc == 0 && fn; i++) {
        const struct pent *e = v[i];
        struct trace_entry te = {
            .path = p->arena + e->path_off - 1,
            .path_len = e->path_len,
            .type = e->type,
            .mode = e->mode,
            .size = e->size,
            .target = e->target_off ? p->arena + e->target_off - 1 : NULL,
            .target_len = e->target_len,
        };
        rc = fn(arg, &te);
    }
    free(v);
    return rc;
}

void trace_prescan_free(struct trace_prescan *p)
{
    if (!p)
        return;
    free(p->tab);
    free(p->arena);
    free(p);
}
