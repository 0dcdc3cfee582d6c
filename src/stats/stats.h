/* stats.h — the statistics behind `fsbench compare` and `--runs auto`.
 *
 * Pure computation: every function fills a struct and nothing here prints or exits.
 * Means and variances are computed in two passes (never from raw sums of squares).
 * Ratios of a metric are analysed on the log scale, because run times are skewed and
 * effects are multiplicative: "B is 2.41x faster" is exp(mean of ln(b) - ln(a)).
 *
 * Two designs, two methods:
 *   - interleaved (A and B ran in rounds): paired t-test on d_i = ln(b_i/a_i);
 *   - batch (all of A, then all of B): Welch on the log values with each group's n
 *     replaced by an effective n from its lag-1 autocorrelation (small-sample bias
 *     corrected), Welch-Satterthwaite degrees of freedom from the effective ns.
 * And a third, for compatibility only: FreeBSD ministat's Student's t with pooled
 * variance on the raw values, with ministat's own table of t values. A set that stopped by
 * looking at its results after every round is judged by the sequential test of seqtest.h
 * (STATS_SEQUENTIAL), whose interval and p-value allow for the looking.
 */
#ifndef FSBENCH_STATS_H
#define FSBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* Summary of one sample. mad is the raw median absolute deviation (not scaled by
 * 1.4826); cv = sd / mean; r1 the lag-1 autocorrelation in the given order (0 when
 * n < 3 or the sample is constant); gmean the geometric mean (NAN unless all x > 0).
 * sd is 0 for n = 1. */
struct stats_summary {
    size_t n;
    double min, max, median, mean, sd, mad, cv, r1, gmean;
};

/* Fills *s for x[0..n-1] (x is not modified). 0, or -1 when n == 0. */
int stats_summarize(const double *x, size_t n, struct stats_summary *s);
/* Median of x[0..n-1], mean of the two middle values for even n; NAN when n == 0. */
double stats_median(const double *x, size_t n);
/* Lag-1 autocorrelation of x in the order given; 0 when n < 3 or constant. */
double stats_lag1(const double *x, size_t n);

/* Two-sided critical value of Student's t: P(|T| <= t) = confidence (0 < c < 1),
 * df > 0 (may be fractional). */
double stats_t_crit(double confidence, double df);
/* Two-sided p-value of statistic t with df degrees of freedom. */
double stats_t_pvalue(double t, double df);

/* STATS_SEQUENTIAL: the paired log ratios of a set that stopped by looking after every
 * round (--runs until-verdict), tested by the mixture SPRT of seqtest.h. */
enum stats_method { STATS_PAIRED, STATS_BATCH, STATS_SEQUENTIAL };

/* A ratio B/A with its confidence interval, from the log-scale analysis.
 * zero_var: the log differences (paired) or both groups' logs (batch) have zero
 * spread; then the interval collapses onto the point estimate and p is 1 when the
 * ratio is exactly 1, else 0 ("infinitely precise"). */
struct stats_ratio {
    enum stats_method method;
    double confidence;
    size_t n_a, n_b;         /* paired: both are the number of pairs */
    double mean_log, se_log; /* estimate of ln(B/A) and its standard error */
    double sd_log;           /* paired: sd of the differences; batch: 0 (see se_log) */
    double df;
    double ratio, lo, hi;  /* exp(mean_log), interval at `confidence` */
    double p;              /* two-sided */
    double r1_a, r1_b;     /* batch: bias-corrected, clamped lag-1 autocorrelations */
    double neff_a, neff_b; /* batch: effective sample sizes */
    bool zero_var;
    bool seq_calibrated; /* sequential: threshold from the planned horizon, else 1/alpha */
    double fut_lo, fut_hi; /* sequential: the futility interval (seqtest.h), else 0 */
};

/* Paired test on log ratios: a[i], b[i] measured in the same round; all > 0, n >= 2.
 * 0, or -1 (n < 2 or a value <= 0 or not finite). Never prints. */
int stats_paired_log(const double *a, const double *b, size_t n, double confidence,
                     struct stats_ratio *out);
/* Batch comparison, A then B not interleaved; values in run order, all > 0,
 * na >= 2 and nb >= 2. 0 or -1 as above. */
int stats_batch_log(const double *a, size_t na, const double *b, size_t nb, double confidence,
                    struct stats_ratio *out);

/* ------------------------------------------------------------------ ministat */

#define STATS_MINISTAT_NCONF 6
/* Index of a ministat confidence (80, 90, 95, 98, 99, 99.5 percent), -1 if not one. */
int stats_ministat_conf_index(double percent);
/* ministat's table value of t for df and confidence index (df > 100: the limit row).
 * Note: ministat's "99.5%" column holds the one-sided 0.999 quantiles. -1 if bad args. */
double stats_ministat_t(unsigned df, int confidx);

/* One row of ministat's table; median is ministat's: the upper middle for even n. */
struct stats_ministat_row {
    size_t n;
    double min, max, median, mean, var, sd;
};
/* Fills a row; 0, or -1 when n == 0. */
int stats_ministat_row(const double *x, size_t n, struct stats_ministat_row *row);

