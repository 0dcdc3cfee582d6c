/* trace_codec.c — records, entries and the info block to and from bytes (trace_codec.h).
 * The decoder is the first thing untrusted bytes meet: every length is checked before it
 * is used, and every value against the limits of trace.h, so what it hands out is a
 * record a replay can act on without another check of its shape.
 */
#include "trace/trace_codec.h"
#include "trace/trace_file.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t trace_put_varint(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

long trace_get_varint(const uint8_t *p, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    for (size_t i = 0; i < 10; i++) {
        if (i == n)
            return 0;
        uint64_t b = p[i];
        if (i == 9 && b > 1)
            return -1; /* more than 64 bits */
        x |= (b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *v = x;
            return (long)i + 1;
        }
    }
    return -1;
}

static uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static size_t put_bytes(uint8_t *out, const char *s, size_t n)
{
    size_t k = trace_put_varint(out, n);
    memcpy(out + k, s, n);
    return k + n;
}

size_t trace_encode_call(struct trace_codec *cc, const struct trace_call *c, uint8_t *out)
{
    unsigned f = trace_kind_fields(c->kind);
    size_t n = 0;
    out[n++] = c->kind;
    n += trace_put_varint(out + n, c->thread);
    n += trace_put_varint(out + n, zigzag((int64_t)(c->start_ns - cc->prev_start)));
    cc->prev_start = c->start_ns;
    n += trace_put_varint(out + n, c->dur_ns);
    n += trace_put_varint(out + n, zigzag(c->result));
    if (f & TF_PATH)
        n += put_bytes(out + n, c->path, c->path_len);
    if (f & TF_PATH2)
        n += put_bytes(out + n, c->path2, c->path2_len);
    if (f & TF_SLOT)
        n += trace_put_varint(out + n, c->slot);
    if (f & TF_SLOT2)
        n += trace_put_varint(out + n, c->slot2);
    if (f & TF_SIZE)
        n += trace_put_varint(out + n, c->size);
    if (f & TF_OFF)
        n += trace_put_varint(out + n, c->off);
    if (f & TF_OFF2)
        n += trace_put_varint(out + n, c->off2);
    if (f & TF_SOFF)
        n += trace_put_varint(out + n, zigzag(c->soff));
    if (f & TF_FLAGS)
        n += trace_put_varint(out + n, c->flags);
    if (f & TF_MODE)
        n += trace_put_varint(out + n, c->mode);
    if (f & TF_AUX)
        n += trace_put_varint(out + n, c->aux);
    return n;
}

/* A cursor over undecoded bytes: `short` is set when the input ends inside a value,
 * `bad` (with why) when a value is wrong. */
struct cur {
    const uint8_t *p;
    size_t n, at;
    int cut;
    const char *bad;
};

/* A value of more than one byte, or the input's end: the general decoder. */
static uint64_t get_long(struct cur *k, const char *what)
{
    uint64_t v = 0;
    long r = trace_get_varint(k->p + k->at, k->n - k->at, &v);
    if (r == 0)
        k->cut = 1;
    else if (r < 0)
        k->bad = what;
    else
        k->at += (size_t)r;
    return v;
}

/* The next value. Most of a call's fields (thread, kind's flags, small sizes and slots) fit
 * in one byte; that case is taken inline, as it is the replay's dispatcher's hottest work. */
static inline uint64_t get(struct cur *k, const char *what)
{
    if (k->cut || k->bad)
        return 0;
    if (k->at < k->n && !(k->p[k->at] & 0x80))
        return k->p[k->at++];
    return get_long(k, what);
}

/* A length and that many bytes: points *s into the input. */
static uint32_t get_bytes(struct cur *k, const char **s, size_t max, const char *what)
{
    uint64_t len = get(k, what);
    if (k->cut || k->bad)
        return 0;
    if (len >= max) {
        k->bad = what;
        return 0;
    }
    if (k->n - k->at < len) {
        k->cut = 1;
        return 0;
    }
    *s = (const char *)k->p + k->at;
    k->at += (size_t)len;
    return (uint32_t)len;
}

