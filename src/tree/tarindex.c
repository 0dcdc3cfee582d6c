/* tarindex.c — the pass over an archive's headers that counts it, decides every refusal and
 * builds the index for the threaded extraction (see tarindex.h).
 *
 * The model is the streaming extraction's logic run on a set of paths instead of a file
 * system (the extraction root starts empty, so the set is all there is): each path made is
 * in `ns`, with val 0 for a non-directory and 1 + its directory number for a directory.
 * The rules, in the order phase_tarextract.c applies them:
 *  - a bad name (absolute, '..', empty, too long) is refused; "./" is the root's own entry;
 *  - a hard link: its target must be a name inside (else refused), not one of our
 *    directories, with a parent that is one; then its own parents are made (see below);
 *    then the target must exist (else refused: "not extracted"); an existing name is
 *    replaced (a directory never is; a link to itself is refused);
 *  - a directory already made is only listed (mode and times); else its parents are made and
 *    a name that exists (not a directory) refuses it;
 *  - files and symlinks (a symlink needs a target, checked first): parents, then an existing
 *    name is replaced (a directory never is);
 *  - anything else is refused.
 * Making the parents of a name creates every missing prefix as a directory, shortest first,
 * and refuses the entry at the first prefix that exists and is not a directory; the prefixes
 * made before it stay (as on disk). Replacing, or refusing because the name exists, means a
 * path is made twice: the archive is then extracted serially, in order.
 */
#include "tree/tarindex.h"

#include "base/grow.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"

/* A unit holds at most max(TIX_CHUNK_MIN, files / TIX_CHUNKS) entries: a directory with more
 * than 1/TIX_CHUNKS of the archive's files (and at least TIX_CHUNK_MIN) is cut in chunks. */
#define TIX_CHUNK_MIN 128
#define TIX_CHUNKS 256
/* Cost of an entry in unit weights, in bytes of data (a create, setattr and close). */
#define TIX_ENTRY_WEIGHT ((uint64_t)64 * 1024)

struct scan {
    struct tarindex *ix;
    struct tarent_set ns;
    const char *map;
    size_t maplen;
    bool frozen;            /* the index stopped growing (why_serial says why) */
    size_t capents, capnames, capsegs, capdirs, caplinks;
    char path[TARENT_PATH_MAX];
    char link[TARENT_PATH_MAX];
};

/* ---- growing arrays -------------------------------------------------------------- */

/* Array p (capacity *cap, n used) with room for one more element of size sz: p itself or a
 * bigger copy; NULL when out of memory (p is still valid then). */
static void *grow(void *p, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap)
        return p;
    size_t ncap = *cap ? *cap * 2 : 256;
    void *q = realloc(p, ncap * sz);
    if (q)
        *cap = ncap;
    return q;
}

/* Stops building the index: the archive will be extracted serially. */
static void freeze(struct scan *s, const char *why)
{
    if (!s->ix->why_serial)
        s->ix->why_serial = why;
    s->frozen = true;
}

/* Adds len bytes of str (and a NUL) to names; its offset in *off. 0, or -1 out of memory. */
static int add_name(struct scan *s, const char *str, size_t len, uint32_t *off)
{
    struct tarindex *ix = s->ix;
    *off = 0;
    if (s->frozen)
        return 0;
    if (ix->names_len + len + 1 >= UINT32_MAX) {
        freeze(s, "it is too big to index");
        return 0;
    }
    size_t at = ix->names_len;
    if (grow_append(&ix->names, &s->capnames, &ix->names_len, str, len, true, 65536) < 0)
        return -1;
    *off = (uint32_t)at;
    return 0;
}

/* Length of path's parent (the part before its last '/'), 0 for a top-level name. */
static size_t parent_len(const char *path, size_t len)
{
    while (len > 0 && path[len - 1] != '/')
        len--;
    return len ? len - 1 : 0;
}

