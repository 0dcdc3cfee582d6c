/* compare.h — run sets turned into per-phase comparisons with verdicts (compare.c), and
 * their presentation (report_compare.c).
 *
 * Groups: with several inputs each input is a group (an input holding several
 * configurations becomes one group per configuration, named "input:config"); with a
 * single input holding several configurations, each configuration is a group. The first
 * group is the baseline A; every other group B is compared with it.
 *
 * Design: two groups from the same input whose runs share round numbers, and whose runs in
 * stored order never go back a round, ran interleaved; they are paired by round (the k-th run of
 * round r with the k-th run of round r, so merged run sets pair correctly) and compared by the
 * paired test on log ratios. Groups from different inputs ran as batches and get the
 * autocorrelation-aware batch method; the result says so and the report says what that risks.
 * Warmup runs and skipped or failed phases never enter a sample.
 *
 * A set that stopped by looking at its results after every round (--runs until-verdict,
 * rs->stop) gets the sequential method of seqtest.h for its paired comparisons, whatever
 * the metric: a fixed-n interval would be too narrow after a stop the data chose.
 *
 * Phases are those of the baseline's first measured run, matched by name and occurrence
 * ("sync" the second time is matched with the second "sync" of other runs).
 */
#ifndef FSBENCH_COMPARE_H
#define FSBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "measure/results.h"
#include "stats/seqtest.h"
#include "stats/stats.h"
#include "stats/workdiff.h"

enum cmp_metric {
    CMP_WALL,
    CMP_USER,
    CMP_SYS,
    CMP_CPU,          /* user + sys */
    CMP_OPS,          /* ops_total / wall */
    CMP_MBPS,         /* (bytes_read + bytes_written) / wall / 1e6 */
    CMP_DEV_WRITES,   /* dev.wr_ios */
    CMP_DEV_READS,    /* dev.rd_ios */
    CMP_DEV_WRITE_MB, /* dev.wr_sectors * 512 / 1e6 */
    CMP_NMETRICS
};

/* What the report needs to word a metric: "faster"/"slower" for times and rates,
 * "fewer"/"more" for counts. */
enum cmp_metric_kind { CMP_KIND_TIME, CMP_KIND_RATE, CMP_KIND_COUNT };

struct cmp_metric_info {
    const char *name; /* as given to --metric */
    const char *unit; /* "s", "ops/s", "MB/s", "ios", "MB" */
    enum cmp_metric_kind kind;
    enum stats_sense sense;
};

/* Looks a metric up by name; -1 if unknown. */
int cmp_metric_find(const char *name);
const struct cmp_metric_info *cmp_metric_get(enum cmp_metric m);
/* The metric's value for one phase: 0, or 1 when the phase cannot provide it (no block
 * device behind the target, zero wall time for a rate). */
int cmp_metric_value(const struct phase_result *p, enum cmp_metric m, double *out);

struct cmp_input {
    const char *name; /* label or file name as the user gave it */
    const struct run_set *rs;
};

struct cmp_options {
    enum cmp_metric metric;
    double confidence; /* 0.90, 0.95, 0.99 */
    double min_effect; /* 0.05 = 5% */
};

/* When a comparison with a ratio gets its verdict mark (cmp_build_with(); cmp_build() takes
 * the defaults, all zero). */
struct cmp_policy {
    /* Separate sets that did different work (workdiff.h) get a verdict all the same. */
    bool allow_different_work;
    /* The floor of negligible.h for a time metric: 0 is STATS_NEGLIGIBLE_DEFAULT_S, < 0 off. */
    double negligible_s;
};

struct cmp_group {
    char name[2 * RES_NAME_MAX + 512];
    size_t input;   /* index into the inputs */
    bool by_config; /* only runs whose config equals `config` */
    char config[RES_NAME_MAX];
};

/* One group's sample for one phase, in run order. */
struct cmp_sample {
    size_t n;
    double *values;   /* owned */
    unsigned *rounds; /* owned, run.round of each value */
    unsigned *occ;    /* owned, k-th run of that round within this group */
    size_t skipped, failed, warmup, unavailable;
    char note[RES_NOTE_MAX];    /* first failure note, else first skip note; "" if none */
    struct stats_summary sum;   /* valid when n > 0 */
    struct stats_warnings warn; /* valid when n > 0 */
};

enum cmp_status {
    CMP_ST_OK,
    CMP_ST_TOO_FEW,     /* fewer than 2 values (pairs) on one side */
    CMP_ST_NONPOSITIVE, /* a value <= 0: no ratio on the log scale */
    CMP_ST_UNAVAILABLE, /* the metric is not available for this phase */
};

