/* job_rounds.c — jobs interleaved in rounds as configurations of one run set (see
 * job_rounds.h).
 */
#include "run/job_rounds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/sig.h"
#include "phase/phase.h"
#include "stats/seqtest.h"

struct fwd {
    const struct job_rounds *jr;
    const struct runner_opts *outer;
    struct run_set *rs;
    const char *job;
    unsigned round;
    bool described;
};

void job_rounds_config_name(const char *job, const char *config, char *buf, size_t len)
{
    if (config && config[0])
        snprintf(buf, len, "%s/%s", job, config);
    else
        snprintf(buf, len, "%s", job);
}

void job_rounds_common_of(struct job_rounds_common *jc, const struct runner_opts *ro)
{
    jc->runs = ro->runs;
    jc->until_verdict = ro->until_verdict;
    jc->min_effect = ro->min_effect;
    jc->negligible_s = ro->negligible_s;
}

int job_rounds_check(const struct job_rounds_common *jc, const struct runner_opts *ro)
{
    if (ro->runs_auto)
        return error("runs = auto is not supported with interleave = jobs: give runs = N, or "
                     "runs = until-verdict");
    if (ro->until_verdict != jc->until_verdict || ro->runs != jc->runs ||
        (ro->until_verdict &&
         (ro->min_effect != jc->min_effect || ro->negligible_s != jc->negligible_s)))
        return error("runs, max-runs, min-effect and negligible differ from the first job's: "
                     "interleaved jobs run in rounds, so set them in [global]");
    return 0;
}

void job_rounds_setup(struct job_rounds *jr, struct runner_opts *outer,
                      const struct job_rounds_common *jc, struct runner_opts *const *ro,
                      const char *const *name, const bool *left_out, size_t n)
{
    *outer = *ro[0];
    outer->nconfigs = 0;
    *jr = (struct job_rounds){.runs = jc->runs,
                              .warmup = ro[0]->warmup,
                              .seed = ro[0]->order_seed,
                              .until_verdict = ro[0]->until_verdict,
                              .confidence = ro[0]->confidence,
                              .min_effect = ro[0]->min_effect,
                              .negligible_s = ro[0]->negligible_s};
    for (size_t i = 0; i < n; i++) {
        if (left_out[i])
            continue; /* --skip-bad: none of its configurations can run */
        size_t j = jr->n++;
        jr->ro[j] = ro[i];
        jr->name[j] = name[i];
        size_t nc = ro[i]->nconfigs ? ro[i]->nconfigs : 1;
        for (size_t k = 0; k < nc && outer->nconfigs < RUNNER_MAX_CONFIGS; k++)
            job_rounds_config_name(name[i], ro[i]->nconfigs ? ro[i]->configs[k].name : "",
                                   outer->configs[outer->nconfigs++].name,
                                   sizeof outer->configs[0].name);
    }
}

/* The set's description from the first job's first run (label, scenario, command line
 * and job text stay the caller's), its configurations every job's in file order, and its
 * stop rule. */
static void describe(struct run_set *rs, const struct run_set *from, const struct job_rounds *jr)
{
    rs->schema_version = from->schema_version;
    rs->created = from->created;
    rs->root = from->root;
    snprintf(rs->engine, sizeof rs->engine, "%s", from->engine);
    rs->machine = from->machine;
    rs->target = from->target;
    rs->tree = from->tree;
    size_t used = 0;
    rs->target.configs[0] = '\0';
    for (size_t i = 0; i < jr->n; i++) {
        size_t nc = jr->ro[i]->nconfigs ? jr->ro[i]->nconfigs : 1;
        for (size_t k = 0; k < nc; k++) {
            char name[RES_NAME_MAX];
            job_rounds_config_name(jr->name[i],
                                   jr->ro[i]->nconfigs ? jr->ro[i]->configs[k].name : "", name,
                                   sizeof name);
            int w = snprintf(rs->target.configs + used, sizeof rs->target.configs - used, "%s%s",
                             used ? "\n" : "", name);
            if (w < 0 || (size_t)w >= sizeof rs->target.configs - used)
                return;
            used += (size_t)w;
        }
    }
    /* each job's own threads, mkfs options, trace and extract calls */
    rs->nwork = 0;
    for (size_t i = 0; i < jr->n && i < RES_WORK_MAX; i++)
        runner_work(jr->ro[i], jr->name[i], &rs->work[rs->nwork++]);
    if (jr->until_verdict)
        runner_stop_rule(&rs->stop, "until-verdict", jr->confidence, jr->min_effect,
                         jr->negligible_s,
                         jr->runs - jr->warmup);
}

