/* trace_record_state.c — the recorder's tables (trace_record_internal.h): threads by tid,
 * their descriptor tables and working directories, slots, and the records the recorder
 * emits itself (spawn, inherit, drop, exit). trace_record.c feeds it lines, and
 * trace_record_calls.c says what each call does to it; it calls neither.
 */
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "trace/trace_record_internal.h"

/* Durations of quick calls above this are left out of their mean (a preemption). */
#define QUICK_MAX_NS ((uint64_t)1000000)

struct task **rec_bucket(struct trace_recorder *r, long tid)
{
    return &r->map[(unsigned long)tid % REC_BUCKETS];
}

struct task *rec_find(struct trace_recorder *r, long tid)
{
    for (struct task *t = *rec_bucket(r, tid); t; t = t->next)
        if (t->tid == tid)
            return t;
    return NULL;
}

struct fsctx *rec_fs_new(const char *cwd)
{
    struct fsctx *f = calloc(1, sizeof *f);
    if (f && !(f->cwd = strdup(cwd))) {
        free(f);
        f = NULL;
    }
    if (f)
        f->refs = 1;
    return f;
}

void rec_fs_put(struct fsctx *f)
{
    if (f && --f->refs == 0) {
        free(f->cwd);
        free(f);
    }
}

struct task *rec_task_new(struct trace_recorder *r, long tid, struct fdtab *fds,
                             struct fsctx *fs)
{
    struct task *t = calloc(1, sizeof *t);
    if (!t) {
        error("out of memory");
        return NULL;
    }
    t->tid = tid;
    if (r->info.nthreads == r->proc_cap) {
        size_t cap = r->proc_cap ? r->proc_cap * 2 : 64;
        struct rec_proc *p = realloc(r->proc, cap * sizeof *p);
        if (!p) {
            free(t);
            error("out of memory");
            return NULL;
        }
        r->proc = p;
        r->proc_cap = cap;
    }
    t->thread = r->info.nthreads++;
    /* a process of its own until rec_spawn says otherwise */
    r->proc[t->thread] = (struct rec_proc){.leader = t->thread};
    t->fds = fds;
    t->fs = fs;
    struct task **b = rec_bucket(r, tid);
    t->next = *b;
    *b = t;
    if (++r->live > r->info.max_concurrency)
        r->info.max_concurrency = r->live;
    return t;
}

/* ---- slots ---- */

uint32_t rec_slot_alloc(struct trace_recorder *r)
{
    if (r->nfree == 0)
        return r->slot_hw++;
    uint32_t *h = r->free_slots, top = h[0];
    h[0] = h[--r->nfree];
    for (size_t i = 0;;) {
        size_t a = 2 * i + 1, b = a + 1, m = i;
        if (a < r->nfree && h[a] < h[m])
            m = a;
        if (b < r->nfree && h[b] < h[m])
            m = b;
        if (m == i)
            break;
        uint32_t x = h[i];
        h[i] = h[m];
        h[m] = x;
        i = m;
    }
    return top;
}

void rec_slot_free(struct trace_recorder *r, uint32_t slot)
{
    if (r->nfree == r->free_cap) {
        size_t cap = r->free_cap ? r->free_cap * 2 : 64;
        uint32_t *h = realloc(r->free_slots, cap * sizeof *h);
        if (!h)
            return; /* the slot is not reused: a higher one is taken instead */
        r->free_slots = h;
        r->free_cap = cap;
    }
    uint32_t *h = r->free_slots;
    size_t i = r->nfree++;
    h[i] = slot;
    while (i > 0 && h[(i - 1) / 2] > h[i]) {
        uint32_t x = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = x;
        i = (i - 1) / 2;
    }
}

/* ---- records ---- */

/* Whether line l is a call its thread waits in rather than works: for a child (wait4,
 * waitid, a vfork, a clone that waits like one), for time (a sleep), for a descriptor
 * (select, poll, epoll), or on a pipe or socket (read, write): the program's time in it
 * is not think time. */
