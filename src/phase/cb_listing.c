/* cb_listing.c — compilebench's listings: parsing them (hostile input), reducing them to
 * what each operation writes, and the built-in model made from a tree spec. See
 * cb_listing.h for the format and the rules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/infile.h"
#include "base/grow.h"
#include "phase/cb_listing.h"
#include "phase/workload.h"

const char *const cb_listing_files[CB_LISTS] = {
    "dataset-unpatched",
    "dataset-patched",
    "dataset-unpatched-compiled",
    "dataset-patched-compiled",
};

int cb_listing_add(struct cb_listing *l, const char *path, size_t plen, uint64_t size,
                   unsigned line)
{
    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 1024;
        struct cb_entry *p = realloc(l->e, ncap * sizeof *p);
        if (!p)
            return -ENOMEM;
        l->e = p;
        l->cap = ncap;
    }
    size_t off = l->used;
    if (grow_append(&l->names, &l->ncap, &l->used, path, plen, true, 65536) < 0)
        return -ENOMEM;
    l->e[l->n++] = (struct cb_entry){.path_off = off, .size = size, .line = line};
    return 0;
}

void cb_listing_free(struct cb_listing *l)
{
    free(l->e);
    free(l->names);
    memset(l, 0, sizeof *l);
}

void cb_dataset_free(struct cb_dataset *d)
{
    for (int i = 0; i < CB_LISTS; i++)
        cb_listing_free(&d->l[i]);
    memset(d, 0, sizeof *d);
}

int cb_path_ok(const char *path, size_t len)
{
    if (len == 0 || len > CB_PATH_MAX || path[0] == '/')
        return 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && (unsigned char)path[i] < 0x20)
            return 0;
        if (i < len && path[i] == 0x7f)
            return 0;
        if (i == len || path[i] == '/') {
            size_t c = i - start;
            if (c == 0 || c > 255 || (c == 1 && path[start] == '.') ||
                (c == 2 && path[start] == '.' && path[start + 1] == '.'))
                return 0;
            start = i + 1;
        }
    }
    return 1;
}

/* The sort's arena (qsort has no argument; phases run one at a time). */
static const struct cb_listing *sort_list;

static int cmp_entry(const void *a, const void *b)
{
    const struct cb_entry *x = a, *y = b;
    int c = strcmp(sort_list->names + x->path_off, sort_list->names + y->path_off);
    if (c)
        return c;
    return x->line < y->line ? -1 : x->line > y->line;
}

void cb_listing_sort(struct cb_listing *l)
{
    sort_list = l;
    if (l->n > 1)
        qsort(l->e, l->n, sizeof *l->e, cmp_entry);
    sort_list = NULL;
}

size_t cb_listing_find(const struct cb_listing *l, const char *path)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(cb_path(l, mid), path);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (size_t)-1;
}

/* Sorts l and keeps the last entry of each path (a later line replaces an earlier one). */
static void sort_unique(struct cb_listing *l)
{
    cb_listing_sort(l);
    size_t o = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (o > 0 && !strcmp(cb_path(l, o - 1), cb_path(l, i)))
            o--;
        l->e[o++] = l->e[i];
    }
    l->n = o;
}

