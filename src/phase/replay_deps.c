/* replay_deps.c — resource-oriented ordering for a replay on several threads (ARTC,
 * SOSP'13): a call waits only for the earlier calls (in the trace's order) of other
 * threads that touched the same resource in a conflicting way.
 *
 * Resources: a path by name (the call's path, and its parent directory's, which must
 * exist), a directory's names (what a listing of it holds), and a descriptor slot. A
 * call uses each either shared (a lookup, a read) or exclusive (a change); shared uses do
 * not order among themselves. A directory's names are the other way round: a call that
 * makes, removes or renames a name uses them shared (the name itself, a path, orders the
 * calls on it; changes of different names commute), a listing and an rmdir exclusive (a
 * listing holds the names made before it and none made after). With the names exclusive
 * for every change, make -j2's assemblers, each creating its own .o in ".", waited for
 * one another in the trace's order, so the replay's two jobs ran in step where make's
 * did not. Every call also advances its recorded thread, which a spawn
 * of a child waits for (a child starts after its parent reached the fork).
 *
 * Between processes a call also waits for what the program's processes waited for (format
 * 3): a read of a pipe or socket pair for the write of the last byte it got (not for
 * everything before it), a wait for the child's last call; else processes run as they
 * like, as the program's did.
 *
 * Memory is bounded: the table has 4 ways per bucket and forgets a resource whose every
 * recorded user has completed; when a bucket's four are all busy the dispatcher waits
 * (rp_deps_of returns -2). A resource keeps a shared user per replay thread (up to
 * RP_READERS_MAX): with four, as it was, the fifth of six threads reading the same
 * directory at once (make -j2's compilers, every name looked up in ".") was made
 * exclusive, and every later lookup waited for it: the replay's processes ran one after
 * the other where the program's ran side by side. More threads than RP_READERS_MAX using
 * one resource at once: the next is made exclusive (more order than needed, never less).
 */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "phase/replay_internal.h"

#define NBUCKETS 16384
#define WAYS 4

int rp_deps_init(struct replay *rp)
{
    struct rp_deps *d = &rp->deps;
    uint32_t ns = rp->nslots ? rp->nslots : 1;
    uint32_t rec = rp->info->nslots ? rp->info->nslots : 1;
    /* the table sized to the trace (a short one's replay starts without zeroing megabytes
     * it never uses): a bucket (four ways) per record, as many as can be in flight, from
     * 256 to NBUCKETS (the pool holds 16,384 records) */
    d->nbuckets = 256;
    while (d->nbuckets < NBUCKETS && d->nbuckets < rp->info->nrecords)
        d->nbuckets *= 2;
    d->readers = rp->nthreads < RP_READERS_MAX ? (rp->nthreads ? rp->nthreads : 1) : RP_READERS_MAX;
    d->res_size = sizeof(struct rp_res) + d->readers * sizeof(uint64_t);
    d->tab = calloc(d->nbuckets * WAYS, d->res_size);
    d->slot_last = malloc(ns * sizeof *d->slot_last);
    d->slot_path = calloc(ns, sizeof *d->slot_path);
    d->rthread_last = malloc(rp->info->nthreads * sizeof *d->rthread_last);
    d->rec2rep = malloc(rec * sizeof *d->rec2rep);
    d->fifo = malloc(ns * sizeof *d->fifo);
    if (!d->tab || !d->slot_last || !d->slot_path || !d->rthread_last || !d->rec2rep ||
        !d->fifo)
        return -1;
    for (uint32_t i = 0; i < rec; i++)
        d->rec2rep[i] = UINT32_MAX;
    for (uint32_t i = 0; i < ns; i++)
        d->slot_last[i] = RP_NO_DEP;
    for (uint32_t i = 0; i < rp->info->nthreads; i++)
        d->rthread_last[i] = RP_NO_DEP;
    return 0;
}

void rp_deps_free(struct replay *rp)
{
    free(rp->deps.tab);
    free(rp->deps.slot_last);
    free(rp->deps.slot_path);
    free(rp->deps.rthread_last);
    free(rp->deps.rec2rep);
    free(rp->deps.fifo);
    free(rp->deps.chans);
    memset(&rp->deps, 0, sizeof rp->deps);
}

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = hash_fnv1a(s, n);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return h ? h : 1;
}

/* The name of p's parent directory ("." for a name in the root). */
static uint64_t parent_hash(const char *p, size_t n)
{
    while (n > 0 && p[n - 1] != '/')
        n--;
    return n ? hash_bytes(p, n - 1) : hash_bytes(".", 1);
}

