/* run_preflight.c — `fsbench run`'s pre-flight (run/preflight.h) on the command line:
 * one line per configuration that cannot run, naming it and why, all of them at once;
 * then either nothing runs (exit 1: a night is not spent on a matrix that stops at its
 * fifth configuration), or with --skip-bad the others run and the line says which were
 * left out. A job file's jobs are all checked before the first of them runs.
 */
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "run/run_preflight.h"
#include "phase/phase.h"
#include "run/preflight.h"

/* "job/config", "job", "config" or "" into buf. */
static void full_name(const char *job, const char *config, char *buf, size_t len)
{
    if (job && *job)
        snprintf(buf, len, "%s%s%s", job, *config ? "/" : "", config);
    else
        snprintf(buf, len, "%s", config);
}

size_t run_preflight_check(const struct runner_opts *ro, const char *tree_arg, const char *job,
                               struct run_preflight_bad *bad)
{
    struct preflight pf;
    size_t n = ro->nconfigs ? ro->nconfigs : 1;
    preflight_run(ro, tree_arg, &pf);
    bad->total += n;
    bool all_said = false; /* a failure of every configuration is said once */
    for (size_t i = 0; i < pf.nfail; i++) {
        const struct preflight_fail *f = &pf.fail[i];
        if (f->config == PREFLIGHT_ALL && all_said)
            continue;
        all_said |= f->config == PREFLIGHT_ALL;
        char name[RES_NAME_MAX * 2] = "";
        if (f->config != PREFLIGHT_ALL)
            full_name(job, ro->configs[f->config].name, name, sizeof name);
        else if (job)
            snprintf(name, sizeof name, "job %s", job);
        if (name[0])
            error("pre-flight: %s: %s", name, f->why);
        else
            error("pre-flight: %s", f->why);
    }
    for (size_t k = 0; k < n && k < RUNNER_MAX_CONFIGS; k++) {
        if (!pf.bad[k] || bad->n == sizeof bad->name / sizeof bad->name[0])
            continue;
        snprintf(bad->job[bad->n], sizeof bad->job[0], "%s", job ? job : "");
        snprintf(bad->name[bad->n], sizeof bad->name[0], "%s",
                 ro->nconfigs ? ro->configs[k].name : "");
        bad->n++;
    }
    return pf.nbad;
}

int run_preflight_drop(struct runner_opts *ro, const char *job, const struct run_preflight_bad *bad)
{
    size_t kept = 0, n = ro->nconfigs ? ro->nconfigs : 1;
    for (size_t k = 0; k < n; k++) {
        const char *name = ro->nconfigs ? ro->configs[k].name : "";
        bool out = false;
        for (size_t i = 0; i < bad->n && !out; i++)
            out = !strcmp(bad->job[i], job ? job : "") && !strcmp(bad->name[i], name);
        if (out)
            continue;
        if (ro->nconfigs && kept != k)
            ro->configs[kept] = ro->configs[k];
        kept++;
    }
    if (ro->nconfigs)
        ro->nconfigs = kept;
    return kept ? 0 : -1;
}

int run_preflight_verdict(const struct run_preflight_bad *bad, bool skip_bad)
{
    if (!bad->n)
        return EXIT_OK;
    char list[1024] = "";
    size_t used = 0;
    for (size_t i = 0; i < bad->n && used < sizeof list; i++) {
        char name[RES_NAME_MAX * 2];
        full_name(bad->job[i], bad->name[i], name, sizeof name);
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                         name[0] ? name : "the run");
        used += w > 0 ? (size_t)w : 0;
    }
    size_t left = bad->total - bad->n;
    if (bad->total == 1 || phase_interrupt)
        return EXIT_RUN_FAILED; /* its one line said it */
    if (!skip_bad || !left)
        return error("pre-flight: %zu of %zu configuration%s cannot run (%s): nothing was run%s",
                     bad->n, bad->total, bad->total == 1 ? "" : "s", list,
                     left ? "; --skip-bad runs the others" : ""),
               EXIT_RUN_FAILED;
    inform("--skip-bad: left out %s (pre-flight failed); running the other %zu configuration%s",
           list, left, left == 1 ? "" : "s");
    return EXIT_OK;
}

int run_preflight(struct runner_opts *ro, const char *tree_arg, bool skip_bad)
{
    struct run_preflight_bad bad = {0};
    run_preflight_check(ro, tree_arg, NULL, &bad);
    int rc = run_preflight_verdict(&bad, skip_bad);
    if (rc == EXIT_OK && bad.n)
        run_preflight_drop(ro, NULL, &bad);
    return rc;
}