/* A new entry for s->path[0..len) (NULL when frozen). -1 in *rc when out of memory. */
static struct tix_ent *add_ent(struct scan *s, size_t len, enum tix_kind kind, int *rc)
{
    struct tarindex *ix = s->ix;
    *rc = 0;
    if (!s->frozen && ix->nents >= UINT32_MAX - 1)
        freeze(s, "it is too big to index");
    if (s->frozen)
        return NULL;
    uint32_t off;
    struct tix_ent *ents = grow(ix->ents, &s->capents, ix->nents, sizeof *ix->ents);
    if (ents)
        ix->ents = ents;
    if (!ents || add_name(s, s->path, len, &off) < 0) {
        *rc = -1;
        return NULL;
    }
    if (s->frozen)
        return NULL;
    struct tix_ent *e = &ix->ents[ix->nents++];
    memset(e, 0, sizeof *e);
    e->path = off;
    e->kind = (uint8_t)kind;
    e->parent = TIX_ROOT;
    size_t plen = parent_len(s->path, len);
    if (plen) {
        struct tarent_slot *p = tarent_set_find(&s->ns, s->path, plen);
        e->parent = (uint32_t)(p->val - 1);
    }
    return e;
}

/* ---- the model ------------------------------------------------------------------- */

static void refuse(struct scan *s, const char *raw, const char *why)
{
    struct tarindex *ix = s->ix;
    if (ix->nrefused < TIX_REFUSE_LINES) {
        tarent_printable(raw, ix->refusal[ix->nrefused].name, sizeof ix->refusal[0].name);
        ix->refusal[ix->nrefused].why = why;
    }
    ix->nrefused++;
    ix->totals.refused++;
}

/* The set's slot of s->path[0..len), or NULL. */
static struct tarent_slot *ns_find(struct scan *s, size_t len)
{
    return tarent_set_find(&s->ns, s->path, len);
}

static bool is_dir(const struct tarent_slot *slot)
{
    return slot && slot->val;
}

/* Makes directory s->path[0..len) (explicit: by its own entry). NULL on out of memory. */
static struct tarent_slot *make_dir(struct scan *s, size_t len, bool explicit, int *rc)
{
    struct tarindex *ix = s->ix;
    struct tix_ent *e = add_ent(s, len, TIX_DIR, rc);
    if (*rc < 0)
        return NULL;
    if (e) {
        uint32_t *d = grow(ix->dir_ent, &s->capdirs, ix->ndirs, sizeof *ix->dir_ent);
        if (!d) {
            *rc = -1;
            return NULL;
        }
        ix->dir_ent = d;
        e->flags = explicit ? TIX_EXPLICIT : 0;
        ix->dir_ent[ix->ndirs] = ix->nents - 1;
    }
    struct tarent_slot *slot = tarent_set_add(&s->ns, s->path, len);
    if (!slot) {
        *rc = -1;
        return NULL;
    }
    slot->val = s->frozen ? 1 : (size_t)ix->ndirs + 1;
    if (!s->frozen)
        ix->ndirs++;
    ix->totals.dirs++;
    return slot;
}

/* Makes the missing parents of s->path (plen: length of its parent). 0, 1 when a prefix
 * exists and is not a directory (the entry is refused), -1 out of memory. */
static int make_parents(struct scan *s, size_t plen)
{
    if (!plen)
        return 0;
    struct tarent_slot *slot = ns_find(s, plen);
    if (slot)
        return slot->val ? 0 : 1;
    for (size_t i = 1; i <= plen; i++) {
        if (i < plen && s->path[i] != '/')
            continue;
        slot = ns_find(s, i);
        if (slot) {
            if (!slot->val)
                return 1;
            continue;
        }
        int rc;
        if (!make_dir(s, i, false, &rc))
            return -1;
    }
    return 0;
}

static void set_times(struct archive_entry *ent, struct timespec t[2], uint8_t *flags)
{
    bool a = archive_entry_atime_is_set(ent), m = archive_entry_mtime_is_set(ent);
    if (!a && !m)
        return;
    *flags |= TIX_TIMES;
    t[0].tv_sec = a ? archive_entry_atime(ent) : 0;
    t[0].tv_nsec = a ? archive_entry_atime_nsec(ent) : UTIME_OMIT;
    t[1].tv_sec = m ? archive_entry_mtime(ent) : 0;
    t[1].tv_nsec = m ? archive_entry_mtime_nsec(ent) : UTIME_OMIT;
}