/* Why a comparison with a ratio gets no verdict mark (cmp_vs_mark()). */
enum cmp_withheld {
    CMP_WH_NONE,
    CMP_WH_DIFFERENT_WORK, /* separate sets that did different work (workdiff.h) */
    CMP_WH_NEGLIGIBLE,     /* both medians below the negligible floor (negligible.h) */
    CMP_WH_FEW,            /* fewer pairs (or runs per group) than stats_min_runs() */
};

/* Group g against the baseline, for one phase. */
struct cmp_vs {
    enum cmp_status status;
    bool interleaved;         /* paired by round */
    size_t npairs;            /* interleaved: pairs used */
    struct stats_ratio ratio; /* valid when status == CMP_ST_OK */
    struct stats_verdict verdict;
    bool few; /* fewer pairs / runs than stats_min_runs() */
    size_t n_min;
    enum seq_state state; /* status OK: different, futile (no difference of min_effect or more), or neither */
    enum cmp_withheld withheld; /* status OK: why the verdict is not given, or CMP_WH_NONE */
};

/* The marks, one per cell of every report (the legend names each):
 *   "*" a difference shown (and above the effect of interest), "~" one below it,
 *   "o" no difference shown, "=" futile: no difference of the effect of interest or more (sequential method),
 *   "?" no verdict: fewer than stats_min_runs() pairs (3 at 95%) or runs per group as
 *       batches (5), no ratio, or not yet (sequential),
 *   "_" negligible: both medians below the floor of negligible.h,
 *   "!" no verdict: separate sets that did different work (--allow-different-work). */
const char *cmp_vs_mark(const struct cmp_vs *vs);
/* Whether the comparison shows a difference and gives it as a verdict (mark "*"). */
bool cmp_vs_shown(const struct cmp_vs *vs);
/* The name of column g when columns are letters: A ... Z, then AA, AB, ... */
void cmp_group_letter(char *buf, size_t len, size_t g);

struct cmp_phase {
    char name[RES_NAME_MAX + 16]; /* "sync", or "sync (2)" for the second occurrence */
    char base[RES_NAME_MAX];
    unsigned occurrence;  /* 0 for the first phase of that name in a run */
    struct cmp_sample *s; /* ngroups */
    struct cmp_vs *vs;    /* ngroups; vs[0] unused */
};

/* A group whose configuration failed during its set (a failed run, not one stopped by a
 * signal): its first failed run, and the phase it failed in. */
struct cmp_failure {
    size_t group;
    unsigned round; /* 0-based */
    unsigned run;   /* 0-based, in its set */
    char phase[RES_NAME_MAX];
    char note[RES_NOTE_MAX];
};

struct cmp_result {
    struct cmp_options opt;
    struct cmp_policy policy;
    size_t ngroups;
    struct cmp_group *groups;
    size_t nphases;
    struct cmp_phase *phases;
    bool any_batch;  /* some comparison was not interleaved */
    bool sequential; /* some comparison used the sequential method (ratio.method) */
    struct cmp_failure *failures; /* owned */
    size_t nfailures;
    /* What differs between group g and the baseline (diffs[0] unused), owned. */
    struct workdiff *diffs;
    bool any_different_work; /* some separate set did different work */
};

/* Builds groups, samples and comparisons. *out is filled (zero it first) and must be
 * freed with cmp_result_free() whatever the return. 0, or -1 after error() (nothing to
 * compare: one group only; no measured runs in the baseline; out of memory). */
int cmp_build(const struct cmp_input *in, size_t nin, const struct cmp_options *opt,
              struct cmp_result *out);
/* cmp_build with a policy (NULL: the defaults). */
int cmp_build_with(const struct cmp_input *in, size_t nin, const struct cmp_options *opt,
                   const struct cmp_policy *policy, struct cmp_result *out);
/* The negligible floor in seconds the result used (0: the rule is off). */
double cmp_negligible_floor(const struct cmp_result *r);
void cmp_result_free(struct cmp_result *r);
/* For a set that stopped by looking: its own confidence and margin, unless the user gave
 * them (then the user's: the sequential interval holds at any confidence). */
void cmp_options_for_set(struct cmp_options *opt, const struct run_set *rs, bool conf_given,
                         bool effect_given);
/* Index of the phase named `name` ("sync" or "sync (2)"), -1 if none. */
int cmp_find_phase(const struct cmp_result *r, const char *name);