static bool rec_blocking(const struct strace_line *l)
{
    static const char *const waits[] = {
        "wait4", "waitid", "waitpid", "select", "_newselect", "pselect6", "poll", "ppoll",
        "epoll_wait", "epoll_pwait", "epoll_pwait2", "nanosleep", "clock_nanosleep", "pause",
        "vfork", NULL};
    for (size_t i = 0; waits[i]; i++)
        if (l->name.n == strlen(waits[i]) && !memcmp(l->name.p, waits[i], l->name.n))
            return true;
    bool clone = l->name.n >= 5 && !memcmp(l->name.p, "clone", 5);
    bool rw = (l->name.n == 4 && !memcmp(l->name.p, "read", 4)) ||
              (l->name.n == 5 && (!memcmp(l->name.p, "write", 5) || !memcmp(l->name.p, "readv", 5))) ||
              (l->name.n == 6 && !memcmp(l->name.p, "writev", 6));
    if (!clone && !rw)
        return false;
    if (clone) {
        for (size_t i = 0; i + 11 <= l->args.n; i++)
            if (!memcmp(l->args.p + i, "CLONE_VFORK", 11))
                return true;
        return false;
    }
    /* the descriptor's kind, shown by strace -y (in hex, -xx): "3<pipe:[1234]>",
     * "4<socket:[99]>", "5<UNIX:[...]>", "6<TCP:[...]>" */
    struct strace_span a[1];
    char what[64];
    long fd;
    bool deleted;
    if (strace_split_args(l->args, a, 1) < 1 ||
        strace_arg_fd(a[0], &fd, what, sizeof what, &deleted) < 0)
        return false;
    return !strncmp(what, "pipe:", 5) || !strncmp(what, "socket:", 7) ||
           !strncmp(what, "UNIX", 4) || !strncmp(what, "TCP", 3) || !strncmp(what, "UDP", 3);
}

void rec_stop(struct task *t, const struct strace_line *l)
{
    t->stops++;
    if (rec_blocking(l))
        t->away_ns += l->dur_ns;
}

int rec_emit(struct trace_recorder *r, struct task *t, const struct strace_line *l,
             struct trace_call *c)
{
    struct trace_info *in = &r->info;
    c->thread = t->thread;
    c->start_ns = l->ts_ns > r->t0 ? l->ts_ns - r->t0 : 0;
    c->dur_ns = l->dur_ns;
    if (c->start_ns + c->dur_ns > in->duration_ns)
        in->duration_ns = c->start_ns + c->dur_ns;
    in->nrecords++;
    if (c->kind == TK_SPAWN) {
        /* a new thread's start-up (an execve, the loader) is its think time before its
         * first call */
        t->last_end = c->start_ns;
        t->away_ns = t->stops = 0;
    }
    if (c->kind < TK_CALL_KINDS) {
        r->proc[t->thread].calls++;
        bool counted = !(r->o.gaps_of_started && t->thread == 0);
        if (t->last_end && c->start_ns > t->last_end) {
            /* the gap less the time the thread waited, and the tracer's stops in it:
             * the histogram holds the gap per stop, weighted by the stops, so that what it
             * holds above a tracer's gap o is each gap less o per stop (trace_record.c) */
            uint64_t g = c->start_ns - t->last_end;
            uint64_t away = t->away_ns < g ? t->away_ns : g, k = t->stops ? t->stops : 1;
            if (away || k > 1) {
                struct trace_call w = {.kind = TK_AWAY, .thread = t->thread,
                                       .start_ns = c->start_ns, .dur_ns = away,
                                       .size = k - 1 < TRACE_IO_MAX ? k - 1 : TRACE_IO_MAX};
                in->nrecords++;
                if (r->o.emit(r->o.arg, &w) < 0)
                    return -1;
            }
            g -= away;
            uint64_t b = g / k / 1000;
            b = b < GAP_BUCKETS - 1 ? b : GAP_BUCKETS - 1;
            if (counted && g) {
                r->gaps->count[b] += k;
                r->gaps->sum[b] += g;
                r->gaps->n += k;
                r->gaps->total += g;
            }
        }
        t->away_ns = t->stops = 0;
        if (counted && c->dur_ns < QUICK_MAX_NS &&
            (c->kind == TK_CLOSE || c->kind == TK_FSTAT || c->kind == TK_LSEEK)) {
            r->gaps->quick_n++;
            r->gaps->quick_total += c->dur_ns;
        }
        t->last_end = c->start_ns + c->dur_ns;
        in->ncalls++;
        in->count[c->kind]++;
        uint64_t rd, wr;
        trace_call_bytes(c, &rd, &wr);
        in->bytes_read += rd;
        in->bytes_written += wr;
        if (c->size > in->max_io && c->kind != TK_TRUNCATE && c->kind != TK_FTRUNCATE &&
            c->kind != TK_FALLOCATE && c->kind != TK_SYNC_RANGE)
            in->max_io = c->size;
    }
    return r->o.emit(r->o.arg, c);
}

/* A record of the recorder's own (spawn, exit, inherit, drop), at the time of line l. */
int rec_implicit(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                    unsigned kind, uint32_t slot, int64_t result, uint32_t aux)
{
    struct trace_call c = {.kind = (uint8_t)kind, .slot = slot, .result = result, .aux = aux};
    struct strace_line at = *l;
    at.dur_ns = 0;
    return rec_emit(r, t, &at, &c);
}

/* ---- descriptor tables ---- */