struct segs_at {
    struct scan *s;
    struct tix_ent *e;
    const char *name;
    uint64_t pos;
};

/* One data block of the entry: a segment of its own, or the last one grown. */
static int read_seg(void *arg, const void *buf, size_t n, int64_t off)
{
    struct segs_at *at = arg;
    struct scan *s = at->s;
    struct tarindex *ix = s->ix;
    struct tix_ent *e = at->e;
    if (n == 0)
        return 0;
    if (off < 0)
        off = (int64_t)at->pos;
    uintptr_t p = (uintptr_t)buf, m = (uintptr_t)s->map;
    if (p < m || p - m > s->maplen || n > s->maplen - (p - m)) {
        freeze(s, "its data is not stored as plain bytes (compressed or encoded entries)");
        return 1;
    }
    uint64_t arc = (uint64_t)(p - m);
    struct tix_seg *last = e->nseg ? &ix->segs[ix->nsegs - 1] : NULL;
    if (last && last->arc_off + last->len == arc && last->file_off + last->len == (uint64_t)off) {
        last->len += n;
    } else {
        if (ix->nsegs >= UINT32_MAX - 1) {
            freeze(s, "it is too big to index");
            return 1;
        }
        struct tix_seg *sg = grow(ix->segs, &s->capsegs, ix->nsegs, sizeof *ix->segs);
        if (!sg)
            return error("tar:%s: out of memory", at->name);
        ix->segs = sg;
        ix->segs[ix->nsegs++] = (struct tix_seg){arc, (uint64_t)off, n};
        e->nseg++;
    }
    at->pos = (uint64_t)off + n;
    return 0;
}

/* Records where the current entry's data lies in the mapping, as segments of e (NULL when
 * frozen: nothing to record). A block outside the mapping freezes the index. 0, or -1 after
 * error() (out of memory). */
static int read_segs(struct scan *s, struct archive *a, struct tix_ent *e, const char *name)
{
    if (!e || s->frozen)
        return 0;
    e->seg = s->ix->nsegs;
    struct segs_at at = {.s = s, .e = e, .name = name};
    int rc = tarent_each_block(a, read_seg, &at);
    if (rc == TARENT_READ_FAILED) {
        /* Left to the extraction to report (as before there was an index). */
        freeze(s, "its data cannot be read in one pass");
        return 0;
    }
    return rc;
}

/* An existing name for a non-directory entry: refused when it is a directory, else
 * replaced. Either way the path is made twice, so the archive is extracted serially.
 * 1 refused, 0 replaced. */
static int existing(struct scan *s, struct tarent_slot *slot, const char *raw)
{
    freeze(s, "it has duplicate names");
    if (slot->val) {
        refuse(s, raw, "it would replace a directory");
        return 1;
    }
    return 0;
}

/* Records a non-directory path as made (a new name or a replaced one). */
static int made(struct scan *s, size_t len)
{
    struct tarent_slot *slot = tarent_set_add(&s->ns, s->path, len);
    if (!slot)
        return -1;
    slot->val = 0;
    return 0;
}

