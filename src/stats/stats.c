/* stats.c — summaries, tests on log ratios, ministat's t-test, verdicts, warnings and
 * run-count estimates (see stats.h). Never prints; GSL provides the quantiles.
 *
 * Invariants: means are computed before deviations (two passes); no function divides
 * by a spread that may be zero without checking it first; inputs are never modified
 * (sorting happens on copies).
 */
#include "stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Sorted copy of x, or NULL when out of memory. */
static double *sorted_copy(const double *x, size_t n)
{
    double *c = malloc((n ? n : 1) * sizeof *c);
    if (!c)
        return NULL;
    memcpy(c, x, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_double);
    return c;
}

static double median_sorted(const double *s, size_t n)
{
    if (n == 0)
        return NAN;
    if (n % 2)
        return s[n / 2];
    return s[n / 2 - 1] + (s[n / 2] - s[n / 2 - 1]) / 2;
}

double stats_median(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double *s = sorted_copy(x, n);
    if (!s)
        return NAN;
    double m = median_sorted(s, n);
    free(s);
    return m;
}

static double mean_of(const double *x, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    return n ? sum / (double)n : NAN;
}

/* Sample variance (n - 1) around a given mean; 0 for n < 2. */
static double var_about(const double *x, size_t n, double mean)
{
    if (n < 2)
        return 0;
    double ss = 0, comp = 0;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - mean;
        ss += d * d;
        comp += d;
    }
    /* Corrected two-pass: removes the rounding error left in the mean. */
    return (ss - comp * comp / (double)n) / (double)(n - 1);
}

double stats_lag1(const double *x, size_t n)
{
    if (n < 3)
        return 0;
    double m = mean_of(x, n), num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - m;
        den += d * d;
        if (i + 1 < n)
            num += d * (x[i + 1] - m);
    }
    if (!(den > 0))
        return 0;
    return num / den;
}

int stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
    memset(s, 0, sizeof *s);
    if (n == 0)
        return -1;
    double *c = sorted_copy(x, n);
    if (!c)
        return -1;
    s->n = n;
    s->min = c[0];
    s->max = c[n - 1];
    s->median = median_sorted(c, n);
    s->mean = mean_of(x, n);
    s->sd = sqrt(fmax(0, var_about(x, n, s->mean)));
    for (size_t i = 0; i < n; i++)
        c[i] = fabs(x[i] - s->median);
    qsort(c, n, sizeof *c, cmp_double);
    s->mad = median_sorted(c, n);
    free(c);
    s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : (s->sd == 0 ? 0 : INFINITY);
    s->r1 = stats_lag1(x, n);
    bool pos = true;
    double lm = 0;
    for (size_t i = 0; i < n && pos; i++) {
        if (!(x[i] > 0))
            pos = false;
        else
            lm += (log(x[i]) - lm) / (double)(i + 1);
    }
    s->gmean = pos ? exp(lm) : NAN;
    return 0;
}

double stats_t_crit(double confidence, double df)
{
    return gsl_cdf_tdist_Pinv(1 - (1 - confidence) / 2, df);
}

double stats_t_pvalue(double t, double df)
{
    if (isnan(t))
        return NAN;
    return 2 * gsl_cdf_tdist_Q(fabs(t), df);
}

/* Logs of x into out; -1 when a value is not a positive finite number. */
static int logs_of(const double *x, size_t n, double *out)
{
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0) || !isfinite(x[i]))
            return -1;
        out[i] = log(x[i]);
    }
    return 0;
}

/* Fills the interval, ratio and p-value from mean_log, se_log and df. */
static void finish_ratio(struct stats_ratio *r)
{
    r->ratio = exp(r->mean_log);
    if (r->zero_var) {
        r->lo = r->hi = r->ratio;
        r->p = r->mean_log == 0 ? 1 : 0;
        return;
    }
    double h = stats_t_crit(r->confidence, r->df) * r->se_log;
    r->lo = exp(r->mean_log - h);
    r->hi = exp(r->mean_log + h);
    r->p = stats_t_pvalue(r->mean_log / r->se_log, r->df);
}