int cb_listing_parse(const char *text, size_t len, const char *file, struct cb_listing *out)
{
    unsigned line = 0;
    size_t pos = 0;
    while (pos < len) {
        line++;
        const char *s = text + pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - s) : len - pos;
        pos += ll + (nl ? 1 : 0);
        if (ll > 0 && s[ll - 1] == '\r')
            ll--;
        if (memchr(s, '\0', ll))
            return error("%s:%u: a NUL byte (not a listing of 'path size' lines)", file, line);
        size_t i = 0;
        while (i < ll && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i == ll)
            continue; /* blank */
        size_t p0 = i;
        while (i < ll && s[i] != ' ' && s[i] != '\t')
            i++;
        size_t plen = i - p0;
        while (i < ll && (s[i] == ' ' || s[i] == '\t'))
            i++;
        size_t z0 = i;
        while (i < ll && s[i] != ' ' && s[i] != '\t')
            i++;
        size_t zlen = i - z0;
        while (i < ll && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (zlen == 0 || i != ll)
            return error("%s:%u: expected 'path size', got '%.*s'", file, line,
                         (int)(ll > 80 ? 80 : ll), s);
        if (!cb_path_ok(s + p0, plen))
            return error("%s:%u: '%.*s' is not a relative path of names (no '..', '.' or empty "
                         "component, no leading '/', at most %u bytes)",
                         file, line, (int)(plen > 80 ? 80 : plen), s + p0, CB_PATH_MAX);
        uint64_t size = 0;
        for (size_t k = z0; k < z0 + zlen; k++) {
            if (s[k] < '0' || s[k] > '9')
                return error("%s:%u: size '%.*s' is not a whole number of bytes", file, line,
                             (int)(zlen > 40 ? 40 : zlen), s + z0);
            size = size * 10 + (uint64_t)(s[k] - '0');
            if (size > CB_SIZE_MAX)
                return error("%s:%u: size '%.*s' is over the limit of 16 GiB a file", file, line,
                             (int)(zlen > 40 ? 40 : zlen), s + z0);
        }
        if (out->n >= CB_ENTRIES_MAX)
            return error("%s:%u: more than %u entries", file, line, CB_ENTRIES_MAX);
        if (cb_listing_add(out, s + p0, plen, size, line) < 0)
            return error("%s: out of memory", file);
    }
    sort_unique(out);
    return 0;
}

/* Removes from l the entries whose path is in `other` (sorted) and, if same_size, only
 * those of the same size there. */
static void drop_in(struct cb_listing *l, const struct cb_listing *other, bool same_size)
{
    size_t o = 0;
    for (size_t i = 0; i < l->n; i++) {
        size_t j = cb_listing_find(other, cb_path(l, i));
        if (j != (size_t)-1 && (!same_size || other->e[j].size == l->e[i].size))
            continue;
        l->e[o++] = l->e[i];
    }
    l->n = o;
}

/* All paths of the four listings, sorted, for the file-or-directory check. */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int check_dirs(const struct cb_dataset *d, const char *where)
{
    size_t n = 0;
    for (int k = 0; k < CB_LISTS; k++)
        n += d->l[k].n;
    const char **all = malloc((n ? n : 1) * sizeof *all);
    if (!all)
        return error("%s: out of memory", where);
    n = 0;
    for (int k = 0; k < CB_LISTS; k++)
        for (size_t i = 0; i < d->l[k].n; i++)
            all[n++] = cb_path(&d->l[k], i);
    qsort(all, n, sizeof *all, cmp_str);
    int rc = 0;
    char pre[CB_PATH_MAX + 1];
    for (int k = 0; k < CB_LISTS && rc == 0; k++) {
        for (size_t i = 0; i < d->l[k].n && rc == 0; i++) {
            const char *p = cb_path(&d->l[k], i);
            for (const char *s = strchr(p, '/'); s; s = strchr(s + 1, '/')) {
                memcpy(pre, p, (size_t)(s - p));
                pre[s - p] = '\0';
                const char *key = pre;
                if (bsearch(&key, all, n, sizeof *all, cmp_str)) {
                    rc = error("%s/%s:%u: '%s' lies below '%s', which the data set has as a file",
                               where, cb_listing_files[k], d->l[k].e[i].line, p, pre);
                    break;
                }
            }
        }
    }
    free(all);
    return rc;
}

static void add_bytes(struct cb_dataset *d)
{
    for (int k = 0; k < CB_LISTS; k++) {
        d->bytes[k] = 0;
        for (size_t i = 0; i < d->l[k].n; i++)
            d->bytes[k] += d->l[k].e[i].size;
    }
}

