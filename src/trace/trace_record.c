/* trace_record.c — the recorder's bookkeeping (trace_record.h): threads by tid, their
 * descriptor tables and working directories, slots, lines waiting for the clone that
 * made their thread, unfinished calls put back together, and the counts of the info
 * block. What each call means is in trace_record_calls.c (the calls on a path in
 * trace_record_paths.c), the tables it changes in trace_record_state.c.
 */
#include "trace/trace_record.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "trace/trace_record_internal.h"

/* Lines of unknown threads kept at most (then they are taken as threads of their own). */
#define ORPHAN_MAX ((size_t)64 << 20)

struct trace_recorder *trace_rec_new(const struct trace_rec_opts *o)
{
    struct trace_recorder *r = calloc(1, sizeof *r);
    if (!r) {
        error("out of memory");
        return NULL;
    }
    r->o = *o;
    if (!(r->gaps = calloc(1, sizeof *r->gaps))) {
        free(r);
        error("out of memory");
        return NULL;
    }
    r->rootlen = strlen(o->root);
    while (r->rootlen > 1 && o->root[r->rootlen - 1] == '/')
        r->rootlen--;
    return r;
}

/* ---- threads ---- */

static int process(struct trace_recorder *r, struct task *t, const char *line, size_t n);

/* Feeds the lines kept for tid (now known) to its task. */
static int adopt(struct trace_recorder *r, long tid)
{
    for (struct orphan **p = &r->orphans; *p; p = &(*p)->next) {
        struct orphan *o = *p;
        if (o->tid != tid)
            continue;
        *p = o->next;
        r->orphan_bytes -= o->len;
        int rc = 0;
        for (size_t i = 0; i < o->len && rc == 0;) {
            char *nl = memchr(o->buf + i, '\n', o->len - i);
            size_t e = nl ? (size_t)(nl - o->buf) : o->len;
            struct task *t = rec_find(r, tid);
            if (t)
                rc = process(r, t, o->buf + i, e - i);
            i = e + 1;
        }
        free(o->buf);
        free(o);
        return rc;
    }
    return 0;
}
static void task_unlink(struct trace_recorder *r, struct task *t)
{
    for (struct task **p = rec_bucket(r, t->tid); *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            break;
        }
}

/* A close of t that never came back (t ended in it, or started another call): the
 * kernel closed the descriptor all the same, so its slot is dropped. */
static int close_abandoned(struct trace_recorder *r, struct task *t, const struct strace_line *l)
{
    int rc = 0;
    if (t->closing && t->closing_fd.state == FD_SLOT) {
        rc = rec_implicit(r, t, l, TK_DROP, t->closing_fd.slot, 0, 0);
        rec_slot_free(r, t->closing_fd.slot);
    }
    t->closing = false;
    return rc;
}

/* t ended (line l is its "+++ exited" line, or the last one seen). */
static int task_end(struct trace_recorder *r, struct task *t, const struct strace_line *l)
{
    if (t->pending)
        r->info.left_other++; /* a call it never finished */
    int rc = close_abandoned(r, t, l);
    if (rc == 0)
        rc = rec_implicit(r, t, l, TK_EXIT, 0, 0, 0);
    if (rc == 0)
        rc = rec_fdtab_put(r, t, l);
    r->dead[r->ndead++ % REC_DEAD] = (struct rec_dead){t->tid, t->thread};
    rec_fs_put(t->fs);
    task_unlink(r, t);
    free(t->pending);
    free(t);
    r->live--;
    return rc;
}

/* ---- lines ---- */

static int keep_orphan(struct trace_recorder *r, long tid, const char *line, size_t n)
{
    struct orphan *o = r->orphans;
    while (o && o->tid != tid)
        o = o->next;
    if (!o) {
        if (!(o = calloc(1, sizeof *o)))
            return error("out of memory");
        o->tid = tid;
        o->next = r->orphans;
        r->orphans = o;
    }
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 4096;
        while (cap < o->len + n + 1)
            cap *= 2;
        char *b = realloc(o->buf, cap);
        if (!b)
            return error("out of memory");
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, line, n);
    o->buf[o->len + n] = '\n';
    o->len += n + 1;
    r->orphan_bytes += n + 1;
    return 0;
}

