/* report_run.c — the report after a run set is made (see report_run.h): the table (or the
 * seeds' figures, or nothing with compilebench's own format), the failures, compilebench's
 * summary, how --runs auto and until-verdict ended, a bisection candidate's class, the
 * verdicts in words, the aging series, a kept file system's line, and the set's JSON;
 * handed to the run session (run/run_session.h) as its callbacks.
 */
#include "report/report_run.h"

#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "os/term.h"
#include "phase/phase.h"
#include "phase/workload.h"
#include "report/report_age_series.h"
#include "results/resjson.h"
#include "results/store.h"
#include "run/run_bisect.h"
#include "stats/compare.h"
#include "stats/seqstop.h"

unsigned report_term_width(FILE *f)
{
    int w = os_term_width(fileno(f));
    return w > 0 ? (unsigned)w : 80;
}

/* After a set made with --runs until-verdict: how it ended, which comparisons are
 * undecided, and every verdict with its sequential interval and p-value. rc: the run's. */
static void report_until_verdict(FILE *rep, const struct run_set *rs, int rc)
{
    struct seqstop_status st;
    if (seqstop_check(rs, &st) < 0)
        return;
    fputc('\n', rep);
    if (st.all)
        fprintf(rep,
                "until-verdict: every phase has a verdict after %u round%s: %zu different, %zu "
                "futile (no difference of %g%% or more)%s\n",
                st.rounds, st.rounds == 1 ? "" : "s", st.different, st.futile,
                rs->stop.min_effect * 100, st.negligible ? ", the rest negligible" : "");
    else if (rc == 0)
        fprintf(rep,
                "until-verdict: stopped at --max-runs (%u rounds) with %zu of %zu comparisons "
                "undecided: %s\n",
                st.rounds, st.undecided, st.decidable, st.undecided_names);
    else
        fprintf(rep,
                "until-verdict: the set stopped in round %u, before every verdict; "
                "undecided: %s\n",
                st.rounds, st.undecided_names);
    if (st.negligible)
        fprintf(rep, "until-verdict: negligible (median under %g ms on both sides, --negligible): %s\n",
                rs->stop.negligible_s * 1000, st.negligible_names);
    if (st.undecidable)
        fprintf(rep,
                "until-verdict: no verdict possible for %s (skipped, failed or not "
                "measured in every run, or a value of 0)\n",
                st.undecidable_names);
    int m = cmp_metric_find(rs->stop.metric);
    struct cmp_options opt = {m < 0 ? CMP_WALL : (enum cmp_metric)m, rs->stop.confidence,
                              rs->stop.min_effect};
    struct cmp_input in = {rs->label, rs};
    struct cmp_result r;
    char why[256];
    err_capture_begin(why, sizeof why); /* too few runs to compare: nothing to add */
    int built = cmp_build(&in, 1, &opt, &r);
    err_capture_end();
    if (built == 0) {
        cmp_report_method(rep, &r);
        cmp_report_verdicts(rep, &r);
    }
    cmp_result_free(&r);
}

/* A set with several configurations: compare's verdicts in words, as `fsbench compare LABEL`
 * prints them (nothing when there is one configuration, or too few runs to compare). */
static void report_plain(FILE *rep, const struct run_set *rs)
{
    struct cmp_options opt = {CMP_WALL, 0.95, 0.05};
    cmp_options_for_set(&opt, rs, false, false);
    struct cmp_input in = {rs->label, rs};
    struct cmp_result r;
    char why[256];
    err_capture_begin(why, sizeof why); /* one configuration, or none measured: nothing */
    int built = cmp_build(&in, 1, &opt, &r);
    err_capture_end();
    if (built == 0) {
        fputc('\n', rep);
        cmp_report_plain(rep, &r);
    }
    cmp_result_free(&r);
}

/* --keep-image: the one line saying where the last run's file system stays. */
static const char *kept_text(const struct run_set *rs)
{
    static char line[4096 + 256];
    const char *cfg = rs->nruns ? rs->runs[rs->nruns - 1].config : "";
    char of[RES_NAME_MAX + 8] = "";
    if (cfg[0])
        snprintf(of, sizeof of, " (%s)", cfg);
    if (!strcmp(rs->kept_kind, "tree"))
        snprintf(line, sizeof line, "kept: the last run's tree stays at %s", rs->kept_path);
    else if (!strcmp(rs->kept_kind, "device"))
        snprintf(line, sizeof line, "kept: the last run's file system%s stays on %s, unmounted",
                 of, rs->kept_path);
    else
        snprintf(line, sizeof line, "kept: the last run's file system%s stays in the image %s, "
                 "unmounted, no loop device attached", of, rs->kept_path);
    return line;
}