int cb_dataset_reduce(struct cb_dataset *d, const char *where)
{
    if (check_dirs(d, where) < 0)
        return -1;
    /* in compilebench's order: the compiled listings lose what their sources have, the
     * patch keeps what changed, the patched objects lose what compile already wrote alike */
    drop_in(&d->l[CB_LIST_OBJS], &d->l[CB_LIST_CLEAN], false);
    drop_in(&d->l[CB_LIST_PATCH_OBJS], &d->l[CB_LIST_PATCH], false);
    drop_in(&d->l[CB_LIST_PATCH], &d->l[CB_LIST_CLEAN], true);
    drop_in(&d->l[CB_LIST_PATCH_OBJS], &d->l[CB_LIST_OBJS], true);
    if (d->l[CB_LIST_CLEAN].n == 0)
        return error("%s/%s: no entries (a data set's clean tree has files)", where,
                     cb_listing_files[CB_LIST_CLEAN]);
    add_bytes(d);
    return 0;
}

int cb_dataset_load(const char *dir, struct cb_dataset *d)
{
    memset(d, 0, sizeof *d);
    for (int k = 0; k < CB_LISTS; k++) {
        char path[4096], why[256];
        if (snprintf(path, sizeof path, "%s/%s", dir, cb_listing_files[k]) >= (int)sizeof path) {
            cb_dataset_free(d);
            return error("--cb-dataset: '%s' is too long a path", dir);
        }
        char *text;
        size_t len;
        if (infile_read(path, CB_LISTING_MAX, &text, &len, why, sizeof why) < 0) {
            cb_dataset_free(d);
            return error("--cb-dataset: %s: %s", path, why);
        }
        int rc = cb_listing_parse(text, len, path, &d->l[k]);
        free(text);
        if (rc < 0) {
            cb_dataset_free(d);
            return -1;
        }
    }
    if (cb_dataset_reduce(d, dir) < 0) {
        cb_dataset_free(d);
        return -1;
    }
    return 0;
}

/* ---- the built-in model ---- */

/* Ratios of 2.6.20's listings the model follows (compile: 1,232 objects of 203 MB from
 * 8,898 C files of 149 MB, as many command files of 10 KB, 127 built-in.o of 251 MB and
 * link outputs of 188 MB; patch: 6,136 files of 115 MB, 610 of them new). */
#define MODEL_MEAN_SIZE (233176153.0 / 21280.0)
#define MODEL_OBJS_RATIO (713696760.0 / 233176153.0)       /* compile's bytes / clean's */
#define MODEL_PATCH_OBJS_RATIO (725190942.0 / 233176153.0) /* patched objects' / clean's */
#define MODEL_OBJ_SHARE 0.1385 /* of the C and assembler files compiled */
#define MODEL_OBJ_FACTOR 9.6   /* object size / source size */
#define MODEL_CMD_SIZE 10240
#define MODEL_BUILTIN_FACTOR 1.24 /* built-in.o / its directory's objects */
#define MODEL_LINK_FACTOR 0.31    /* each of three link outputs / all objects */
#define MODEL_PATCH_SMALL 0.20    /* share of files under 16 KiB a patch changes */
#define MODEL_PATCH_LARGE 0.55    /* and of larger ones */
#define MODEL_PATCH_NEW 0.49      /* chance a directory gets a new file */
#define MODEL_PATCH_OBJS 0.79     /* share of objects the patch changes */

static double unit_of(uint64_t h)
{
    return (double)(wl_mix64(h) >> 11) * 0x1p-53;
}

static bool is_source(const char *p)
{
    size_t n = strlen(p);
    return n > 2 && p[n - 2] == '.' && (p[n - 1] == 'c' || p[n - 1] == 'S');
}

static size_t dir_len(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? (size_t)(s - p) : 0;
}

/* Adds "<dir>/<pre><base><suf>" (dir may be empty), base being p's last name less cut
 * bytes; 0 when it would not fit (skipped), -1 out of memory. */