/* A directory's names (what its listing holds), as a resource apart from the directory
 * itself (which a lookup below it needs to exist): from the directory's path hash. */
static uint64_t names_of(uint64_t dir_hash)
{
    uint64_t h = dir_hash ^ 0x9e3779b97f4a7c15ull;
    return h ? h : 1;
}

/* The dependencies of one call, deduplicated: per other thread, the latest position. */
struct dlist {
    uint64_t *out;
    int n, max;
    unsigned self;
    int over;
};

static void need(const struct replay *rp, struct dlist *l, uint64_t d)
{
    if (d == RP_NO_DEP || RP_DEP_THREAD(d) == l->self || rp_dep_done(rp, d))
        return;
    for (int i = 0; i < l->n; i++)
        if (RP_DEP_THREAD(l->out[i]) == RP_DEP_THREAD(d)) {
            if (RP_DEP_POS(d) > RP_DEP_POS(l->out[i]))
                l->out[i] = d;
            return;
        }
    if (l->n == l->max) {
        l->over = 1;
        return;
    }
    l->out[l->n++] = d;
}

/* Entry i of the table (entries are res_size bytes: the readers follow). */
static struct rp_res *res_at(const struct rp_deps *d, size_t i)
{
    return (struct rp_res *)(void *)((char *)d->tab + i * d->res_size);
}

static bool idle(const struct replay *rp, const struct rp_res *e)
{
    if (!rp_dep_done(rp, e->writer))
        return false;
    for (unsigned i = 0; i < rp->deps.readers; i++)
        if (!rp_dep_done(rp, e->reader[i]))
            return false;
    return true;
}

/* The entry of resource h: found, or a free way taken for it; NULL when all are busy. */
static struct rp_res *res_get(struct replay *rp, uint64_t h)
{
    const struct rp_deps *d = &rp->deps;
    size_t b = (h & (d->nbuckets - 1)) * WAYS;
    for (int i = 0; i < WAYS; i++)
        if (res_at(d, b + i)->hash == h)
            return res_at(d, b + i);
    for (int i = 0; i < WAYS; i++) {
        struct rp_res *e = res_at(d, b + i);
        if (!e->hash || idle(rp, e)) {
            e->hash = h;
            e->writer = RP_NO_DEP;
            for (unsigned k = 0; k < d->readers; k++)
                e->reader[k] = RP_NO_DEP;
            return e;
        }
    }
    return NULL;
}

/* Uses resource h shared or exclusive as call me. -1 when its bucket is full. */
static int use(struct replay *rp, struct dlist *l, uint64_t h, bool excl, uint64_t me)
{
    struct rp_res *e = res_get(rp, h);
    if (!e)
        return -1;
    need(rp, l, e->writer);
    if (!excl) {
        int free_at = -1;
        for (int i = 0; i < (int)rp->deps.readers; i++) {
            if (e->reader[i] != RP_NO_DEP && RP_DEP_THREAD(e->reader[i]) == l->self) {
                e->reader[i] = me;
                return 0;
            }
            if (free_at < 0 && rp_dep_done(rp, e->reader[i]))
                free_at = i;
        }
        if (free_at >= 0) {
            e->reader[free_at] = me;
            return 0;
        }
        /* as many other readers as it keeps, still running: this one orders after them
         * all */
    }
    for (unsigned i = 0; i < rp->deps.readers; i++) {
        need(rp, l, e->reader[i]);
        e->reader[i] = RP_NO_DEP;
    }
    e->writer = me;
    return 0;
}

static void use_slot(struct replay *rp, struct dlist *l, uint32_t slot, uint64_t me)
{
    if (slot >= rp->nslots)
        return;
    need(rp, l, rp->deps.slot_last[slot]);
    rp->deps.slot_last[slot] = me;
}

/* ---- descriptors renamed ---- */

static void give_back(struct rp_deps *d, uint32_t nslots, uint32_t rep)
{
    if (rep >= nslots || d->fifo_len >= nslots)
        return;
    d->fifo[(d->fifo_head + d->fifo_len++) % nslots] = rep;
}

/* A replay slot for a new descriptor: the oldest given back whose last user completed, a
 * fresh one, or (none left) the oldest given back, which its next user then waits for. */
