/* bisect.h — is a candidate like the good end of a change or the bad one? The
 * classification `fsbench bisect verdict` answers with, and `fsbench run --runs
 * until-verdict --bisect-good G --bisect-bad B` looks at after every round. Pure
 * computation over a series (stats/series.h) whose labels 0, 1 and 2 are good, bad and the
 * candidate; the sentences are made here, printing is the caller's.
 *
 * The phase judged is the one asked for, else the one where good and bad differ most (the
 * interval of their ratio excludes 1; the largest log ratio). The candidate is compared
 * with each end by Welch's t on the log scale: like bad when it differs from good and not
 * from bad (or lies beyond bad), like good the other way round; like both (cannot tell yet:
 * more runs), or between the two (it differs from both: a part of the change?).
 *
 * Runs of one label ran one after another, so this is a batch comparison; with the handful
 * of runs a bisection step makes, the lag-1 correction of compare's batch method is too
 * noisy to use.
 */
#ifndef FSBENCH_BISECT_H
#define FSBENCH_BISECT_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/series.h"
#include "stats/stats.h"

/* Exit statuses, as git bisect run reads them: 0 good, 1 bad, 125 cannot tell (skip); 128
 * an error, which stops git bisect run instead of marking the commit. */
#define BISECT_GOOD 0
#define BISECT_BAD 1
#define BISECT_UNSURE 125
#define BISECT_ERROR 128

/* What the candidate is. */
enum bisect_class {
    BISECT_LIKE_GOOD,
    BISECT_LIKE_BAD,
    BISECT_BEYOND_GOOD, /* differs from both, on good's far side */
    BISECT_BEYOND_BAD,
    BISECT_LIKE_BOTH,   /* differs from neither: run more */
    BISECT_BETWEEN,     /* differs from both, between them */
    BISECT_TOO_FEW,     /* under 2 runs with a value */
    BISECT_NO_RATIO,    /* a value of 0, or an end with under 2 runs */
};

struct bisect_judgement {
    enum bisect_class cls;
    int verdict;        /* BISECT_GOOD, BISECT_BAD or BISECT_UNSURE */
    /* more runs of the candidate would not change the answer: like good or bad (or beyond
     * either), or between the two (both differences shown); not like both or too few */
    bool settled;
    char why[640];      /* "extract: k-8 is like bad: 1.008 s against good k-0 ..." */
};

/* Welch's t on the logs of b against a (na, nb >= 2, values > 0) into *r: the ratio b/a,
 * its interval at conf and p. 0, or -1 when it cannot be made. */
int bisect_welch_log(const double *a, size_t na, const double *b, size_t nb, double conf,
                     struct stats_ratio *r);

/* The phase to judge between good (labels[0]) and bad (labels[1]): phase (NULL: the one where
 * they differ most). Its index; -1 when they show no difference there (or in any phase),
 * with the sentence in why ("extract: good g and bad b show no difference: cannot tell (run
 * more of both ends)"); -2 when phase names none of the series' (why says so). */
int bisect_pick_phase(const struct series *sr, const char *phase, double conf, char *why,
                      size_t len);

/* Judges the candidate (labels[2]) on phase p against good and bad into *j. */
void bisect_judge(const struct series *sr, size_t p, double conf, struct bisect_judgement *j);

#endif
