/* progress.c — the live progress line (see progress.h). */
#include "run/progress.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "os/term.h"

#define PROGRESS_CONFIGS 64

struct progress {
    int fd;
    unsigned runs;
    size_t nphases;
    uint64_t entries;
    /* what the finished phases took, per configuration seen, and over all of them */
    char config[PROGRESS_CONFIGS][RES_NAME_MAX];
    size_t nconfigs;
    double *ops;  /* [PROGRESS_CONFIGS + 1][nphases]; the last row: any configuration */
    double *wall; /* same shape; 0: not seen yet */
    /* the current phase */
    size_t cfg;
    unsigned run, round;
    size_t phase;
    char name[RES_NAME_MAX];
    char cfg_name[RES_NAME_MAX];
    uint64_t set_start_ns, phase_start_ns;
    struct timeline_point prev; /* the rate is taken over about a second */
    bool drawn;
};

struct progress *progress_new(int fd, unsigned runs, size_t nphases, uint64_t entries)
{
    struct progress *p = calloc(1, sizeof *p);
    size_t cells = (PROGRESS_CONFIGS + 1) * (nphases ? nphases : 1);
    if (p) {
        p->ops = calloc(cells, sizeof *p->ops);
        p->wall = calloc(cells, sizeof *p->wall);
    }
    if (!p || !p->ops || !p->wall) {
        if (p) {
            free(p->ops);
            free(p->wall);
        }
        free(p);
        error("out of memory");
        return NULL;
    }
    p->fd = fd;
    p->runs = runs ? runs : 1;
    p->nphases = nphases;
    p->entries = entries;
    return p;
}

static void erase(struct progress *p)
{
    if (p->drawn) {
        ssize_t rc = write(p->fd, "\r\033[K", 4);
        (void)rc;
        p->drawn = false;
    }
}

void progress_free(struct progress *p)
{
    if (!p)
        return;
    erase(p);
    free(p->ops);
    free(p->wall);
    free(p);
}

static size_t config_index(struct progress *p, const char *config)
{
    for (size_t i = 0; i < p->nconfigs; i++)
        if (!strcmp(p->config[i], config))
            return i;
    if (p->nconfigs == PROGRESS_CONFIGS)
        return PROGRESS_CONFIGS; /* estimates from any configuration */
    snprintf(p->config[p->nconfigs], RES_NAME_MAX, "%s", config);
    return p->nconfigs++;
}

void progress_phase_begin(struct progress *p, const char *config, unsigned run, unsigned round,
                          size_t phase, const char *name, uint64_t now_ns)
{
    if (!p)
        return;
    if (!p->set_start_ns)
        p->set_start_ns = now_ns;
    p->cfg = config_index(p, config);
    snprintf(p->cfg_name, sizeof p->cfg_name, "%s", config);
    p->run = run;
    p->round = round;
    p->phase = phase < p->nphases ? phase : 0;
    snprintf(p->name, sizeof p->name, "%s", name);
    p->phase_start_ns = now_ns;
    memset(&p->prev, 0, sizeof p->prev);
}

void progress_phase_end(struct progress *p, const struct phase_result *r)
{
    if (!p)
        return;
    erase(p);
    if (r->status != PHASE_OK || p->phase >= p->nphases)
        return;
    size_t any = PROGRESS_CONFIGS * p->nphases + p->phase;
    size_t own = p->cfg * p->nphases + p->phase;
    p->ops[own] = p->ops[any] = (double)r->ops_total;
    p->wall[own] = p->wall[any] = r->wall_s;
}

/* Expected ops and wall of phase slot ph in the current configuration, else any; false
 * when never seen. */
static bool expected(const struct progress *p, size_t ph, double *ops, double *wall)
{
    size_t own = p->cfg * p->nphases + ph, any = PROGRESS_CONFIGS * p->nphases + ph;
    size_t i = p->wall[own] > 0 ? own : any;
    *ops = p->ops[i];
    *wall = p->wall[i];
    return *wall > 0;
}

