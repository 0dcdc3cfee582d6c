/* run_jobs.c — the jobs of a job file checked, planned or run (see run_jobs.h): each
 * through run_launch() with a hook (ready()) that, by mode, checks it as a whole, tries its
 * configurations (pre-flight), prints its plan, runs it as a set of its own, or keeps it
 * for the rounds of an interleaved file. */
#include "run/run_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"
#include "phase/phase.h"
#include "results/store.h"
#include "run/duration.h"
#include "run/job_rounds.h"
#include "run/run_consent.h"
#include "run/run_plan.h"
#include "run/run_preflight.h"
#include "run/run_resume.h"
#include "tree/tarsrc.h"

enum mode { MODE_CHECK, MODE_PREFLIGHT, MODE_PLAN, MODE_RUN, MODE_ROUNDS };

struct jctx {
    enum mode mode;
    const struct run_jobs_opts *o;
    const struct job_file *jf;
    bool from_file;
    bool builtin; /* a shipped job run by name: its errors are the command line's */
    int user_argc; /* the command line, stored with the results */
    char **user_argv;
    size_t n, job;
    struct job_rounds_common first; /* job 0's rounds, stop rule (interleave: every job's) */
    /* MODE_ROUNDS: every job's options, alive while the nested calls last */
    struct run_launch *l[JOB_MAX_JOBS];
    struct job_rounds jr;
    char json[4096]; /* MODE_RUN: this job's --json file */
    struct run_preflight_bad bad;      /* the configurations that failed the pre-flight */
    bool skip_bad;               /* --skip-bad (the command line's or a job's) */
    bool left_out[JOB_MAX_JOBS]; /* jobs none of whose configurations can run */
    /* MODE_CHECK: each job's --label (NULL: its own JOB-DATE-TIME); MODE_RUN: the label a
     * job shares with another, made its own ("L-JOB": a label names one set) */
    const char *label[JOB_MAX_JOBS];
    char own_label[RES_NAME_MAX];
    double est_s;     /* MODE_PLAN: the jobs' estimated durations summed */
    bool est_unknown; /* ... one of them could not be estimated */
};

/* One line for a job that does not check: at the key its message names ("--tree: ..."),
 * else at the job's [header]. */
static void job_error(const struct jctx *c, size_t i, const char *msg)
{
    if (!c->from_file || c->builtin) {
        error("%s", msg);
        return;
    }
    const struct job_section *sec = c->jf->nsec > 1 ? &c->jf->sec[i + 1] : &c->jf->sec[0];
    const char *file = sec->file;
    int line = sec->line ? sec->line : 1;
    const char *first = NULL;
    for (int k = 0; k < c->o->nja[i]; k++) {
        char pat[128];
        int n = snprintf(pat, sizeof pat, "--%s", c->o->ja[i][k].key);
        for (const char *h = strstr(msg, pat); h; h = strstr(h + 1, pat)) {
            char next = h[n];
            if ((next >= 'a' && next <= 'z') || next == '-')
                continue;
            if (!first || h < first) {
                first = h;
                file = c->o->ja[i][k].file;
                line = c->o->ja[i][k].line;
            }
            break;
        }
    }
    error("%s:%d: job %s: %s", file, line, job_name(c->jf, i), msg);
}

static int rounds_run(void *arg, const struct runner_opts *ro, struct run_set *rs,
                      struct runner_auto *ra)
{
    struct jctx *c = arg;
    memset(ra, 0, sizeof *ra);
    ra->rounds = c->jr.runs;
    return job_rounds_run(&c->jr, ro, rs);
}

