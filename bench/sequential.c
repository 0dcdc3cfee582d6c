/* sequential.c — what `--runs until-verdict` costs and what it is worth: the claimed-
 * difference rate of A/A sets, the share of a 20% effect found, and the pairs used, for the
 * sequential design beside the fixed designs, on simulated sets with noise like the
 * machine's and on real A/A trials.
 *
 *   build/bench/sequential [--sims N | --no-sims] [--seed S]
 *                          [--real N --fsbench PATH [--dir DIR] [--keep DIR] [--max-load L]]
 *                          [--real N --from DIR]   (read the trials --keep DIR kept)
 *                          [--designs N --fsbench PATH [--dir DIR] [--keep DIR] [--where NAME]]
 *                          [--designs N --from DIR [--where NAME]]  (the sets --keep kept)
 *                          [--cmd-designs N --fsbench PATH [--keep DIR]]
 *
 * Simulated sets (N A/A and N with B 20% slower, per noise model; default 2000), each at
 * most 30 rounds of two configurations in a random order per round, on the log scale:
 *   real-like (lag 0.4 / 0.5 / 0.6): marginal CoV 20%; a state shared by the runs of a
 *     round, AR(1) over rounds, 73% of the variance (the share measured between paired
 *     runs of tiny x4 on tmpfs over 400 rounds); the rest per run, Student's t with 5
 *     degrees of freedom (the paired differences' kurtosis measured there is 6-9). The
 *     AR coefficient sets each configuration's lag-1 autocorrelation to 0.4, 0.5 or 0.6.
 *   run-AR: every run AR(1) with rho 0.5 in time order, normal, CoV 20%, plus a drift of
 *     10% over the set; pairs share only their neighbours' correlation (the harsh case
 *     tests/unit/test_stats_sim.c uses, where 12 fixed pairs are needed).
 * Designs: fixed 12 and 6 pairs (paired t); the fixed t looked at after every round
 * (naive: why looking needs a correction); --runs auto (precision 5%), then the fixed t
 * (why auto is precision only) or the sequential interval (what compare gives an auto
 * set); --runs until-verdict as it was before futility (the mixture SPRT, horizon 30,
 * stopping on a difference or on equivalence within 5%), and as it is (a difference, or
 * futility: an effect of 10% or more ruled out by the one-sided futility interval); the
 * latter with Ville's 1/alpha (no horizon). The last column checks the futility claim's
 * error: the share of sets with B exactly 10% slower (the margin) called futile. A/A: share of sets claiming a difference. Power: share of
 * the 20% sets with B shown slower. Pairs: the median pairs when the set stopped (30 when
 * it never did).
 *
 * Real trials (--real N, default 0): N runs of `fsbench run JOB --runs until-verdict` on
 * two identical jobs interleaved (tiny x4 on a tmpfs directory, DIR or a new one under
 * /dev/shm), each read back from its JSON. A/A: comparisons (phase x trial) with a claimed
 * difference, by the sequential verdict at the stop and by the fixed t on the same runs'
 * first 12 rounds. Power: each trial replayed round by round with B's times x 1.2, through
 * the same stopping rule (the verdicts compare would give at each round): found, and the
 * pairs a phase needed; and the fixed 12-pair t on the same replayed runs. The machine is
 * shared: the load average during the trials is printed, and --max-load L makes each trial
 * wait (at most 20 minutes) for a 1-minute load average of at most L. The trials' noise is
 * described as the models' is (lag-1 and CoV of each configuration within a set, sd of the paired
 * log ratios), to set them side by side.
 *
 * Real job files (--designs N): N A/A and N A/B sets of `fsbench run JOB` with the
 * defaults of --runs until-verdict (--min-effect 10%, --negligible 1 ms), two jobs
 * interleaved (tiny x4, phases extract,sync,walk,statwalk,read,copy,delete, max-runs 20)
 * in DIR (a tmpfs directory under /dev/shm by default; give a mounted ext4 image's
 * directory for ext4, named by --where). In the A/B sets job b's tree is scaled 4.8: 20%
 * more files and bytes, so every phase that works per file does 20% more real work (sync
 * on a tmpfs, one syncfs, does not). Per design: the rounds each set ran (median, range),
 * the sets that stopped before max-runs, A/A comparisons claimed different, A/B phases
 * (all but sync) in which B was shown slower, futile, negligible and undecided counts, and
 * each phase's measured B/A.
 *
 * The same with `fsbench cmd` (--cmd-designs N): N A/A sets of `sleep 1` against itself and
 * N A/B sets of `sleep 1` against `sleep 1.2` (20%), --runs until-verdict, max-runs 20, the
 * same defaults: a real job whose runs vary little even on a busy machine (what the load
 * adds is starting sh and sleep), so it shows what the stopping rule does where the noise
 * of one run against its pair is small (an sd of the paired log ratios near 0.05).
 *
 * Prints Markdown tables (bench/RESULTS-sequential.md holds the latest). Not part of
 * make check: a few seconds simulated, about 20 s per real trial.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "results/resjson.h"
#include "stats/compare.h"
#include "stats/negligible.h"
#include "stats/seqstop.h"
#include "stats/seqtest.h"
#include "stats/stats.h"

#define NMAX 30     /* most rounds (--max-runs' default) */
#define EFFECT 1.2  /* B/A of the effect sets */
#define MARGIN 0.05 /* the equivalence margin of the rule before futility */
#define MIN_EFFECT SEQ_MIN_EFFECT_DEFAULT /* --min-effect: futility rules out 10% */
#define CONF 0.95
/* sd of the log of a set's noise level: the median set's sd of paired log ratios is then
 * about 0.75 of their root mean square, as measured on the real trials (see the table) */