/* Is the result r possible for a record whose result means rk and whose size is size? */
static inline const char *check_result(const struct trace_codec *cc, int64_t r, uint64_t size,
                                       enum trace_result rk)
{
    if (r < 0)
        return r > -(int64_t)TE_COUNT ? NULL : "an unknown error code";
    switch (rk) {
    case TR_NONE: return r == 0 ? NULL : "a result where none can be";
    case TR_SLOT: return (uint64_t)r < cc->nslots ? NULL : "a slot beyond the trace's";
    case TR_OFFSET: return (uint64_t)r <= TRACE_SIZE_MAX ? NULL : "an offset too large";
    case TR_COUNT: return (uint64_t)r <= size ? NULL : "more bytes than the call asked for";
    }
    return "an unknown result";
}

/* A record's values as read, before they are checked. */
struct raw_call {
    uint64_t thread, dur, result, slot, slot2, size, off, off2, soff, flags, mode, aux;
    int64_t delta;
    const char *path, *path2;
    uint32_t path_len, path2_len;
    size_t used;
};

/* The general reader: the record's values out of the n bytes at p, whatever the input.
 * 1, 0 when the input ends inside the record, -1 with *bad saying which value is wrong. */
static __attribute__((noinline)) int
read_slow(const uint8_t *p, size_t n, unsigned f, struct raw_call *v, const char **bad)
{
    struct cur k = {.p = p, .n = n, .at = 1};
    v->thread = get(&k, "thread");
    v->delta = unzigzag(get(&k, "start"));
    v->dur = get(&k, "duration");
    v->result = get(&k, "result");
    if (f & TF_PATH)
        v->path_len = get_bytes(&k, &v->path, TRACE_PATH_MAX, "path");
    if (f & TF_PATH2)
        v->path2_len = get_bytes(&k, &v->path2, TRACE_PATH_MAX, "second path");
    v->slot = f & TF_SLOT ? get(&k, "slot") : 0;
    v->slot2 = f & TF_SLOT2 ? get(&k, "second slot") : 0;
    v->size = f & TF_SIZE ? get(&k, "size") : 0;
    v->off = f & TF_OFF ? get(&k, "offset") : 0;
    v->off2 = f & TF_OFF2 ? get(&k, "second offset") : 0;
    v->soff = f & TF_SOFF ? get(&k, "offset") : 0;
    v->flags = f & TF_FLAGS ? get(&k, "flags") : 0;
    v->mode = f & TF_MODE ? get(&k, "mode") : 0;
    v->aux = f & TF_AUX ? get(&k, "thread") : 0;
    v->used = k.at;
    *bad = k.bad;
    return k.bad ? -1 : k.cut ? 0 : 1;
}

/* A value of three bytes or more at q (10 bytes readable): moves q past it; *bad when it
 * is over 64 bits. */
static uint64_t long_at(const uint8_t **q, bool *bad)
{
    const uint8_t *b = *q;
    uint64_t x = 0;
    for (unsigned i = 0; i < 9; i++) {
        x |= (uint64_t)(b[i] & 0x7f) << (7 * i);
        if (!(b[i] & 0x80)) {
            *q = b + i + 1;
            return x;
        }
    }
    *q = b + 10;
    *bad |= b[9] > 1;
    return x | (uint64_t)b[9] << 63;
}

/* A value at q (10 bytes readable): one or two bytes inline (most of a record's), longer
 * ones by the loop. */
static inline __attribute__((always_inline)) uint64_t value_at(const uint8_t **q, bool *bad)
{
    const uint8_t *b = *q;
    if (b[0] < 0x80) {
        *q = b + 1;
        return b[0];
    }
    if (b[1] < 0x80) {
        *q = b + 2;
        return (uint64_t)(b[0] & 0x7f) | (uint64_t)b[1] << 7;
    }
    return long_at(q, bad);
}

/* Room the fast reader wants after the kind and after each path: every value a record
 * may still hold (15 at most, 10 bytes each) and a second path's length. */
#define FAST_ROOM 160

/* A path for the fast reader: its length, then its bytes, with FAST_ROOM left after them.
 * 1, or 0 where the general reader must decide. */
static inline __attribute__((always_inline)) int
path_fast(const uint8_t **q, const uint8_t *end, bool *bad, const char **path, uint32_t *len)
{
    uint64_t n = value_at(q, bad);
    if (*bad || n >= TRACE_PATH_MAX || n + FAST_ROOM > (size_t)(end - *q))
        return 0;
    *path = (const char *)*q;
    *len = (uint32_t)n;
    *q += n;
    return 1;
}

