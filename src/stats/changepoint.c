/* changepoint.c — binary segmentation with a permutation test on label centres under a
 * random-effects noise model (see changepoint.h for the method and its assumptions).
 *
 * Invariants: every test works on copies (the caller's arrays are never reordered); the
 * permutations come from a seeded generator, so one input always gives one answer; a test
 * stops drawing once its p-value can no longer reach alpha (an unchanged series costs a
 * few dozen permutations, not all of them); a segment's centres are taken about their own
 * weighted mean before it is tested, so the statistic does not depend on the unit or size of
 * the times (log 0.3 s and log 0.78 s differ only by that mean); no change whose interval
 * holds a ratio of 1 is reported.
 */
#include "stats/changepoint.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

void cp_options_default(struct cp_options *o)
{
    memset(o, 0, sizeof *o);
    o->alpha = 0.05;
    o->confidence = 0.95;
    o->min_seg = 3;
    o->permutations = 999;
    o->seed = 1;
}

/* splitmix64: small, fast, and the same on every platform */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t below(uint64_t *s, size_t n)
{
    return (size_t)(next_u64(s) % n); /* n is small: the bias is below 1e-15 */
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Segments up to this many labels are searched for an inner run [i, j) that differs from
 * the rest (circular binary segmentation: a slowdown fixed again later is one such run, and
 * a single split sees it only weakly); longer ones for a single split, which costs n rather
 * than n^2 per permutation. */
#define CP_CIRCULAR_MAX 256
/* An inner run's statistic is divided by this before it competes with the single splits:
 * there are n^2 / 2 inner runs against n splits, and unpenalised they cost a single step
 * a third of its power (bench/history_sim); halved, a single step is found as by single
 * splits alone and a run of labels up then down again (a fix after a regression) still
 * stands out. Exact either way: the permutations see the same statistic. */
#define CP_INNER_PENALTY 2.0
/* Label centres beyond this many robust sd of the series' median are pulled in to it for
 * the test (not for the sizes reported): a whole set shifted by a busy night then weighs as
 * one large value, not as a step of its own. The pull depends on the values alone, not on
 * their order, so the permutation test stays exact. */
#define CP_WINSOR_SD 2.5
/* A label's own within variance rests on its n - 1 runs (4 degrees of freedom at 5 runs: it
 * is off by 70 % as often as not), so weights taken from it alone are mostly noise. It is
 * shrunk towards the series' pooled within variance as if that were worth this many degrees
 * of freedom (empirical Bayes): a label whose runs really spread more still weighs less, one
 * whose 5 runs happened to agree does not weigh four times the others. bench/history_sim: 10 %
 * steps found 33.8 % -> 38.4 %, 20 % steps 74.4 % -> 78.2 %, false alarms 5.8 % -> 4.8 %. */
#define CP_POOL_DF 20.0

/* The largest statistic of y[0..n) with weights w, and where: the labels [*i, *j) against
 * the others, each part at least m labels (a part may be empty at either end: *i 0 or *j n
 * is a single split). The statistic is the squared difference of the weighted means over
 * its variance, 1 / w_in + 1 / w_out. cum, cumy: scratch of n + 1. */
static double max_stat(const double *y, const double *w, size_t n, size_t m, size_t *bi,
                       size_t *bj, double *cum, double *cumy)
{
    cum[0] = cumy[0] = 0;
    for (size_t k = 0; k < n; k++)
        cum[k + 1] = cum[k] + w[k], cumy[k + 1] = cumy[k] + w[k] * y[k];
    double sw = cum[n], swy = cumy[n], best = -1;
    size_t ri = 0, rj = m;
    bool circular = n <= CP_CIRCULAR_MAX;
    for (size_t i = 0; i + m <= n; i = i ? i + 1 : m) {
        if (i && !circular)
            break;
        for (size_t j = i + m; j <= n; j++) {
            if (j < n && n - j < m)
                continue;
            if (i == 0 && j == n)
                continue;
            double win = cum[j] - cum[i], wout = sw - win;
            if (win <= 0 || wout <= 0)
                continue;
            /* (mean_in - mean_out)^2 / (1 / win + 1 / wout), with one division:
             * mean_in - mean_out = (yin sw - swy win) / (win wout) */
            double e = (cumy[j] - cumy[i]) * sw - swy * win;
            double t = e * e / (win * wout * sw);
            if (i && j < n)
                t /= CP_INNER_PENALTY;
            if (t > best)
                best = t, ri = i, rj = j;
        }
    }
    if (bi)
        *bi = ri, *bj = rj;
    return best;
}

struct work {
    const double *y, *w; /* the whole series */
    double *py, *pw;     /* scratch for permutations */
    double *cum, *cumy;  /* scratch for max_stat */
    const struct cp_options *o;
    uint64_t rng;
};

/* Tests segment [a, b): 0 with the boundaries found (absolute; *at2 == *at when there is
 * one) and *p, 1 when too short. */
static int test_segment(struct work *wk, size_t a, size_t b, size_t *at, size_t *at2, double *p)
{
    size_t n = b - a, m = wk->o->min_seg;
    if (n < 2 * m)
        return 1;
    size_t i, j;
    /* centred on the segment's weighted mean: the sums in max_stat then hold no common
     * offset (the log of the times' unit and size) whose cancellation would leave rounding
     * big enough to split ties between the observed partition and the same one drawn again */
    double sw = 0, swy = 0;
    for (size_t k = 0; k < n; k++)
        sw += wk->w[a + k], swy += wk->w[a + k] * wk->y[a + k];
    for (size_t k = 0; k < n; k++)
        wk->py[k] = wk->y[a + k] - swy / sw;
    memcpy(wk->pw, wk->w + a, n * sizeof *wk->pw);
    double obs = max_stat(wk->py, wk->pw, n, m, &i, &j, wk->cum, wk->cumy);
    if (obs <= 0)
        return 1;
    unsigned B = wk->o->permutations, ge = 0, done = 0;
    double limit = wk->o->alpha * (B + 1); /* (1 + ge) beyond this: p > alpha for sure */
    for (; done < B; done++) {
        for (size_t u = n - 1; u > 0; u--) { /* Fisher-Yates, label and weight together */
            size_t v = below(&wk->rng, u + 1);
            double t = wk->py[u];
            wk->py[u] = wk->py[v], wk->py[v] = t;
            t = wk->pw[u];
            wk->pw[u] = wk->pw[v], wk->pw[v] = t;
        }
        if (max_stat(wk->py, wk->pw, n, m, NULL, NULL, wk->cum, wk->cumy) >= obs * (1 - 1e-9))
            ge++;
        if (1.0 + ge > limit + 1e-9) {
            done++;
            break;
        }
    }
    /* a single split is [0, j) or [i, n) against the rest */
    *at = a + (i ? i : j);
    *at2 = i && j < n ? a + j : *at;
    /* stopped early: the share so far, above alpha by the stopping rule */
    *p = (1.0 + ge) / (done + 1.0);
    return 0;
}

/* Weighted mean of y[a..b) and the sum of its weights. */
static void seg_mean(const double *y, const double *w, size_t a, size_t b, double *mean,
                     double *sw)
{
    double s = 0, sy = 0;
    for (size_t i = a; i < b; i++)
        s += w[i], sy += w[i] * y[i];
    *mean = s > 0 ? sy / s : NAN;
    *sw = s;
}

static int by_at(const void *a, const void *b)
{
    size_t x = ((const struct cp_change *)a)->at, y = ((const struct cp_change *)b)->at;
    return (x > y) - (x < y);
}

/* Each change of out (in label order) measured between its neighbouring changes: the levels
 * either side, their ratio and its interval (Student t on the random-effects standard error). */
static void measure(struct cp_result *out, const double *y, const double *w, size_t n,
                    double confidence)
{
    for (size_t c = 0; c < out->nchanges; c++) {
        struct cp_change *ch = &out->changes[c];
        size_t a = c ? out->changes[c - 1].at : 0;
        size_t b = c + 1 < out->nchanges ? out->changes[c + 1].at : n;
        double ml, mr, wl, wr;
        seg_mean(y, w, a, ch->at, &ml, &wl);
        seg_mean(y, w, ch->at, b, &mr, &wr);
        double se = sqrt(1 / wl + 1 / wr), df = (double)(b - a) - 2;
        double t = stats_t_crit(confidence, df > 1 ? df : 1);
        ch->before = exp(ml);
        ch->after = exp(mr);
        ch->ratio = exp(mr - ml);
        ch->lo = exp(mr - ml - t * se);
        ch->hi = exp(mr - ml + t * se);
    }
}

/* The noise model: y (label medians, logs), each label's within variance s2 (NAN: one run),
 * the robust total from successive differences, tau^2, and the weights. */
static void noise_model(const double *y, double *s2, const struct cp_label *labels, size_t n,
                        double *w, double *tau2, double *within2)
{
    double *d = malloc((n ? n : 1) * sizeof *d);
    double total = 0;
    if (d && n >= 3) {
        for (size_t i = 0; i + 1 < n; i++)
            d[i] = fabs(y[i + 1] - y[i]);
        qsort(d, n - 1, sizeof *d, cmp_double);
        double med = (n - 1) % 2 ? d[(n - 1) / 2] : (d[(n - 1) / 2 - 1] + d[(n - 1) / 2]) / 2;
        /* |difference| of two N(0, 2v) values: median 0.6745 sqrt(2v) */
        total = med * med / (2 * 0.6745 * 0.6745);
    }
    free(d);
    if (!(total > 0) && n >= 2) { /* ties everywhere: the plain variance */
        double mean = 0, ss = 0;
        for (size_t i = 0; i < n; i++)
            mean += y[i] / (double)n;
        for (size_t i = 0; i < n; i++)
            ss += (y[i] - mean) * (y[i] - mean);
        total = ss / (double)(n - 1);
    }
    double sum = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(s2[i]))
            sum += s2[i], k++;
    *within2 = k ? sum / (double)k : NAN;
    *tau2 = k ? fmax(0, total - *within2) : total;
    for (size_t i = 0; i < n; i++) /* CP_POOL_DF; s2 then holds the shrunk values */
        if (isfinite(s2[i]) && labels[i].n > 1) {
            double df = (double)(labels[i].n - 1);
            s2[i] = (CP_POOL_DF * *within2 + df * s2[i]) / (CP_POOL_DF + df);
        }
    /* a label whose runs agree closely still carries the label-level noise; and no label
     * weighs more than four times the typical one */
    double floor = total > 0 ? total / 4 : 1e-12;
    for (size_t i = 0; i < n; i++) {
        double v = isfinite(s2[i]) ? *tau2 + s2[i] : total;
        w[i] = 1 / fmax(v, floor);
    }
}

