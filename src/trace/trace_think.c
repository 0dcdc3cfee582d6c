/* trace_think.c — the think time per process (trace_think.h): the untraced run's tasks kept
 * where they descend from the program, summed per process, matched to the recorded
 * processes by command name in start order, and each process's share spread over its own
 * threads' gaps.
 */
#include "trace/trace_think.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_gaps.h"

int trace_think_rooms(struct trace_file *t, const struct trace_info *info,
                      const struct trace_calib *k, uint64_t *room, uint64_t *span,
                      uint64_t *cost, char *why, size_t len)
{
    uint32_t nth = info->nthreads;
    struct trace_stream *st = trace_calls_open(t, why, len);
    if (!st)
        return -1;
    struct trace_gaps *g = trace_gaps_new(nth);
    uint64_t *born = calloc(nth ? nth : 1, sizeof *born);
    if (!g || !born) {
        trace_gaps_free(g);
        free(born);
        trace_stream_close(st);
        snprintf(why, len, "out of memory");
        return -1;
    }
    memset(room, 0, nth * sizeof *room);
    memset(span, 0, nth * sizeof *span);
    if (cost)
        memset(cost, 0, nth * sizeof *cost);
    struct trace_info one = {.tracer_gap_ns = info->tracer_gap_ns, .think_scale_ppm = 1000000};
    struct trace_call c;
    int r;
    while ((r = trace_next_call(st, &c)) > 0) {
        if (c.thread >= nth)
            continue;
        if (c.kind == TK_SPAWN)
            born[c.thread] = c.start_ns;
        else if (c.kind != TK_AWAY && c.start_ns > born[c.thread])
            span[c.thread] = c.start_ns - born[c.thread];
        if (k && cost)
            cost[c.thread] += trace_calib_call_ns(k, &c);
        struct trace_gap gp;
        if (trace_gaps_feed(g, &c, &gp) && gp.call)
            room[c.thread] += trace_think_ns(&one, gp.gap_ns, gp.away_ns, gp.stops);
    }
    trace_gaps_free(g);
    free(born);
    if (r < 0)
        snprintf(why, len, "%s", trace_stream_error(st));
    trace_stream_close(st);
    return r < 0 ? -1 : 0;
}

/* A process of the untraced run. */
struct uproc {
    int32_t tgid, ppid;
    char comm[16];
    uint64_t cpu_ns;
    int32_t matched; /* the recorded process it is (an index of procs), or -1 */
};

static int by_tgid(const void *a, const void *b)
{
    const struct uproc *x = a, *y = b;
    return (x->tgid > y->tgid) - (x->tgid < y->tgid);
}

static struct uproc *uproc_find(struct uproc *u, size_t n, int32_t tgid)
{
    struct uproc key = {.tgid = tgid};
    return bsearch(&key, u, n, sizeof *u, by_tgid);
}

/* The untraced run's processes below parent_pid, sorted by id (the order they started,
 * unless ids wrapped), their CPU time summed over their threads. NULL with *n 0 when none. */
