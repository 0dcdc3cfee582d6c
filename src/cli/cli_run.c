/* cli_run.c — the shared tail of `fsbench run` and `fsbench cmd` (see cli_run.h). */
#include "cli/cli_run.h"
#include "cli/cli_resume.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "base/text.h"
#include "phase/phase.h"
#include "results/resjson.h"
#include "results/store.h"
#include "phase/workload.h"

struct save_state {
    struct store *store;
    int64_t set_id;
    const struct runner_opts *ro;
    const struct cli_output *out;
};

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
    if (s->out->resume && cli_resume_ready(s->store, s->out->resume_id, s->out->resume, rs) < 0)
        return -1;
    if (!s->store || s->out->resume)
        return 0;
    s->set_id = store_begin_set(s->store, rs);
    return s->set_id < 0 ? -1 : 0;
}

static int on_run_done(void *arg, const struct run_set *rs, const struct run_result *run)
{
    struct save_state *s = arg;
    if (!s->store || s->set_id <= 0)
        return 0;
    return store_add_run(s->store, s->set_id, run);
}

static void on_signal(int sig)
{
    phase_interrupt = 1;
}

/* SIGINT, SIGTERM and SIGHUP stop the phase under way; cleanup then runs to the end, and
 * a second signal only sets the same flag again, so it cannot leave a mount behind. */
void cli_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
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

int cli_check_label(const char *label)
{
    char why[128];
    if (label && (!*label || strlen(label) >= RES_NAME_MAX))
        return error("--label: must be 1 to %d characters", RES_NAME_MAX - 1), EXIT_USAGE;
    if (label && text_check_name(label, why, sizeof why) < 0)
        return error("--label: '%s' %s: choose another", label, why), EXIT_USAGE;
    return 0;
}

int cli_run_and_report(struct runner_opts *ro, const struct cli_output *out)
{
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

    struct save_state ss = {.ro = ro, .out = out, .set_id = out->resume ? out->resume_id : 0};
    cli_resume_describe(&rs, out->args_json, ro);
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
        ss.store = store_open(db);
        if (!ss.store)
            return EXIT_RUN_FAILED;
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

    if (out->resume)
        cli_resume_adopt(&rs, out->resume, ro);
    cli_install_signals();
    struct runner_auto ra;
    int rc = out->run ? out->run(out->run_arg, ro, &rs, &ra) : runner_run(ro, &rs, &ra);
    if (ss.store && ss.set_id > 0)
        cli_resume_end(ss.store, ss.set_id, ro, &rs, rc);
    if (rs.nruns > 0 && rep)
        report_run_set(rep, &rs, out->format);
    if (rep && rs.nruns > 0 && out->format == REPORT_TABLE)
        report_failures(rep, &rs); /* which configuration failed, in which round and phase */
    struct cb_summary cb;
    char cbtext[4096];
    bool cb_ran = false;
    for (size_t i = 0; i < ro->nphases; i++)
        cb_ran |= !strncmp(ro->phases[i]->name, "cb_", 3);
    if (rep && cb_ran && compilebench_last(&cb) == 0 &&
        compilebench_format(&cb, cbtext, sizeof cbtext) >= 0)
        fprintf(rep, "\ncompilebench's summary of the last run:\n%s", cbtext);
    if (rep && rc >= 0 && ro->runs_auto && out->format == REPORT_TABLE) {
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
    }
    if (out->json && rs.nruns > 0 && resjson_write_file(&rs, out->json) < 0)
        rc = -1;
    if (ss.store) {
        if (rep && rs.nruns > 0 && out->format == REPORT_TABLE)
            fprintf(rep, "saved as '%s' (%zu run%s)\n", rs.label, rs.nruns,
                    rs.nruns == 1 ? "" : "s");
        store_close(ss.store);
    }
    run_set_free(&rs);
    return rc != 0 ? EXIT_RUN_FAILED : EXIT_OK;
}