static int add_named(struct cb_listing *l, const char *p, size_t cut, const char *pre,
                     const char *suf, uint64_t size)
{
    char name[CB_PATH_MAX + 64];
    size_t dl = dir_len(p);
    const char *base = dl ? p + dl + 1 : p;
    size_t bl = strlen(base) - cut;
    int n = snprintf(name, sizeof name, "%.*s%s%s%.*s%s", (int)dl, p, dl ? "/" : "", pre, (int)bl,
                     base, suf);
    if (n < 0 || (size_t)n > CB_PATH_MAX || strlen(pre) + bl + strlen(suf) > 255)
        return 0;
    return cb_listing_add(l, name, (size_t)n, size, 0) < 0 ? -1 : 0;
}

static int model_objs(struct cb_dataset *d)
{
    const struct cb_listing *c = &d->l[CB_LIST_CLEAN];
    struct cb_listing *o = &d->l[CB_LIST_OBJS];
    bool any_src = false;
    for (size_t i = 0; i < c->n && !any_src; i++)
        any_src = is_source(cb_path(c, i));
    uint64_t all = 0, dir_objs = 0;
    for (size_t i = 0; i < c->n; i++) {
        const char *p = cb_path(c, i);
        uint64_t h = wl_hash_str(WL_HASH_INIT, p);
        if ((any_src && is_source(p)) || !any_src) {
            if (unit_of(h) < MODEL_OBJ_SHARE) {
                size_t cut = any_src ? 2 : 0;
                uint64_t sz =
                    (uint64_t)((double)c->e[i].size * MODEL_OBJ_FACTOR * (0.5 + unit_of(h + 1)));
                if (sz < 1024)
                    sz = 1024;
                if (add_named(o, p, cut, "", ".o", sz) < 0 ||
                    add_named(o, p, cut, ".", ".o.cmd",
                              (uint64_t)(MODEL_CMD_SIZE * (0.5 + unit_of(h + 2)))) < 0)
                    return -1;
                dir_objs += sz;
                all += sz;
            }
        }
        /* the directory ends: its built-in.o (the listing is sorted, so a directory's own
         * files are together) */
        bool last = i + 1 == c->n || dir_len(cb_path(c, i + 1)) != dir_len(p) ||
                    strncmp(cb_path(c, i + 1), p, dir_len(p));
        if (last && dir_objs) {
            char bi[CB_PATH_MAX + 16];
            size_t dl = dir_len(p);
            snprintf(bi, sizeof bi, "%.*s%sbuilt-in.o", (int)dl, p, dl ? "/" : "");
            if (cb_listing_add(o, bi, strlen(bi),
                               (uint64_t)((double)dir_objs * MODEL_BUILTIN_FACTOR), 0) < 0)
                return -1;
            dir_objs = 0;
        }
    }
    static const char *const link[] = {"vmlinux", ".tmp_vmlinux1", ".tmp_vmlinux2"};
    for (size_t k = 0; k < 3; k++)
        if (all && cb_listing_add(o, link[k], strlen(link[k]),
                                  (uint64_t)((double)all * MODEL_LINK_FACTOR) + k, 0) < 0)
            return -1;
    return 0;
}

static int model_patch(struct cb_dataset *d)
{
    const struct cb_listing *c = &d->l[CB_LIST_CLEAN];
    struct cb_listing *p = &d->l[CB_LIST_PATCH];
    for (size_t i = 0; i < c->n; i++) {
        const char *path = cb_path(c, i);
        uint64_t h = wl_hash_str(0x9a7c4ull, path), sz = c->e[i].size;
        double share = sz < 16384 ? MODEL_PATCH_SMALL : MODEL_PATCH_LARGE;
        if (unit_of(h) < share) {
            uint64_t delta = 1 + (uint64_t)(unit_of(h + 1) * (double)(sz / 10 + 1));
            uint64_t nsz = (unit_of(h + 2) < 0.5 && delta < sz) ? sz - delta : sz + delta;
            if (cb_listing_add(p, path, strlen(path), nsz, 0) < 0)
                return -1;
        }
        bool last = i + 1 == c->n || dir_len(cb_path(c, i + 1)) != dir_len(path) ||
                    strncmp(cb_path(c, i + 1), path, dir_len(path));
        if (last && unit_of(h + 3) < MODEL_PATCH_NEW &&
            add_named(p, path, strlen(path) - dir_len(path) - (dir_len(path) ? 1 : 0), "patch-new",
                      ".c", 1024 + (uint64_t)(unit_of(h + 4) * 31744)) < 0)
            return -1;
    }
    return 0;
}