struct fdent *rec_fd(struct trace_recorder *r, struct task *t, long fd)
{
    (void)r;
    if (fd < 0 || fd >= (1L << 24))
        return NULL;
    struct fdtab *ft = t->fds;
    if ((size_t)fd >= ft->cap) {
        size_t cap = ft->cap ? ft->cap : 64;
        while (cap <= (size_t)fd)
            cap *= 2;
        struct fdent *e = realloc(ft->e, cap * sizeof *e);
        if (!e)
            return NULL;
        memset(e + ft->cap, 0, (cap - ft->cap) * sizeof *e);
        ft->e = e;
        ft->cap = cap;
    }
    return &ft->e[fd];
}

int rec_fd_release(struct trace_recorder *r, struct task *t, const struct strace_line *l, long fd)
{
    struct fdent *e = rec_fd(r, t, fd);
    if (!e)
        return 0;
    int rc = 0;
    if (e->state == FD_SLOT) {
        rc = rec_implicit(r, t, l, TK_DROP, e->slot, 0, 0);
        rec_slot_free(r, e->slot);
    }
    memset(e, 0, sizeof *e);
    return rc;
}

struct fdtab *rec_fdtab_new(void)
{
    struct fdtab *ft = calloc(1, sizeof *ft);
    if (ft)
        ft->refs = 1;
    return ft;
}

/* Drops every slot of a table whose last user ended, and frees it. */
int rec_fdtab_put(struct trace_recorder *r, struct task *t, const struct strace_line *l)
{
    struct fdtab *ft = t->fds;
    int rc = 0;
    if (!ft || --ft->refs > 0)
        return 0;
    for (size_t fd = 0; fd < ft->cap; fd++)
        if (ft->e[fd].state == FD_SLOT && rc == 0)
            rc = rec_fd_release(r, t, l, (long)fd);
    free(ft->e);
    free(ft);
    t->fds = NULL;
    return rc;
}

int rec_exec(struct trace_recorder *r, struct task *t, const struct strace_line *l,
             const char *name)
{
    if (name && t->thread < r->info.nthreads) {
        const char *b = strrchr(name, '/');
        b = b ? b + 1 : name;
        struct rec_proc *p = &r->proc[r->proc[t->thread].leader];
        size_t n = strlen(b) < sizeof p->comm - 1 ? strlen(b) : sizeof p->comm - 1;
        memcpy(p->comm, b, n);
        p->comm[n] = '\0';
    }
    struct fdtab *ft = t->fds;
    for (size_t fd = 0; fd < ft->cap; fd++)
        if (ft->e[fd].cloexec && rec_fd_release(r, t, l, (long)fd) < 0)
            return -1;
    return 0;
}


int rec_spawn(struct trace_recorder *r, struct task *t, const struct strace_line *l, long child,
              bool thread, bool share_files, bool share_fs)
{
    struct task *old = rec_find(r, child);
    if (old) /* a thread we thought alive: its exit was not seen */
        return 0;
    struct fdtab *ft = share_files ? t->fds : rec_fdtab_new();
    struct fsctx *fs = share_fs ? t->fs : rec_fs_new(t->fs->cwd);
    if (!ft || !fs) {
        if (!share_files && ft)
            free(ft);
        if (!share_fs)
            rec_fs_put(fs);
        return error("out of memory");
    }
    if (share_files)
        ft->refs++;
    if (share_fs)
        fs->refs++;
    struct task *c = rec_task_new(r, child, ft, fs);
    if (!c)
        return -1;
    /* a thread belongs to its creator's process; a process is named as its parent until
     * it runs another program */
    const struct rec_proc *mine = &r->proc[r->proc[t->thread].leader];
    if (thread)
        r->proc[c->thread].leader = mine->leader;
    memcpy(r->proc[c->thread].comm, mine->comm, sizeof mine->comm);
    if (rec_implicit(r, c, l, TK_SPAWN, 0, 0, t->thread) < 0)
        return -1;
    if (!share_files) {
        /* a copy of every descriptor: the child's own, sharing the open file */
        struct fdtab *p = t->fds;
        for (size_t fd = 0; fd < p->cap; fd++) {
            struct fdent *pe = &p->e[fd], *ce;
            if (pe->state == FD_NONE)
                continue;
            if (!(ce = rec_fd(r, c, (long)fd)))
                return error("out of memory");
            *ce = *pe;
            if (pe->state == FD_SLOT) {
                ce->slot = rec_slot_alloc(r);
                if (rec_implicit(r, c, l, TK_INHERIT, pe->slot, ce->slot, 0) < 0)
                    return -1;
            }
        }
    }
    /* the lines kept for the child are fed to it once this call is done (trace_record.c) */
    r->adopt_pending = true;
    r->adopt_tid = child;
    return 0;
}
