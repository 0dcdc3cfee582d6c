/* seqtest.h — the sequential paired test behind `--runs until-verdict`: a verdict, an
 * interval and a p-value that stay honest however often the data were looked at.
 *
 * After every round the paired log ratios d_i = ln(b_i / a_i) are tested again. A fixed-n
 * t-test looked at after every round would claim differences that are not there far more
 * often than its 5% (each look is another chance), and its interval is too narrow after a
 * stop chosen by the data. This module uses a mixture sequential probability ratio test
 * (mixture SPRT) in its scale-invariant, t-statistic form:
 *
 *   LR_n = (1 + n g)^(-1/2) * [ (1 + t^2 / v) / (1 + t^2 / (v (1 + n g))) ]^((v + 1) / 2),
 *
 * with t the paired t statistic of the n log ratios, v = n - 1, and g the variance of a
 * normal mixture over the standardized effect (effect / noise sd per pair). LR_n is the
 * likelihood ratio of the t statistics' sequence (the maximal invariant under changes of
 * scale, so the unknown noise level needs no estimate plugged in) between "the effect is
 * drawn from the mixture" and "no difference". Under no difference it is a nonnegative
 * martingale with mean 1, so by Ville's inequality P(LR_n >= 1/alpha for some n) <= alpha:
 * valid at any stopping time, also an interrupted set or one run past its plan.
 *
 * When the set has a planned most number of pairs N (--max-runs), the threshold is
 * tightened to what that horizon allows: the (1 - alpha) quantile of max LR_k over the looks
 * k = SEQ_FIRST_LOOK..N under no difference. That distribution does not depend on the noise
 * level (t is pivotal), so it is computed once by simulating normal sequences (a fixed
 * seed: the same data give the same verdict everywhere), with a margin of two Monte Carlo
 * standard errors. It is never above 1/alpha; past the horizon, 1/alpha is used again.
 *
 * Every statistic follows from the same threshold c, so they agree with each other:
 *   - the confidence sequence at look n: { mu : LR_n(mu) < c }, an interval around the
 *     mean log ratio that holds simultaneously over all looks (unbounded while n is too
 *     small for any t to reach c);
 *   - the p-value: the smallest alpha whose threshold LR_n(0) reaches (<= alpha exactly
 *     when 0 is outside the interval at 1 - alpha);
 *   - the state: different (0 outside), futile (the futility interval inside
 *     +-ln(1 + min_effect): no difference of min_effect or more), else undecided.
 *
 * Futility. "No difference of m or more" is a claim of its own, with its own error: that
 * it is made while the true mean log ratio mu is at or beyond +-ln(1 + m). Made when the
 * whole futility interval lies inside +-ln(1 + m), it errs only if that interval's end
 * fell short of mu on mu's side, at some look. The futility interval is the confidence
 * sequence, with mixture variance SEQ_FUTILITY_VAR, at the one-sided threshold c1: the
 * (1 - alpha) point of the largest LR_k over the looks whose t statistic is below 0,
 * under no difference (simulated as the two-sided one is; by symmetry the same for the
 * other side; Ville's 1/alpha bounds it too). So the claim errs with probability at most alpha for any true effect of m or
 * more, at any look, and adding it takes nothing from "different": a set that stops on
 * futility only ends its chances of a false difference sooner. The futility interval is
 * the narrower of the two (one side's error, a mixture suited to 8-20 pairs): what it claims is not "equivalent", only that an
 * effect of the size of interest is ruled out (the two one-sided tests' argument, made
 * anytime-valid).
 * Validity needs the d_i to be independent and roughly normal. Runs made in rounds, in a
 * seeded random order of configurations each round, give that under the noise measured
 * on real machines (lag-1 autocorrelation 0.4-0.6 of each configuration's runs): a slow
 * drift or state shared by a round cancels in the pair, and the leftover correlation of
 * neighbouring rounds' differences has mean zero because the order within each round is
 * random. bench/sequential checks the error rates on simulated and on real runs.
 *
 * Pure computation; nothing prints. Not thread-safe: the null distributions are cached.
 */
#ifndef FSBENCH_SEQTEST_H
#define FSBENCH_SEQTEST_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/stats.h"

/* --min-effect's default: the effect of interest futility rules out. */
#define SEQ_MIN_EFFECT_DEFAULT 0.10
/* Fewest pairs a look decides on (stats_min_runs(STATS_PAIRED, 0.95)). */
#define SEQ_FIRST_LOOK 3
/* The mixture's variance g: effects of one to two noise sds per pair are found soonest. */
#define SEQ_MIXTURE_VAR 2.0
/* The futility interval's mixture variance: narrowest at 8-20 pairs, where futility is
 * decided (half-widths 0.73-0.75 noise sds at 12 pairs and horizon 20-30, against
 * 0.84-0.86 with SEQ_MIXTURE_VAR); a claim of its own, so it has its own mixture. */
#define SEQ_FUTILITY_VAR 0.3
/* Horizons above this use Ville's 1/alpha (simulating the null would take too long). */
#define SEQ_HORIZON_MAX 100
/* Simulated null sequences per horizon. */
#define SEQ_NULL_PATHS 50000

/* What the stopping rule was planned with; stored with the set, so that an old set's
 * verdicts are recomputed the way they were made. */
struct seq_design {
    double mixture_var; /* g > 0 */
    unsigned horizon;   /* most pairs planned (--max-runs); 0: none */
};

/* Fills out for the n log ratios d (n >= 2, all finite) at this confidence: a ratio with
 * method STATS_SEQUENTIAL, its interval the confidence sequence (lo 0 and hi INFINITY
 * while not bounded) and p the sequential p-value. 0, or -1 on bad arguments. */
int seq_test_logs(const double *d, size_t n, const struct seq_design *dz, double confidence,
                  struct stats_ratio *out);
/* The same from paired values a[i], b[i] > 0 (as stats_paired_log). */
int seq_paired_log(const double *a, const double *b, size_t n, const struct seq_design *dz,
                   double confidence, struct stats_ratio *out);

/* Log of the mixture likelihood ratio for t statistic t of n >= 2 pairs (t may be
 * +-INFINITY: all pairs equal). */
double seq_log_lr(double t, size_t n, double g);
/* Log threshold on the likelihood ratio at n pairs, and whether it came from the
 * horizon's null distribution (else 1/alpha). */
double seq_log_threshold(const struct seq_design *dz, size_t n, double confidence,
                         bool *calibrated);
/* The same for one side (the futility interval's threshold, see above); <= the two-sided. */
double seq_log_threshold_one_sided(const struct seq_design *dz, size_t n, double confidence,
                                   bool *calibrated);

enum seq_state {
    SEQ_UNDECIDED, /* the interval holds 1 and the futility interval reaches past m */
    SEQ_DIFFERENT, /* the interval excludes 1 */
    SEQ_FUTILE,    /* no difference of m or more: the futility interval (a sequential
                    * ratio's; any other ratio's own interval) lies within
                    * 1/(1 + m) .. 1 + m; never with m = 0 */
};
/* The state of a sequential ratio (or any ratio with an interval) for margin m. */
enum seq_state seq_state_of(const struct stats_ratio *r, double min_effect);

#endif