/* The replay's common case: the record lies whole in a buffer with room to spare (the
 * reader keeps TRACE_RECORD_MAX bytes ahead), so a value needs no look at the end. 1, or
 * 0 where the general reader must decide (a value too long, a path past the room: it
 * then says which, or that the input is cut). */
static inline __attribute__((always_inline)) int
read_fast(const uint8_t *p, size_t n, unsigned f, struct raw_call *v)
{
    if (n < 1 + FAST_ROOM)
        return 0;
    const uint8_t *q = p + 1, *end = p + n;
    bool bad = false;
    v->thread = value_at(&q, &bad);
    v->delta = unzigzag(value_at(&q, &bad));
    v->dur = value_at(&q, &bad);
    v->result = value_at(&q, &bad);
    if ((f & TF_PATH) && !path_fast(&q, end, &bad, &v->path, &v->path_len))
        return 0;
    if ((f & TF_PATH2) && !path_fast(&q, end, &bad, &v->path2, &v->path2_len))
        return 0;
    v->slot = f & TF_SLOT ? value_at(&q, &bad) : 0;
    v->slot2 = f & TF_SLOT2 ? value_at(&q, &bad) : 0;
    v->size = f & TF_SIZE ? value_at(&q, &bad) : 0;
    v->off = f & TF_OFF ? value_at(&q, &bad) : 0;
    v->off2 = f & TF_OFF2 ? value_at(&q, &bad) : 0;
    v->soff = f & TF_SOFF ? value_at(&q, &bad) : 0;
    v->flags = f & TF_FLAGS ? value_at(&q, &bad) : 0;
    v->mode = f & TF_MODE ? value_at(&q, &bad) : 0;
    v->aux = f & TF_AUX ? value_at(&q, &bad) : 0;
    v->used = (size_t)(q - p);
    return !bad;
}