/* The runs auto line (runs auto: how precise the set got). */
static void report_runs_auto(FILE *rep, const struct runner_opts *ro, const struct runner_auto *ra)
{
    if (ra->precise)
        fprintf(rep,
                "runs auto: %u rounds gave every phase a 95%% CI within %.1f%%; the last to "
                "get there: %s (%.1f%%)\n",
                ra->rounds, ro->precision * 100, ra->limiting, ra->half_width * 100);
    else
        fprintf(rep,
                "runs auto: stopped at --max-runs (%u rounds) before %s reached %.1f%% "
                "(it is at %.1f%%): the machine is noisy, or the phase too short\n",
                ra->rounds, ra->limiting, ro->precision * 100, ra->half_width * 100);
    if (ro->nconfigs > 1)
        fprintf(rep, "runs auto: precision only, no verdict (it stopped on the intervals' "
                     "width, looking after every round); compare judges this set by the "
                     "sequential method, which allows for that: --runs until-verdict runs "
                     "until those verdicts are known\n");
}

/* Everything printed about the set after its runs, on rep (NULL: nothing), and its JSON.
 * With bisect (or NULL), a bisection candidate's classification too. rc: the run's;
 * returns it, or -1 when a part failed. */
static int report_set(FILE *rep, const struct runner_opts *ro, const struct report_run_opts *out,
                      struct run_set *rs, const struct runner_auto *ra, int rc, bool cb_ran,
                      struct run_bisect *bisect)
{
    int run_rc = rc;
    if (rs->nruns > 0 && rep && !out->compilebench) {
        struct report_layout lo = {.width = report_term_width(rep), .wide = out->wide};
        report_run_set_fit(rep, rs, out->format, &lo);
    }
    if (rep && rs->nruns > 0 && out->format == REPORT_TABLE)
        report_failures(rep, rs); /* which configuration failed, in which round and phase */
    struct cb_summary cb;
    char cbtext[4096];
    if (rep && cb_ran && !out->compilebench && compilebench_last(&cb) == 0 &&
        compilebench_format(&cb, cbtext, sizeof cbtext) >= 0)
        fprintf(rep, "\ncompilebench's summary of the last run:\n%s", cbtext);
    if (rep && rc >= 0 && ro->runs_auto && out->format == REPORT_TABLE && !out->compilebench)
        report_runs_auto(rep, ro, ra);
    if (rep && rs->nruns > 0 && !strcmp(rs->stop.rule, "until-verdict") &&
        out->format == REPORT_TABLE)
        report_until_verdict(rep, rs, rc);
    if (bisect && run_bisect_end(bisect, rep ? rep : stderr, rs, run_rc) < 0)
        rc = -1;
    if (rep && rs->nruns > 0 && (out->format == REPORT_TABLE || out->format == REPORT_SEEDS) &&
        !out->compilebench)
        report_plain(rep, rs);
    if (rep && rs->nruns > 0 && out->format == REPORT_TABLE && !out->compilebench &&
        report_age_series(rep, rs) < 0)
        rc = -1;
    if (rep && rs->kept_kind[0])
        fprintf(rep, "%s\n", kept_text(rs));
    if (out->json && rs->nruns > 0 && resjson_write_file(rs, out->json) < 0)
        rc = -1;
    return rc;
}

static int runs_done(void *arg, struct runner_opts *ro, struct run_set *rs,
                     const struct runner_auto *ra, int rc, struct run_bisect *bisect)
{
    struct report_run *c = arg;
    return report_set(c->rep, ro, &c->out, rs, ra, rc, c->cb_ran, bisect);
}

static void saved(void *arg, const struct run_set *rs, unsigned n, bool partial)
{
    struct report_run *c = arg;
    if (c->rep && c->out.format == REPORT_TABLE)
        fprintf(c->out.compilebench ? stderr : c->rep, "saved as '%s' (%u run%s%s)\n",
                rs->label, n, n == 1 ? "" : "s",
                partial ? ", and the phases of the one interrupted" : "");
}

void report_run_hooks(struct report_run *c, const struct report_run_opts *out,
                      const struct runner_opts *ro, struct run_session_report *rep)
{
    /* with --json - the JSON alone goes to standard output: the table to stderr (or, with
     * --quiet, nowhere), so `fsbench run --json - | jq` works */
    bool json_stdout = out->json && !strcmp(out->json, "-");
    *c = (struct report_run){*out, json_stdout ? (out->quiet ? NULL : stderr) : stdout, false};
    for (size_t i = 0; i < ro->nphases; i++)
        c->cb_ran |= !strncmp(ro->phases[i]->name, "cb_", 3);
    *rep = (struct run_session_report){runs_done, saved, c, NULL, NULL};
    if (out->compilebench && c->cb_ran)
        rep->cb_out = c->rep;
    if (ro->nconfigs && ro->configs[0].age_step && out->format == REPORT_TABLE)
        rep->steps_out = c->rep;
}