/* Every job's options are alive (nested calls): runs them in rounds as one set. */
static int run_rounds(struct jctx *c)
{
    static struct runner_opts outer;
    const char *names[JOB_MAX_JOBS];
    struct runner_opts *ros[JOB_MAX_JOBS];
    for (size_t i = 0; i < c->n; i++) {
        names[i] = job_name(c->jf, i);
        ros[i] = c->l[i]->ro;
    }
    job_rounds_setup(&c->jr, &outer, &c->first, ros, names, c->left_out, c->n);
    int rc = EXIT_OK;
    for (size_t i = 0; i < c->n; i++) {
        struct runner_opts *ro = ros[i];
        const char *tree_arg = c->l[i]->tree_arg;
        if (!c->left_out[i] && !ro->tree.prof && tree_arg && !strncmp(tree_arg, "tar:", 4) &&
            !(ro->tar = tarsrc_open(tree_arg + 4, NULL)))
            rc = EXIT_RUN_FAILED;
    }
    struct run_launch *out = c->l[0];
    const char *base = strrchr(c->jf->path, '/');
    static char scen[64];
    snprintf(scen, sizeof scen, "%.*s", (int)strcspn(base ? base + 1 : c->jf->path, "."),
             base ? base + 1 : c->jf->path);
    out->set.scenario = scen;
    out->set.argc = c->user_argc;
    out->set.argv = c->user_argv;
    out->set.job_text = c->jf->text;
    out->set.job_hash = c->jf->hash;
    out->set.run = rounds_run;
    out->set.run_arg = c;
    out->set.args_json = out->args_json ? out->args_json(c->user_argc, c->user_argv) : NULL;
    out->set.resume = run_resuming(&out->set.resume_id);
    if (rc == EXIT_OK)
        rc = run_launch_make(out, &outer);
    for (size_t i = 0; i < c->n; i++) {
        tarsrc_close(ros[i]->tar);
        ros[i]->tar = NULL;
    }
    return rc;
}

/* The JSON file job c->job writes: out->json, or out.JOB.json when the file has several
 * jobs run one after the other (interleaved, they are one run set: one file); into c->json.
 * NULL when none or standard output. */
static const char *job_json(struct jctx *c, const struct run_launch *out)
{
    if (!out->set.json || !strcmp(out->set.json, "-"))
        return NULL;
    if (c->n == 1 || c->jf->interleave)
        return out->set.json;
    const char *dot = strrchr(out->set.json, '.'), *slash = strrchr(out->set.json, '/');
    int stem = dot && (!slash || dot > slash) ? (int)(dot - out->set.json)
                                              : (int)strlen(out->set.json);
    snprintf(c->json, sizeof c->json, "%.*s.%s%s", stem, out->set.json, job_name(c->jf, c->job),
             out->set.json + stem);
    return c->json;
}

/* An output the job file names (not the command line) that would replace an existing file:
 * the reason in why, or NULL when there is none. A JSON file is replaced only when the
 * command line says so (--json, --force); a results database only grows, but an existing
 * empty file would become one. */
static const char *replaced_output(struct jctx *c, const struct run_launch *out, char *why,
                                   size_t len)
{
    struct stat st;
    if (!c->from_file || c->builtin || run_consent()->force)
        return NULL;
    const char *json = job_json(c, out);
    if (json && !c->o->cl_json && lstat(json, &st) == 0) {
        snprintf(why, len, "json = %s: the file exists, and a job file does not replace a file: "
                 "remove it, or give --json or --force on the command line", json);
        return why;
    }
    if (out->set.save && out->set.db && !c->o->cl_db && lstat(out->set.db, &st) == 0 &&
        (!S_ISREG(st.st_mode) || st.st_size == 0)) {
        snprintf(why, len, "db = %s: the file exists and is not a results database: a job "
                 "file does not replace a file (give --db or --force on the command line)",
                 out->set.db);
        return why;
    }
    return NULL;
}