long trace_decode_call(struct trace_codec *cc, const uint8_t *p, size_t n, struct trace_call *c,
                       char *why, size_t whylen)
{
    if (n == 0)
        return 0;
    /* the kind's fields and result in one look-up; its name only for a refusal */
    uint32_t shape = trace_kind_shape(p[0]);
    if (!shape)
        return snprintf(why, whylen, "record kind %u is unknown", p[0]), -1;
    unsigned f = TRACE_SHAPE_FIELDS(shape);
    /* v's values stay in registers: the general reader fills a struct of its own */
    struct raw_call v = {0};
    if (!read_fast(p, n, f, &v)) {
        struct raw_call w = {0};
        const char *bad = NULL;
        int r = read_slow(p, n, f, &w, &bad);
        if (r < 0)
            return snprintf(why, whylen, "%s record: its %s is too long",
                            trace_kind_name(p[0]), bad), -1;
        if (r == 0)
            return 0;
        v = w;
    }
    /* the record is checked in d, and *c set only once it passed */
    struct trace_call d = {.kind = p[0], .dur_ns = v.dur, .result = unzigzag(v.result),
                           .path = v.path, .path_len = v.path_len, .path2 = v.path2,
                           .path2_len = v.path2_len, .size = v.size, .off = v.off,
                           .off2 = v.off2, .soff = unzigzag(v.soff)};
#define KIND trace_kind_name(d.kind)
    uint64_t thread = v.thread, slot = v.slot, slot2 = v.slot2, flags = v.flags, mode = v.mode,
             aux = v.aux;
    int64_t delta = v.delta;
    if (thread >= cc->nthreads)
        return snprintf(why, whylen, "%s record: thread %" PRIu64 " beyond the trace's %u",
                        KIND, thread, cc->nthreads), -1;
    if ((f & TF_AUX) && aux >= cc->nthreads)
        return snprintf(why, whylen, "%s record: thread %" PRIu64 " beyond the trace's %u",
                        KIND, aux, cc->nthreads), -1;
    bool bad1 = (f & TF_SLOT) && slot >= cc->nslots, bad2 = (f & TF_SLOT2) && slot2 >= cc->nslots;
    if (bad1 || bad2)
        return snprintf(why, whylen, "%s record: slot %" PRIu64 " beyond the trace's %u", KIND,
                        bad1 ? slot : slot2, cc->nslots), -1;
    if ((f & TF_PATH) && !trace_path_valid(d.path, d.path_len))
        return snprintf(why, whylen, "%s record: a path that is not relative and plain "
                        "(empty, absolute, '.', '..' or an empty component)", KIND), -1;
    if (f & TF_PATH2) {
        bool ok = d.kind == TK_SYMLINK ? d.path2_len > 0 && !memchr(d.path2, 0, d.path2_len)
                                        : trace_path_valid(d.path2, d.path2_len);
        if (!ok)
            return snprintf(why, whylen, "%s record: a bad second path", KIND), -1;
    }
    uint64_t size_max = (d.kind == TK_FTRUNCATE || d.kind == TK_TRUNCATE ||
                         d.kind == TK_FALLOCATE || d.kind == TK_SYNC_RANGE)
                            ? TRACE_SIZE_MAX
                            : TRACE_IO_MAX;
    if (d.size > size_max || d.off > TRACE_SIZE_MAX || d.off2 > TRACE_SIZE_MAX ||
        d.soff > (int64_t)TRACE_SIZE_MAX || d.soff < -(int64_t)TRACE_SIZE_MAX)
        return snprintf(why, whylen, "%s record: a size or offset too large", KIND), -1;
    if (mode > 07777)
        return snprintf(why, whylen, "%s record: mode %" PRIo64 " is not permission bits", KIND,
                        mode), -1;
    uint64_t flags_max = d.kind == TK_OPEN || d.kind == TK_SETFL ? TRO_ALL
                         : d.kind == TK_LSEEK                     ? TRW_COUNT - 1
                                                                   : 15;
    if (flags > flags_max)
        return snprintf(why, whylen, "%s record: flags 0x%" PRIx64 " are unknown", KIND, flags),
               -1;
    if (d.dur_ns > TRACE_SIZE_MAX)
        return snprintf(why, whylen, "%s record: a duration too long", KIND), -1;
    /* unsigned arithmetic: a hostile delta may be INT64_MIN */
    uint64_t back = delta < 0 ? (uint64_t)0 - (uint64_t)delta : 0;
    uint64_t start = cc->prev_start + (uint64_t)delta;
    if (back > cc->prev_start || start > TRACE_SIZE_MAX)
        return snprintf(why, whylen, "%s record: a start time out of range", KIND), -1;
    d.thread = (uint32_t)thread;
    d.aux = (uint32_t)aux;
    d.slot = (uint32_t)slot;
    d.slot2 = (uint32_t)slot2;
    d.flags = (uint32_t)flags;
    d.mode = (uint32_t)mode;
    d.start_ns = start;
    const char *r = check_result(cc, d.result, d.size, TRACE_SHAPE_RESULT(shape));
    if (r)
        return snprintf(why, whylen, "%s record: %s", KIND, r), -1;
#undef KIND
    *c = d;
    cc->prev_start = start;
    return (long)v.used;
}

/* ---- entries of the initial state ---- */

size_t trace_encode_entry(const struct trace_entry *e, uint8_t *out)
{
    size_t n = put_bytes(out, e->path, e->path_len);
    out[n++] = e->type;
    n += trace_put_varint(out + n, e->mode);
    n += trace_put_varint(out + n, e->size);
    if (e->type == TT_SYMLINK)
        n += put_bytes(out + n, e->target, e->target_len);
    return n;
}