#define SPREAD 0.41

/* ------------------------------------------------------------------ noise models */

enum model { M_REAL, M_RUNAR };

struct noise {
    const char *name;
    enum model m;
    double lag;    /* M_REAL: each configuration's lag-1 autocorrelation */
    double spread; /* M_REAL: sd of the log of a set's noise level (0: every set alike) */
};

static const double cov = 0.20, share = 0.73;

/* One set's log values of A and B by round (before the effect). */
static void draw(gsl_rng *rng, const struct noise *nz, double *la, double *lb)
{
    double sigma = sqrt(log(1 + cov * cov));
    if (nz->m == M_REAL) {
        double phi = nz->lag / share, sl = sigma * sqrt(share);
        double se = sigma * sqrt(1 - share) * sqrt(3.0 / 5); /* t5 has variance 5/3 */
        /* a quiet or a busy machine: the set's level, its mean square kept at 1 */
        se *= exp(nz->spread * gsl_ran_gaussian(rng, 1) - nz->spread * nz->spread);
        double level = gsl_ran_gaussian(rng, sl);
        for (int r = 0; r < NMAX; r++) {
            if (r)
                level = phi * level + gsl_ran_gaussian(rng, sl * sqrt(1 - phi * phi));
            la[r] = level + se * gsl_ran_tdist(rng, 5);
            lb[r] = level + se * gsl_ran_tdist(rng, 5);
        }
        return;
    }
    double rho = 0.5, x = gsl_ran_gaussian(rng, sigma), e[2 * NMAX];
    for (int i = 0; i < 2 * NMAX; i++) {
        if (i)
            x = rho * x + gsl_ran_gaussian(rng, sigma * sqrt(1 - rho * rho));
        e[i] = x + 0.10 * i / (2 * NMAX - 1);
    }
    for (int r = 0; r < NMAX; r++) {
        int b_first = (int)gsl_rng_uniform_int(rng, 2);
        la[r] = e[2 * r + b_first];
        lb[r] = e[2 * r + 1 - b_first];
    }
}

/* ------------------------------------------------------------------ designs */

enum design {
    D_FIXED12, D_FIXED6, D_NAIVE, D_AUTO, D_AUTO_SEQ, D_SEQ_OLD, D_SEQ, D_VILLE, NDESIGNS
};
static const char *const design_name[NDESIGNS] = {
    "fixed 12 pairs, paired t (today)",
    "fixed 6 pairs, paired t",
    "paired t looked at after every round (naive)",
    "--runs auto (5% precision), then paired t",
    "--runs auto (5% precision), then the sequential interval (what compare does)",
    "until-verdict before futility: mixture SPRT, horizon 30, stops on equivalence within 5%",
    "--runs until-verdict: mixture SPRT, horizon 30, futility at 10% (one-sided CS)",
    "the same with Ville's 1/alpha (no horizon)",
};

struct outcome {
    int pairs;
    bool different; /* the interval excludes 1 */
    bool slower;    /* B shown slower than A (the effect found) */
    bool futile;    /* stopped on futility: no difference of MIN_EFFECT or more */
};

static void verdict_of(const struct stats_ratio *r, struct outcome *o)
{
    o->different = r->lo > 1 || r->hi < 1;
    o->slower = r->lo > 1;
}

static void run_design(enum design d, const double *a, const double *b, struct outcome *o)
{
    struct stats_ratio r;
    memset(o, 0, sizeof *o);
    if (d == D_FIXED12 || d == D_FIXED6) {
        o->pairs = d == D_FIXED12 ? 12 : 6;
        stats_paired_log(a, b, (size_t)o->pairs, CONF, &r);
        verdict_of(&r, o);
        return;
    }
    const struct seq_design dz = {SEQ_MIXTURE_VAR, d == D_VILLE ? 0 : NMAX};
    for (int n = 3; n <= NMAX; n++) {
        o->pairs = n;
        if (d == D_NAIVE) {
            stats_paired_log(a, b, (size_t)n, CONF, &r);
            verdict_of(&r, o);
            if (o->different)
                return;
        } else if (d == D_AUTO || d == D_AUTO_SEQ) {
            if (stats_precise_enough(a, b, (size_t)n, CONF, 0.05) || n == NMAX) {
                const struct seq_design h = {SEQ_MIXTURE_VAR, NMAX};
                if (d == D_AUTO)
                    stats_paired_log(a, b, (size_t)n, CONF, &r);
                else
                    seq_paired_log(a, b, (size_t)n, &h, CONF, &r);
                verdict_of(&r, o);
                return;
            }
        } else {
            seq_paired_log(a, b, (size_t)n, &dz, CONF, &r);
            verdict_of(&r, o);
            if (d == D_SEQ_OLD) {
                /* the rule as it was: the two-sided sequence within 5% either way */
                if (o->different || (r.lo > 1 / (1 + MARGIN) && r.hi < 1 + MARGIN))
                    return;
            } else if (seq_state_of(&r, MIN_EFFECT) != SEQ_UNDECIDED) {
                o->futile = !o->different;
                return;
            }
        }
    }
}

static int cmp_int(const void *x, const void *y)
{
    return *(const int *)x - *(const int *)y;
}

