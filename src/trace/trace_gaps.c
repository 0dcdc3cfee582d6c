/* trace_gaps.c — trace_gaps.h: per thread, the end of its last call (+ 1; 0: not seen yet)
 * and what it was away since. */
#include "trace/trace_gaps.h"

#include <stdlib.h>

struct trace_gaps {
    uint32_t nth;
    uint64_t *last, *away, *stops;
};

struct trace_gaps *trace_gaps_new(uint32_t nthreads)
{
    struct trace_gaps *g = calloc(1, sizeof *g);
    size_t n = nthreads ? nthreads : 1;
    if (!g)
        return NULL;
    g->nth = nthreads;
    g->last = calloc(n, sizeof *g->last);
    g->away = calloc(n, sizeof *g->away);
    g->stops = calloc(n, sizeof *g->stops);
    if (!g->last || !g->away || !g->stops) {
        trace_gaps_free(g);
        return NULL;
    }
    return g;
}

void trace_gaps_free(struct trace_gaps *g)
{
    if (!g)
        return;
    free(g->last);
    free(g->away);
    free(g->stops);
    free(g);
}

int trace_gaps_feed(struct trace_gaps *g, const struct trace_call *c, struct trace_gap *out)
{
    uint32_t t = c->thread;
    if (t >= g->nth)
        return 0;
    if (c->kind == TK_AWAY) {
        g->away[t] += c->dur_ns;
        g->stops[t] += c->size;
        return 0;
    }
    bool call = c->kind < TK_CALL_KINDS;
    if (!call && c->kind != TK_SPAWN)
        return 0;
    int seen = g->last[t] != 0;
    if (seen) {
        uint64_t prev = g->last[t] - 1;
        *out = (struct trace_gap){.gap_ns = c->start_ns > prev ? c->start_ns - prev : 0,
                                  .away_ns = g->away[t], .stops = g->stops[t], .call = call};
    }
    if (call)
        g->away[t] = g->stops[t] = 0;
    uint64_t end = c->start_ns + (call ? c->dur_ns : 0);
    g->last[t] = (end >= c->start_ns && end < UINT64_MAX ? end : c->start_ns) + 1;
    return seen;
}