/* --dry-run: where the results of job c->job would go, and what they would replace. */
static void print_outputs(struct jctx *c, const struct runner_opts *ro,
                          const struct run_launch *out)
{
    bool from_job_json = c->from_file && !c->builtin && out->set.json && !c->o->cl_json;
    bool from_job_db = c->from_file && !c->builtin && out->set.db && !c->o->cl_db;
    char def[4096], why[4200];
    if (ro->tspec && ro->tspec->device)
        printf("  device: %s: mkfs overwrites everything on it%s\n", ro->tspec->device,
               ro->tspec->destroy_data     ? " (--destroy-data given on the command line)"
               : run_consent()->destroy_data ? "; the run refuses: the command line does not "
                                               "name it (--device DEV or --destroy-data=DEV)"
                                             : "; the run refuses without --destroy-data on the "
                                               "command line");
    const char *db = out->set.db;
    if (!db && store_default_path(def, sizeof def) == 0)
        db = def;
    if (!out->set.save)
        printf("  results: not saved (no-save)\n");
    else
        printf("  results: saved in %s%s\n", db ? db : "the default results database",
               from_job_db ? " (named by the job file)" : "");
    const char *json = job_json(c, out);
    if (out->set.json)
        printf("  json: %s%s\n", json ? json : "standard output",
               from_job_json ? " (named by the job file)" : "");
    if (replaced_output(c, out, why, sizeof why))
        printf("  REFUSED when run: %s\n", why);
}

/* The job name the pre-flight's lines and list use: none when the file has one job. */
static const char *bad_job(const struct jctx *c)
{
    return c->n > 1 ? job_name(c->jf, c->job) : NULL;
}

/* --resume of one job of a file whose jobs run one after the other: only that job (the
 * stored set's scenario is its name). */
static bool not_resumed(const struct jctx *c, size_t i)
{
    const struct run_set *r = run_resuming(NULL);
    return r && c->n > 1 && !c->jf->interleave && strcmp(job_name(c->jf, i), r->scenario);
}

/* Job i launched with hook h by the caller (its request made from its keys and the
 * command line): the exit status. */
static int run_job(struct jctx *c, size_t i, const struct run_launch_hook *h)
{
    return c->o->launch(c->o->arg, i, h);
}