long trace_decode_entry(const uint8_t *p, size_t n, struct trace_entry *e, char *why,
                        size_t whylen)
{
    memset(e, 0, sizeof *e);
    struct cur k = {.p = p, .n = n};
    e->path_len = get_bytes(&k, &e->path, TRACE_PATH_MAX, "path");
    if (!k.cut && !k.bad) {
        if (k.at == n)
            k.cut = 1;
        else
            e->type = p[k.at++];
    }
    uint64_t mode = get(&k, "mode");
    e->size = get(&k, "size");
    if (e->type == TT_SYMLINK)
        e->target_len = get_bytes(&k, &e->target, TRACE_PATH_MAX, "symlink target");
    if (k.cut)
        return 0;
    if (k.bad)
        return snprintf(why, whylen, "initial state: an entry's %s is too long", k.bad), -1;
    if (!trace_path_valid(e->path, e->path_len) || (e->path_len == 1 && e->path[0] == '.'))
        return snprintf(why, whylen, "initial state: a path that is not relative and plain"), -1;
    if (e->type != TT_REG && e->type != TT_DIR && e->type != TT_SYMLINK)
        return snprintf(why, whylen, "initial state: entry type %u is unknown", e->type), -1;
    if (mode > 07777 || e->size > TRACE_SIZE_MAX)
        return snprintf(why, whylen, "initial state: a mode or size out of range"), -1;
    if (e->type == TT_SYMLINK && (e->target_len == 0 || memchr(e->target, 0, e->target_len)))
        return snprintf(why, whylen, "initial state: a bad symlink target"), -1;
    e->mode = (uint32_t)mode;
    return (long)k.at;
}

/* ---- the info block ---- */

static size_t put_str(uint8_t *out, const char *s, size_t max)
{
    size_t n = s ? strlen(s) : 0;
    return put_bytes(out, s ? s : "", n < max ? n : max - 1);
}

size_t trace_encode_info(const struct trace_info *info, uint8_t *out)
{
    size_t n = 0;
    n += put_str(out + n, info->command, TRACE_TEXT_MAX);
    n += put_str(out + n, info->root, TRACE_PATH_MAX);
    n += put_str(out + n, info->tracer, TRACE_TEXT_MAX);
    const uint64_t v[] = {info->started_unix_ns, info->duration_ns, info->nthreads,
                          info->nslots, info->max_concurrency, info->max_io, info->ncalls,
                          info->nrecords, info->left_outside, info->left_prestart,
                          info->left_other, info->tracer_gap_ns, info->tracer_dur_ns,
                          info->bytes_read, info->bytes_written, info->calib_gap_ns,
                          info->gap_p10_ns, info->calib_p10_ns, info->think_scale_ppm,
                          info->mirror_gap_ns, info->mirror_calls, info->quick_ns,
                          info->mirror_quick_ns, info->cpu_ns,
                          info->mirror_cpu_ns, info->think_ns};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        n += trace_put_varint(out + n, v[i]);
    if (info->format == 0 || info->format >= 4) {
        const uint64_t u[] = {info->plain_cpu_ns, info->plain_wall_ns,
                              info->plain_replay_cpu_ns, info->plain_replay_calls};
        for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
            n += trace_put_varint(out + n, u[i]);
    }
    if (info->format == 0 || info->format >= 6) {
        /* the table of costs per class of call, and the calls' cost by it */
        n += trace_put_varint(out + n, CAL_CLASSES);
        for (unsigned i = 0; i < CAL_CLASSES; i++)
            n += trace_put_varint(out + n, info->calib.call_ns[i]);
        n += trace_put_varint(out + n, info->calib.read_ns_per_mib);
        n += trace_put_varint(out + n, info->calib.write_ns_per_mib);
        n += trace_put_varint(out + n, info->calib_calls_ns);
        n += trace_put_varint(out + n, info->plain_runs);
        n += trace_put_varint(out + n, info->plain_replays);
    }
    if (info->format == 0 || info->format >= 5) {
        /* the think time per process: the processes, then each thread's process and scale */
        bool per = info->nprocs && info->nprocs <= TRACE_PROCS_MAX &&
                   info->nthread_think == info->nthreads &&
                   info->nthreads <= TRACE_PROC_THREADS_MAX;
        n += trace_put_varint(out + n, per ? info->nprocs : 0);
        for (uint32_t i = 0; per && i < info->nprocs; i++) {
            const struct trace_proc *p = &info->procs[i];
            n += trace_put_varint(out + n, p->leader);
            n += put_bytes(out + n, p->comm, strnlen(p->comm, sizeof p->comm - 1));
            n += trace_put_varint(out + n, p->cpu_ns);
            n += trace_put_varint(out + n, p->think_ns);
            n += trace_put_varint(out + n, p->tail_ns);
            n += trace_put_varint(out + n, p->span_ns);
        }
        n += trace_put_varint(out + n, per ? info->nthreads : 0);
        for (uint32_t i = 0; per && i < info->nthreads; i++) {
            n += trace_put_varint(out + n, info->thread_proc[i]);
            n += trace_put_varint(out + n, info->thread_scale_ppm[i]);
        }
    }
    unsigned kinds = info->format == 1 ? TRACE_V1_CALL_KINDS : TK_CALL_KINDS;
    n += trace_put_varint(out + n, kinds);
    for (unsigned k = 0; k < kinds; k++)
        n += trace_put_varint(out + n, info->count[k]);
    n += trace_put_varint(out + n, info->nstate);
    n += trace_put_varint(out + n, info->state_bytes);
    return n;
}

