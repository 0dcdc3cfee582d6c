/* run_bisect.h — `--runs until-verdict --bisect-good G --bisect-bad B` of fsbench run and
 * fsbench cmd: the set is a bisection's candidate. After every round from the third its runs
 * are classified against the stored good and bad labels by bisect verdict's own
 * classification (stats/bisect.h), and the set stops once the answer is settled: like good
 * or like bad (or beyond either) at a look, or between the two (it differs from both) at
 * RUN_BISECT_BETWEEN_LOOKS looks in a row (one look's chance difference from an end must
 * not end the set on 125); else at --max-runs. Its work is
 * checked against good's after the first round (compare's rule): other work stops the set. The lines after
 * the table say which and why; with --bisect-exit the process exits as bisect verdict does
 * (0 good, 1 bad, 125 cannot tell, 128 an error), so a kernel bisection loop needs one
 * command per kernel.
 *
 * The set itself is an ordinary one of one configuration (no stopping rule is stored with
 * it: it has nothing of its own to compare); each look is a test at --bisect-confidence, so
 * the looking makes a wrong class somewhat likelier than one test alone (the man page).
 */
#ifndef FSBENCH_RUN_BISECT_H
#define FSBENCH_RUN_BISECT_H

#include <stdbool.h>
#include <stdio.h>

#include "measure/results.h"
#include "run/runner.h"
#include "stats/bisect.h"
#include "stats/series.h"

/* What the command line asked (NULL good and bad: nothing). */
struct run_bisect_ask {
    const char *good, *bad;   /* --bisect-good, --bisect-bad: stored labels */
    const char *phase;        /* --bisect-phase; NULL: where good and bad differ most */
    const char *metric;       /* --bisect-metric; NULL: wall */
    double confidence;        /* --bisect-confidence: 0.90, 0.95 or 0.99 */
    bool exit_status;         /* --bisect-exit */
};

/* The rounds before the first look (a class needs a few runs). */
#define RUN_BISECT_FIRST_LOOK 3
/* Looks in a row that must find the candidate between good and bad to stop there. */
#define RUN_BISECT_BETWEEN_LOOKS 3

/* Whether ask asks for anything. */
bool run_bisect_asked(const struct run_bisect_ask *ask);

/* Checks ask against the rest of the request, once every option is parsed: good and bad
 * given together, three labels, --runs until-verdict (then turned into rounds looked at by
 * this module rather than the sequential test between configurations), one configuration,
 * at least RUN_BISECT_FIRST_LOOK rounds. nconfigs: the configurations (ro's may not be
 * built yet). label: the set's (NULL: made up). 0, or EXIT_USAGE
 * after error(). */
int run_bisect_check(const struct run_bisect_ask *ask, struct runner_opts *ro, size_t nconfigs,
                     unsigned long max_runs, const char *label);

/* One candidate set's classification as it runs. */
struct run_bisect {
    const struct run_bisect_ask *ask;
    struct series sr;         /* good and bad, from the store; the candidate added per look */
    struct run_set *good_set; /* good's first set, for the work check */
    int phase;                /* the phase judged (index in sr) */
    bool looked;
    bool other_work;          /* the candidate's first round did other work than good's */
    bool settled;             /* the set stopped on a settled class */
    unsigned between_looks;   /* the last looks in a row that found it between */
    unsigned rounds;          /* counted rounds at the last look */
    struct bisect_judgement last;
};

/* Loads good and bad from the store at db (NULL: the default), picks the phase and sets
 * ro's round_stop to look after every round. 0, or EXIT_USAGE / EXIT_RUN_FAILED after
 * error() (a label missing, good and bad showing no difference, under mpirun). */
int run_bisect_begin(struct run_bisect *b, const struct run_bisect_ask *ask, const char *db,
                     struct runner_opts *ro);
/* After the set: the last look (made again if rounds came after it), its line and the stop
 * line to f; remembers the verdict for run_bisect_exit(). rc: the run's (0 went to its end).
 * 0, or -1 when the candidate could not be classified (it did other work than good: said
 * after the first round, which stopped the set). */
int run_bisect_end(struct run_bisect *b, FILE *f, const struct run_set *rs, int rc);
void run_bisect_free(struct run_bisect *b);

/* The process exit status of run or cmd given argv (--bisect-exit, before any "--") and rc,
 * the status it would have: rc itself without --bisect-exit, else the verdict of the set
 * when rc is EXIT_OK and one was reached, else BISECT_ERROR. */
int run_bisect_exit(int argc, char **argv, int rc);

#endif