static int ready(void *arg, struct run_launch *out)
{
    struct jctx *c = arg;
    struct runner_opts *ro = out->ro;
    const char *tree_arg = out->tree_arg;
    switch (c->mode) {
    case MODE_CHECK: {
        char why[4200];
        if (!c->o->dry && replaced_output(c, out, why, sizeof why))
            return error("%s", why), EXIT_USAGE;
        if (c->job == 0)
            job_rounds_common_of(&c->first, ro);
        bool rounds = c->jf->interleave && c->n > 1;
        if (out->ask && c->n > 1)
            return error("--bisect-good: the job file has %zu jobs; a bisection's candidate "
                         "is one set of one job",
                         c->n),
                   EXIT_USAGE;
        c->label[c->job] = out->set.label;
        /* --resume: the stored plan (interleaved jobs: checked as one set when they run) */
        const struct run_set *resumed = run_resuming(NULL);
        if (resumed && !rounds && !not_resumed(c, c->job) &&
            run_resume_check_plan(resumed, ro, true) < 0)
            return EXIT_USAGE;
        /* jobs one after the other: each its own set, its own configurations to compare */
        if (ro->until_verdict && !rounds && ro->nconfigs < 2 && c->builtin)
            return error("--runs until-verdict compares configurations with the first: give "
                         "two or more (--fs, --mount-opts, or jobs with interleave = jobs)"),
                   EXIT_USAGE;
        if (ro->until_verdict && !rounds && ro->nconfigs < 2)
            return error("runs = until-verdict compares configurations with the first: give "
                         "the job two or more (fs, mount-opts), or interleave the jobs "
                         "(interleave = jobs in [global])"),
                   EXIT_USAGE;
        if (rounds && job_rounds_check(&c->first, ro) < 0)
            return EXIT_USAGE;
        return EXIT_OK;
    }
    case MODE_PREFLIGHT:
        c->skip_bad |= out->skip_bad;
        run_preflight_check(ro, tree_arg, bad_job(c), &c->bad);
        return EXIT_OK;
    case MODE_PLAN:
        if (run_plan_print(stdout, job_name(c->jf, c->job), ro, tree_arg) < 0)
            return EXIT_RUN_FAILED;
        print_outputs(c, ro, out);
        if (!c->est_unknown) {
            double est;
            run_plan_estimate(stdout, job_name(c->jf, c->job), ro, out->set.db, &est);
            if (est < 0)
                c->est_unknown = true;
            else
                c->est_s += est;
        }
        return EXIT_OK;
    case MODE_RUN: {
        if (run_preflight_drop(ro, bad_job(c), &c->bad) < 0)
            return EXIT_OK; /* none of its configurations can run: said already */
        /* the job's header goes where its table goes (stderr with --json -) */
        FILE *hf = out->set.json && !strcmp(out->set.json, "-") ? (out->quiet ? NULL : stderr)
                                                                : stdout;
        if (c->n > 1 && hf)
            fprintf(hf, "%s== job %s (%zu of %zu) ==\n", c->job ? "\n" : "",
                    job_name(c->jf, c->job), c->job + 1, c->n);
        fflush(stdout);
        out->set.scenario = job_name(c->jf, c->job);
        /* jobs one after the other are sets of their own: a label two of them share (the
         * command line's --label, say) names each as LABEL-JOB */
        bool shared = false;
        for (size_t i = 0; out->set.label && i < c->n; i++)
            shared |= i != c->job && c->label[i] && !strcmp(c->label[i], out->set.label);
        if (shared && !run_resuming(NULL)) {
            snprintf(c->own_label, sizeof c->own_label, "%.*s-%s", RES_NAME_MAX / 2,
                     out->set.label, job_name(c->jf, c->job));
            out->set.label = c->own_label;
        }
        out->set.argc = c->user_argc;
        out->set.argv = c->user_argv;
        /* one JSON file per job: out.json -> out.JOB.json */
        if (c->n > 1 && job_json(c, out) == c->json)
            out->set.json = c->json;
        if (c->from_file) {
            out->set.job_text = c->jf->text;
            out->set.job_hash = c->jf->hash;
        }
        return RUN_LAUNCH_GO;
    }
    case MODE_ROUNDS:
        c->left_out[c->job] = run_preflight_drop(ro, bad_job(c), &c->bad) < 0;
        c->l[c->job] = out;
        if (c->job + 1 < c->n) {
            struct run_launch_hook h = {.ready = ready, .arg = c, .dry_run = c->o->dry,
                                 .mpi_first = true};
            c->job++;
            return run_job(c, c->job, &h);
        }
        return run_rounds(c);
    }
    return EXIT_USAGE;
}

/* The pre-flight of every job (but those a --resume leaves alone), and its verdict. */
static int preflight_all(struct jctx *c, const struct run_launch_hook *h)
{
    enum mode was = c->mode;
    c->mode = MODE_PREFLIGHT;
    for (c->job = 0; c->job < c->n && !phase_interrupt; c->job++) {
        if (not_resumed(c, c->job))
            continue;
        int rc = run_job(c, c->job, h);
        if (rc != EXIT_OK)
            return rc;
    }
    c->mode = was;
    return run_preflight_verdict(&c->bad, c->skip_bad);
}

