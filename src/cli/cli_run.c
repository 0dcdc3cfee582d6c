/* cli_run.c — the shared tail of `fsbench run` and `fsbench cmd` (see cli_run.h). */
#include "cli/cli_run.h"
#include "cli/cli_age_report.h"
#include "run/age_steps.h"
#include "run/run_resume.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "base/outcheck.h"
#include "base/sig.h"
#include "base/text.h"
#include "run/run_store.h"
#include "os/term.h"
#include "phase/phase.h"
#include "results/resjson.h"
#include "results/spool.h"
#include "results/store.h"
#include "stats/compare.h"
#include "stats/seqstop.h"
#include "target/target.h"
#include "phase/workload.h"

struct save_state {
    struct store *store;
    const char *db;         /* its path, for the spool */
    int64_t set_id;
    const struct runner_opts *ro;
    const struct cli_output *out;
    unsigned saved;         /* runs of this set in the store, the interrupted one apart */
    bool partial;           /* the phases of a run a signal stopped are in the store too */
    unsigned waiting;       /* runs in the spool (the store was locked) */
    FILE *cb_out;           /* --format compilebench: where each run's block goes */
    FILE *steps_out;        /* --age-steps: where each run's step line goes */
};

/* Between runs, runs that wait in the spool get a moment to join the store, not the full
 * wait (the next run should not wait a minute for a lock that is still held). */
#define SPOOL_RETRY_MS 1000

static int on_set_ready(void *arg, struct run_set *rs)
{
    struct save_state *s = arg;
    /* Record the declared order of configurations: compare's baseline is the first. */
    size_t used = 0;
    for (size_t i = 0; i < s->ro->nconfigs; i++) {
        int n = snprintf(rs->target.configs + used, sizeof rs->target.configs - used, "%s%s",
                         i ? "\n" : "", s->ro->configs[i].name);
        if (n < 0 || (size_t)n >= sizeof rs->target.configs - used)
            break;
        used += (size_t)n;
    }
    if (s->out->resume) {
        /* the stored set's creation time: runs that wait in the spool find their set by it */
        rs->created = s->out->resume->created;
        if (run_resume_ready(s->store, s->out->resume_id, s->out->resume, rs) < 0)
            return -1;
    }
    if (!s->store || s->out->resume)
        return 0;
    s->set_id = store_begin_set(s->store, rs);
    return s->set_id < 0 ? -1 : 0;
}

/* Empties the spool into the store, waiting at most wait_ms for the lock. */
static void retry_spool(struct save_state *s, unsigned wait_ms)
{
    unsigned added = 0, left = 0;
    store_set_lock_wait(s->store, wait_ms);
    spool_flush(s->store, s->db, &added, &left);
    store_set_lock_wait(s->store, store_lock_wait_ms());
    s->saved += added;
    s->waiting = left;
}

static int on_run_done(void *arg, const struct run_set *rs, const struct run_result *run)
{
    struct save_state *s = arg;
    struct cb_summary cb;
    char cbtext[4096];
    if (s->cb_out && compilebench_last(&cb) == 0 &&
        compilebench_format_original(&cb, cbtext, sizeof cbtext) >= 0) {
        fputs(cbtext, s->cb_out);
        fflush(s->cb_out);
    }
    if (s->steps_out)
        age_steps_say(s->steps_out, run);
    if (!s->store || s->set_id <= 0)
        return 0;
    if (s->waiting)
        retry_spool(s, SPOOL_RETRY_MS);
    /* while runs wait, the store is still locked: this one waits with them */
    int rc = s->waiting ? STORE_BUSY : store_add_run(s->store, s->set_id, run);
    if (rc == 0 && run->interrupted)
        s->partial = true; /* kept to be seen; --resume runs it again */
    else if (rc == 0)
        s->saved++;
    if (rc != STORE_BUSY)
        return rc;
    if (spool_put(s->db, s->set_id, rs, run) < 0)
        return -1;
    if (!s->waiting) {
        char dir[4200];
        warning("the results store %s is locked by another process (waited %.0f s): run %u "
                "waits in %s until it is free; the set goes on",
                s->db, store_lock_wait_ms() / 1000.0, run->index + 1,
                spool_dir(s->db, dir, sizeof dir));
    }
    s->waiting++;
    return 0;
}

/* A fault's handler runs this: async-signal-safe, so no message (see sig.h). */
static void release_targets(void)
{
    target_release_on_fault();
}

int cli_signals_install(void)
{
    /* a fault's last resort: whatever a managed target mounted and attached is released */
    sig_at_fatal(release_targets);
    return sig_install(&phase_interrupt);
}