static struct uproc *our_procs(const struct think_task *tasks, size_t ntasks, int32_t parent_pid,
                               size_t *n)
{
    *n = 0;
    struct uproc *u = calloc(ntasks ? ntasks : 1, sizeof *u);
    bool *ours = calloc(ntasks ? ntasks : 1, sizeof *ours);
    if (!u || !ours) {
        free(u);
        free(ours);
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < ntasks; i++) {
        if (tasks[i].tgid == parent_pid)
            continue;
        u[k] = (struct uproc){.tgid = tasks[i].tgid, .ppid = tasks[i].ppid,
                              .cpu_ns = tasks[i].cpu_ns, .matched = -1};
        /* a process's name and parent are its leader's (a thread's only until then) */
        memcpy(u[k].comm, tasks[i].comm, sizeof u[k].comm);
        u[k].comm[sizeof u[k].comm - 1] = '\0';
        u[k].ppid = tasks[i].pid == tasks[i].tgid ? tasks[i].ppid : -tasks[i].ppid - 1;
        k++;
    }
    qsort(u, k, sizeof *u, by_tgid);
    /* one per process: its threads' times added, its leader's name and parent */
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        bool leader = u[i].ppid >= 0;
        if (!leader)
            u[i].ppid = -u[i].ppid - 1;
        if (m && u[m - 1].tgid == u[i].tgid) {
            u[m - 1].cpu_ns += u[i].cpu_ns;
            if (leader) {
                memcpy(u[m - 1].comm, u[i].comm, sizeof u[i].comm);
                u[m - 1].ppid = u[i].ppid;
            }
            continue;
        }
        u[m++] = u[i];
    }
    /* ours: a child of parent_pid, or of one of ours, until nothing more joins */
    for (bool more = true; more;) {
        more = false;
        for (size_t i = 0; i < m; i++) {
            if (ours[i])
                continue;
            const struct uproc *p = u[i].ppid == parent_pid ? NULL : uproc_find(u, m, u[i].ppid);
            if (u[i].ppid == parent_pid || (p && ours[p - u]))
                ours[i] = more = true;
        }
    }
    for (size_t i = 0; i < m; i++)
        if (ours[i])
            u[(*n)++] = u[i];
    free(ours);
    return u;
}

/* The processes' think times want[n] (each its CPU time less what a replay spends on its
 * calls, below 0 where the replay spends more) made what a replay works: none below 0, and
 * all scaled down alike so that they add up to no more than the program's CPU time less
 * the replay's for all its calls (the sum of want, or 0). A process whose calls cost the
 * replay more than the process's whole CPU time already makes the replay late by that
 * much; where processes take turns (rsync's sender, receiver and generator, each waiting
 * for another's pipe in a cycle; sh then find then du), that lateness lies on the same
 * path as the others' think time, and a think time added for one process where the
 * others' surplus is not taken off made the replay late by about the whole of it (rsync:
 * 0.223 s of think on the generator alone, +20 % at original timing against +1 % afap). */
static void think_cap(double *want, uint32_t n)
{
    double net = 0, pos = 0;
    for (uint32_t p = 0; p < n; p++) {
        net += want[p];
        if (want[p] > 0)
            pos += want[p];
    }
    double f = pos > 0 && net < pos ? (net > 0 ? net / pos : 0) : 1;
    for (uint32_t p = 0; p < n; p++)
        want[p] = want[p] > 0 ? want[p] * f : 0;
}

