/* record_think.c — record_think.h. */
#include "run/record_think.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run/record_calib.h"
#include "run/record_mirror.h"
#include "trace/trace_read.h"
#include "trace/trace_think.h"

/* Calls of the trace replayed under strace to measure the tracer (the first ones). */
#define MIRROR_CALLS ((uint64_t)100000)
/* Calls replayed untraced to measure the replay's own work per call (the first ones), its
 * replays at most, and the time after which no replay more starts. */
#define PLAIN_CALLS ((uint64_t)2000000)
#define PLAIN_REPLAYS_MAX 3
#define PLAIN_AGAIN_NS ((uint64_t)1000000000)

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int record_think_pair_replay(void *arg, uint64_t *cpu_ns)
{
    const struct record_think_pair *p = arg;
    char why[256];
    uint64_t c;
    if (record_mirror_plain(p->out, PLAIN_CALLS, p->root, &c, why, sizeof why) < 0)
        return -1;
    uint64_t made = p->ncalls < PLAIN_CALLS ? p->ncalls : PLAIN_CALLS;
    *cpu_ns = made ? (uint64_t)((double)c * (double)p->ncalls / (double)made) : 0;
    return 0;
}

/* An untraced replay's CPU time on the calls, the least of a few (a short trace's replay
 * again while they take little time), scaled to all the calls, into *cpu: 0, or -1. */
static int plain_replay(const char *out, const char *root, const struct trace_info *info,
                        uint64_t *cpu, unsigned *n)
{
    struct record_think_pair p = {.out = out, .root = root, .ncalls = info->ncalls};
    uint64_t t0 = now_ns(), best = UINT64_MAX;
    *n = 0;
    while (*n < PLAIN_REPLAYS_MAX && (*n == 0 || now_ns() - t0 < PLAIN_AGAIN_NS)) {
        uint64_t c;
        if (record_think_pair_replay(&p, &c) < 0)
            break;
        best = c < best ? c : best;
        (*n)++;
    }
    *cpu = best;
    return *n ? 0 : -1;
}

int record_think_tracer(const char *out, const struct trace_recorder *rec,
                        struct trace_info *info, char *why, size_t len)
{
    struct record_mirror m;
    if (record_mirror(out, MIRROR_CALLS, &m, why, len) < 0)
        return -1;
    /* the replay's mean gap is the tracer's part of a gap at the replay's moment; it is
     * carried to the recording's moment by the quick calls' durations measured in both */
    double gap = (double)m.short_total_ns / (double)m.short_gaps, o = gap;
    uint64_t qn, qt;
    trace_rec_quick(rec, &qn, &qt);
    if (qn >= 100 && m.quick >= 100) {
        double here = (double)qt / (double)qn, there = (double)m.quick_total_ns / (double)m.quick;
        o = gap - there + here;
        info->quick_ns = (uint64_t)here;
        info->mirror_quick_ns = (uint64_t)there;
    }
    trace_rec_rethink(rec, o > 0 ? (uint64_t)o : 0, info);
    /* the think times add up to the program's CPU time less the traced replay's for the
     * same calls (the replay spends that again; the tracer's share is in both alike) */
    info->mirror_cpu_ns = m.user_ns + m.sys_ns;
    if (info->cpu_ns && m.calls) {
        double again = (double)(m.user_ns + m.sys_ns) * (double)info->ncalls / (double)m.calls;
        double left = (double)info->cpu_ns - again;
        trace_rec_think_cpu(rec, left > 0 ? (uint64_t)left : 0, info);
    }
    info->mirror_gap_ns = (uint64_t)gap;
    info->mirror_calls = m.calls;
    return 0;
}

/* The think time per process (trace_think.h) from the untraced run's tasks, the threads'
 * rooms, lives and calls' costs. 0, or -1 with why (the one scale stays). */