static int model_patch_objs(struct cb_dataset *d)
{
    const struct cb_listing *o = &d->l[CB_LIST_OBJS];
    struct cb_listing *p = &d->l[CB_LIST_PATCH_OBJS];
    for (size_t i = 0; i < o->n; i++) {
        const char *path = cb_path(o, i);
        uint64_t h = wl_hash_str(0x0b75ull, path), sz = o->e[i].size;
        if (sz >= (1u << 20) || unit_of(h) < MODEL_PATCH_OBJS)
            if (cb_listing_add(p, path, strlen(path),
                               sz + 1 + (uint64_t)((double)sz * (0.01 + 0.02 * unit_of(h + 1))),
                               0) < 0)
                return -1;
    }
    return 0;
}

/* Scales l's sizes so that they add up to want bytes (at least 1 byte a file). */
static void scale_to(struct cb_listing *l, double want)
{
    double have = 0;
    for (size_t i = 0; i < l->n; i++)
        have += (double)l->e[i].size;
    if (have <= 0)
        return;
    for (size_t i = 0; i < l->n; i++) {
        uint64_t s = (uint64_t)((double)l->e[i].size * want / have + 0.5);
        l->e[i].size = s ? s : 1;
    }
}

int cb_dataset_model(const struct tree_spec *spec, struct cb_dataset *d)
{
    memset(d, 0, sizeof *d);
    struct tree_gen *g = tree_open(spec);
    if (!g)
        return -1;
    struct tree_entry e;
    int rc = 0;
    while (rc == 0 && tree_next(g, &e) == 1) {
        if (e.kind != TREE_FILE)
            continue;
        const char *p = tree_path(g);
        if (cb_listing_add(&d->l[CB_LIST_CLEAN], p, strlen(p), e.size, 0) < 0)
            rc = -1;
    }
    tree_close(g);
    if (rc == 0) {
        /* the clean tree gets 2.6.20's mean file size (233,176,153 bytes in 21,280 files) */
        struct cb_listing *c = &d->l[CB_LIST_CLEAN];
        uint64_t total = 0;
        for (size_t i = 0; i < c->n; i++)
            total += c->e[i].size;
        double f = total ? (double)c->n * MODEL_MEAN_SIZE / (double)total : 1;
        for (size_t i = 0; i < c->n; i++)
            c->e[i].size = (uint64_t)((double)c->e[i].size * f + 0.5);
        cb_listing_sort(c);
        rc = model_objs(d);
    }
    if (rc == 0)
        rc = model_patch(d);
    if (rc == 0)
        rc = model_patch_objs(d);
    if (rc < 0) {
        cb_dataset_free(d);
        return error("compilebench: out of memory for the model's listings");
    }
    for (int k = 1; k < CB_LISTS; k++)
        sort_unique(&d->l[k]);
    /* an object named like a source file of the tree is not made */
    drop_in(&d->l[CB_LIST_OBJS], &d->l[CB_LIST_CLEAN], false);
    drop_in(&d->l[CB_LIST_PATCH_OBJS], &d->l[CB_LIST_CLEAN], false);
    if (d->l[CB_LIST_CLEAN].n == 0) {
        cb_dataset_free(d);
        return error("compilebench: the tree has no files");
    }
    /* the objects' totals in 2.6.20's ratios to the clean tree */
    add_bytes(d);
    scale_to(&d->l[CB_LIST_OBJS], (double)d->bytes[CB_LIST_CLEAN] * MODEL_OBJS_RATIO);
    scale_to(&d->l[CB_LIST_PATCH_OBJS], (double)d->bytes[CB_LIST_CLEAN] * MODEL_PATCH_OBJS_RATIO);
    add_bytes(d);
    return 0;
}
