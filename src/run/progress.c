/* progress.c — where a run set is, while it runs (see progress.h). */
#include "run/progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "os/term.h"

#define PROGRESS_CONFIGS 64
/* Below this many operations a phase's count says little (sync makes one): its part is
 * told by the time it took before. */
#define PROGRESS_MIN_OPS 100
/* While a phase runs, it is never shown done. */
#define PROGRESS_MAX_FRACTION 0.99

struct progress {
    int fd;
    bool tty;
    unsigned total; /* runs in the set (less those dropped) */
    unsigned done;  /* runs made, or kept from before */
    size_t nphases;
    uint64_t *expect; /* [nphases]: operations known before any run; 0 unknown */
    /* what the finished phases took: per configuration seen (the last of each), and the
     * mean over every run of any configuration */
    char config[PROGRESS_CONFIGS][RES_NAME_MAX];
    size_t nconfigs;
    double *ops;  /* [PROGRESS_CONFIGS][nphases] */
    double *wall; /* same shape; 0: not seen yet */
    double *any_ops, *any_wall; /* [nphases]: sums */
    unsigned *any_n;            /* [nphases]: how many */
    /* the current run and phase */
    size_t cfg; /* PROGRESS_CONFIGS: past the table, estimates from any configuration */
    unsigned round;
    size_t phase;
    char name[RES_NAME_MAX];
    char cfg_name[RES_NAME_MAX];
    uint64_t run_start_ns, phase_start_ns;
    bool run_begun;             /* a phase of the current run began (run_start_ns is its start) */
    struct timeline_point prev; /* the rate is taken over about a second */
    bool drawn;
};

