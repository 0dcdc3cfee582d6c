/* run_job_request.c — a job file's jobs turned into requests (see run_job_request.h): the
 * job file (or a shipped job) loaded with every key checked through the table of run's
 * options, the command line's stored options folded into its text, consent checked, and
 * each job's request made from its keys and then the command line's options, then run by
 * run/run_jobs.c with the caller's run of a request.
 *
 * A job is parsed into one request (run_request.h) from its keys and then the command
 * line's own options, each through the table of run's options: the same row checks a job
 * key and a command-line option, and an option given on the command line replaces the
 * file's key of the same name (every value of a repeated one). No argument list is made
 * from a job.
 *
 * A job file is someone else's data: it cannot consent to destroying data (destroy-data
 * and force are command-line options only, refused as keys: job_parse() by the keys'
 * cmdline_only list, run_request_set() by the row's kind). Its relative paths are resolved
 * against its own directory.
 */
#include "run/run_job_request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"
#include "run/job.h"
#include "run/job_builtin.h"
#include "run/run_consent.h"
#include "run/run_jobs.h"
#include "run/run_resume.h"

/* What a job's request is made from: the command line and each job's keys. */
struct jobs {
    const struct run_job_cmdline *cl;
    size_t n;
    struct job_arg *ja[JOB_MAX_JOBS]; /* each job's keys, [global]'s it does not set first */
    int nja[JOB_MAX_JOBS];
};

/* Whether the command line gave option name. */
static bool cl_has(const struct run_job_cmdline *cl, const char *name)
{
    for (size_t i = 0; i < cl->n; i++)
        if (!strcmp(cl->names[i], name))
            return true;
    return false;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t l = strlen(s), m = strlen(suffix);
    return l > m && !strcmp(s + l - m, suffix);
}

/* A positional that names a job file: a path, a *.ini, or a shipped job (a scenario). */
bool run_job_named(const char *s)
{
    return strchr(s, '/') || ends_with(s, ".ini") || job_builtin_find(s);
}

/* Checks one key's value as the command line's option would be ("scale = abc"): parsed
 * through its row into a request of its own, which is then checked as a whole. */
static int check_value(void *arg, const char *key, const char *value, char *why, size_t len)
{
    const struct run_option *o = run_option_find(key);
    if (!o || o->kind == RUN_KIND_CONSENT)
        return 0; /* refused by job_parse(), as consent */
    static struct run_request rq; /* large: not on the stack of every key's check */
    err_capture_begin(why, len);
    int rc = run_request_init(&rq, 0, NULL);
    rq.options_only = true;
    if (rc == EXIT_OK)
        rc = run_request_set(&rq, o, value, RUN_FROM_JOB);
    if (rc == EXIT_OK)
        rc = run_request_check(&rq);
    err_capture_end();
    if (rc == EXIT_OK)
        return 0;
    if (!why[0])
        snprintf(why, len, "--%s=%s: not a valid value", key, value);
    else if (!strncmp(why, "--", 2)) /* in a job file the option is a key: "scale: ..." */
        memmove(why, why + 2, strlen(why + 2) + 1);
    return -1;
}

/* *builtin: whether it is a shipped job. A bare name (no '/', no ".ini") is one when there
 * is one of that name, whatever the current directory holds: `fsbench run basic` is
 * always the scenario. */
static int load(const struct run_job_cmdline *cl, const struct job_keys *keys, struct job_file *jf,
                bool *builtin)
{
    *builtin = false;
    if (!cl->file)
        return job_parse("command line", "", keys, jf);
    const struct job_builtin *b = job_builtin_find(cl->file);
    bool bare = !strchr(cl->file, '/') && !ends_with(cl->file, ".ini");
    struct stat st;
    if (!(bare && b) && (strchr(cl->file, '/') || stat(cl->file, &st) == 0))
        return job_parse(cl->file, NULL, keys, jf);
    if (b) {
        *builtin = true;
        return job_parse(b->path, b->text, keys, jf);
    }
    return error("%s: no such job file, nor a shipped job (see fsbench list)", cl->file);
}

/* Job i's request: its keys (each through its row, from the job file), then the command
 * line's options and positionals (from this argv, or a stored set's). 0, or EXIT_USAGE
 * after error() naming the option (job_error() finds its line). */
