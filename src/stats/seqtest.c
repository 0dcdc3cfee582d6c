/* seqtest.c — the mixture SPRT on paired log ratios, its horizon-calibrated threshold,
 * confidence sequence and p-value (see seqtest.h for the method and why it is valid).
 *
 * Invariants: every statistic of a look comes from one threshold c, so "different",
 * "0 outside the interval" and "p <= alpha" always agree; the simulated null
 * distributions use a generator of their own with a fixed seed, so a verdict depends on
 * the data alone (not on the library's generator or on what ran before).
 */
#include "stats/seqtest.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ the statistic */

double seq_log_lr(double t, size_t n, double g)
{
    double v = (double)n - 1, a = 1 + (double)n * g;
    if (isinf(t))
        return 0.5 * v * log(a); /* the limit: every pair equal */
    double t2 = t * t;
    return -0.5 * log(a) + 0.5 * (double)n * (log1p(t2 / v) - log1p(t2 / (v * a)));
}

/* ------------------------------------------------------------------ the null distribution */

/* splitmix64: small, fast and the same everywhere. */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t x = (*s += 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Uniform in (-1, 1). */
static double next_sym(uint64_t *s)
{
    return ((double)(next_u64(s) >> 11) + 0.5) / 9007199254740992.0 * 2 - 1;
}

/* Two standard normal values (Marsaglia's polar method). */
static void next_normals(uint64_t *s, double *x, double *y)
{
    double u, v, r;
    do {
        u = next_sym(s);
        v = next_sym(s);
        r = u * u + v * v;
    } while (r >= 1 || r == 0);
    double f = sqrt(-2 * log(r) / r);
    *x = u * f;
    *y = v * f;
}

/* max over looks SEQ_FIRST_LOOK..horizon of log LR, for SEQ_NULL_PATHS normal sequences,
 * sorted from the largest. */
struct seq_null {
    unsigned horizon;
    double g;
    double *max_desc;  /* two-sided: max over looks of log LR */
    double *max1_desc; /* one-sided: the same over the looks with a mean below 0 (the
                        * event of a confidence sequence's upper end falling below the
                        * truth); -INFINITY for a path with none */
};

static int cmp_desc(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a < b) - (a > b);
}

static struct seq_null *null_make(unsigned horizon, double g)
{
    struct seq_null *nl = calloc(1, sizeof *nl);
    double *a = malloc((horizon + 1) * 2 * sizeof *a);
    if (nl) {
        nl->max_desc = malloc(SEQ_NULL_PATHS * sizeof *nl->max_desc);
        nl->max1_desc = malloc(SEQ_NULL_PATHS * sizeof *nl->max1_desc);
    }
    if (!nl || !a || !nl->max_desc || !nl->max1_desc) {
        free(a);
        if (nl) {
            free(nl->max_desc);
            free(nl->max1_desc);
        }
        free(nl);
        return NULL;
    }
    nl->horizon = horizon;
    nl->g = g;
    /* per look k: -0.5 ln(1 + k g), and 1 / (v (1 + k g)) */
    double *e = a + horizon + 1;
    for (unsigned k = 2; k <= horizon; k++) {
        a[k] = -0.5 * log1p((double)k * g);
        e[k] = 1 / ((double)(k - 1) * (1 + (double)k * g));
    }
    uint64_t state = 0x5e9a7e57ull ^ ((uint64_t)horizon << 32);
    for (size_t p = 0; p < SEQ_NULL_PATHS; p++) {
        double mean = 0, m2 = 0, best = -INFINITY, best1 = -INFINITY, spare = 0;
        for (unsigned k = 1; k <= horizon; k++) {
            double x;
            if (k % 2) {
                next_normals(&state, &x, &spare);
            } else {
                x = spare;
            }
            double dlt = x - mean;
            mean += dlt / k;
            m2 += dlt * (x - mean);
            if (k < SEQ_FIRST_LOOK || !(m2 > 0))
                continue;
            double t2 = mean * mean * (double)k * (double)(k - 1) / m2;
            double v = (double)(k - 1);
            double l = a[k] + 0.5 * (double)k * (log1p(t2 / v) - log1p(t2 * e[k]));
            if (l > best)
                best = l;
            if (mean < 0 && l > best1)
                best1 = l;
        }
        nl->max_desc[p] = best;
        nl->max1_desc[p] = best1;
    }
    free(a);
    qsort(nl->max_desc, SEQ_NULL_PATHS, sizeof *nl->max_desc, cmp_desc);
    qsort(nl->max1_desc, SEQ_NULL_PATHS, sizeof *nl->max1_desc, cmp_desc);
    return nl;
}