static uint32_t take(struct replay *rp)
{
    struct rp_deps *d = &rp->deps;
    uint32_t n = rp->nslots;
    if (d->fifo_len && (rp_dep_done(rp, d->slot_last[d->fifo[d->fifo_head]]) || d->fresh >= n)) {
        uint32_t s = d->fifo[d->fifo_head];
        d->fifo_head = (d->fifo_head + 1) % n;
        d->fifo_len--;
        return s;
    }
    return d->fresh < n ? d->fresh++ : n;
}

static uint32_t mapped(const struct replay *rp, uint32_t slot)
{
    return slot < rp->info->nslots && rp->deps.rec2rep[slot] != UINT32_MAX
               ? rp->deps.rec2rep[slot]
               : rp->nslots; /* none: out of range, the call finds no descriptor */
}

void rp_slots_rename(struct replay *rp, unsigned kind, uint32_t *slot, uint32_t *slot2,
                     int64_t *result)
{
    struct rp_deps *d = &rp->deps;
    unsigned f = trace_kind_fields(kind);
    uint32_t rec = *slot;
    if (f & TF_SLOT)
        *slot = mapped(rp, *slot);
    if (f & TF_SLOT2)
        *slot2 = mapped(rp, *slot2);
    if ((kind == TK_CLOSE || kind == TK_DROP) && rec < rp->info->nslots &&
        d->rec2rep[rec] != UINT32_MAX) {
        give_back(d, rp->nslots, d->rec2rep[rec]);
        d->rec2rep[rec] = UINT32_MAX;
    }
    if (trace_kind_result(kind) == TR_SLOT && *result >= 0 &&
        (uint64_t)*result < rp->info->nslots) {
        uint32_t r = (uint32_t)*result;
        if (d->rec2rep[r] != UINT32_MAX) /* a bad trace reuses an open slot */
            give_back(d, rp->nslots, d->rec2rep[r]);
        d->rec2rep[r] = take(rp);
        *result = d->rec2rep[r];
    }
}

/* Kinds that change a name in its directory, and kinds that change what a path names. */
static bool changes_dir(const struct rp_call *c)
{
    switch (c->kind) {
    case TK_OPEN: return (c->flags & (TRO_CREAT | TRO_TMPFILE)) != 0;
    case TK_MKDIR:
    case TK_RMDIR:
    case TK_UNLINK:
    case TK_RENAME:
    case TK_LINK:
    case TK_SYMLINK: return true;
    default: return false;
    }
}

static bool changes_object(const struct rp_call *c)
{
    switch (c->kind) {
    case TK_OPEN: return (c->flags & (TRO_TRUNC | TRO_ACCMODE)) != 0;
    case TK_CHMOD:
    case TK_CHOWN:
    case TK_UTIMENS:
    case TK_TRUNCATE:
    case TK_WRITE:
    case TK_PWRITE:
    case TK_FTRUNCATE:
    case TK_FALLOCATE:
    case TK_FCHMOD:
    case TK_FCHOWN:
    case TK_FUTIMENS:
    case TK_COPY: return true;
    case TK_MMAP: return (c->flags & TRM_WRITE) && (c->flags & TRM_SHARED);
    default: return changes_dir(c);
    }
}

/* ---- pipes and socket pairs ---- */

/* The channel of key (found, or a new one; the oldest made is reused past RP_CHANS, and a
 * read of it then waits for nothing that came before: rare, and said nowhere). NULL when
 * the table cannot be made. */
static struct rp_chan *chan_get(struct rp_deps *d, uint64_t key)
{
    /* made at the first pipe (most traces have none) */
    if (!d->chans && !(d->chans = calloc(RP_CHANS, sizeof *d->chans)))
        return NULL;
    for (unsigned i = 0; i < d->nchans; i++)
        if (d->chans[i].key == key)
            return &d->chans[i];
    unsigned at = d->nchans < RP_CHANS ? d->nchans++ : d->chan_next++ % RP_CHANS;
    struct rp_chan *ch = &d->chans[at];
    memset(ch, 0, sizeof *ch);
    ch->key = key;
    return ch;
}

/* A write puts its bytes in the channel; a read waits for the writes of the bytes it got
 * (up to the one of its last byte), and the writes it used up are forgotten. More writes than RP_CHAN_WRITES unread:
 * the oldest is forgotten, and a read that needed it waits for the oldest kept (later: more
 * order than the program had, never less). */