static int hardlink(struct scan *s, struct archive *a, struct archive_entry *ent,
                    const char *raw, const char *hl, size_t len, const char *name)
{
    struct tarindex *ix = s->ix;
    const char *why;
    if (tarent_norm_path(hl, s->link, sizeof s->link, &why) || !s->link[0]) {
        refuse(s, raw, "hard link target outside the tree");
        return 0;
    }
    size_t llen = strlen(s->link), lpar = parent_len(s->link, llen);
    if ((lpar && !is_dir(tarent_set_find(&s->ns, s->link, lpar))) ||
        is_dir(tarent_set_find(&s->ns, s->link, llen))) {
        refuse(s, raw, "hard link target was not extracted as a file");
        return 0;
    }
    int r = make_parents(s, parent_len(s->path, len));
    if (r < 0)
        return error("tar:%s: out of memory", name);
    if (r > 0) {
        refuse(s, raw, "goes through a symlink or file, not a directory of this extraction");
        return 0;
    }
    if (!tarent_set_find(&s->ns, s->link, llen)) {
        refuse(s, raw, "hard link target was not extracted");
        return 0;
    }
    struct tarent_slot *slot = ns_find(s, len);
    if (slot) {
        freeze(s, "it has duplicate names");
        if (strcmp(s->link, s->path) == 0) {
            refuse(s, raw, "hard link to itself");
            return 0;
        }
        if (existing(s, slot, raw))
            return 0;
    }
    if (made(s, len) < 0)
        return error("tar:%s: out of memory", name);
    ix->totals.hardlinks++;
    int rc;
    struct tix_ent *e = add_ent(s, len, TIX_HARDLINK, &rc);
    if (rc < 0 || (e && add_name(s, s->link, llen, &e->link) < 0))
        return error("tar:%s: out of memory", name);
    if (e && !s->frozen) {
        uint32_t *l = grow(ix->links, &s->caplinks, ix->nlinks, sizeof *ix->links);
        if (!l)
            return error("tar:%s: out of memory", name);
        ix->links = l;
        ix->links[ix->nlinks++] = ix->nents - 1;
        if (archive_entry_size_is_set(ent) && archive_entry_size(ent) > 0) {
            e->flags |= TIX_SIZE_SET;
            e->size = (uint64_t)archive_entry_size(ent);
            return read_segs(s, a, e, name);
        }
    }
    return 0;
}

/* One header. 0, or -1 after error(). */
static int scan_entry(struct scan *s, struct archive *a, struct archive_entry *ent,
                      const char *name)
{
    struct tarindex *ix = s->ix;
    const char *raw = archive_entry_pathname(ent), *why;
    ix->totals.entries++;
    if (tarent_norm_path(raw, s->path, sizeof s->path, &why)) {
        refuse(s, raw, why);
        return 0;
    }
    size_t len = strlen(s->path);
    mode_t type = archive_entry_filetype(ent);
    const char *hl = archive_entry_hardlink(ent);
    if (!len) { /* "./": the root */
        if (type != AE_IFDIR || hl) {
            refuse(s, raw, "empty name");
            return 0;
        }
        uint8_t fl = 0;
        ix->root_listed = true;
        ix->root_mode = (uint16_t)archive_entry_perm(ent);
        ix->root_uid = (uint32_t)archive_entry_uid(ent);
        ix->root_gid = (uint32_t)archive_entry_gid(ent);
        ix->root_times[0].tv_nsec = ix->root_times[1].tv_nsec = UTIME_OMIT;
        set_times(ent, ix->root_times, &fl);
        return 0;
    }
    if (hl)
        return hardlink(s, a, ent, raw, hl, len, name);
    if (type == AE_IFLNK) {
        const char *t = archive_entry_symlink(ent);
        if (!t || !*t) {
            refuse(s, raw, "symlink without a target");
            return 0;
        }
    } else if (type != AE_IFDIR && type != AE_IFREG) {
        refuse(s, raw, "not a file, directory or link");
        return 0;
    }
    struct tarent_slot *slot = ns_find(s, len);
    int rc = 0;
    struct tix_ent *e = NULL;
    if (type == AE_IFDIR && is_dir(slot)) {
        /* listed again, or made earlier as a parent */
        if (!s->frozen)
            e = &ix->ents[ix->dir_ent[slot->val - 1]];
    } else {
        int r = make_parents(s, parent_len(s->path, len));
        if (r < 0)
            return error("tar:%s: out of memory", name);
        if (r > 0) {
            refuse(s, raw, "goes through a symlink or file, not a directory of this extraction");
            return 0;
        }
        slot = ns_find(s, len);
        if (type == AE_IFDIR) {
            if (slot) {
                freeze(s, "it has duplicate names");
                refuse(s, raw, "exists and was not made by this extraction as a directory");
                return 0;
            }
            if (!(slot = make_dir(s, len, true, &rc)))
                return error("tar:%s: out of memory", name);
            if (!s->frozen)
                e = &ix->ents[ix->nents - 1];
        } else {
            if (slot && existing(s, slot, raw))
                return 0;
            if (made(s, len) < 0)
                return error("tar:%s: out of memory", name);
            e = add_ent(s, len, type == AE_IFREG ? TIX_FILE : TIX_SYMLINK, &rc);
            if (rc < 0)
                return error("tar:%s: out of memory", name);
        }
    }
    if (type == AE_IFDIR) {
        if (e) {
            e->flags = (uint8_t)((e->flags & TIX_EXPLICIT) | TIX_LISTED);
            e->mode = (uint16_t)archive_entry_perm(ent);
            e->uid = (uint32_t)archive_entry_uid(ent);
            e->gid = (uint32_t)archive_entry_gid(ent);
            e->times[0].tv_nsec = e->times[1].tv_nsec = UTIME_OMIT;
            set_times(ent, e->times, &e->flags);
        }
        return 0;
    }
    if (e) {
        e->mode = (uint16_t)archive_entry_perm(ent);
        e->uid = (uint32_t)archive_entry_uid(ent);
        e->gid = (uint32_t)archive_entry_gid(ent);
        e->times[0].tv_nsec = e->times[1].tv_nsec = UTIME_OMIT;
        set_times(ent, e->times, &e->flags);
    }
    if (type == AE_IFLNK) {
        ix->totals.symlinks++;
        const char *t = archive_entry_symlink(ent);
        if (e && add_name(s, t, strlen(t), &e->link) < 0)
            return error("tar:%s: out of memory", name);
        return 0;
    }
    ix->totals.files++;
    if (archive_entry_size_is_set(ent)) {
        la_int64_t sz = archive_entry_size(ent);
        if (sz > 0)
            ix->totals.bytes += (uint64_t)sz;
        if (e) {
            e->flags |= TIX_SIZE_SET;
            e->size = sz > 0 ? (uint64_t)sz : 0;
        }
    }
    return read_segs(s, a, e, name);
}