/* Acts on one complete call of t; a clone it reports makes a thread whose kept lines are
 * fed to it now, before the next line (rec_spawn leaves that to here). */
static int call(struct trace_recorder *r, struct task *t, const struct strace_line *l)
{
    rec_stop(t, l);
    int rc = rec_call(r, t, l);
    if (rc == 0 && r->adopt_pending) {
        r->adopt_pending = false;
        rc = adopt(r, r->adopt_tid);
    }
    return rc;
}

/* A resumed call: the unfinished half kept in t->pending and the rest, as one line. */
static int resume(struct trace_recorder *r, struct task *t, const struct strace_line *l)
{
    size_t plen = strlen(t->pending), need = plen + l->args.n + 64;
    if (need > r->line_cap) {
        char *b = realloc(r->line, need);
        if (!b)
            return error("out of memory");
        r->line = b;
        r->line_cap = need;
    }
    int k = snprintf(r->line, r->line_cap, "%ld %" PRIu64 ".%09" PRIu64 " ", t->tid,
                     t->pending_ts / 1000000000u, t->pending_ts % 1000000000u);
    memcpy(r->line + k, t->pending, plen);
    memcpy(r->line + k + plen, l->args.p, l->args.n);
    size_t n = (size_t)k + plen + l->args.n;
    free(t->pending);
    t->pending = NULL;
    struct strace_line whole;
    strace_parse_line(r->line, n, &whole);
    if (whole.kind != SL_CALL) {
        r->info.left_other++;
        return 0;
    }
    return call(r, t, &whole);
}

static int process(struct trace_recorder *r, struct task *t, const char *line, size_t n)
{
    struct strace_line l;
    strace_parse_line(line, n, &l);
    switch (l.kind) {
    case SL_BAD: r->info.left_other++; return 0;
    case SL_OTHER: return 0;
    case SL_EXIT: return task_end(r, t, &l);
    case SL_UNFINISHED: {
        if (close_abandoned(r, t, &l) < 0)
            return -1;
        free(t->pending);
        size_t k = l.name.n + 1 + l.args.n;
        if (!(t->pending = malloc(k + 1)))
            return error("out of memory");
        memcpy(t->pending, l.name.p, l.name.n);
        t->pending[l.name.n] = '(';
        memcpy(t->pending + l.name.n + 1, l.args.p, l.args.n);
        t->pending[k] = '\0';
        t->pending_ts = l.ts_ns;
        rec_call_started(r, t, &l);
        return 0;
    }
    case SL_RESUMED:
        if (!t->pending) {
            r->info.left_other++;
            return 0;
        }
        return resume(r, t, &l);
    case SL_CALL: return call(r, t, &l);
    }
    return 0;
}

int trace_rec_line(struct trace_recorder *r, const char *line, size_t n)
{
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        n--;
    if (n == 0)
        return 0;
    struct strace_line l;
    strace_parse_line(line, n, &l);
    if (l.kind == SL_BAD) {
        r->info.left_other++;
        return 0;
    }
    if (!r->started) {
        r->started = true;
        r->t0 = l.ts_ns;
        r->info.started_unix_ns = l.ts_ns;
        struct fdtab *ft = rec_fdtab_new();
        struct fsctx *fs = rec_fs_new(r->o.cwd);
        if (!ft || !fs || !rec_task_new(r, l.tid, ft, fs)) {
            free(ft);
            rec_fs_put(fs);
            return error("out of memory");
        }
    }
    struct task *t = rec_find(r, l.tid);
    if (t)
        return process(r, t, line, n);
    if (r->orphan_bytes + n < ORPHAN_MAX)
        return keep_orphan(r, l.tid, line, n);
    /* too much waiting: a thread of its own, as if started afresh */
    struct fdtab *ft = rec_fdtab_new();
    struct fsctx *fs = rec_fs_new(r->o.cwd);
    if (!ft || !fs || !(t = rec_task_new(r, l.tid, ft, fs))) {
        free(ft);
        rec_fs_put(fs);
        return error("out of memory");
    }
    return adopt(r, l.tid) < 0 ? -1 : process(r, t, line, n);
}