static void fmt_dur(char *buf, size_t len, double s)
{
    if (s < 0)
        s = 0;
    if (s < 60)
        snprintf(buf, len, "%.1fs", s);
    else if (s < 3600)
        snprintf(buf, len, "%u:%02u", (unsigned)(s / 60), (unsigned)s % 60);
    else
        snprintf(buf, len, "%u:%02u:%02u", (unsigned)(s / 3600), (unsigned)(s / 60) % 60,
                 (unsigned)s % 60);
}

static void fmt_rate(char *buf, size_t len, double r)
{
    if (r >= 1e6)
        snprintf(buf, len, "%.1fM", r / 1e6);
    else if (r >= 1e4)
        snprintf(buf, len, "%.1fk", r / 1e3);
    else
        snprintf(buf, len, "%.0f", r);
}

void progress_format(const struct progress *p, const struct timeline_point *pt, char *buf,
                     size_t len, size_t width)
{
    double eops, ewall;
    bool known = expected(p, p->phase, &eops, &ewall);
    /* fraction of the phase done: by operations, or by time when it has none to count */
    double f = -1;
    if (known && eops > 0)
        f = (double)pt->ops / eops;
    else if (known)
        f = pt->t / ewall;
    if (f > 1)
        f = 1;
    double rate = pt->t - p->prev.t > 0 ? (double)(pt->ops - p->prev.ops) / (pt->t - p->prev.t) : 0;

    char what[64], r[16], el[16], eta[16], sel[16], seta[16];
    if (f >= 0 && p->entries)
        snprintf(what, sizeof what, "~%llu/%llu entries",
                 (unsigned long long)(f * (double)p->entries), (unsigned long long)p->entries);
    else if (f >= 0)
        snprintf(what, sizeof what, "%.0f%%", f * 100);
    else
        snprintf(what, sizeof what, "%llu ops", (unsigned long long)pt->ops);
    fmt_rate(r, sizeof r, rate);
    fmt_dur(el, sizeof el, pt->t);
    if (f > 0)
        fmt_dur(eta, sizeof eta, pt->t / f - pt->t);
    else
        snprintf(eta, sizeof eta, "?");

    /* the run set: finished runs plus the part of this one, weighted by expected walls */
    double set_el = (double)(p->phase_start_ns - p->set_start_ns) / 1e9 + pt->t;
    double before = 0, total = 0, w, o;
    bool all = true;
    for (size_t i = 0; i < p->nphases; i++) {
        if (!expected(p, i, &o, &w))
            all = false;
        total += w;
        if (i < p->phase)
            before += w;
    }
    double in_run = all && total > 0 ? (before + (f >= 0 ? f : 0) * ewall) / total
                                     : (double)p->phase / (double)(p->nphases ? p->nphases : 1);
    double done = ((double)p->run + in_run) / (double)p->runs;
    fmt_dur(sel, sizeof sel, set_el);
    if (done > 0 && p->run > 0)
        fmt_dur(seta, sizeof seta, set_el / done - set_el);
    else
        snprintf(seta, sizeof seta, "?");

    snprintf(buf, len, "%s%srun %u/%u (round %u) %s %s %s ops/s %s ETA %s | set %s ETA %s",
             p->cfg_name, p->cfg_name[0] ? " " : "", p->run + 1, p->runs, p->round + 1, p->name,
             what, r, el, eta, sel, seta);
    if (width && width < len && strlen(buf) > width)
        buf[width] = '\0';
}

void progress_tick(void *arg, const struct timeline_point *pt)
{
    struct progress *p = arg;
    char line[512];
    int w = os_term_width(p->fd);
    line[0] = '\r';
    progress_format(p, pt, line + 1, sizeof line - 8, w > 1 ? (size_t)w - 1 : 79);
    size_t l = strlen(line);
    memcpy(line + l, "\033[K", 4);
    ssize_t rc = write(p->fd, line, l + 3);
    (void)rc;
    p->drawn = true;
    if (pt->t - p->prev.t >= 1.0)
        p->prev = *pt;
}