/* ---- work units ------------------------------------------------------------------ */

static int unit_cmp(const void *pa, const void *pb)
{
    const struct tix_unit *a = pa, *b = pb;
    if (a->weight != b->weight)
        return a->weight > b->weight ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first;
}

/* Groups the files and symlinks by directory (archive order kept), cuts the groups into
 * chunks, sorts them largest first, and counts each directory's pending work. 0 or -1. */
static int build_units(struct tarindex *ix)
{
    size_t nslots = (size_t)ix->ndirs + 1; /* slot 0: the root; d + 1: directory d */
    uint32_t *start = calloc(nslots + 1, sizeof *start);
    ix->pending0 = calloc(ix->ndirs ? ix->ndirs : 1, sizeof *ix->pending0);
    ix->order = malloc((ix->nents ? ix->nents : 1) * sizeof *ix->order);
    if (!start || !ix->pending0 || !ix->order) {
        free(start);
        return -1;
    }
    uint32_t nfiles = 0;
    for (uint32_t i = 0; i < ix->nents; i++) {
        const struct tix_ent *e = &ix->ents[i];
        if (e->kind == TIX_FILE || e->kind == TIX_SYMLINK) {
            start[e->parent == TIX_ROOT ? 1 : (size_t)e->parent + 2]++;
            nfiles++;
        } else if (e->kind == TIX_DIR && e->parent != TIX_ROOT) {
            ix->pending0[e->parent]++;
        }
    }
    uint32_t chunk = (nfiles + TIX_CHUNKS - 1) / TIX_CHUNKS;
    ix->chunk = chunk < TIX_CHUNK_MIN ? TIX_CHUNK_MIN : chunk;
    size_t nunits = 0;
    for (size_t slot = 0; slot < nslots; slot++) {
        nunits += (start[slot + 1] + ix->chunk - 1) / ix->chunk;
        start[slot + 1] += start[slot];
    }
    ix->units = malloc((nunits ? nunits : 1) * sizeof *ix->units);
    uint32_t *fill = malloc(nslots * sizeof *fill);
    if (!ix->units || !fill) {
        free(fill);
        free(start);
        return -1;
    }
    memcpy(fill, start, nslots * sizeof *fill);
    for (uint32_t i = 0; i < ix->nents; i++) {
        const struct tix_ent *e = &ix->ents[i];
        if (e->kind == TIX_FILE || e->kind == TIX_SYMLINK)
            ix->order[fill[e->parent == TIX_ROOT ? 0 : (size_t)e->parent + 1]++] = i;
    }
    free(fill);
    ix->nunits = 0;
    for (size_t slot = 0; slot < nslots; slot++) {
        for (uint32_t f = start[slot]; f < start[slot + 1]; f += ix->chunk) {
            struct tix_unit *u = &ix->units[ix->nunits++];
            u->dir = slot ? (uint32_t)(slot - 1) : TIX_ROOT;
            u->first = f;
            u->n = start[slot + 1] - f < ix->chunk ? start[slot + 1] - f : ix->chunk;
            u->weight = 0;
            for (uint32_t k = 0; k < u->n; k++)
                u->weight += TIX_ENTRY_WEIGHT + ix->ents[ix->order[f + k]].size;
            if (slot)
                ix->pending0[slot - 1]++;
        }
    }
    free(start);
    qsort(ix->units, ix->nunits, sizeof *ix->units, unit_cmp);
    return 0;
}