int cp_detect(const struct cp_label *labels, size_t n, const struct cp_options *opt,
              struct cp_result *out)
{
    memset(out, 0, sizeof *out);
    out->p_first = NAN;
    struct cp_options o;
    if (opt)
        o = *opt;
    else
        cp_options_default(&o);
    if (o.min_seg < 2)
        o.min_seg = 2;
    if (!o.permutations)
        o.permutations = 999;
    size_t maxn = 1;
    for (size_t i = 0; i < n; i++) {
        if (!labels[i].n)
            return -1;
        for (size_t j = 0; j < labels[i].n; j++)
            if (!(labels[i].x[j] > 0) || !isfinite(labels[i].x[j]))
                return -1;
        if (labels[i].n > maxn)
            maxn = labels[i].n;
    }
    double *y = calloc(n ? n : 1, sizeof *y), *s2 = calloc(n ? n : 1, sizeof *s2),
           *w = calloc(n ? n : 1, sizeof *w), *py = calloc(n ? n : 1, sizeof *py),
           *pw = calloc(n ? n : 1, sizeof *pw), *lx = calloc(maxn, sizeof *lx),
           *cum = calloc(n + 1, sizeof *cum), *cumy = calloc(n + 1, sizeof *cumy),
           *yc = calloc(n ? n : 1, sizeof *yc);
    out->median = calloc(n ? n : 1, sizeof *out->median);
    size_t *todo = calloc(3 * (n + 2), sizeof *todo);
    out->changes = calloc(n ? n : 1, sizeof *out->changes);
    int rc = y && yc && s2 && w && py && pw && lx && cum && cumy && todo && out->median &&
                     out->changes
                 ? 0
                 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const struct cp_label *L = &labels[i];
        for (size_t j = 0; j < L->n; j++)
            lx[j] = log(L->x[j]);
        out->median[i] = exp(stats_median(lx, L->n));
        /* the label's centre: the mean of its logs, the lowest and highest left out from 5
         * runs on (one stray run moves it little; more efficient than the median) */
        qsort(lx, L->n, sizeof *lx, cmp_double);
        size_t lo = L->n >= 5 ? 1 : 0, hi = L->n >= 5 ? L->n - 1 : L->n;
        y[i] = 0;
        for (size_t j = lo; j < hi; j++)
            y[i] += lx[j] / (double)(hi - lo);
        if (L->n >= 2) {
            double mean = 0, ss = 0;
            for (size_t j = 0; j < L->n; j++)
                mean += lx[j] / (double)L->n;
            for (size_t j = 0; j < L->n; j++)
                ss += (lx[j] - mean) * (lx[j] - mean);
            /* the variance of the centre: of a mean, and some 20 % more when trimmed */
            s2[i] = (L->n >= 5 ? 1.2 : 1.0) * ss / (double)(L->n - 1) / (double)L->n;
        } else {
            s2[i] = NAN;
        }
    }
    if (rc == 0 && n >= 2 * o.min_seg) {
        noise_model(y, s2, labels, n, w, &out->tau2, &out->within2);
        /* the test's values: the centres pulled in (CP_WINSOR_SD); yc's sorted copy first */
        memcpy(yc, y, n * sizeof *yc);
        qsort(yc, n, sizeof *yc, cmp_double);
        double med = n % 2 ? yc[n / 2] : (yc[n / 2 - 1] + yc[n / 2]) / 2;
        double sd = sqrt(out->tau2 + (isfinite(out->within2) ? out->within2 : 0));
        for (size_t i = 0; i < n; i++)
            yc[i] = sd > 0 ? fmin(fmax(y[i], med - CP_WINSOR_SD * sd), med + CP_WINSOR_SD * sd)
                           : y[i];
        struct work wk = {yc, w, py, pw, cum, cumy, &o, o.seed ? o.seed : 1};
        size_t ntodo = 0;
        todo[ntodo++] = 0, todo[ntodo++] = n;
        /* breadth first: the biggest segments are tested first */
        for (size_t head = 0; head < ntodo; head += 2) {
            if (o.max_changes && out->nchanges >= o.max_changes)
                break;
            size_t a = todo[head], b = todo[head + 1], at, at2;
            double p;
            int tr = test_segment(&wk, a, b, &at, &at2, &p);
            if (head == 0 && tr == 0)
                out->p_first = p;
            if (tr != 0 || p > o.alpha)
                continue;
            out->changes[out->nchanges].at = at;
            out->changes[out->nchanges++].p = p;
            todo[ntodo++] = a, todo[ntodo++] = at;
            if (at2 != at) { /* a run of labels unlike those around it: both its ends */
                out->changes[out->nchanges].at = at2;
                out->changes[out->nchanges++].p = p;
                todo[ntodo++] = at, todo[ntodo++] = at2;
                at = at2;
            }
            todo[ntodo++] = at, todo[ntodo++] = b;
        }
        qsort(out->changes, out->nchanges, sizeof *out->changes, by_at);
        measure(out, y, w, n, o.confidence);
        /* a change whose interval holds a ratio of 1 is not one: the least certain such
         * (largest p, then the smallest step) is dropped, its two segments become one, and the
         * neighbours are measured again, until every change left is clear of 1 */
        for (;;) {
            size_t drop = out->nchanges;
            for (size_t c = 0; c < out->nchanges; c++) {
                const struct cp_change *ch = &out->changes[c];
                if (!(ch->lo <= 1 && ch->hi >= 1))
                    continue;
                if (drop == out->nchanges || ch->p > out->changes[drop].p ||
                    (ch->p == out->changes[drop].p &&
                     fabs(log(ch->ratio)) < fabs(log(out->changes[drop].ratio))))
                    drop = c;
            }
            if (drop == out->nchanges)
                break;
            memmove(&out->changes[drop], &out->changes[drop + 1],
                    (out->nchanges - drop - 1) * sizeof *out->changes);
            out->nchanges--;
            measure(out, y, w, n, o.confidence);
        }
    }
    free(y);
    free(yc);
    free(s2);
    free(w);
    free(py);
    free(pw);
    free(lx);
    free(cum);
    free(cumy);
    free(todo);
    return rc;
}

void cp_result_free(struct cp_result *r)
{
    free(r->changes);
    free(r->median);
    memset(r, 0, sizeof *r);
}