static char *dup_text(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
        /* a NUL inside would cut the text short: shown as '?' */
        for (size_t i = 0; i < n; i++)
            if (!d[i])
                d[i] = '?';
    }
    return d;
}

/* Format 5's processes and threads' scales (trace_encode_info). 0, or -1 with why. */
static int decode_procs(struct cur *k, struct trace_info *info, char *why, size_t whylen)
{
    uint64_t np = get(k, "processes");
    if (np > TRACE_PROCS_MAX) {
        snprintf(why, whylen, "its info block holds %" PRIu64 " processes (at most %u)", np,
                 TRACE_PROCS_MAX);
        return -1;
    }
    if (np && !(info->procs = calloc(np, sizeof *info->procs))) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    info->nprocs = (uint32_t)np;
    for (uint64_t i = 0; i < np && !k->cut && !k->bad; i++) {
        struct trace_proc *p = &info->procs[i];
        p->leader = (uint32_t)get(k, "processes");
        const char *c = "";
        uint32_t cl = get_bytes(k, &c, sizeof p->comm, "process name");
        memcpy(p->comm, c, cl);
        p->cpu_ns = get(k, "processes");
        p->think_ns = get(k, "processes");
        p->tail_ns = get(k, "processes");
        p->span_ns = get(k, "processes");
    }
    uint64_t nt = get(k, "threads");
    if (nt > TRACE_PROC_THREADS_MAX || (nt && !np)) {
        snprintf(why, whylen, "its info block holds %" PRIu64 " threads' think times", nt);
        return -1;
    }
    if (nt && (!(info->thread_proc = calloc(nt, sizeof *info->thread_proc)) ||
               !(info->thread_scale_ppm = calloc(nt, sizeof *info->thread_scale_ppm)))) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    info->nthread_think = (uint32_t)nt;
    for (uint64_t i = 0; i < nt && !k->cut && !k->bad; i++) {
        uint64_t p = get(k, "threads"), s = get(k, "threads");
        info->thread_proc[i] = p < np ? (uint32_t)p : UINT32_MAX;
        info->thread_scale_ppm[i] = s <= 1000000 ? (uint32_t)s : 1000000;
    }
    return 0;
}