/* ministat's "Relative" block for B (ds) against the reference A (rs). */
struct stats_ministat_diff {
    double percent;            /* the confidence as ministat prints it, e.g. 95.0 */
    bool different;            /* |diff| > halfwidth */
    double diff;               /* mean(B) - mean(A) */
    double halfwidth;          /* t * pooled s * sqrt(1/na + 1/nb) */
    double pct, pct_halfwidth; /* both * 100 / mean(A) */
    double pooled_s;
};
/* Needs both n >= 2 (ministat itself insists on 3). 0, or -1 on bad arguments. */
int stats_ministat_diff(const struct stats_ministat_row *a, const struct stats_ministat_row *b,
                        int confidx, struct stats_ministat_diff *out);

/* ------------------------------------------------------------------ verdicts */

/* Whether lower values of the metric are better (times, counts) or higher (rates). */
enum stats_sense { STATS_LOWER_BETTER, STATS_HIGHER_BETTER };

/* The verdict rule, with m = min_effect and the effect expressed as a factor f >= 1
 * ("1.25x faster" is f = 1.25 for either sense):
 *   - the interval of B/A includes 1                     -> STATS_NO_DIFFERENCE;
 *   - it excludes 1 and the point estimate's f > 1 + m   -> STATS_BETTER / STATS_WORSE;
 *   - it excludes 1 but f <= 1 + m                       -> STATS_BELOW_EFFECT
 *     (a real difference smaller than the one of interest; the numbers say how sure).
 * Thresholds are symmetric on the log scale: 5% faster and 5% slower are 1.05x. */
enum stats_verdict_kind {
    STATS_NO_DIFFERENCE,
    STATS_BELOW_EFFECT,
    STATS_BETTER, /* B better than A: faster, or fewer of a lower-is-better count */
    STATS_WORSE,
};

struct stats_verdict {
    enum stats_verdict_kind kind;
    bool b_better;                       /* direction of the point estimate */
    double factor, factor_lo, factor_hi; /* f >= 1 and its interval, in that direction */
    double min_effect;
    bool effect_in_ci; /* BELOW_EFFECT: the interval still reaches 1 + m */
};

void stats_verdict(const struct stats_ratio *r, enum stats_sense sense, double min_effect,
                   struct stats_verdict *v);

/* ------------------------------------------------------------------ warnings */

enum stats_warn_flag {
    STATS_W_OUTLIERS = 1 << 0, /* modified z-score |0.6745 (x - median) / MAD| > 3.5, from
                                * STATS_OUTLIER_MIN_RUNS runs on */
    STATS_W_NOISY = 1 << 1,    /* coefficient of variation above 10% */
    STATS_W_AUTOCORR = 1 << 2, /* |lag-1 autocorrelation| above 2 / sqrt(n) */
    STATS_W_FEW_RUNS = 1 << 3, /* fewer runs than stats_min_runs() */
};

/* Fewest runs for outliers to be looked for: the MAD of 3 or 4 values is one or two of
 * the values themselves, and a z-score against it flags ordinary spread. */
#define STATS_OUTLIER_MIN_RUNS 5

struct stats_warnings {
    unsigned flags;
    size_t n, n_min;
    size_t outliers;
    double cv, r1, r1_limit;
};

/* Number of x with modified z-score above 3.5. When MAD is 0 the mean absolute
 * deviation (scaled by 1.253314) stands in for it (Iglewicz and Hoaglin); when both
 * are 0 there are no outliers. */
size_t stats_count_outliers(const double *x, size_t n, double median, double mad);
/* Fewest runs (pairs for STATS_PAIRED, runs per group for STATS_BATCH) worth a verdict
 * at this confidence: 3 pairs / 5 runs, one more at 99% and above. */
size_t stats_min_runs(enum stats_method m, double confidence);
/* Checks one sample (in run order) against every warning; n_min from stats_min_runs().
 * Outliers are counted only from STATS_OUTLIER_MIN_RUNS runs on. */
void stats_check(const double *x, size_t n, const struct stats_summary *s, size_t n_min,
                 struct stats_warnings *w);

/* ------------------------------------------------------------------ run counts */

/* Runs needed so the relative half-width of the interval is within `precision`
 * (0.05 = 5%): of the geometric mean (the median of lognormal data) of a when b is NULL,
 * else of the geometric-mean ratio of the pairs (a[i], b[i]). Uses the current
 * log-scale sd and Student's t at n - 1 df for each candidate n. Returns at least n
 * when already enough, 0 when it cannot tell (n < 2, values <= 0), SIZE_MAX when
 * the answer exceeds 1e6. Zero spread needs no more runs: returns max(n, 2). */
size_t stats_runs_needed(const double *a, const double *b, size_t n, double confidence,
                         double precision);
/* For --runs auto: true when n >= 3 and the interval described above is already
 * within `precision`. */
bool stats_precise_enough(const double *a, const double *b, size_t n, double confidence,
                          double precision);

#endif