static int run_modes(struct jctx *c)
{
    struct run_launch_hook h = {.ready = ready, .arg = c, .dry_run = c->o->dry};
    char why[1024];
    /* nothing runs until every job checks */
    c->mode = MODE_CHECK;
    for (c->job = 0; c->job < c->n; c->job++) {
        err_capture_begin(why, sizeof why);
        int rc = run_job(c, c->job, &h);
        err_capture_end();
        if (rc != EXIT_OK) {
            job_error(c, c->job, why[0] ? why : "not a valid job (see above)");
            return rc;
        }
    }
    /* every job checks: now every configuration of every job is tried for real, before
     * the first run of any (with --dry-run, after the plan and only when --check asks) */
    int rc = c->o->dry ? EXIT_OK : preflight_all(c, &h);
    if (rc != EXIT_OK)
        return rc;
    if (c->o->dry) {
        c->mode = MODE_PLAN;
        if (c->from_file)
            printf("job file %s (sha256 %.16s...): %zu job%s%s\n", c->jf->path, c->jf->hash, c->n,
                   c->n == 1 ? "" : "s",
                   c->jf->interleave && c->n > 1
                       ? ", interleaved: one run set, the jobs as its configurations, every "
                         "job once a round in a seeded random order"
                       : ", run one after the other in file order");
        for (c->job = 0; c->job < c->n; c->job++) {
            rc = run_job(c, c->job, &h);
            if (rc != EXIT_OK)
                return rc;
        }
        if (c->jf->interleave && c->n > 1 && c->first.until_verdict)
            printf("rounds: until every phase of every job has a verdict against the first job "
                   "(a difference, or none of %g%% or more), at most %u, each running all %zu jobs\n",
                   c->first.min_effect * 100, c->first.runs, c->n);
        else if (c->jf->interleave && c->n > 1)
            printf("rounds: %u, each running all %zu jobs: %u runs in all\n", c->first.runs,
                   c->n, c->first.runs * (unsigned)c->n);
        if (c->n > 1 && !c->est_unknown) {
            char t[64];
            printf("estimated duration in all: %s (%zu jobs%s)\n",
                   duration_text(t, sizeof t, c->est_s), c->n,
                   c->jf->interleave ? ", interleaved" : ", one after the other");
        }
        if (c->o->check) {
            fflush(stdout);
            if ((rc = preflight_all(c, &h)) != EXIT_OK)
                return rc;
            printf("pre-flight: %zu of %zu configuration%s can run (each file system made, "
                   "mounted with its options and unmounted once)\n",
                   c->bad.total - c->bad.n, c->bad.total, c->bad.total == 1 ? "" : "s");
        }
        printf(c->o->check ? "dry run: nothing was run or stored\n"
                         : "dry run: nothing was run, created or changed\n");
        return EXIT_OK;
    }
    if (c->jf->interleave && c->n > 1) {
        c->mode = MODE_ROUNDS;
        c->job = 0;
        h.mpi_first = true; /* each job's ranks set up before its options are kept */
        return run_job(c, 0, &h);
    }
    c->mode = MODE_RUN;
    for (c->job = 0; c->job < c->n; c->job++) {
        if (not_resumed(c, c->job))
            continue;
        rc = run_job(c, c->job, &h);
        if (rc != EXIT_OK)
            return rc;
    }
    return EXIT_OK;
}


int run_jobs_check_resume(const struct job_file *jf)
{
    const struct run_set *resumed = run_resuming(NULL);
    if (resumed && resumed->job_hash[0] && strcmp(resumed->job_hash, jf->hash)) {
        error("--resume: %s is not the job file '%s' ran (sha256 %.16s..., now %.16s...): the "
              "plan changed, so the set cannot be finished in the same rounds; `fsbench "
              "export %s --job` gives the stored one back",
              jf->path, resumed->label, resumed->job_hash, jf->hash, resumed->label);
        return -1;
    }
    return 0;
}

int run_jobs(const struct run_jobs_opts *o)
{
    struct jctx *c = calloc(1, sizeof *c);
    if (!c)
        return error("out of memory"), EXIT_RUN_FAILED;
    c->o = o;
    c->jf = o->jf;
    c->from_file = o->from_file;
    c->builtin = o->builtin;
    c->user_argc = o->argc;
    c->user_argv = o->argv;
    c->n = job_count(o->jf);
    int rc = run_modes(c);
    free(c);
    return rc;
}