static long decode_info(const uint8_t *p, size_t n, unsigned version, struct trace_info *info,
                        char *why, size_t whylen)
{
    memset(info, 0, sizeof *info);
    struct cur k = {.p = p, .n = n};
    const char *cmd = "", *root = "", *tracer = "";
    uint32_t lc = get_bytes(&k, &cmd, TRACE_TEXT_MAX, "command");
    uint32_t lr = get_bytes(&k, &root, TRACE_PATH_MAX, "directory");
    uint32_t lt = get_bytes(&k, &tracer, TRACE_TEXT_MAX, "tracer");
    uint64_t *dst[] = {&info->started_unix_ns, &info->duration_ns, NULL, NULL, NULL,
                       &info->max_io, &info->ncalls, &info->nrecords, &info->left_outside,
                       &info->left_prestart, &info->left_other, &info->tracer_gap_ns,
                       &info->tracer_dur_ns, &info->bytes_read, &info->bytes_written,
                       &info->calib_gap_ns, &info->gap_p10_ns, &info->calib_p10_ns,
                       &info->think_scale_ppm, &info->mirror_gap_ns, &info->mirror_calls,
                       &info->quick_ns, &info->mirror_quick_ns, &info->cpu_ns,
                       &info->mirror_cpu_ns, &info->think_ns};
    uint64_t small[3];
    for (size_t i = 0; i < sizeof dst / sizeof dst[0]; i++) {
        uint64_t v = get(&k, "header");
        if (i >= 2 && i <= 4)
            small[i - 2] = v;
        else
            *dst[i] = v;
    }
    if (version >= 4) {
        uint64_t *u[] = {&info->plain_cpu_ns, &info->plain_wall_ns, &info->plain_replay_cpu_ns,
                         &info->plain_replay_calls};
        for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
            *u[i] = get(&k, "header");
    }
    if (version >= 6) {
        /* a newer table may price more classes: those this one does not know are skipped */
        uint64_t ncls = get(&k, "calibration");
        if (ncls > 64) {
            snprintf(why, whylen, "its info block prices %" PRIu64 " classes of call (at most 64)",
                     ncls);
            return -1;
        }
        for (uint64_t i = 0; i < ncls; i++) {
            uint64_t v = get(&k, "calibration");
            if (i < CAL_CLASSES)
                info->calib.call_ns[i] = v;
        }
        info->calib.read_ns_per_mib = get(&k, "calibration");
        info->calib.write_ns_per_mib = get(&k, "calibration");
        info->calib_calls_ns = get(&k, "calibration");
        info->plain_runs = get(&k, "calibration");
        info->plain_replays = get(&k, "calibration");
    }
    if (version >= 5 && decode_procs(&k, info, why, whylen) < 0)
        return -1;
    /* format 1 counts its 38 kinds, formats 2 and 3 one more (mmap); the kinds a block does not
     * count it holds none of */
    uint64_t nkinds = get(&k, "kinds");
    if (!k.cut && !k.bad && nkinds != TK_CALL_KINDS && nkinds != TRACE_V1_CALL_KINDS) {
        snprintf(why, whylen, "it counts %" PRIu64 " kinds of call where format %u has %d "
                 "(a newer fsbench?)", nkinds, TRACE_FORMAT_VERSION, TK_CALL_KINDS);
        return -1;
    }
    for (unsigned i = 0; i < nkinds && i < TK_CALL_KINDS; i++)
        info->count[i] = get(&k, "counts");
    info->nstate = get(&k, "state");
    info->state_bytes = get(&k, "state");
    if (k.cut) {
        snprintf(why, whylen, "its info block is cut short");
        return -1;
    }
    if (k.bad) {
        snprintf(why, whylen, "its info block's %s is too long", k.bad);
        return -1;
    }
    if (small[0] == 0 || small[0] > TRACE_THREADS_MAX || small[1] > TRACE_SLOTS_MAX ||
        small[2] > small[0]) {
        snprintf(why, whylen, "its info block holds %" PRIu64 " threads and %" PRIu64
                 " slots (at most %u each, at least one thread)", small[0], small[1],
                 TRACE_THREADS_MAX);
        return -1;
    }
    uint64_t sum = 0;
    for (unsigned i = 1; i < TK_CALL_KINDS; i++) {
        sum += info->count[i];
        if (info->count[i] > info->ncalls)
            sum = UINT64_MAX;
    }
    if (info->count[0] || sum != info->ncalls || info->ncalls > info->nrecords ||
        info->nrecords > TRACE_SIZE_MAX || info->max_io > TRACE_IO_MAX ||
        info->think_scale_ppm > 1000000 || info->tracer_gap_ns > TRACE_SIZE_MAX) {
        snprintf(why, whylen, "its info block's counts do not add up");
        return -1;
    }
    info->nthreads = (uint32_t)small[0];
    if (info->nthread_think && info->nthread_think != info->nthreads)
        info->nthread_think = 0; /* not this trace's threads: one scale for all */
    info->nslots = (uint32_t)small[1];
    info->max_concurrency = (uint32_t)(small[2] ? small[2] : 1);
    info->command = dup_text(cmd, lc);
    info->root = dup_text(root, lr);
    info->tracer = dup_text(tracer, lt);
    if (!info->command || !info->root || !info->tracer) {
        trace_info_free(info);
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    return (long)k.at;
}

long trace_decode_info(const uint8_t *p, size_t n, unsigned version, struct trace_info *info,
                       char *why, size_t whylen)
{
    long r = decode_info(p, n, version, info, why, whylen);
    if (r < 0)
        trace_info_free(info);
    return r;
}