/* ---- the pass -------------------------------------------------------------------- */

/* Drops the entries of an index that will not be extracted in parallel. */
static void drop_entries(struct tarindex *ix)
{
    free(ix->ents);
    free(ix->names);
    free(ix->segs);
    free(ix->dir_ent);
    free(ix->pending0);
    free(ix->links);
    free(ix->order);
    free(ix->units);
    ix->ents = NULL;
    ix->names = NULL;
    ix->segs = NULL;
    ix->dir_ent = ix->pending0 = ix->links = ix->order = NULL;
    ix->units = NULL;
    ix->nents = ix->nsegs = ix->ndirs = ix->nlinks = ix->nunits = 0;
    ix->names_len = 0;
}

int tarindex_scan(struct archive *a, const void *map, size_t maplen, const char *name,
                  struct tarindex **out)
{
    struct scan *s = calloc(1, sizeof *s);
    struct tarindex *ix = calloc(1, sizeof *ix);
    *out = NULL;
    if (!s || !ix) {
        free(s);
        free(ix);
        return error("tar:%s: out of memory", name);
    }
    s->ix = ix;
    s->map = map;
    s->maplen = maplen;
    ix->arc_size = maplen;
    if (!map)
        freeze(s, "it cannot be mapped in memory");
    struct archive_entry *ent;
    int rc = 0, r;
    while ((r = archive_read_next_header(a, &ent)) != ARCHIVE_EOF) {
        if (r == ARCHIVE_RETRY)
            continue;
        if (r < ARCHIVE_WARN) {
            rc = error("tar:%s: %s", name, tarent_arch_reason(a));
            break;
        }
        if ((rc = scan_entry(s, a, ent, name)) < 0)
            break;
    }
    if (rc == 0 && ix->totals.entries == 0 &&
        (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_EMPTY)
        rc = error("tar:%s: empty file, not an archive", name);
    if (rc == 0 && !ix->why_serial && build_units(ix) < 0)
        rc = error("tar:%s: out of memory", name);
    tarent_set_free(&s->ns);
    free(s);
    if (rc < 0) {
        tarindex_free(ix);
        return -1;
    }
    if (ix->why_serial) {
        drop_entries(ix);
    } else { /* give back what the doubling arrays did not use */
        void *p;
        if (ix->nents && (p = realloc(ix->ents, ix->nents * sizeof *ix->ents)))
            ix->ents = p;
        if (ix->names_len && (p = realloc(ix->names, ix->names_len)))
            ix->names = p;
        if (ix->nsegs && (p = realloc(ix->segs, ix->nsegs * sizeof *ix->segs)))
            ix->segs = p;
    }
    *out = ix;
    return 0;
}

void tarindex_free(struct tarindex *ix)
{
    if (!ix)
        return;
    drop_entries(ix);
    free(ix);
}