/* A job's run, copied into the one set with its round and configuration name. */
static int forward(void *arg, const struct run_set *jrs, const struct run_result *run)
{
    struct fwd *f = arg;
    if (!f->described) {
        describe(f->rs, jrs, f->jr);
        f->described = true;
        if (f->outer->set_ready && f->outer->set_ready(f->outer->arg, f->rs) < 0)
            return -1;
    }
    f->rs->warm_cache |= jrs->warm_cache;
    struct run_result *r = run_set_add_run(f->rs, run->nphases);
    if (!r)
        return -1;
    r->round = f->round;
    r->warmup = run->warmup;
    r->interrupted = run->interrupted;
    r->started = run->started;
    job_rounds_config_name(f->job, run->config, r->config, sizeof r->config);
    /* the job's scratch set frees its own arrays: the run set gets copies of them */
    for (size_t p = 0; p < run->nphases; p++)
        if (phase_result_copy(&r->phases[p], &run->phases[p]) < 0) {
            r->nphases = p;
            return -1;
        }
    return f->outer->run_done ? f->outer->run_done(f->outer->arg, f->rs, r) : 0;
}

/* Whether a job's run is made: from what the one set holds under the job's configuration
 * name and this round (a failed configuration stays out, a run made before is not made
 * again). */
static int plan(void *arg, const char *config, unsigned round)
{
    struct fwd *f = arg;
    char name[RES_NAME_MAX];
    (void)round; /* a job's runner makes round 0: the set's round is f->round */
    job_rounds_config_name(f->job, config, name, sizeof name);
    return runner_plan_from(f->rs, name, f->round);
}

int job_rounds_run(const struct job_rounds *jr, const struct runner_opts *outer, struct run_set *rs)
{
    size_t order[JOB_MAX_JOBS];
    struct fwd f = {.jr = jr, .outer = outer, .rs = rs};
    int failed = 0;
    for (unsigned r = 0; r < jr->runs; r++) {
        runner_round_order(jr->seed, r, jr->n, order);
        for (size_t i = 0; i < jr->n; i++) {
            if (phase_interrupt) {
                char name[32];
                return error("interrupted by %s", sig_name(phase_interrupt, name, sizeof name));
            }
            struct runner_opts o = *jr->ro[order[i]];
            o.runs = 1;
            o.runs_auto = false;
            o.until_verdict = false;
            o.warmup = r < jr->warmup;
            o.order_seed = jr->seed + r; /* a job's own configurations: a new order a round */
            o.set_ready = NULL;
            o.run_done = forward;
            o.arg = &f;
            o.plan = plan;
            o.plan_arg = &f;
            o.fail_fast = outer->fail_fast;
            f.job = jr->name[order[i]];
            f.round = r;
            /* nothing of this job left in this round: no target made for nothing */
            bool any = false;
            for (size_t k = 0; k < (o.nconfigs ? o.nconfigs : 1) && !any; k++)
                any = plan(&f, o.nconfigs ? o.configs[k].name : "", r) == RUNNER_RUN;
            if (!any) {
                for (size_t k = 0; k < (o.nconfigs ? o.nconfigs : 1); k++)
                    failed |= plan(&f, o.nconfigs ? o.configs[k].name : "", r) == RUNNER_FAILED;
                continue;
            }
            struct run_set scratch = {0};
            int rc = runner_run(&o, &scratch, NULL);
            run_set_free(&scratch);
            if (rc < 0)
                return -1; /* runner_run said why */
            failed |= rc == 1;
        }
        /* every phase of every job has its verdict (the first job's hooks: rank 0's answer) */
        if (jr->until_verdict && r + 1 >= jr->warmup + SEQ_FIRST_LOOK &&
            runner_verdicts_reached(jr->ro[0], rs))
            break;
    }
    return failed;
}