static void join_argv(char *buf, size_t len, int argc, char **argv)
{
    size_t used = (size_t)snprintf(buf, len, "fsbench");
    for (int i = 0; i < argc && used + 1 < len; i++) {
        int n = snprintf(buf + used, len - used, " %s", argv[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
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

unsigned cli_report_width(FILE *f)
{
    int w = os_term_width(fileno(f));
    return w > 0 ? (unsigned)w : 80;
}

int cli_check_label(const char *label)
{
    char why[128];
    if (label && (!*label || strlen(label) >= RES_NAME_MAX))
        return error("--label: must be 1 to %d characters", RES_NAME_MAX - 1), EXIT_USAGE;
    if (label && text_check_name(label, why, sizeof why) < 0)
        return error("--label: '%s' %s: choose another", label, why), EXIT_USAGE;
    return 0;
}

/* --keep-image: the one line saying where the last run's file system stays. */
static const char *cli_kept_text(const struct run_set *rs)
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

int cli_run_and_report(struct runner_opts *ro, const struct cli_output *out)
{
    /* --resume of interleaved jobs (out->run): one set only here; the others were checked
     * before their pre-flight */
    if (out->resume && out->run && run_resume_check_plan(out->resume, ro, false) < 0)
        return EXIT_USAGE;
    struct run_set rs = {0};
    snprintf(rs.scenario, sizeof rs.scenario, "%s", out->scenario);
    join_argv(rs.command_line, sizeof rs.command_line, out->argc, out->argv);
    if (out->job_text) {
        if (strlen(out->job_text) >= sizeof rs.job_text)
            return error("the job file is over %zu bytes expanded: too long to store with "
                         "the results", sizeof rs.job_text - 1), EXIT_USAGE;
        snprintf(rs.job_text, sizeof rs.job_text, "%s", out->job_text);
        snprintf(rs.job_hash, sizeof rs.job_hash, "%s", out->job_hash);
    }
    if (out->label) {
        snprintf(rs.label, sizeof rs.label, "%s", out->label);
    } else {
        time_t now = time(NULL);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime(&now));
        snprintf(rs.label, sizeof rs.label, "%s-%s", rs.scenario, stamp);
    }

    memcpy(rs.meta, out->meta, sizeof rs.meta);
    rs.nmeta = out->nmeta;
    struct save_state ss = {.ro = ro, .out = out, .set_id = out->resume ? out->resume_id : 0};
    char db_path[4096];
    run_resume_describe(&rs, out->args_json, ro);
    if (out->save) {
        char path[4096];
        const char *db = out->db;
        if (!db) {
            if (store_default_path(path, sizeof path) < 0)
                return error("cannot find a place for the results store (set HOME, or use "
                             "--db FILE or --no-save)"), EXIT_RUN_FAILED;
            db = path;
        }
        if (out->json && store_check_output(db, out->json, "--json") < 0)
            return EXIT_USAGE;
        ss.store = run_store_open_write(db);
        if (!ss.store)
            return EXIT_RUN_FAILED;
        /* a label names one set: an existing one is finished with --resume, never added to
         * (the store refuses it too, should another process take it meanwhile) */
        int has = out->resume ? 0 : store_label_exists(ss.store, rs.label);
        for (unsigned k = 2; has > 0 && !out->label && k < 1000; k++) {
            /* a name of our own making: the next free one */
            char base[RES_NAME_MAX];
            snprintf(base, sizeof base, "%s", rs.label);
            char *dash = k > 2 ? strrchr(base, '-') : NULL;
            if (dash)
                *dash = '\0';
            snprintf(rs.label, sizeof rs.label, "%.*s-%u", RES_NAME_MAX - 8, base, k);
            has = store_label_exists(ss.store, rs.label);
        }
        if (has != 0) {
            store_close(ss.store);
            if (has > 0)
                error("--label: a run set labelled '%s' exists already: finish it with "
                      "'fsbench run --resume %s', or choose another label ('fsbench runs "
                      "--labels' lists those in use)",
                      rs.label, rs.label);
            return has > 0 ? EXIT_USAGE : EXIT_RUN_FAILED;
        }
        snprintf(db_path, sizeof db_path, "%s", db);
        ss.db = db_path;
    }
    /* what a destroyed device held cannot come back: say which one, before it goes */
    if (ro->tspec && ro->tspec->device)
        inform("mkfs will overwrite %s: everything on it is lost (--destroy-data given on the "
               "command line)", ro->tspec->device);
    /* with --json - the JSON alone goes to standard output: the table to stderr (or, with
     * --quiet, nowhere), so `fsbench run --json - | jq` works */
    bool json_stdout = out->json && !strcmp(out->json, "-");
    FILE *rep = json_stdout ? (out->quiet ? NULL : stderr) : stdout;
    ro->set_ready = on_set_ready;
    ro->run_done = on_run_done;
    ro->arg = &ss;

    if (out->resume) {
        run_resume_adopt(&rs, out->resume, ro);
        ss.saved = (unsigned)rs.nruns; /* the set's runs already stored */
    }
    bool cb_ran = false;
    for (size_t i = 0; i < ro->nphases; i++)
        cb_ran |= !strncmp(ro->phases[i]->name, "cb_", 3);
    if (out->compilebench && cb_ran)
        ss.cb_out = rep;
    if (ro->nconfigs && ro->configs[0].age_step && out->format == REPORT_TABLE)
        ss.steps_out = rep;
    struct runner_auto ra;
    int rc = out->run ? out->run(out->run_arg, ro, &rs, &ra) : runner_run(ro, &rs, &ra);
    int run_rc = rc;
    if (rs.nruns > 0 && rep && !out->compilebench) {
        struct report_layout lo = {.width = cli_report_width(rep), .wide = out->wide};
        report_run_set_fit(rep, &rs, out->format, &lo);
    }
    if (rep && rs.nruns > 0 && out->format == REPORT_TABLE)
        report_failures(rep, &rs); /* which configuration failed, in which round and phase */
    struct cb_summary cb;
    char cbtext[4096];
    if (rep && cb_ran && !out->compilebench && compilebench_last(&cb) == 0 &&
        compilebench_format(&cb, cbtext, sizeof cbtext) >= 0)
        fprintf(rep, "\ncompilebench's summary of the last run:\n%s", cbtext);
    if (rep && rc >= 0 && ro->runs_auto && out->format == REPORT_TABLE && !out->compilebench) {
        if (ra.precise)
            fprintf(rep,
                    "runs auto: %u rounds gave every phase a 95%% CI within %.1f%%; the last to "
                    "get there: %s (%.1f%%)\n",
                    ra.rounds, ro->precision * 100, ra.limiting, ra.half_width * 100);
        else
            fprintf(rep,
                    "runs auto: stopped at --max-runs (%u rounds) before %s reached %.1f%% "
                    "(it is at %.1f%%): the machine is noisy, or the phase too short\n",
                    ra.rounds, ra.limiting, ro->precision * 100, ra.half_width * 100);
        if (ro->nconfigs > 1)
            fprintf(rep, "runs auto: precision only, no verdict (it stopped on the intervals' "
                         "width, looking after every round); compare judges this set by the "
                         "sequential method, which allows for that: --runs until-verdict runs "
                         "until those verdicts are known\n");
    }
    if (rep && rs.nruns > 0 && !strcmp(rs.stop.rule, "until-verdict") &&
        out->format == REPORT_TABLE)
        report_until_verdict(rep, &rs, rc);
    if (rep && rs.nruns > 0 && (out->format == REPORT_TABLE || out->format == REPORT_SEEDS) &&
        !out->compilebench)
        report_plain(rep, &rs);
    if (rep && rs.nruns > 0 && out->format == REPORT_TABLE && !out->compilebench &&
        cli_age_report(rep, &rs) < 0)
        rc = -1;
    if (rep && rs.kept_kind[0])
        fprintf(rep, "%s\n", cli_kept_text(&rs));
    if (out->json && rs.nruns > 0 && resjson_write_file(&rs, out->json) < 0)
        rc = -1;
    char kept[RES_NAME_MAX + 64] = "";
    if (ss.store) {
        /* runs that waited get the full wait now: the set is done */
        if (ss.waiting)
            retry_spool(&ss, store_lock_wait_ms());
        /* the set's state; with runs still in the spool the store is locked: the set stays
         * "running" by a process that is gone, which reads as interrupted, and --resume
         * finishes it once they joined */
        if (ss.set_id > 0 && !ss.waiting)
            run_resume_end(ss.store, ss.set_id, ro, &rs, run_rc);
        if (rep && (ss.saved > 0 || ss.partial) && out->format == REPORT_TABLE)
            fprintf(out->compilebench ? stderr : rep, "saved as '%s' (%u run%s%s)\n", rs.label,
                    ss.saved,
                    ss.saved == 1 ? "" : "s",
                    ss.partial ? ", and the phases of the one interrupted" : "");
        if (ss.saved > 0)
            snprintf(kept, sizeof kept, "the %u run%s %s saved as '%s'", ss.saved,
                     ss.saved == 1 ? "" : "s", ss.saved == 1 ? "is" : "are", rs.label);
        if (ss.waiting) {
            char dir[4200];
            error("the results store %s stayed locked by another process: %u run%s of '%s' "
                  "wait%s in %s and join%s the set when fsbench next opens the store to write "
                  "(%u saved)",
                  ss.db, ss.waiting, ss.waiting == 1 ? "" : "s", rs.label,
                  ss.waiting == 1 ? "s" : "", spool_dir(ss.db, dir, sizeof dir),
                  ss.waiting == 1 ? "s" : "", ss.saved);
            rc = -1;
        }
        store_close(ss.store);
    }
    /* a closed or full standard output is said now, with what is kept; the exit status
     * (main's check) says it too, but a job file's later jobs still run */
    outcheck_stdout(kept);
    run_set_free(&rs);
    return rc != 0 ? EXIT_RUN_FAILED : EXIT_OK;
}