/* ------------------------------------------------------------------ report_compare.c */

/* What to do about each kind of warning in `seen` (STATS_W_* flags), once each. */
void cmp_report_advice(FILE *out, unsigned seen);

/* Which groups' configurations failed, in which round and phase, one line each (nothing
 * when none did). */
void cmp_report_failures(FILE *out, const struct cmp_result *r);
/* One line saying which method made the verdicts when it was the sequential one (a set
 * made with --runs until-verdict); nothing otherwise. */
void cmp_report_method(FILE *out, const struct cmp_result *r);
/* Every verdict line, "  phase: B vs A: ...", with its interval, p-value and method. */
void cmp_report_verdicts(FILE *out, const struct cmp_result *r);

/* ------------------------------------------------------------------ report_summary.c */

/* The compact summary: a matrix of phases x groups, the baseline's geometric mean then
 * each cell the geometric-mean ratio of the group to the baseline (vs[g].ratio.ratio)
 * with a mark for a shown difference; each kind of warning once below it. */
void cmp_report_summary(FILE *out, const struct cmp_result *r);
/* One cell of that matrix as printed ("0.01234 s", "1.52 *", "n/a ?", "-"). */
void cmp_summary_cell(char *buf, size_t len, const struct cmp_result *r, size_t phase, size_t g);
/* The line naming what the cells are and what the marks mean ("cells: ..."). */
void cmp_summary_legend(char *buf, size_t len, const struct cmp_result *r);

/* ------------------------------------------------------------------ report_plain.c */

/* Group g against the baseline at one phase, in words: "xfs is 1.84x slower than ext4 at
 * extract (95% CI 1.62-2.09, 6 rounds)", "no difference at read (within ±4%, 6 rounds)",
 * "sync negligible (< 1 ms)", "too few rounds for a verdict at walk (2 rounds; 3 needed)",
 * "no verdict at extract: B and A did different work (...)". */
void cmp_plain_phase(char *buf, size_t len, const struct cmp_result *r, size_t phase, size_t g);
/* Every phase's sentence for group g, joined with "; ". */
void cmp_plain_group(char *buf, size_t len, const struct cmp_result *r, size_t g);
/* One paragraph per compared group, "summary: " first ("summary: B against A: " when
 * there are several groups), wrapped before 100 columns. */
void cmp_report_plain(FILE *out, const struct cmp_result *r);
/* "differs: B vs A: tree pkgsrc vs tiny; file system ext4 vs xfs (different work: ...)", one
 * line per group that differs from the baseline in anything; nothing when none does
 * (compare --format ministat prints them on stderr: its stdout is ministat's). */
void cmp_report_differs(FILE *out, const struct cmp_result *r);

/* ------------------------------------------------------------------ report_compare_out.c */

/* The verdict of group g against the baseline at a phase as one word, the same as its mark
 * says it: "better", "worse", "below-effect", "no-difference", "futile", "undecided"
 * (sequential, not yet), "too-few", "negligible", "different-work", "no-ratio",
 * "unavailable", "no-figures". */
const char *cmp_vs_word(const struct cmp_result *r, size_t phase, size_t g);
/* What decided it: "interval" (the ratio's interval against 1 and the effect of interest),
 * "futility-interval" (sequential), "minimum-runs" (stats_min_runs()), "negligible-floor",
 * "different-work", "no-ratio", "unavailable", "no-figures". */
const char *cmp_vs_rule(const struct cmp_result *r, size_t phase, size_t g);
/* compare --json: every verdict (phase x compared group) with its estimates, interval,
 * margins, mark, word, rule, runs and different-work reasons (docs/json-schema.md). 0, or -1
 * after error(). */
int cmp_report_json(FILE *out, const struct cmp_result *r);
/* compare --csv: the same, one line a verdict after a header line. 0, or -1 after error(). */
int cmp_report_csv(FILE *out, const struct cmp_result *r);

/* The verdict table: per phase one row per group (n, median, mean, sd), a verdict line
 * per compared group, warnings and notes under it. */
void cmp_report_text(FILE *out, const struct cmp_result *r);
/* FreeBSD ministat's output (as `ministat -A -c C`, the statistics without the plot;
 * -q in newer versions) for phase `phase` on the raw values. Confidence in percent:
 * 80, 90, 95, 98, 99, 99.5. 0, or -1 after error() (a group with fewer than 3 values,
 * more than 7 groups, a confidence ministat does not have). */
int cmp_report_ministat(FILE *out, const struct cmp_result *r, size_t phase, double percent);

#endif