/* The gap at quantile q of h, ns (to the microsecond). */
static uint64_t gap_quantile(const struct gap_hist *h, double q)
{
    uint64_t want = (uint64_t)(q * (double)h->n), seen = 0;
    for (size_t b = 0; b < GAP_BUCKETS; b++) {
        seen += h->count[b];
        if (seen > want)
            return b * 1000 + 500;
    }
    return 0;
}

/* What the gaps of h hold above o, each clipped at zero (ns). */
static double gaps_above(const struct gap_hist *h, double o)
{
    double above = 0;
    for (size_t b = 0; b < GAP_BUCKETS; b++) {
        if (!h->count[b])
            continue;
        double mean = (double)h->sum[b] / (double)h->count[b];
        if (mean > o)
            above += (mean - o) * (double)h->count[b];
    }
    return above;
}

/* The think-time model's scale for a tracer gap o (trace_record.h): what is left of every
 * gap once the tracer's part is off, against what clipping each at zero would leave, so
 * that the sum of the think times is right. */
static uint64_t think_scale(const struct gap_hist *h, double o)
{
    double above = gaps_above(h, o);
    double left = (double)h->total - o * (double)h->n;
    double scale = above > 0 && left > 0 ? left / above : 0;
    return (uint64_t)((scale > 1 ? 1 : scale) * 1e6);
}

/* The think-time model (trace_record.h): tracer_gap_ns and think_scale_ppm. */
static void think_model(const struct trace_recorder *r, struct trace_info *in)
{
    const struct gap_hist *h = r->gaps;
    in->calib_gap_ns = r->o.calib_gap_ns;
    in->calib_p10_ns = r->o.calib_p10_ns;
    in->tracer_dur_ns = r->o.calib_dur_ns;
    in->think_scale_ppm = 1000000;
    if (!h->n)
        return;
    in->gap_p10_ns = gap_quantile(h, 0.10);
    /* the tracer's gap: the calibration's mean (a program making calls back to back, traced
     * the same way just before and after), scaled by how much slower this recording's
     * quickest tenth of gaps was than the calibration's (a busier or quieter moment) */
    double o = (double)in->gap_p10_ns; /* without a calibration: a lower bound */
    if (in->calib_gap_ns && in->calib_p10_ns) {
        double busier = (double)in->gap_p10_ns / (double)in->calib_p10_ns;
        busier = busier < 0.6 ? 0.6 : busier > 1.6 ? 1.6 : busier;
        o = (double)in->calib_gap_ns * busier;
    }
    in->tracer_gap_ns = (uint64_t)o;
    in->think_scale_ppm = think_scale(h, o);
}

void trace_rec_rethink(const struct trace_recorder *r, uint64_t gap_ns, struct trace_info *info)
{
    info->tracer_gap_ns = gap_ns;
    info->think_scale_ppm = r->gaps->n ? think_scale(r->gaps, (double)gap_ns) : 1000000;
}