static int job_request(const struct jobs *c, size_t i, struct run_request *rq)
{
    if (run_request_init(rq, c->cl->argc, c->cl->argv))
        return EXIT_USAGE;
    for (int k = 0; k < c->nja[i]; k++) {
        const struct run_option *o = run_option_find(c->ja[i][k].key);
        int rc = o ? run_request_set(rq, o, c->ja[i][k].value, RUN_FROM_JOB) : EXIT_USAGE;
        if (rc)
            return rc;
    }
    enum run_source src = run_resuming(NULL) ? RUN_FROM_STORED : RUN_FROM_ARGV;
    for (size_t k = 0; k < c->cl->n; k++) {
        int rc = run_request_set(rq, c->cl->opt[k], c->cl->vals[k], src);
        if (rc)
            return rc;
    }
    for (int k = 0; k < c->cl->npos && rq->npos < 2; k++)
        rq->pos[rq->npos++] = c->cl->pos[k];
    return 0;
}

/* Job i's request made and run with hook h (run_jobs.h's launch) by the caller's run of a
 * request: the exit status. */
static int launch_job(void *arg, size_t i, const struct run_launch_hook *h)
{
    struct jobs *c = arg;
    struct run_request *rq = malloc(sizeof *rq);
    if (!rq)
        return error("out of memory"), EXIT_RUN_FAILED;
    int rc = job_request(c, i, rq);
    if (rc == 0)
        rc = c->cl->run(rq, h);
    free(rq);
    return rc;
}

int run_job_file(const struct run_job_cmdline *cl)
{
    struct job_keys keys = *run_options_job_keys();
    keys.check = check_value;
    struct job_file jf;
    bool builtin;
    if (load(cl, &keys, &jf, &builtin) < 0)
        return EXIT_USAGE;
    struct jobs *c = calloc(1, sizeof *c);
    if (!c) {
        job_free(&jf);
        return error("out of memory"), EXIT_RUN_FAILED;
    }
    c->cl = cl;
    /* the stored text is what runs: the command line's options folded in */
    const char *fold[RUN_JOB_MAX_ARGS], *fold_val[RUN_JOB_MAX_ARGS];
    size_t nfold = 0;
    for (size_t i = 0; i < cl->n && nfold < RUN_JOB_MAX_ARGS; i++) {
        /* where results go, and consent, are not the experiment (the table says which) */
        if (!(cl->opt[i]->flags & RUN_OPT_NOT_STORED) && cl->opt[i]->kind != RUN_KIND_CONSENT) {
            fold_val[nfold] = cl->vals[i];
            fold[nfold++] = cl->names[i];
        }
    }
    if (nfold && job_fold(&jf, fold, fold_val, nfold) < 0) {
        free(c);
        job_free(&jf);
        return EXIT_RUN_FAILED;
    }
    /* --resume: the plan stored with the set, or none */
    if (run_jobs_check_resume(&jf) < 0) {
        free(c);
        job_free(&jf);
        return EXIT_USAGE;
    }
    c->n = job_count(&jf);
    int rc = EXIT_OK;
    for (size_t i = 0; i < c->n && rc == EXIT_OK; i++) {
        int n = job_args(&jf, i, &keys, cl->names, &c->ja[i]);
        if (n < 0)
            rc = EXIT_RUN_FAILED;
        else if ((c->nja[i] = n, cl->file ? run_consent_check_job(&jf, i, &keys) : 0) < 0)
            rc = EXIT_USAGE;
    }
    struct run_jobs_opts o = {
        .jf = &jf, .from_file = cl->file != NULL, .builtin = builtin, .dry = cl->dry,
        .check = cl->check, .cl_json = cl_has(cl, "json"), .cl_db = cl_has(cl, "db"),
        .argc = cl->argc, .argv = cl->argv, .ja = c->ja, .nja = c->nja,
        .launch = launch_job, .arg = c,
    };
    if (rc == EXIT_OK)
        rc = run_jobs(&o);
    for (size_t i = 0; i < c->n; i++)
        job_args_free(c->ja[i], c->nja[i]);
    free(c);
    job_free(&jf);
    return rc;
}
