/* seqstop.h — the question `--runs until-verdict` asks of a run set after every round:
 * does every phase of every configuration have a verdict against the baseline (the first
 * configuration declared)? A verdict is the sequential test's (seqtest.h): a difference,
 * or futility (no difference of the set's min-effect or more shown). A phase whose median
 * time is below the set's negligible floor on both sides (stats/negligible.h) neither
 * gets nor needs one: it is counted as negligible and does not hold the set up. The set carries its rule (rs->stop), and
 * the answer is computed by compare's own path (cmp_build), so what the run decided is
 * what `fsbench compare` later shows.
 *
 * A comparison that cannot be decided (the metric is not available for the phase, a
 * phase skipped or failed in every run, a value of 0 that has no ratio) does not hold the
 * set up; it is counted apart. Pure computation; nothing prints.
 */
#ifndef FSBENCH_SEQSTOP_H
#define FSBENCH_SEQSTOP_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/results.h"

struct seqstop_status {
    unsigned rounds;              /* counted rounds (no warm-up) in the set so far */
    size_t decidable;             /* comparisons (phase x configuration) that count */
    size_t different, futile;     /* of those, with each verdict */
    size_t negligible;            /* below the floor: counted apart, not decidable */
    size_t undecided;             /* with neither yet */
    size_t undecidable;           /* that cannot get one (see above) */
    size_t halted;                /* undecided, of a configuration that failed (its later
                                   * rounds are not run, so it cannot get one) */
    bool all;                     /* every decidable comparison has its verdict */
    bool settled;                 /* nothing more to learn: every undecided comparison
                                   * is of a failed configuration (all, or looking on
                                   * would only run the others) */
    char undecided_names[1024];   /* "sync, sync (2)"; "phase (config)" with several
                                   * configurations compared; truncated with "..." */
    char undecidable_names[512];  /* the same for the undecidable ones */
    char negligible_names[512];   /* the same for the negligible ones */
};

/* Fills *st for rs (rs->stop.rule must be set). A set not yet comparable (one
 * configuration measured so far, no measured baseline run) has all false. 0, or -1 after
 * error() (out of memory). */
int seqstop_check(const struct run_set *rs, struct seqstop_status *st);

#endif