static void use_chan(struct replay *rp, struct dlist *l, const struct rp_call *c, uint64_t me)
{
    struct rp_chan *ch = chan_get(&rp->deps, (c->off << 1 | ((c->flags & TRP_SOCKET) ? 1 : 0)) + 1);
    if (!ch)
        return; /* no memory for the pipes: their order is not kept */
    if (c->flags & TRP_WRITE) {
        ch->written += c->size;
        if (ch->len == RP_CHAN_WRITES) {
            ch->head = (ch->head + 1) % RP_CHAN_WRITES;
            ch->len--;
        }
        unsigned at = (ch->head + ch->len++) % RP_CHAN_WRITES;
        ch->wend[at] = ch->written;
        ch->wdep[at] = me;
        return;
    }
    ch->read += c->size;
    if (ch->read > ch->written)
        ch->read = ch->written; /* bytes written before the trace began */
    /* the writes kept are those not read whole before: each gave this read bytes, up to
     * the one holding its last byte */
    while (ch->len) {
        unsigned at = ch->head;
        need(rp, l, ch->wdep[at]);
        if (ch->wend[at] > ch->read)
            break; /* partly read: kept for the next read */
        ch->head = (ch->head + 1) % RP_CHAN_WRITES;
        ch->len--;
        if (ch->wend[at] == ch->read)
            break;
    }
}

int rp_deps_of(struct replay *rp, const struct rp_call *c, const char *base, unsigned t,
               uint64_t pos, uint64_t *out, int max)
{
    struct rp_deps *d = &rp->deps;
    struct dlist l = {.out = out, .max = max, .self = t};
    uint64_t me = RP_DEP(t, pos);
    bool dir = changes_dir(c), obj = changes_object(c);
    if (c->path != UINT32_MAX) {
        const char *p = base + c->path;
        uint64_t h = hash_bytes(p, c->path_len);
        uint64_t ph = parent_hash(p, c->path_len);
        /* the parent: shared (it must exist), so that lookups of other names in it do not
         * wait for a change of one; its names shared too by a call that changes one (each
         * name is ordered as itself, h: creates and removals of different names commute),
         * exclusive only for a listing and for the directory's removal */
        if (use(rp, &l, h, obj, me) < 0 || use(rp, &l, ph, false, me) < 0 ||
            (dir && use(rp, &l, names_of(ph), false, me) < 0) ||
            (c->kind == TK_RMDIR && use(rp, &l, names_of(h), true, me) < 0))
            return -2;
        if (c->kind == TK_OPEN && c->result >= 0 && (uint64_t)c->result < rp->nslots)
            d->slot_path[c->result] = h;
    }
    if (c->path2 != UINT32_MAX && c->kind != TK_SYMLINK) {
        const char *p = base + c->path2;
        uint64_t ph = parent_hash(p, c->path2_len);
        if (use(rp, &l, hash_bytes(p, c->path2_len), true, me) < 0 ||
            use(rp, &l, ph, false, me) < 0 || use(rp, &l, names_of(ph), false, me) < 0)
            return -2;
    }
    unsigned f = trace_kind_fields(c->kind);
    if (f & TF_SLOT) {
        use_slot(rp, &l, c->slot, me);
        uint64_t h = c->slot < rp->nslots ? d->slot_path[c->slot] : 0;
        if (h && use(rp, &l, h, obj, me) < 0)
            return -2;
        /* a listing reads the directory's names: after the changes of them before it,
         * before those after it */
        if (h && c->kind == TK_GETDENTS && use(rp, &l, names_of(h), true, me) < 0)
            return -2;
        if (trace_kind_result(c->kind) == TR_SLOT && c->result >= 0 &&
            (uint64_t)c->result < rp->nslots) {
            use_slot(rp, &l, (uint32_t)c->result, me);
            d->slot_path[c->result] = h;
        }
    }
    if (f & TF_SLOT2) {
        use_slot(rp, &l, c->slot2, me);
        uint64_t h = c->slot2 < rp->nslots ? d->slot_path[c->slot2] : 0;
        if (h && use(rp, &l, h, true, me) < 0)
            return -2;
    }
    if (c->kind == TK_OPEN && c->result >= 0 && (uint64_t)c->result < rp->nslots)
        use_slot(rp, &l, (uint32_t)c->result, me);
    if ((c->kind == TK_SPAWN || c->kind == TK_WAIT) && c->aux < rp->info->nthreads)
        need(rp, &l, d->rthread_last[c->aux]);
    if (c->kind == TK_CHAN)
        use_chan(rp, &l, c, me);
    if (c->rthread < rp->info->nthreads)
        d->rthread_last[c->rthread] = me;
    return l.over ? -1 : l.n;
}