static int per_process(const struct trace_recorder *rec, const struct record_untraced *u,
                       struct trace_info *info, const uint64_t *room, const uint64_t *span,
                       const uint64_t *cost, char *why, size_t len)
{
    uint32_t nth = info->nthreads;
    struct think_thread *th = calloc(nth ? nth : 1, sizeof *th);
    struct think_task *tk = calloc(u->n ? u->n : 1, sizeof *tk);
    int rc = -1;
    if (!th || !tk) {
        snprintf(why, len, "out of memory");
    } else {
        for (uint32_t i = 0; i < nth; i++) {
            trace_rec_proc(rec, i, &th[i].leader, &th[i].comm, &th[i].calls);
            th[i].room_ns = room[i];
            th[i].span_ns = span[i];
            th[i].cost_ns = cost[i];
        }
        for (size_t i = 0; i < u->n; i++) {
            tk[i] = (struct think_task){.pid = u->t[i].pid, .tgid = u->t[i].tgid,
                                        .ppid = u->t[i].ppid, .cpu_ns = u->t[i].cpu_ns};
            memcpy(tk[i].comm, u->t[i].comm, sizeof tk[i].comm);
        }
        rc = trace_think_per_process(info, th, tk, u->n, u->self, info->plain_cpu_ns, 0, why,
                                     len);
    }
    free(th);
    free(tk);
    return rc;
}

int record_think_untraced(const char *out, const char *root, const struct trace_recorder *rec,
                          const struct record_untraced *u, struct trace_info *info, char *why,
                          size_t len, int *per_failed, char *proc_why, size_t plen)
{
    info->plain_cpu_ns = u->cpu_ns;
    info->plain_wall_ns = u->wall_ns;
    info->plain_runs = u->runs;
    *per_failed = 1;
    snprintf(proc_why, plen, "%s", u->t ? "" : u->why);
    struct trace_calib k;
    int priced = record_calib_measure(root, &k, why, len) == 0;
    uint32_t nth = info->nthreads;
    size_t n = nth ? nth : 1;
    uint64_t *room = calloc(n, sizeof *room), *span = calloc(n, sizeof *span);
    uint64_t *cost = calloc(n, sizeof *cost);
    struct trace_file *t = room && span && cost ? trace_open(out) : NULL;
    char rwhy[512] = "the trace could not be read again";
    int walked = t && trace_think_rooms(t, info, priced ? &k : NULL, room, span, cost, rwhy,
                                        sizeof rwhy) == 0;
    if (t)
        trace_close(t);
    if (!walked && priced) {
        snprintf(why, len, "%s", rwhy);
        priced = 0;
    }
    /* the think time in all: the program's CPU time less its calls' price; that raised to
     * an untraced replay's CPU time where that is more (the replay's own work per call,
     * which the table does not hold, is spent again on top of the think time) */
    uint64_t again = 0;
    for (uint32_t i = 0; priced && i < nth; i++)
        again += cost[i];
    if (priced) {
        info->calib = k;
        info->calib_calls_ns = again;
        uint64_t rcpu = u->replay_cpu_ns;
        unsigned nrep = u->pairs;
        if (nrep || (info->ncalls && plain_replay(out, root, info, &rcpu, &nrep) == 0)) {
            info->plain_replay_cpu_ns = rcpu;
            info->plain_replay_calls = info->ncalls;
            info->plain_replays = nrep;
            /* a replay made at the kept run's moment is what a replay spends on the calls
             * there, above or below the table's price (measured at another moment); the
             * table then only shares it among the threads. A replay made at another
             * moment raises the price, never lowers it */
            if (again && (u->pairs ? rcpu != again : rcpu > again)) {
                double f = (double)rcpu / (double)again;
                for (uint32_t i = 0; i < nth; i++)
                    cost[i] = (uint64_t)((double)cost[i] * f);
                again = rcpu;
            }
        }
    }
    trace_rec_think_cpu(rec, info->plain_cpu_ns > again ? info->plain_cpu_ns - again : 0, info);
    /* and per process, where the kernel said each one's */
    if (!walked && u->t)
        snprintf(proc_why, plen, "%s", rwhy);
    else if (u->t && per_process(rec, u, info, room, span, cost, proc_why, plen) == 0)
        *per_failed = 0;
    free(room);
    free(span);
    free(cost);
    return priced;
}