struct progress *progress_new(int fd, bool tty, unsigned runs, size_t nphases,
                              const uint64_t *expect)
{
    struct progress *p = calloc(1, sizeof *p);
    size_t n = nphases ? nphases : 1, cells = PROGRESS_CONFIGS * n;
    if (p) {
        p->ops = calloc(cells, sizeof *p->ops);
        p->wall = calloc(cells, sizeof *p->wall);
        p->any_ops = calloc(n, sizeof *p->any_ops);
        p->any_wall = calloc(n, sizeof *p->any_wall);
        p->any_n = calloc(n, sizeof *p->any_n);
        p->expect = calloc(n, sizeof *p->expect);
    }
    if (!p || !p->ops || !p->wall || !p->any_ops || !p->any_wall || !p->any_n || !p->expect) {
        progress_free(p);
        error("out of memory");
        return NULL;
    }
    p->fd = fd;
    p->tty = tty;
    p->total = runs ? runs : 1;
    p->nphases = nphases;
    if (expect)
        memcpy(p->expect, expect, nphases * sizeof *expect);
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
    free(p->any_ops);
    free(p->any_wall);
    free(p->any_n);
    free(p->expect);
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

/* A finished phase's figures into the estimates of configuration cfg. */
static void learn(struct progress *p, size_t cfg, size_t ph, const struct phase_result *r)
{
    if (r->status != PHASE_OK || ph >= p->nphases || !(r->wall_s > 0))
        return;
    if (cfg < PROGRESS_CONFIGS) {
        p->ops[cfg * p->nphases + ph] = (double)r->ops_total;
        p->wall[cfg * p->nphases + ph] = r->wall_s;
    }
    p->any_ops[ph] += (double)r->ops_total;
    p->any_wall[ph] += r->wall_s;
    p->any_n[ph]++;
}

void progress_run_known(struct progress *p, const struct run_result *r)
{
    if (!p)
        return;
    size_t cfg = config_index(p, r->config);
    for (size_t i = 0; i < r->nphases; i++)
        learn(p, cfg, i, &r->phases[i]);
    p->done++;
}

void progress_runs_dropped(struct progress *p, unsigned n)
{
    if (p)
        p->total = n < p->total ? p->total - n : 0;
}

void progress_phase_begin(struct progress *p, const char *config, unsigned round, size_t phase,
                          const char *name, uint64_t now_ns)
{
    if (!p)
        return;
    p->cfg = config_index(p, config);
    snprintf(p->cfg_name, sizeof p->cfg_name, "%s", config);
    p->round = round;
    p->phase = phase < p->nphases ? phase : 0;
    snprintf(p->name, sizeof p->name, "%s", name);
    if (phase == 0 || !p->run_begun)
        p->run_start_ns = now_ns;
    p->run_begun = true;
    p->phase_start_ns = now_ns;
    memset(&p->prev, 0, sizeof p->prev);
}

void progress_phase_end(struct progress *p, const struct phase_result *r)
{
    if (!p)
        return;
    erase(p);
    learn(p, p->cfg, p->phase, r);
}

/* The wall phase slot ph took in the current configuration, else the mean of any; -1 when
 * never timed. */
static double wall_of(const struct progress *p, size_t cfg, size_t ph)
{
    if (cfg < PROGRESS_CONFIGS && p->wall[cfg * p->nphases + ph] > 0)
        return p->wall[cfg * p->nphases + ph];
    return p->any_n[ph] ? p->any_wall[ph] / p->any_n[ph] : -1;
}

/* The operations phase slot ph will make: as it made before (this configuration's, else
 * any), else as expected from the tree; 0 when unknown. */
static double ops_of(const struct progress *p, size_t cfg, size_t ph)
{
    if (cfg < PROGRESS_CONFIGS && p->wall[cfg * p->nphases + ph] > 0)
        return p->ops[cfg * p->nphases + ph];
    if (p->any_n[ph])
        return p->any_ops[ph] / p->any_n[ph];
    return (double)p->expect[ph];
}

/* Operations a second over the phases timed so far that count operations, else the
 * current phase's so far (cur_ops in cur_t seconds); 0 when there is none yet. The work
 * model's counts at this rate are the first run's estimate of what it has not timed. */
static double op_rate(const struct progress *p, double cur_ops, double cur_t)
{
    double ops = 0, wall = 0;
    for (size_t i = 0; i < p->nphases; i++)
        if (p->any_n[i] && p->any_ops[i] / p->any_n[i] >= PROGRESS_MIN_OPS) {
            ops += p->any_ops[i];
            wall += p->any_wall[i];
        }
    if (ops > 0 && wall > 0)
        return ops / wall;
    return cur_ops >= PROGRESS_MIN_OPS && cur_t > 0 ? cur_ops / cur_t : 0;
}

/* The wall of phase slot ph: as timed (wall_of), else from the work model, its expected
 * operations at rate, setting *guessed (a phase that counts none, sync, is taken as
 * short: 0); -1 when there is neither. */
static double est_wall(const struct progress *p, size_t cfg, size_t ph, double rate,
                       bool *guessed)
{
    double w = wall_of(p, cfg, ph);
    if (w >= 0)
        return w;
    *guessed = true;
    if (p->expect[ph] < PROGRESS_MIN_OPS)
        return 0;
    return rate > 0 ? (double)p->expect[ph] / rate : -1;
}

/* A run's wall at the means of every configuration, the phases not timed yet estimated
 * (est_wall); -1 when one cannot be. */
static double mean_run(const struct progress *p, double rate, bool *guessed)
{
    double sum = 0;
    for (size_t i = 0; i < p->nphases; i++) {
        double w = est_wall(p, PROGRESS_CONFIGS, i, rate, guessed);
        if (w < 0)
            return -1;
        sum += w;
    }
    return sum;
}

/* "13s", "2.5s", "4m10s", "1h02m". */
static void fmt_dur(char *buf, size_t len, double s)
{
    if (s < 0)
        s = 0;
    unsigned long u = (unsigned long)(s + 0.5);
    if (s < 9.95)
        snprintf(buf, len, "%.1fs", s);
    else if (u < 60)
        snprintf(buf, len, "%lus", u);
    else if (u < 3600)
        snprintf(buf, len, "%lum%02lus", u / 60, u % 60);
    else
        snprintf(buf, len, "%luh%02lum", u / 3600, u / 60 % 60);
}

/* "55,662". */
static void fmt_count(char *buf, size_t len, uint64_t v)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < len; i++) {
        if (i && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}

static void fmt_eta(char *buf, size_t len, double s)
{
    if (s < 0)
        snprintf(buf, len, "?");
    else
        fmt_dur(buf, len, s);
}

/* " | set 24% ETA 4m10s": the set with frac of a run under way done, rest seconds of it
 * left (-1: unknown) and `later` runs after it; "ETA ~4m10s" while any of it is the work
 * model's estimate (guessed, or a phase not timed yet). */
static void fmt_set(const struct progress *p, double frac, double rest, unsigned later,
                    double rate, bool guessed, char *buf, size_t len)
{
    double mean = mean_run(p, rate, &guessed), eta = -1;
    if (rest >= 0 && (later == 0 || mean >= 0))
        eta = rest + later * (mean > 0 ? mean : 0);
    double pct = 100 * ((double)p->done + frac) / (p->total ? p->total : 1);
    char e[16];
    fmt_eta(e, sizeof e, eta);
    snprintf(buf, len, " | set %.0f%% ETA %s%s", pct > 100 ? 100 : pct,
             guessed && eta >= 0 ? "~" : "", e);
}

void progress_format(const struct progress *p, const struct timeline_point *pt, char *buf,
                     size_t len, size_t width)
{
    double t = pt->t, eops = ops_of(p, p->cfg, p->phase), ewall = wall_of(p, p->cfg, p->phase);
    double f = -1, eta = -1;
    char what[96], cnt[32], tot[32], r[32], e[16];
    fmt_count(cnt, sizeof cnt, pt->ops);
    if (eops >= PROGRESS_MIN_OPS) {
        /* by operations, at the phase's rate so far */
        f = (double)pt->ops / eops;
        f = f > PROGRESS_MAX_FRACTION ? PROGRESS_MAX_FRACTION : f;
        eta = f > 0 ? t * (1 - f) / f : -1;
        fmt_count(tot, sizeof tot, (uint64_t)(eops + 0.5));
        snprintf(what, sizeof what, "%.0f%% %s/%s ops", 100 * f, cnt, tot);
    } else if (ewall > 0) {
        /* by the time it took before */
        f = t / ewall;
        f = f > PROGRESS_MAX_FRACTION ? PROGRESS_MAX_FRACTION : f;
        eta = ewall > t ? ewall - t : 0;
        snprintf(what, sizeof what, "%.0f%%%s%s%s", 100 * f, pt->ops ? " " : "", pt->ops ? cnt : "",
                 pt->ops ? " ops" : "");
    } else {
        char el[16];
        fmt_dur(el, sizeof el, t);
        snprintf(what, sizeof what, "%s%s%s", pt->ops ? cnt : "", pt->ops ? " ops " : "", el);
    }
    double rate = pt->t - p->prev.t > 0 ? (double)(pt->ops - p->prev.ops) / (pt->t - p->prev.t) : 0;
    fmt_count(r, sizeof r, (uint64_t)(rate + 0.5));
    fmt_eta(e, sizeof e, eta);

    /* the rest of this run: this phase's and the later phases' walls, those never timed
     * from the work model (its operation counts at the rate seen so far) */
    double orate = op_rate(p, (double)pt->ops, t);
    bool guessed = false;
    double rest = eta;
    if (rest < 0 && eops < PROGRESS_MIN_OPS && ewall < 0) {
        rest = 0; /* a first sync or umount: no count to tell by, taken as short */
        guessed = true;
    }
    for (size_t i = p->phase + 1; i < p->nphases && rest >= 0; i++) {
        double w = est_wall(p, p->cfg, i, orate, &guessed);
        rest = w < 0 ? -1 : rest + w;
    }
    double run_el = (double)(p->phase_start_ns - p->run_start_ns) / 1e9 + t;
    double frac = rest >= 0 && run_el + rest > 0 ? run_el / (run_el + rest)
                                                 : ((double)p->phase + (f > 0 ? f : 0)) /
                                                       (double)(p->nphases ? p->nphases : 1);
    char set[64], rated[48] = "";
    fmt_set(p, frac, rest, p->total > p->done + 1 ? p->total - p->done - 1 : 0, orate, guessed,
            set, sizeof set);
    if (pt->ops || eops >= PROGRESS_MIN_OPS) /* else nothing to rate: "sync 45% ETA 2.1s" */
        snprintf(rated, sizeof rated, " %s ops/s", r);
    /* the line fits the width: what matters least goes first (the rate, the counts, the
     * configuration), so the set's ETA at its end is never cut; only then is it cut */
    char pct[16];
    snprintf(pct, sizeof pct, "%.0f%%", 100 * (f > 0 ? f : 0));
    for (int v = 0; v < 4; v++) {
        const char *cfg = v >= 3 ? "" : p->cfg_name;
        snprintf(buf, len, "%s%srun %u/%u %s %s%s ETA %s%s", cfg, cfg[0] ? " " : "",
                 p->done + 1, p->total, p->name, v >= 2 && f >= 0 ? pct : what,
                 v >= 1 ? "" : rated, e, set);
        if (!width || strlen(buf) <= width)
            return;
    }
    if (width < len && strlen(buf) > width)
        buf[width] = '\0';
}

void progress_tick(void *arg, const struct timeline_point *pt)
{
    struct progress *p = arg;
    if (!p->tty)
        return;
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

void progress_format_run(const struct progress *p, const struct run_result *r, double wall_s,
                         char *buf, size_t len)
{
    bool failed = false;
    for (size_t i = 0; i < r->nphases; i++)
        failed |= r->phases[i].status == PHASE_FAILED;
    char d[16], set[64];
    fmt_dur(d, sizeof d, wall_s);
    fmt_set(p, 0, 0, p->total > p->done ? p->total - p->done : 0, op_rate(p, 0, 0), false, set,
            sizeof set);
    snprintf(buf, len, "%s%srun %u/%u (round %u) %s in %s%s", r->config, r->config[0] ? " " : "",
             p->done, p->total, r->round + 1,
             r->interrupted ? "interrupted"
             : failed       ? "failed"
                            : "done",
             d, set);
}

void progress_run_end(struct progress *p, const struct run_result *r, uint64_t now_ns)
{
    if (!p)
        return;
    erase(p);
    p->done++;
    bool begun = p->run_begun, failed = r->interrupted;
    p->run_begun = false;
    for (size_t i = 0; i < r->nphases; i++)
        failed |= r->phases[i].status == PHASE_FAILED;
    if (p->tty || failed) /* a failed run has its error line */
        return;
    char line[512];
    memcpy(line, "fsbench: ", 9);
    progress_format_run(p, r, begun ? (double)(now_ns - p->run_start_ns) / 1e9 : 0, line + 9,
                        sizeof line - 10);
    size_t l = strlen(line);
    line[l++] = '\n';
    ssize_t rc = write(p->fd, line, l);
    (void)rc;
}