static double median_int(int *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_int);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* What a set of noise looks like, as the real trials are described too: each
 * configuration's lag-1 autocorrelation and CoV within the set, and the sd of the paired
 * log ratios (root mean square over sets, and the median set's share of it). */
struct noise_stats {
    double lag, cv, sdd_rms, sdd_median_share;
    int n;
    double sum_lag, sum_cv, sum_var;
    double sds[4096];
};

static void stats_add(struct noise_stats *ns, const double *a, const double *b, int rounds)
{
    double d[NMAX];
    for (int r = 0; r < rounds; r++)
        d[r] = log(b[r]) - log(a[r]);
    struct stats_summary sa, sd;
    stats_summarize(a, (size_t)rounds, &sa);
    stats_summarize(d, (size_t)rounds, &sd);
    ns->sum_lag += sa.r1;
    ns->sum_cv += sa.cv;
    ns->sum_var += sd.sd * sd.sd;
    if (ns->n < 4096)
        ns->sds[ns->n] = sd.sd;
    ns->n++;
}

static int cmp_dbl(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void stats_finish(struct noise_stats *ns)
{
    int k = ns->n < 4096 ? ns->n : 4096;
    ns->lag = ns->sum_lag / ns->n;
    ns->cv = ns->sum_cv / ns->n;
    ns->sdd_rms = sqrt(ns->sum_var / ns->n);
    qsort(ns->sds, (size_t)k, sizeof *ns->sds, cmp_dbl);
    double med = k % 2 ? ns->sds[k / 2] : (ns->sds[k / 2 - 1] + ns->sds[k / 2]) / 2;
    ns->sdd_median_share = med / ns->sdd_rms;
}

static void model_check(gsl_rng *rng, const struct noise *nz, struct noise_stats *ns)
{
    double la[NMAX], lb[NMAX], a[NMAX], b[NMAX];
    memset(ns, 0, sizeof *ns);
    for (int i = 0; i < 2000; i++) {
        draw(rng, nz, la, lb);
        for (int r = 0; r < NMAX; r++) {
            a[r] = exp(la[r]);
            b[r] = exp(lb[r]);
        }
        stats_add(ns, a, b, NMAX);
    }
    stats_finish(ns);
}

static void simulate(int sims, unsigned long seed)
{
    static const struct noise models[] = {
        {"real-like, lag-1 0.4", M_REAL, 0.4, SPREAD},
        {"real-like, lag-1 0.5", M_REAL, 0.5, SPREAD},
        {"real-like, lag-1 0.6", M_REAL, 0.6, SPREAD},
        {"real-like, lag-1 0.5, every set as noisy as the average", M_REAL, 0.5, 0},
        {"run-AR rho 0.5 + 10% drift", M_RUNAR, 0.5, 0},
    };
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int *pairs = malloc((size_t)sims * sizeof *pairs);
    if (!rng || !pairs) {
        fprintf(stderr, "sequential: out of memory\n");
        exit(1);
    }
    printf("## Simulated sets: %d A/A and %d with B 20%% slower per noise model, at most %d "
           "rounds\n\n",
           sims, sims, NMAX);
    printf("| noise | design | A/A claimed difference | 20%% found | median pairs (20%%) | "
           "median pairs (A/A) | futile with B 10%% slower (the margin; at most 5%% promised) "
           "|\n|---|---|---:|---:|---:|---:|---:|\n");
    for (size_t m = 0; m < sizeof models / sizeof *models; m++) {
        struct noise_stats ns;
        gsl_rng_set(rng, seed + 1000 * m);
        model_check(rng, &models[m], &ns);
        char label[256];
        snprintf(label, sizeof label,
                 "%s (in a set: lag-1 %.2f, CoV %.0f%%; sd of paired log ratios %.3f, the "
                 "median set's %.2f of it)",
                 models[m].name, ns.lag, ns.cv * 100, ns.sdd_rms, ns.sdd_median_share);
        for (int d = 0; d < NDESIGNS; d++) {
            int claims = 0, found = 0, futile10 = 0, *aa_pairs = malloc((size_t)sims * sizeof *aa_pairs);
            if (!aa_pairs)
                exit(1);
            /* the same sets for every design */
            gsl_rng_set(rng, seed + 1000 * m + 1);
            double la[NMAX], lb[NMAX], a[NMAX], b[NMAX];
            for (int i = 0; i < 3 * sims; i++) {
                bool aa = i < sims, margin = i >= 2 * sims;
                draw(rng, &models[m], la, lb);
                for (int r = 0; r < NMAX; r++) {
                    a[r] = exp(la[r]);
                    b[r] = exp(lb[r]) * (aa ? 1 : margin ? 1 + MIN_EFFECT : EFFECT);
                }
                struct outcome o;
                run_design((enum design)d, a, b, &o);
                if (aa) {
                    claims += o.different;
                    aa_pairs[i] = o.pairs;
                } else if (margin) {
                    futile10 += o.futile;
                } else {
                    found += o.slower;
                    pairs[i - sims] = o.pairs;
                }
            }
            char fut[32] = "-";
            if (d == D_SEQ || d == D_VILLE)
                snprintf(fut, sizeof fut, "%.1f%%", 100.0 * futile10 / sims);
            printf("| %s | %s | %.1f%% | %.1f%% | %.1f | %.1f | %s |\n", d == 0 ? label : "",
                   design_name[d], 100.0 * claims / sims, 100.0 * found / sims,
                   median_int(pairs, sims), median_int(aa_pairs, sims), fut);
            free(aa_pairs);
        }
    }
    printf("\n");
    free(pairs);
    gsl_rng_free(rng);
}

/* ------------------------------------------------------------------ whole sets */

/* The design simulated as a set: 6 judged phases (sync negligible), at most 20
 * rounds, the set stopping once every phase is decided; each phase's paired log ratios
 * normal with sd s (independent between phases), no effect (A/A) or B 20% slower (A/B).
 * What noise level the goal (A/B median <= 6 rounds, >= 80% found; A/A median <= 12,
 * <= 5% false claims) needs. */
#define SET_PHASES 6
#define SET_MAX 20
static void simulate_sets(int sims, unsigned long seed)
{
    static const double sds[] = {0.03, 0.05, 0.08, 0.10, 0.12, 0.15, 0.20, 0.30};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int *rounds = malloc((size_t)sims * sizeof *rounds);
    if (!rng || !rounds)
        exit(1);
    const struct seq_design dz = {SEQ_MIXTURE_VAR, SET_MAX};
    printf("## Simulated sets of the real design: %d phases judged, at most %d rounds, %d A/A "
           "and %d A/B sets per noise level\n\n",
           SET_PHASES, SET_MAX, sims, sims);
    printf("| sd of paired log ratios | A/A median rounds | A/A comparisons claimed | A/A "
           "phases futile at the stop | A/B median rounds | A/B found |\n"
           "|---:|---:|---:|---:|---:|---:|\n");
    for (size_t k = 0; k < sizeof sds / sizeof *sds; k++) {
        double med[2] = {0};
        int claimed = 0, futile = 0, found = 0;
        for (int ab = 0; ab < 2; ab++) {
            gsl_rng_set(rng, seed + 100 * k + (unsigned long)ab);
            for (int i = 0; i < sims; i++) {
                double d[SET_PHASES][SET_MAX];
                for (int p = 0; p < SET_PHASES; p++)
                    for (int r = 0; r < SET_MAX; r++)
                        d[p][r] = (ab ? log(EFFECT) : 0) + gsl_ran_gaussian(rng, sds[k]);
                int stop = SET_MAX;
                enum seq_state st[SET_PHASES];
                for (int n = SEQ_FIRST_LOOK; n <= SET_MAX; n++) {
                    bool all = true;
                    for (int p = 0; p < SET_PHASES; p++) {
                        struct stats_ratio r;
                        seq_test_logs(d[p], (size_t)n, &dz, CONF, &r);
                        st[p] = seq_state_of(&r, MIN_EFFECT);
                        if (st[p] == SEQ_DIFFERENT && ab)
                            st[p] = r.lo > 1 ? SEQ_DIFFERENT : SEQ_UNDECIDED;
                        all &= st[p] != SEQ_UNDECIDED;
                    }
                    if (all) {
                        stop = n;
                        break;
                    }
                }
                rounds[i] = stop;
                for (int p = 0; p < SET_PHASES; p++) {
                    if (ab)
                        found += st[p] == SEQ_DIFFERENT;
                    else {
                        claimed += st[p] == SEQ_DIFFERENT;
                        futile += st[p] == SEQ_FUTILE;
                    }
                }
            }
            med[ab] = median_int(rounds, sims);
        }
        double tot = (double)sims * SET_PHASES;
        printf("| %.2f | %.1f | %.1f%% | %.1f%% | %.1f | %.1f%% |\n", sds[k], med[0],
               100 * claimed / tot, 100 * futile / tot, med[1], 100 * found / tot);
    }
    printf("\n");
    free(rounds);
    gsl_rng_free(rng);
}

/* ------------------------------------------------------------------ real trials */

/* The A/A job: dir goes into [global], before the two jobs. */
static const char job_head[] = "# A/A: two identical jobs interleaved in rounds\n"
                               "[global]\n"
                               "interleave = jobs\n"
                               "tree = tiny\n"
                               "scale = 4\n"
                               "runs = until-verdict\n";
static const char job_tail[] = "[a]\n[b]\n";

/* Runs argv (its standard output to /dev/null); 0 when it exited 0. */
static int spawn(char *const argv[])
{
    fflush(stdout); /* the child must not write our buffered tables again */
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        FILE *null = freopen("/dev/null", "w", stdout);
        (void)null;
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* The set's runs up to (not including) round k: the runs are in round order. */
static size_t runs_before(const struct run_set *rs, unsigned k)
{
    size_t n = 0;
    while (n < rs->nruns && rs->runs[n].round < k)
        n++;
    return n;
}

/* Comparisons of the set as the stored rule sees them (sequential), or fixed-n. */
static int build(struct run_set *rs, bool sequential, struct cmp_result *r)
{
    struct stop_rule keep = rs->stop;
    if (!sequential)
        memset(&rs->stop, 0, sizeof rs->stop);
    struct cmp_options opt = {CMP_WALL, CONF, MARGIN};
    struct cmp_input in = {"trial", rs};
    int rc = cmp_build(&in, 1, &opt, r);
    rs->stop = keep;
    return rc;
}

#define MAXPH 16

/* The noise of a real trial, per phase, as model_check() describes a model: wall times of
 * a and b by round (A/A: the paired ratios are pure noise). */
static void noise_of_trial(const struct run_set *rs, struct noise_stats *ns)
{
    double a[MAXPH][NMAX], b[MAXPH][NMAX];
    int na[MAXPH] = {0}, nb[MAXPH] = {0};
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *run = &rs->runs[i];
        bool is_a = !strcmp(run->config, "a");
        for (size_t p = 0; p < run->nphases && p < MAXPH; p++) {
            int *k = is_a ? &na[p] : &nb[p];
            if (*k < NMAX && run->phases[p].status == PHASE_OK && run->phases[p].wall_s > 0)
                (is_a ? a : b)[p][(*k)++] = run->phases[p].wall_s;
        }
    }
    for (int p = 0; p < MAXPH; p++) {
        int k = na[p] < nb[p] ? na[p] : nb[p];
        if (k >= 10)
            stats_add(&ns[p], a[p], b[p], k);
    }
}

struct phase_tally {
    char name[RES_NAME_MAX + 16];
    int trials, aa_seq, aa_fixed, found, found_fixed12;
    int pairs[256];
    int npairs;
};

/* Waits (at most 20 minutes) until the machine's 1-minute load average is at most
 * max_load; 0: does not wait. */
static void wait_for_quiet(double max_load)
{
    double l[1];
    for (int i = 0; max_load > 0 && i < 240; i++) {
        if (getloadavg(l, 1) < 1 || l[0] <= max_load)
            return;
        if (i == 0)
            fprintf(stderr, "sequential: load %.2f, waiting for at most %.2f\n", l[0], max_load);
        sleep(5);
    }
}

static void real_trials(int n, const char *fsbench, const char *dir, const char *keep,
                        double max_load, const char *from)
{
    /* on a tmpfs: the job file, the JSON (unless kept elsewhere) and the jobs' directory */
    char tmp[] = "/dev/shm/fsbench-seq.XXXXXX", work[4200], job[4300];
    if (!mkdtemp(tmp)) {
        perror("sequential: mkdtemp /dev/shm");
        exit(1);
    }
    const char *top = keep ? keep : tmp;
    if (!dir) {
        snprintf(work, sizeof work, "%s/run", tmp);
        if (mkdir(work, 0700) < 0) {
            perror("sequential: mkdir");
            exit(1);
        }
        dir = work;
    }
    snprintf(job, sizeof job, "%s/aa.ini", top);
    FILE *f = fopen(job, "w");
    if (!f || fprintf(f, "%sdir = %s\n%s", job_head, dir, job_tail) < 0 || fclose(f)) {
        perror("sequential: job file");
        exit(1);
    }
    struct phase_tally t[MAXPH];
    memset(t, 0, sizeof t);
    static struct noise_stats ns[MAXPH];
    memset(ns, 0, sizeof ns);
    size_t nph = 0;
    int sets_aa = 0, set_pairs[256], nsets = 0, sets_all = 0, rounds_sum = 0;
    double load_sum = 0;
    for (int i = 0; i < n; i++) {
        char json[4400];
        snprintf(json, sizeof json, "%s/trial%02d.json", top, i);
        double la[1] = {0}, lb[1] = {0};
        if (from) {
            snprintf(json, sizeof json, "%s/trial%02d.json", from, i);
        } else {
            wait_for_quiet(max_load);
            getloadavg(la, 1);
            char *argv[] = {(char *)fsbench, "run", job, "--no-save", "-q", "--json", json, NULL};
            fprintf(stderr, "sequential: real trial %d of %d\n", i + 1, n);
            if (spawn(argv) < 0) {
                fprintf(stderr, "sequential: trial %d failed\n", i + 1);
                exit(1);
            }
            getloadavg(lb, 1);
        }
        load_sum += (la[0] + lb[0]) / 2;
        struct run_set rs;
        memset(&rs, 0, sizeof rs);
        if (resjson_read_file(json, &rs) < 0)
            exit(1);
        noise_of_trial(&rs, ns);
        struct seqstop_status st;
        seqstop_check(&rs, &st);
        sets_aa += st.different > 0;
        rounds_sum += (int)st.rounds;
        /* A/A, sequential at the stop and fixed t on the first 12 rounds */
        struct cmp_result seq, fix;
        size_t all = rs.nruns;
        rs.nruns = runs_before(&rs, 12);
        int frc = build(&rs, false, &fix);
        rs.nruns = all;
        if (frc < 0 || build(&rs, true, &seq) < 0)
            exit(1);
        nph = seq.nphases < MAXPH ? seq.nphases : MAXPH;
        for (size_t p = 0; p < nph; p++) {
            snprintf(t[p].name, sizeof t[p].name, "%s", seq.phases[p].name);
            t[p].trials++;
            t[p].aa_seq += seq.phases[p].vs[1].status == CMP_ST_OK &&
                           seq.phases[p].vs[1].state == SEQ_DIFFERENT;
            const struct stats_ratio *fr = &fix.phases[p].vs[1].ratio;
            t[p].aa_fixed += fix.phases[p].vs[1].status == CMP_ST_OK && (fr->lo > 1 || fr->hi < 1);
        }
        cmp_result_free(&seq);
        cmp_result_free(&fix);
        /* power: B x 1.2, replayed round by round */
        for (size_t r = 0; r < rs.nruns; r++)
            if (!strcmp(rs.runs[r].config, "b"))
                for (size_t p = 0; p < rs.runs[r].nphases; p++)
                    rs.runs[r].phases[p].wall_s *= EFFECT;
        /* the fixed design on the same replayed runs: the paired t at 12 rounds */
        rs.nruns = runs_before(&rs, 12);
        if (build(&rs, false, &fix) < 0)
            exit(1);
        rs.nruns = all;
        for (size_t p = 0; p < nph && p < fix.nphases; p++)
            t[p].found_fixed12 +=
                fix.phases[p].vs[1].status == CMP_ST_OK && fix.phases[p].vs[1].ratio.lo > 1;
        cmp_result_free(&fix);
        bool decided[MAXPH] = {false};
        int set_stop = 0;
        unsigned rounds = rs.nruns ? rs.runs[rs.nruns - 1].round + 1 : 0;
        for (unsigned k = 3; k <= rounds && !set_stop; k++) {
            rs.nruns = runs_before(&rs, k);
            struct cmp_result c;
            if (build(&rs, true, &c) < 0)
                exit(1);
            bool every = true;
            for (size_t p = 0; p < nph && p < c.nphases; p++) {
                const struct cmp_vs *vs = &c.phases[p].vs[1];
                bool dec = vs->status == CMP_ST_OK && vs->state != SEQ_UNDECIDED;
                if (dec && !decided[p]) {
                    decided[p] = true;
                    t[p].found += vs->state == SEQ_DIFFERENT && vs->ratio.lo > 1;
                    if (t[p].npairs < 256)
                        t[p].pairs[t[p].npairs++] = (int)k;
                }
                every &= dec || vs->status == CMP_ST_UNAVAILABLE;
            }
            if (every)
                set_stop = (int)k;
            rs.nruns = all;
            cmp_result_free(&c);
        }
        for (size_t p = 0; p < nph; p++)
            if (!decided[p] && t[p].npairs < 256)
                t[p].pairs[t[p].npairs++] = (int)rounds; /* never: all it had */
        sets_all += set_stop > 0;
        if (nsets < 256)
            set_pairs[nsets++] = set_stop ? set_stop : (int)rounds;
        rs.nruns = all;
        run_set_free(&rs);
    }
    printf("## Real A/A trials: %d sets of two identical jobs interleaved (tiny x4, tmpfs), "
           "--runs until-verdict\n\n",
           n);
    if (from)
        printf("Trials read back from %s.\n\n", from);
    else
        printf("The machine's 1-minute load average during the trials: %.2f on average (2 "
               "CPUs; other work ran beside them%s).\n\n",
               load_sum / n,
               max_load > 0 ? ", each trial waited for a load of at most the given "
                              "--max-load"
                            : "");
    printf("Rounds per set: %.1f on average (the sets stop at --max-runs 30 unless every "
           "phase is shown different or within 5%%). Sets with any phase claimed different: %d "
           "of %d. With B's times x 1.2 replayed round by round: every phase decided in %d of "
           "%d sets, after a median of %.1f rounds (the sets' length when not).\n\n",
           (double)rounds_sum / n, sets_aa, n, sets_all, n, median_int(set_pairs, nsets));
    printf("| phase | lag-1, CoV in a set | sd of paired log ratios (the median set's share) "
           "| A/A claimed, sequential at the stop | A/A claimed, fixed t on the first 12 "
           "rounds | 20%% found, sequential (replayed) | median pairs to the verdict | 20%% "
           "found, fixed 12 pairs |\n"
           "|---|---|---|---:|---:|---:|---:|---:|\n");
    int tot = 0, seqc = 0, fixc = 0, fnd = 0, fnd12 = 0;
    for (size_t p = 0; p < nph; p++) {
        char noise[64] = "-", sdd[64] = "-";
        if (ns[p].n) {
            stats_finish(&ns[p]);
            snprintf(noise, sizeof noise, "%.2f, %.0f%%", ns[p].lag, ns[p].cv * 100);
            snprintf(sdd, sizeof sdd, "%.3f (%.2f)", ns[p].sdd_rms, ns[p].sdd_median_share);
        }
        printf("| %s | %s | %s | %d/%d | %d/%d | %d/%d | %.1f | %d/%d |\n", t[p].name, noise, sdd,
               t[p].aa_seq, t[p].trials, t[p].aa_fixed, t[p].trials, t[p].found, t[p].trials,
               median_int(t[p].pairs, t[p].npairs), t[p].found_fixed12, t[p].trials);
        fnd12 += t[p].found_fixed12;
        tot += t[p].trials;
        seqc += t[p].aa_seq;
        fixc += t[p].aa_fixed;
        fnd += t[p].found;
    }
    printf("| all | | | %d/%d (%.1f%%) | %d/%d (%.1f%%) | %d/%d (%.1f%%) | | %d/%d (%.1f%%) |\n\n",
           seqc, tot, 100.0 * seqc / tot, fixc, tot, 100.0 * fixc / tot, fnd, tot,
           100.0 * fnd / tot, fnd12, tot, 100.0 * fnd12 / tot);
    {
        char cmd[4400];
        snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", tmp);
        if (system(cmd) != 0)
            fprintf(stderr, "sequential: could not remove %s\n", tmp);
    }
}

/* ------------------------------------------------------------------ real A/A and A/B job files */

/* The job files of the real designs (the issue's): two jobs interleaved in rounds, tiny x4,
 * seven phases, at most 20 rounds. A/B: b's tree is scaled 4.8 (20% more files and bytes),
 * so every phase that works per file or per byte does 20% more real work on the file
 * system: the effect is the file system's own time for that work, not a delay added to
 * it; sync (one syncfs: on tmpfs nothing to write) keeps its cost. */
#define REAL_MAX_RUNS 20
static const char real_head[] = "[global]\n"
                                "interleave = jobs\n"
                                "tree = tiny\n"
                                "scale = 4\n"
                                "runs = until-verdict\n"
                                "max-runs = 20\n"
                                "phases = extract,sync,walk,statwalk,read,copy,delete\n";

struct design_tally {
    int sets, stopped_early, rounds[256];
    int comparisons, claimed, found_of, found, futile, negligible, undecided;
    double log_sum[MAXPH];
    int log_n[MAXPH];
    char phase[MAXPH][RES_NAME_MAX + 16];
    size_t nph;
};

static void write_job(const char *path, const char *dir, bool ab)
{
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%sdir = %s\n[a]\n[b]\n%s", real_head, dir, ab ? "scale = 4.8\n" : "") < 0 ||
        fclose(f)) {
        perror("sequential: job file");
        exit(1);
    }
}

/* One finished set's verdicts at its stop, as the run decided them. */
static void tally_set(struct run_set *rs, bool ab, struct design_tally *t)
{
    struct seqstop_status st;
    if (seqstop_check(rs, &st) < 0)
        exit(1);
    if (t->sets < 256)
        t->rounds[t->sets] = (int)st.rounds;
    t->sets++;
    t->stopped_early += st.all && st.rounds < REAL_MAX_RUNS;
    t->negligible += (int)st.negligible;
    t->undecided += (int)st.undecided;
    struct cmp_result r;
    struct cmp_options opt = {CMP_WALL, rs->stop.confidence, rs->stop.min_effect};
    struct cmp_input in = {"trial", rs};
    if (cmp_build(&in, 1, &opt, &r) < 0)
        exit(1);
    t->nph = r.nphases < MAXPH ? r.nphases : MAXPH;
    for (size_t p = 0; p < t->nph; p++) {
        const struct cmp_vs *vs = &r.phases[p].vs[1];
        snprintf(t->phase[p], sizeof t->phase[p], "%s", r.phases[p].name);
        if (vs->status != CMP_ST_OK)
            continue;
        t->log_sum[p] += vs->ratio.mean_log;
        t->log_n[p]++;
        bool negl = stats_negligible(r.phases[p].s[0].sum.median, r.phases[p].s[1].sum.median,
                                     rs->stop.negligible_s);
        if (negl)
            continue;
        t->comparisons++;
        t->claimed += vs->state == SEQ_DIFFERENT;
        t->futile += vs->state == SEQ_FUTILE;
        if (ab && strcmp(r.phases[p].name, "sync")) {
            t->found_of++;
            t->found += vs->state == SEQ_DIFFERENT && vs->ratio.lo > 1;
        }
    }
    cmp_result_free(&r);
}

static void real_designs(int n, const char *fsbench, const char *dir, const char *keep,
                         const char *where, const char *from, bool cmd)
{
    char tmp[] = "/dev/shm/fsbench-seqd.XXXXXX", work[4200], job[2][4300];
    if (!mkdtemp(tmp)) {
        perror("sequential: mkdtemp /dev/shm");
        exit(1);
    }
    const char *top = keep ? keep : tmp;
    if (!dir) {
        snprintf(work, sizeof work, "%s/run", tmp);
        if (mkdir(work, 0700) < 0) {
            perror("sequential: mkdir");
            exit(1);
        }
        dir = work;
    }
    for (int k = 0; k < 2; k++) {
        snprintf(job[k], sizeof job[k], "%s/%s.ini", top, k ? "ab" : "aa");
        write_job(job[k], dir, k == 1);
    }
    static struct design_tally t[2];
    memset(t, 0, sizeof t);
    double load_sum = 0;
    /* A/A and A/B sets alternate, so that both meet the same load */
    for (int i = 0; i < 2 * n; i++) {
        int k = i % 2;
        char json[4400];
        snprintf(json, sizeof json, "%s/%s%02d.json", from ? from : top, k ? "ab" : "aa", i / 2);
        double la[1] = {0}, lb[1] = {0};
        if (!from) {
            getloadavg(la, 1);
            char *argv_run[] = {(char *)fsbench, "run", job[k], "--no-save", "-q", "--json", json,
                                NULL};
            /* A/A: the same command twice (told apart by a blank); A/B: B sleeps 20% longer */
            char *argv_cmd[] = {(char *)fsbench, "cmd", "--runs", "until-verdict", "--max-runs",
                                "20", "--no-save", "--json", json, "--cmd", "sleep 1", "--cmd",
                                k ? "sleep 1.2" : "sleep  1", NULL};
            char **argv = cmd ? argv_cmd : argv_run;
            fprintf(stderr, "sequential: %s set %d of %d on %s\n", k ? "A/B" : "A/A", i / 2 + 1,
                    n, where);
            if (spawn(argv) < 0) {
                fprintf(stderr, "sequential: set %d failed\n", i + 1);
                exit(1);
            }
            getloadavg(lb, 1);
        }
        load_sum += (la[0] + lb[0]) / 2;
        struct run_set rs;
        memset(&rs, 0, sizeof rs);
        if (resjson_read_file(json, &rs) < 0)
            exit(1);
        tally_set(&rs, k == 1, &t[k]);
        run_set_free(&rs);
    }
    if (cmd) {
        printf("## fsbench cmd: %d A/A and %d A/B sets, --runs until-verdict, max-runs %d\n\n",
               n, n, REAL_MAX_RUNS);
        printf("A/A: `sleep 1` against `sleep  1`; A/B: `sleep 1` against `sleep 1.2` (20%%). "
               "Defaults: --min-effect 10%%, --negligible 1 ms. ");
    } else {
        printf("## Real job files on %s: %d A/A and %d A/B sets, --runs until-verdict, max-runs "
               "%d\n\n",
               where, n, n, REAL_MAX_RUNS);
        printf("tiny x4, `interleave = jobs`, phases extract,sync,walk,statwalk,read,copy,delete; "
               "A/B: job b's tree scaled 4.8 (20%% more files and bytes). Defaults: --min-effect "
               "10%%, --negligible 1 ms. ");
    }
    if (from)
        printf("Sets read back from %s.\n\n", from);
    else
        printf("1-minute load average during the sets: %.2f on average (2 CPUs, shared with "
               "other work).\n\n",
               load_sum / (2 * n));
    printf("| design | sets | median rounds (range) | sets stopped before max-runs | A/A: "
           "comparisons claimed different | A/B: found (B slower), phases but sync | futile "
           "| negligible | undecided at the end |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < 2; k++) {
        struct design_tally *d = &t[k];
        int m = d->sets < 256 ? d->sets : 256, lo = 1000, hi = 0;
        for (int i = 0; i < m; i++) {
            lo = d->rounds[i] < lo ? d->rounds[i] : lo;
            hi = d->rounds[i] > hi ? d->rounds[i] : hi;
        }
        double med = median_int(d->rounds, m);
        char claimed[64] = "-", found[64] = "-";
        if (k == 0)
            snprintf(claimed, sizeof claimed, "%d/%d (%.1f%%)", d->claimed, d->comparisons,
                     d->comparisons ? 100.0 * d->claimed / d->comparisons : 0);
        else
            snprintf(found, sizeof found, "%d/%d (%.0f%%)", d->found, d->found_of,
                     d->found_of ? 100.0 * d->found / d->found_of : 0);
        printf("| %s | %d | %.1f (%d-%d) | %d | %s | %s | %d | %d | %d |\n", k ? "A/B (20%)" : "A/A",
               d->sets, med, lo, hi, d->stopped_early, claimed, found, d->futile, d->negligible,
               d->undecided);
    }
    printf("\nThe effect as measured (geometric mean over the sets of each phase's B/A at the "
           "stop): ");
    for (int k = 0; k < 2; k++) {
        printf("%s", k ? "; A/B " : "A/A ");
        for (size_t p = 0; p < t[k].nph; p++)
            printf("%s%s %.3f", p ? ", " : "", t[k].phase[p],
                   t[k].log_n[p] ? exp(t[k].log_sum[p] / t[k].log_n[p]) : NAN);
    }
    printf(".\n\n");
    char rm[4400];
    snprintf(rm, sizeof rm, "rm -rf -- '%s'", tmp);
    if (system(rm) != 0)
        fprintf(stderr, "sequential: could not remove %s\n", tmp);
}

int main(int argc, char **argv)
{
    int sims = 2000, real = 0;
    unsigned long seed = 24;
    const char *fsbench = NULL, *dir = NULL, *keep = NULL, *from = NULL;
    double max_load = 0;
    int designs = 0;
    bool cmd_designs = false;
    const char *where = "tmpfs";
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--sims") && v)
            sims = atoi(v), i++;
        else if (!strcmp(argv[i], "--seed") && v)
            seed = strtoul(v, NULL, 10), i++;
        else if (!strcmp(argv[i], "--real") && v)
            real = atoi(v), i++;
        else if (!strcmp(argv[i], "--fsbench") && v)
            fsbench = v, i++;
        else if (!strcmp(argv[i], "--dir") && v)
            dir = v, i++;
        else if (!strcmp(argv[i], "--keep") && v)
            keep = v, i++;
        else if (!strcmp(argv[i], "--from") && v)
            from = v, i++;
        else if (!strcmp(argv[i], "--max-load") && v)
            max_load = atof(v), i++;
        else if (!strcmp(argv[i], "--designs") && v)
            designs = atoi(v), i++;
        else if (!strcmp(argv[i], "--cmd-designs") && v)
            designs = atoi(v), cmd_designs = true, i++;
        else if (!strcmp(argv[i], "--where") && v)
            where = v, i++;
        else if (!strcmp(argv[i], "--no-sims"))
            sims = 0;
        else {
            fprintf(stderr, "usage: sequential [--sims N | --no-sims] [--seed S] [--real N "
                            "--fsbench PATH [--dir DIR] [--keep DIR] [--max-load L]] [--real N "
                            "--from DIR] [--designs N --fsbench PATH [--dir DIR] [--where "
                            "NAME]] [--cmd-designs N --fsbench PATH]\n");
            return 2;
        }
    }
    if ((sims && sims < 200) || ((real > 0 || designs > 0) && !fsbench && !from) ||
        (real > 0 && designs > 0 && from) ||
        real > 250 || designs > 128) {
        fprintf(stderr, "sequential: --sims at least 200; --real (at most 250) and --designs "
                        "(at most 128) need --fsbench PATH\n");
        return 2;
    }
    if (sims) {
        simulate(sims, seed);
        simulate_sets(sims / 4, seed);
    }
    if (designs > 0)
        real_designs(designs, fsbench, dir, keep, where, from, cmd_designs);
    if (real > 0)
        real_trials(real, fsbench, dir, keep, max_load, from);
    return 0;
}