int stats_paired_log(const double *a, const double *b, size_t n, double confidence,
                     struct stats_ratio *out)
{
    memset(out, 0, sizeof *out);
    if (n < 2 || !(confidence > 0 && confidence < 1))
        return -1;
    double *d = malloc(2 * n * sizeof *d);
    if (!d)
        return -1;
    double *lb = d + n;
    if (logs_of(a, n, d) || logs_of(b, n, lb)) {
        free(d);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        d[i] = lb[i] - d[i];
    out->method = STATS_PAIRED;
    out->confidence = confidence;
    out->n_a = out->n_b = n;
    out->mean_log = mean_of(d, n);
    out->sd_log = sqrt(fmax(0, var_about(d, n, out->mean_log)));
    out->se_log = out->sd_log / sqrt((double)n);
    out->df = (double)(n - 1);
    /* Differences equal to rounding noise of the logs count as no spread. */
    out->zero_var = out->sd_log <= 1e-12 * fmax(1, fabs(out->mean_log));
    free(d);
    finish_ratio(out);
    return 0;
}

/* Effective sample size of a series with lag-1 autocorrelation r1 measured on it.
 * The raw r1 is biased low in short series (by about (1 + 3 rho) / n with the mean
 * estimated); (n r1 + 1) / (n - 3) undoes that to first order. Clamped to [0, 0.9];
 * below 4 values there is nothing to estimate and r = 0. n_eff never drops below 2
 * so that each group keeps at least one degree of freedom. */
static double effective_n(const double *x, size_t n, double *r_used)
{
    double r = 0;
    if (n >= 4)
        r = ((double)n * stats_lag1(x, n) + 1) / (double)(n - 3);
    r = fmin(fmax(r, 0), 0.9);
    *r_used = r;
    double ne = (double)n * (1 - r) / (1 + r);
    return fmax(ne, fmin(2, (double)n));
}

int stats_batch_log(const double *a, size_t na, const double *b, size_t nb, double confidence,
                    struct stats_ratio *out)
{
    memset(out, 0, sizeof *out);
    if (na < 2 || nb < 2 || !(confidence > 0 && confidence < 1))
        return -1;
    double *la = malloc((na + nb) * sizeof *la);
    if (!la)
        return -1;
    double *lb = la + na;
    if (logs_of(a, na, la) || logs_of(b, nb, lb)) {
        free(la);
        return -1;
    }
    out->method = STATS_BATCH;
    out->confidence = confidence;
    out->n_a = na;
    out->n_b = nb;
    double ma = mean_of(la, na), mb = mean_of(lb, nb);
    double va = fmax(0, var_about(la, na, ma)), vb = fmax(0, var_about(lb, nb, mb));
    out->neff_a = effective_n(la, na, &out->r1_a);
    out->neff_b = effective_n(lb, nb, &out->r1_b);
    free(la);
    double qa = va / out->neff_a, qb = vb / out->neff_b;
    out->mean_log = mb - ma;
    out->se_log = sqrt(qa + qb);
    double tiny = 1e-12 * fmax(1, fmax(fabs(ma), fabs(mb)));
    out->zero_var = out->se_log <= tiny;
    if (out->zero_var) {
        out->df = out->neff_a + out->neff_b - 2;
    } else {
        double den = qa * qa / (out->neff_a - 1) + qb * qb / (out->neff_b - 1);
        out->df = (qa + qb) * (qa + qb) / den;
        if (out->df < 1)
            out->df = 1;
    }
    finish_ratio(out);
    return 0;
}

/* ------------------------------------------------------------------ ministat */

static const double ministat_pct[STATS_MINISTAT_NCONF] = {80, 90, 95, 98, 99, 99.5};

int stats_ministat_conf_index(double percent)
{
    for (int i = 0; i < STATS_MINISTAT_NCONF; i++)
        if (fabs(percent - ministat_pct[i]) < 1e-9)
            return i;
    return -1;
}

double stats_ministat_t(unsigned df, int confidx)
{
    if (confidx < 0 || confidx >= STATS_MINISTAT_NCONF || df == 0)
        return -1;
    /* ministat's table is a printed table of t to three decimals (df 1..100, then the
     * normal limit). Its last column, labelled 99.5%, holds the one-sided 0.999
     * quantiles; and that printed column is off in the last digit for df 7..12. We
     * compute the table and reproduce those printed values so output matches. */
    static const double col6_fix[] = {4.782, 4.499, 4.296, 4.143, 4.024, 3.929};
    if (confidx == 5 && df >= 7 && df <= 12)
        return col6_fix[df - 7];
    if (confidx == 5 && df == 1)
        return 318.313;
    double p = confidx == 5 ? 0.999 : 1 - (1 - ministat_pct[confidx] / 100) / 2;
    double t = df > 100 ? gsl_cdf_ugaussian_Pinv(p) : gsl_cdf_tdist_Pinv(p, (double)df);
    return round(t * 1000) / 1000;
}

int stats_ministat_row(const double *x, size_t n, struct stats_ministat_row *row)
{
    memset(row, 0, sizeof *row);
    if (n == 0)
        return -1;
    double *s = sorted_copy(x, n);
    if (!s)
        return -1;
    row->n = n;
    row->min = s[0];
    row->max = s[n - 1];
    row->median = s[n / 2]; /* ministat's choice, kept for identical output */
    free(s);
    row->mean = mean_of(x, n);
    row->var = fmax(0, var_about(x, n, row->mean));
    row->sd = sqrt(row->var);
    return 0;
}

int stats_ministat_diff(const struct stats_ministat_row *a, const struct stats_ministat_row *b,
                        int confidx, struct stats_ministat_diff *out)
{
    memset(out, 0, sizeof *out);
    if (a->n < 2 || b->n < 2 || confidx < 0 || confidx >= STATS_MINISTAT_NCONF)
        return -1;
    double na = (double)a->n, nb = (double)b->n;
    double t = stats_ministat_t((unsigned)(a->n + b->n - 2), confidx);
    double spool = ((nb - 1) * b->var + (na - 1) * a->var) / (na + nb - 2);
    spool = sqrt(spool);
    double s = spool * sqrt(1 / nb + 1 / na);
    out->percent = ministat_pct[confidx];
    out->pooled_s = spool;
    out->diff = b->mean - a->mean;
    out->halfwidth = t * s;
    /* Two constant samples: the means' last-bit rounding is not a difference (ministat
     * itself gets NaN there and says "No difference proven"). */
    double noise = 1e-12 * fmax(fabs(a->mean), fabs(b->mean));
    out->different = fabs(out->diff) > out->halfwidth && fabs(out->diff) > noise;
    out->pct = out->diff * 100 / a->mean;
    out->pct_halfwidth = out->halfwidth * 100 / a->mean;
    return 0;
}

/* ------------------------------------------------------------------ verdicts */

void stats_verdict(const struct stats_ratio *r, enum stats_sense sense, double min_effect,
                   struct stats_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->min_effect = min_effect;
    /* Express everything as B's factor in the direction of its point estimate. */
    bool lower_better = sense == STATS_LOWER_BETTER;
    v->b_better = lower_better ? r->ratio < 1 : r->ratio > 1;
    bool up = r->ratio >= 1; /* factor = ratio, else 1/ratio */
    v->factor = up ? r->ratio : 1 / r->ratio;
    v->factor_lo = up ? r->lo : 1 / r->hi;
    v->factor_hi = up ? r->hi : 1 / r->lo;
    bool excludes_one = r->lo > 1 || r->hi < 1;
    if (!excludes_one) {
        v->kind = STATS_NO_DIFFERENCE;
        return;
    }
    double limit = 1 + min_effect;
    if (v->factor > limit) {
        v->kind = v->b_better ? STATS_BETTER : STATS_WORSE;
    } else {
        v->kind = STATS_BELOW_EFFECT;
        v->effect_in_ci = v->factor_hi > limit;
    }
}

/* ------------------------------------------------------------------ warnings */

size_t stats_count_outliers(const double *x, size_t n, double median, double mad)
{
    double scale = mad / 0.6745;
    if (!(scale > 0)) {
        double mean_ad = 0;
        for (size_t i = 0; i < n; i++)
            mean_ad += (fabs(x[i] - median) - mean_ad) / (double)(i + 1);
        scale = 1.253314 * mean_ad;
        if (!(scale > 0))
            return 0;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (fabs(x[i] - median) / scale > 3.5)
            k++;
    return k;
}

size_t stats_min_runs(enum stats_method m, double confidence)
{
    size_t base = m == STATS_PAIRED ? 3 : 5;
    return confidence >= 0.99 ? base + 1 : base;
}

void stats_check(const double *x, size_t n, const struct stats_summary *s, size_t n_min,
                 struct stats_warnings *w)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    w->n_min = n_min;
    w->cv = s->cv;
    w->r1 = s->r1;
    w->r1_limit = n > 0 ? 2 / sqrt((double)n) : INFINITY;
    if (n < n_min)
        w->flags |= STATS_W_FEW_RUNS;
    if (n >= STATS_OUTLIER_MIN_RUNS)
        w->outliers = stats_count_outliers(x, n, s->median, s->mad);
    if (w->outliers)
        w->flags |= STATS_W_OUTLIERS;
    if (n >= 2 && s->cv > 0.10)
        w->flags |= STATS_W_NOISY;
    if (n >= 3 && fabs(s->r1) > w->r1_limit)
        w->flags |= STATS_W_AUTOCORR;
}

/* ------------------------------------------------------------------ run counts */

/* sd of the log values (b NULL) or of the log ratios; -1 when it cannot be had. */
static double log_sd(const double *a, const double *b, size_t n)
{
    if (n < 2)
        return -1;
    double *l = malloc(2 * n * sizeof *l);
    if (!l)
        return -1;
    double sd = -1;
    if (logs_of(a, n, l) == 0 && (!b || logs_of(b, n, l + n) == 0)) {
        if (b)
            for (size_t i = 0; i < n; i++)
                l[i] = l[n + i] - l[i];
        double m = mean_of(l, n);
        sd = sqrt(fmax(0, var_about(l, n, m)));
        if (sd <= 1e-12 * fmax(1, fabs(m)))
            sd = 0;
    }
    free(l);
    return sd;
}

/* Relative half-width exp(t s / sqrt(k)) - 1 of an interval from k values. */
static double rel_halfwidth(double sd, size_t k, double confidence)
{
    return expm1(stats_t_crit(confidence, (double)(k - 1)) * sd / sqrt((double)k));
}

size_t stats_runs_needed(const double *a, const double *b, size_t n, double confidence,
                         double precision)
{
    double sd = log_sd(a, b, n);
    if (sd < 0 || !(precision > 0))
        return 0;
    if (sd == 0)
        return n > 2 ? n : 2;
    /* Normal approximation for a start, then step until Student's t agrees. */
    double z = gsl_cdf_ugaussian_Pinv(1 - (1 - confidence) / 2);
    double k0 = pow(z * sd / log1p(precision), 2);
    if (k0 > 1e6)
        return SIZE_MAX;
    size_t k = k0 < 2 ? 2 : (size_t)k0;
    while (rel_halfwidth(sd, k, confidence) > precision) {
        if (++k > 1000000)
            return SIZE_MAX;
    }
    return k > n ? k : n;
}

bool stats_precise_enough(const double *a, const double *b, size_t n, double confidence,
                          double precision)
{
    if (n < 3)
        return false;
    double sd = log_sd(a, b, n);
    if (sd < 0)
        return false;
    return rel_halfwidth(sd, n, confidence) <= precision;
}