void trace_rec_think_cpu(const struct trace_recorder *r, uint64_t think_ns, struct trace_info *info)
{
    const struct gap_hist *h = r->gaps;
    info->think_ns = think_ns;
    if (!h->n)
        return;
    double want = (double)think_ns, o = (double)info->tracer_gap_ns;
    double above = gaps_above(h, o);
    if (above < want) {
        /* the tracer's gap was overestimated: lowered until what the gaps hold above it
         * is the program's time (or to nothing) */
        double lo = 0, hi = o;
        if (gaps_above(h, 0) <= want) {
            hi = 0;
        } else {
            for (int i = 0; i < 60 && hi - lo > 1; i++) {
                double mid = (lo + hi) / 2;
                if (gaps_above(h, mid) < want)
                    hi = mid;
                else
                    lo = mid;
            }
        }
        o = hi;
        above = gaps_above(h, o);
    }
    double scale = above > 0 && want > 0 ? want / above : 0;
    info->tracer_gap_ns = (uint64_t)o;
    info->think_scale_ppm = (uint64_t)((scale > 1 ? 1 : scale) * 1e6);
}

void trace_rec_gaps(const struct trace_recorder *r, uint64_t below_ns, uint64_t *n,
                    uint64_t *total_ns)
{
    const struct gap_hist *h = r->gaps;
    if (!below_ns || below_ns / 1000 >= GAP_BUCKETS - 1) {
        *n = h->n;
        *total_ns = h->total;
        return;
    }
    *n = *total_ns = 0;
    for (size_t b = 0; b < below_ns / 1000; b++) {
        *n += h->count[b];
        *total_ns += h->sum[b];
    }
}

void trace_rec_proc(const struct trace_recorder *r, uint32_t thread, uint32_t *leader,
                    const char **comm, uint64_t *calls)
{
    if (thread >= r->info.nthreads) {
        *leader = thread;
        *comm = "";
        *calls = 0;
        return;
    }
    *leader = r->proc[thread].leader;
    *comm = r->proc[r->proc[thread].leader].comm;
    *calls = r->proc[thread].calls;
}

void trace_rec_quick(const struct trace_recorder *r, uint64_t *n, uint64_t *total_ns)
{
    *n = r->gaps->quick_n;
    *total_ns = r->gaps->quick_total;
}

void trace_rec_set_calibration(struct trace_recorder *r, uint64_t gap_ns, uint64_t p10_ns,
                               uint64_t dur_ns)
{
    r->o.calib_gap_ns = gap_ns;
    r->o.calib_p10_ns = p10_ns;
    r->o.calib_dur_ns = dur_ns;
}

int trace_rec_finish(struct trace_recorder *r, struct trace_info *info)
{
    int rc = 0;
    /* lines of threads whose clone never showed: threads of their own */
    while (r->orphans && rc == 0) {
        long tid = r->orphans->tid;
        struct fdtab *ft = rec_fdtab_new();
        struct fsctx *fs = rec_fs_new(r->o.cwd);
        if (!ft || !fs || !rec_task_new(r, tid, ft, fs)) {
            free(ft);
            rec_fs_put(fs);
            return error("out of memory");
        }
        rc = adopt(r, tid);
    }
    struct strace_line last = {.ts_ns = r->t0 + r->info.duration_ns};
    for (size_t b = 0; b < REC_BUCKETS && rc == 0; b++)
        while (r->map[b] && rc == 0)
            rc = task_end(r, r->map[b], &last);
    r->info.nslots = r->slot_hw;
    think_model(r, &r->info);
    if (r->info.nthreads == 0)
        r->info.nthreads = 1; /* a trace of nothing still has its one thread */
    *info = r->info;
    info->command = info->root = info->tracer = NULL;
    return rc;
}

void trace_rec_free(struct trace_recorder *r)
{
    if (!r)
        return;
    for (size_t b = 0; b < REC_BUCKETS; b++)
        while (r->map[b]) {
            struct task *t = r->map[b];
            r->map[b] = t->next;
            if (t->fds && --t->fds->refs == 0) {
                free(t->fds->e);
                free(t->fds);
            }
            rec_fs_put(t->fs);
            free(t->pending);
            free(t);
        }
    while (r->orphans) {
        struct orphan *o = r->orphans;
        r->orphans = o->next;
        free(o->buf);
        free(o);
    }
    free(r->free_slots);
    free(r->line);
    free(r->gaps);
    free(r->proc);
    free(r);
}