int trace_think_per_process(struct trace_info *info, const struct think_thread *th,
                            const struct think_task *tasks, size_t ntasks, int32_t parent_pid,
                            uint64_t total_cpu_ns, uint64_t replay_cpu_ns, char *why,
                            size_t len)
{
    uint32_t nth = info->nthreads, np = 0;
    if (nth > TRACE_PROC_THREADS_MAX) {
        snprintf(why, len, "%u threads (per process up to %u)", nth, TRACE_PROC_THREADS_MAX);
        return -1;
    }
    for (uint32_t i = 0; i < nth; i++)
        np += th[i].leader == i;
    if (!np || np > TRACE_PROCS_MAX) {
        snprintf(why, len, "%u processes (per process up to %u)", np, TRACE_PROCS_MAX);
        return -1;
    }
    size_t nu;
    struct uproc *u = our_procs(tasks, ntasks, parent_pid, &nu);
    if (!nu) {
        free(u);
        snprintf(why, len, "no process of the untraced run was reported");
        return -1;
    }
    struct trace_proc *procs = calloc(np, sizeof *procs);
    uint32_t *tproc = calloc(nth, sizeof *tproc), *tscale = calloc(nth, sizeof *tscale);
    uint32_t *pidx = calloc(nth, sizeof *pidx);
    uint64_t *calls = calloc(np, sizeof *calls), *room = calloc(np, sizeof *room);
    uint64_t *cost = calloc(np, sizeof *cost);
    if (!procs || !tproc || !tscale || !pidx || !calls || !room || !cost) {
        free(u), free(procs), free(tproc), free(tscale), free(pidx), free(calls), free(room);
        free(cost);
        snprintf(why, len, "out of memory");
        return -1;
    }
    /* the recorded processes, in the order they started */
    np = 0;
    for (uint32_t i = 0; i < nth; i++)
        if (th[i].leader == i) {
            pidx[i] = np;
            procs[np].leader = i;
            procs[np].span_ns = th[i].span_ns;
            memcpy(procs[np].comm, th[i].comm, strnlen(th[i].comm, sizeof procs[np].comm - 1));
            np++;
        }
    uint64_t all_calls = 0;
    for (uint32_t i = 0; i < nth; i++) {
        uint32_t p = th[i].leader < nth ? pidx[th[i].leader] : 0;
        tproc[i] = p;
        calls[p] += th[i].calls;
        room[p] += th[i].room_ns;
        cost[p] += th[i].cost_ns;
        all_calls += th[i].calls;
    }
    /* the kernel samples each task's time: scaled to the run's total, which is exact */
    uint64_t sum = 0;
    for (size_t j = 0; j < nu; j++)
        sum += u[j].cpu_ns;
    double f = sum && total_cpu_ns ? (double)total_cpu_ns / (double)sum : 1;
    /* matched by name in start order: each recorded process to the first of the untraced
     * run's with its name not matched yet */
    for (uint32_t p = 0; p < np; p++) {
        for (size_t j = 0; j < nu; j++) {
            if (u[j].matched >= 0 || strncmp(u[j].comm, procs[p].comm, 15) || !procs[p].comm[0])
                continue;
            u[j].matched = (int32_t)p;
            procs[p].cpu_ns = (uint64_t)((double)u[j].cpu_ns * f);
            break;
        }
    }
    /* one not matched: its time to its nearest matched ancestor (else the first process) */
    for (size_t j = 0; j < nu; j++) {
        if (u[j].matched >= 0)
            continue;
        const struct uproc *a = &u[j];
        for (int hops = 0; a && a->matched < 0 && hops < 1000; hops++)
            a = uproc_find(u, nu, a->ppid);
        procs[a && a->matched >= 0 ? a->matched : 0].cpu_ns += (uint64_t)((double)u[j].cpu_ns * f);
    }
    /* each process's think time: its CPU time less the replay's for its calls (their
     * calibrated cost, or a share of a replay's CPU time); over its threads' gaps at one
     * scale, what they cannot hold over its life; all of them together no more than the
     * program's CPU time less the replay's for all its calls (think_cap) */
    double *want = calloc(np, sizeof *want);
    if (!want) {
        free(u), free(procs), free(tproc), free(tscale), free(pidx), free(calls), free(room);
        free(cost);
        snprintf(why, len, "out of memory");
        return -1;
    }
    for (uint32_t p = 0; p < np; p++) {
        want[p] = (double)cost[p];
        if (all_calls)
            want[p] += (double)replay_cpu_ns * (double)calls[p] / (double)all_calls;
        want[p] = (double)procs[p].cpu_ns - want[p]; /* below 0: the replay spends more */
    }
    think_cap(want, np);
    uint64_t think = 0;
    for (uint32_t p = 0; p < np; p++) {
        double scale = room[p] ? want[p] / (double)room[p] : 0;
        if (scale > 1)
            scale = 1;
        procs[p].think_ns = (uint64_t)want[p];
        double tail = want[p] - scale * (double)room[p];
        procs[p].tail_ns = tail > 0 ? (uint64_t)tail : 0;
        for (uint32_t i = 0; i < nth; i++)
            if (tproc[i] == p)
                tscale[i] = (uint32_t)(scale * 1e6);
        think += procs[p].think_ns;
    }
    free(want);
    free(u), free(pidx), free(calls), free(room), free(cost);
    free(info->procs), free(info->thread_proc), free(info->thread_scale_ppm);
    info->procs = procs;
    info->nprocs = np;
    info->thread_proc = tproc;
    info->thread_scale_ppm = tscale;
    info->nthread_think = nth;
    info->think_ns = think;
    return 0;
}