/* The null distribution for (horizon, g), made on first use and kept (a few sets' worth). */
#define NULL_CACHE 4
static struct seq_null *cache[NULL_CACHE];

static const struct seq_null *null_get(unsigned horizon, double g)
{
    for (size_t i = 0; i < NULL_CACHE; i++)
        if (cache[i] && cache[i]->horizon == horizon && cache[i]->g == g)
            return cache[i];
    struct seq_null *nl = null_make(horizon, g);
    if (!nl)
        return NULL;
    /* the oldest goes */
    if (cache[NULL_CACHE - 1]) {
        free(cache[NULL_CACHE - 1]->max_desc);
        free(cache[NULL_CACHE - 1]->max1_desc);
        free(cache[NULL_CACHE - 1]);
    }
    memmove(cache + 1, cache, (NULL_CACHE - 1) * sizeof *cache);
    cache[0] = nl;
    return nl;
}

/* The tail fraction the simulation is trusted with at level alpha: alpha less two of its
 * Monte Carlo standard errors, so that the threshold's true level stays below alpha. */
static double mc_level(double alpha)
{
    return alpha - 2 * sqrt(alpha * (1 - alpha) / SEQ_NULL_PATHS);
}

/* The alpha whose mc_level() is x (x in (0, 1]): mc_level rises on [1/R, 1]. */
static double mc_level_inverse(double x)
{
    double lo = 1.0 / SEQ_NULL_PATHS, hi = 1;
    if (mc_level(hi) <= x)
        return 1;
    for (int i = 0; i < 100; i++) {
        double mid = (lo + hi) / 2;
        if (mc_level(mid) < x)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* Whether look n of design dz has a simulated null distribution for mixture variance g;
 * NULL if not. */
static const struct seq_null *null_for_g(const struct seq_design *dz, size_t n, double g)
{
    if (!dz || dz->horizon < SEQ_FIRST_LOOK || dz->horizon > SEQ_HORIZON_MAX || n > dz->horizon ||
        !(g > 0))
        return NULL;
    return null_get(dz->horizon, g);
}

static const struct seq_null *null_for(const struct seq_design *dz, size_t n)
{
    return dz ? null_for_g(dz, n, dz->mixture_var) : NULL;
}

/* The threshold from the null maxima desc (two- or one-sided), or Ville's. */
static double threshold_from(const struct seq_design *dz, size_t n, double confidence,
                             bool one_sided, bool *calibrated)
{
    double alpha = 1 - confidence, ville = -log(alpha);
    *calibrated = false;
    const struct seq_null *nl = one_sided ? null_for_g(dz, n, SEQ_FUTILITY_VAR) : null_for(dz, n);
    if (!nl)
        return ville;
    const double *desc = one_sided ? nl->max1_desc : nl->max_desc;
    /* reject when more than K* + 1 of the null maxima lie at or above: p > alpha */
    long kstar = (long)floor(mc_level(alpha) * SEQ_NULL_PATHS) - 1;
    if (kstar < 0 || desc[kstar] >= ville)
        return ville;
    *calibrated = true;
    return desc[kstar];
}

double seq_log_threshold(const struct seq_design *dz, size_t n, double confidence, bool *calibrated)
{
    return threshold_from(dz, n, confidence, false, calibrated);
}

double seq_log_threshold_one_sided(const struct seq_design *dz, size_t n, double confidence,
                                   bool *calibrated)
{
    return threshold_from(dz, n, confidence, true, calibrated);
}

/* The sequential p-value of log LR b at look n: the smallest alpha whose threshold b
 * exceeds (Ville's bound, or the horizon's simulated distribution, whichever is less). */
static double seq_pvalue(const struct seq_design *dz, size_t n, double b)
{
    double p = fmin(1, exp(-b));
    const struct seq_null *nl = null_for(dz, n);
    if (!nl)
        return p;
    /* K = how many null maxima are >= b (binary search on the descending array) */
    size_t lo = 0, hi = SEQ_NULL_PATHS;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (nl->max_desc[mid] >= b)
            lo = mid + 1;
        else
            hi = mid;
    }
    double pm = mc_level_inverse((double)(lo + 1) / SEQ_NULL_PATHS);
    return fmin(p, pm);
}

/* ------------------------------------------------------------------ one look */

/* Half-width in t units of the confidence sequence at threshold c (log), or INFINITY when
 * no t reaches c with n pairs (LR is bounded by (1 + n g)^(v/2)). */
static double t_radius(double c, size_t n, double g)
{
    double v = (double)n - 1, a = 1 + (double)n * g;
    if (c >= 0.5 * v * log(a))
        return INFINITY;
    /* LR(t) = c  <=>  (1 + u) / (1 + u / a) = K, u = t^2 / v */
    double k = exp((2 * c + log(a)) / (v + 1));
    double u = (k - 1) / (1 - k / a);
    return u > 0 ? sqrt(v * u) : 0;
}

int seq_test_logs(const double *d, size_t n, const struct seq_design *dz, double confidence,
                  struct stats_ratio *out)
{
    memset(out, 0, sizeof *out);
    if (n < 2 || !dz || !(dz->mixture_var > 0) || !(confidence > 0 && confidence < 1))
        return -1;
    double mean = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(d[i]))
            return -1;
        mean += (d[i] - mean) / (double)(i + 1);
    }
    double ss = 0, comp = 0;
    for (size_t i = 0; i < n; i++) {
        ss += (d[i] - mean) * (d[i] - mean);
        comp += d[i] - mean;
    }
    double var = fmax(0, (ss - comp * comp / (double)n) / (double)(n - 1));
    double g = dz->mixture_var;
    out->method = STATS_SEQUENTIAL;
    out->confidence = confidence;
    out->n_a = out->n_b = n;
    out->mean_log = mean;
    out->sd_log = sqrt(var);
    out->se_log = out->sd_log / sqrt((double)n);
    out->df = (double)(n - 1);
    out->zero_var = out->sd_log <= 1e-12 * fmax(1, fabs(mean));
    double t = out->zero_var ? (mean == 0 ? 0 : copysign(INFINITY, mean)) : mean / out->se_log;
    double c = seq_log_threshold(dz, n, confidence, &out->seq_calibrated);
    double r = t_radius(c, n, g);
    double half = isinf(r) ? INFINITY : out->zero_var ? 0 : r * out->se_log;
    out->ratio = exp(mean);
    out->lo = exp(mean - half);
    out->hi = exp(mean + half);
    out->p = seq_pvalue(dz, n, seq_log_lr(t, n, g));
    /* the futility interval: the confidence sequence at the one-sided threshold */
    bool cal1;
    double r1 = t_radius(seq_log_threshold_one_sided(dz, n, confidence, &cal1), n,
                         SEQ_FUTILITY_VAR);
    double half1 = isinf(r1) ? INFINITY : out->zero_var ? 0 : r1 * out->se_log;
    out->fut_lo = exp(mean - half1);
    out->fut_hi = exp(mean + half1);
    /* The interval and the p-value agree by construction, up to the boundary itself. */
    return 0;
}

int seq_paired_log(const double *a, const double *b, size_t n, const struct seq_design *dz,
                   double confidence, struct stats_ratio *out)
{
    memset(out, 0, sizeof *out);
    if (n < 2)
        return -1;
    double *d = malloc(n * sizeof *d);
    if (!d)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) || !isfinite(b[i])) {
            free(d);
            return -1;
        }
        d[i] = log(b[i]) - log(a[i]);
    }
    int rc = seq_test_logs(d, n, dz, confidence, out);
    free(d);
    return rc;
}

enum seq_state seq_state_of(const struct stats_ratio *r, double min_effect)
{
    if (r->lo > 1 || r->hi < 1)
        return SEQ_DIFFERENT;
    double limit = 1 + min_effect;
    bool seq = r->method == STATS_SEQUENTIAL;
    double lo = seq ? r->fut_lo : r->lo, hi = seq ? r->fut_hi : r->hi;
    if (min_effect > 0 && lo > 1 / limit && hi < limit)
        return SEQ_FUTILE;
    return SEQ_UNDECIDED;
}
