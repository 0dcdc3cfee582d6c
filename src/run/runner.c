/* runner.c — the measured loop: rounds x configurations x phases (see runner.h). The
 * set's record before the first run is runner_describe.c's, when to stop runner_stop.c's. */
#include "run/runner.h"
#include "run/runner_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/sig.h"
#include "measure/measure.h"
#include "os/cputime.h"
#include "run/probe_dir.h"
#include "run/progress.h"
#include "run/work_expect.h"
#include "stats/seqtest.h"
#include "phase/phase_registry.h"
#include "phase/workload.h"
#include "phase/workspace.h"

#define IO_BUF_SIZE RUNNER_IO_BUF_SIZE

/* What the runs share: the workspace, the managed target, buffers and counters. */
struct env {
    const struct runner_opts *o;
    struct run_set *rs;
    struct workspace ws;
    bool clean_failed;          /* a failed run's line said the directory stays unclean */
    struct target *tgt;
    const char *mkfs_done;      /* fstype of the last mkfs (keep_fs) */
    struct runner_auto *ra;     /* --runs auto's decision */
    struct os_blockdev dev;
    unsigned nworkers;          /* threads (-j) */
    struct eng_worker *w;       /* o->eng's workers [nworkers] */
    struct eng_worker *wa;      /* o->async_eng's workers, when they started (same opstats) */
    struct opstats **st;        /* each worker's counters */
    struct opstats *sum;        /* their merge, per phase */
    const struct engine *async_eng;
    void **buf;                 /* each worker's I/O buffer */
    struct tree_spec tree;      /* o->tree with its content pattern made once, untimed */
    struct progress *prog;      /* the live progress line, or NULL */
    bool failed[RUNNER_MAX_CONFIGS];        /* configurations that failed: left out of the rest */
    bool failed_before[RUNNER_MAX_CONFIGS]; /* ... before this set began (a resumed one) */
    size_t nfailed;
};

static double unix_now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void runner_round_order(uint64_t seed, unsigned round, size_t n, size_t *order)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    uint64_t state = mix64(seed ^ mix64(round + 0x5eedull));
    for (size_t i = n; i > 1; i--) {
        state = mix64(state);
        size_t j = (size_t)(state % i);
        size_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

static double tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* Runs one phase with full measurement into *res. 0 or -1 (res->status/note say why). */
static int measure_phase(struct env *env, const struct phase_def *ph, struct phase_ctx *ctx)
{
    struct phase_result *res = ctx->res;
    snprintf(res->name, sizeof res->name, "%s", ph->name);
    if (ctx->ws_fd < 0 && !(ph->flags & PHASE_NEEDS_TARGET)) {
        res->status = PHASE_FAILED;
        snprintf(res->note, sizeof res->note,
                 "the target is not mounted (put a mount phase before %s)", ph->name);
        return -1;
    }
    /* untimed: what the phase needs in place before its clocks start (replay's state) */
    if (phase_setup(ph, ctx) < 0)
        return -1;
    for (unsigned i = 0; i < env->nworkers; i++)
        opstats_reset(env->st[i]);
    struct meas_snap a, b;
    struct rusage ta, tb;
    const struct phase_hooks *hk = env->o->hooks;
    struct meas_sampler_cfg scfg = {
        .workers = env->st, .n = env->nworkers, .interval_ms = env->o->interval_ms,
        .dev = &env->dev, .stall_s = env->o->stall_s,
        .tick = env->prog ? progress_tick : NULL, .tick_arg = env->prog,
    };
    struct meas_sampler *smp = meas_sampler_begin(&scfg);
    if (hk && hk->phase_start)
        hk->phase_start(hk->arg, ph, ctx);
    meas_snap_take(&a, &env->dev);
    int thr = os_thread_rusage(&ta) == 0;
    int rc = ph->run(ctx);
    /* Queued operations belong to this phase: complete them inside its time. */
    int d = ctx->eng->drain(ctx->w);
    if (d < 0 && rc == 0)
        rc = phase_fail(ctx, "complete queued operations of", ph->name, d);
    /* A signal during a phase that never looks (sync, the mount cycle) stops the run
     * here, named after that phase, not at the next phase that does. */
    if (rc == 0 && phase_interrupt)
        rc = phase_check_interrupt(ctx);
    if (hk && hk->phase_stop)
        hk->phase_stop(hk->arg, ctx);
    thr = thr && os_thread_rusage(&tb) == 0;
    meas_snap_take(&b, &env->dev);
    if (smp)
        meas_sampler_stop(smp, res);
    meas_snap_delta(&a, &b, res);
    if (thr && !(ctx->eng->caps & ENG_CAP_ASYNC)) {
        /* the phase's threads (not the sampler) plus waited-for children (runner.h) */
        res->user_s = tv_s(tb.ru_utime) - tv_s(ta.ru_utime) + ctx->helper_user_s +
                      tv_s(b.children.ru_utime) - tv_s(a.children.ru_utime);
        res->sys_s = tv_s(tb.ru_stime) - tv_s(ta.ru_stime) + ctx->helper_sys_s +
                     tv_s(b.children.ru_stime) - tv_s(a.children.ru_stime);
    }
    opstats_reset(env->sum);
    for (unsigned i = 0; i < env->nworkers; i++)
        opstats_merge(env->sum, env->st[i]);
    opstats_to_result(env->sum, res);
    if (hk && hk->phase_end)
        rc = hk->phase_end(hk->arg, ctx, rc);
    return rc;
}

/* Gets a managed target ready for a run of configuration c: mkfs (fresh, or when the file
 * system type changes with keep_fs) and, unless the scenario mounts first, mount. */
static int prepare_target(struct env *env, const struct runner_config *c)
{
    const struct runner_opts *o = env->o;
    if (target_is_mounted(env->tgt)) {
        ws_release(&env->ws);
        if (target_umount(env->tgt) < 0)
            return -1;
    }
    if (!o->keep_fs || !env->mkfs_done || strcmp(env->mkfs_done, c->fstype)) {
        if (target_set_fs(env->tgt, c->fstype) < 0 || target_mkfs(env->tgt) < 0)
            return -1;
        env->mkfs_done = c->fstype;
    }
    if (o->nphases && !(o->phases[0]->flags & PHASE_NEEDS_TARGET)) {
        if (target_mount(env->tgt, c->mount_opts) < 0)
            return -1;
        if (ws_open_managed(&env->ws, target_mount_point(env->tgt)) < 0)
            return -1;
    }
    return 0;
}

/* Leaves a managed target unmounted after a run (untimed). */
static int finish_target(struct env *env)
{
    ws_release(&env->ws);
    if (target_is_mounted(env->tgt) && target_umount(env->tgt) < 0)
        return -1;
    return 0;
}

/* Removes a writing probe's directory after its run (untimed): the next step ages on from
 * what aging alone left. 0, or -1 after error(). */
static int probe_remove(struct env *env, const struct runner_opts *o)
{
    struct phase_result *scratch = calloc(1, sizeof *scratch);
    if (!scratch)
        return error("out of memory");
    struct phase_ctx ctx = {.eng = o->eng, .w = &env->w[0], .ws_fd = env->ws.fd,
                            .res = scratch, .params = &o->params};
    int rc = probe_dir_remove(&ctx, env->ws.fd);
    free(scratch);
    return rc;
}

/* With --keep-fs, a scenario that ages keeps its tree between runs. */
static bool keeps_tree(const struct runner_opts *o)
{
    if (!o->keep_fs)
        return false;
    for (size_t p = 0; p < o->nphases; p++)
        if (o->phases[p]->flags & PHASE_KEEPS_TREE)
            return true;
    return false;
}

int runner_plan_from(const struct run_set *rs, const char *config, unsigned round)
{
    int plan = RUNNER_RUN;
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *r = &rs->runs[i];
        if (r->interrupted || strcmp(r->config, config))
            continue;
        if (r->round == round)
            return RUNNER_DONE; /* made (finished, or the one that failed) */
        for (size_t p = 0; p < r->nphases; p++)
            if (r->phases[p].status == PHASE_FAILED)
                plan = RUNNER_FAILED;
    }
    return plan;
}

/* Configuration ci failed in round `round` of this set: left out of its later rounds. */
static void mark_failed(struct env *env, size_t ci, unsigned round)
{
    if (ci < RUNNER_MAX_CONFIGS && !env->failed[ci]) {
        env->failed[ci] = true;
        env->nfailed++;
        progress_runs_dropped(env->prog, env->o->runs > round + 1 ? env->o->runs - round - 1 : 0);
    }
}

/* Whether run (c, round) is to be made: not when its configuration failed, nor when the
 * caller's plan says it was made before. */
static bool wanted(struct env *env, const struct runner_config *c, size_t ci, unsigned round)
{
    const struct runner_opts *o = env->o;
    if (ci < RUNNER_MAX_CONFIGS && env->failed[ci])
        return false;
    int plan = o->plan ? o->plan(o->plan_arg, c ? c->name : "", round) : RUNNER_RUN;
    if (plan == RUNNER_FAILED) {
        /* it failed before this set began (a resumed set): each of its rounds is one run
         * fewer, as it comes */
        if (ci < RUNNER_MAX_CONFIGS && !env->failed_before[ci])
            env->nfailed++;
        if (ci < RUNNER_MAX_CONFIGS)
            env->failed_before[ci] = true;
        progress_runs_dropped(env->prog, 1);
    }
    return plan == RUNNER_RUN;
}

/* A failed run whose configuration is left out from now on, and the set goes on: the one
 * error line, the target unmounted. 1, or -1 when the set cannot go on. */
static int config_failed(struct env *env, const struct runner_config *c, size_t ci,
                         const struct run_result *run)
{
    const struct runner_opts *o = env->o;
    size_t n = o->nconfigs ? o->nconfigs : 1;
    mark_failed(env, ci, run->round);
    const struct phase_result *pr = &run->phases[run->nphases - 1];
    if (env->nfailed < n)
        error("run %u of %s (round %u), phase %s: %s; %s is left out of the rest of the set "
              "(--fail-fast would stop it)",
              run->index + 1, c->name, run->round + 1, pr->name, pr->note, c->name);
    else
        error("run %u%s%s, phase %s: %s", run->index + 1, c && c->name[0] ? " of " : "",
              c ? c->name : "", pr->name, pr->note);
    return env->tgt && finish_target(env) < 0 ? -1 : 1;
}

/* A failed managed target (mkfs, mount) before the first phase of a run: the run, with that
 * failure as its first phase's, for the caller's failure path. NULL when out of memory. */
static struct run_result *setup_failed(struct env *env, const struct runner_config *c,
                                       unsigned round, const char *why)
{
    const struct runner_opts *o = env->o;
    struct run_result *run = run_set_add_run(env->rs, 1);
    if (!run)
        return NULL;
    run->round = round;
    run->started = unix_now();
    run->warmup = round < o->warmup;
    snprintf(run->config, sizeof run->config, "%s", c ? c->name : "");
    struct phase_result *pr = &run->phases[0];
    snprintf(pr->name, sizeof pr->name, "%s", o->nphases ? o->phases[0]->name : "setup");
    pr->status = PHASE_FAILED;
    snprintf(pr->note, sizeof pr->note, "making its file system ready before it: %s",
             why[0] ? why : "failed");
    return run;
}

static int run_one(struct env *env, const struct runner_config *c, unsigned round)
{
    const struct runner_opts *o = env->o;
    struct run_set *rs = env->rs;
    if (phase_interrupt) {
        char name[32];
        return error("interrupted by %s", sig_name(phase_interrupt, name, sizeof name));
    }
    size_t ci = c ? (size_t)(c - o->configs) : 0;
    if (!wanted(env, c, ci, round))
        return 0;
    if (env->tgt && !o->fail_fast) {
        /* a target that cannot be made ready fails this configuration, not the set */
        char why[RES_NOTE_MAX] = "";
        err_capture_begin(why, sizeof why);
        int prc = prepare_target(env, c);
        err_capture_end();
        if (prc < 0) {
            struct run_result *run = setup_failed(env, c, round, why);
            if (!run)
                return -1;
            progress_run_end(env->prog, run, meas_now_ns());
            if (o->run_done && o->run_done(o->arg, rs, run) < 0)
                return -1;
            return config_failed(env, c, ci, run);
        }
    } else if (env->tgt ? prepare_target(env, c) < 0 : ws_clear(&env->ws) < 0) {
        return -1;
    }
    if (o->prepare) {
        char why[RES_NOTE_MAX];
        if (phase_run_command(o->prepare, why, sizeof why) < 0)
            return error("--prepare: %s", why);
    }
    if (env->tgt && env->ws.fd >= 0 && !keeps_tree(o) && ws_clear(&env->ws) < 0)
        return -1;
    struct run_result *run = run_set_add_run(rs, o->nphases);
    if (!run)
        return -1;
    run->round = round;
    run->started = unix_now();
    snprintf(run->config, sizeof run->config, "%s", c ? c->name : "");
    /* Every configuration of a round makes the same random choices. */
    uint64_t run_seed = mix64(o->tree.seed ^ mix64((uint64_t)round + 1));
    int failed = 0;
    size_t done = 0;
    bool probe = o->probe_dir && c && c->age_step;
    run->warmup = round < o->warmup;
    for (size_t p = 0; p < o->nphases && !failed; p++) {
        struct phase_ctx ctx = {
            .eng = o->eng, .w = &env->w[0], .ws_fd = env->ws.fd, .tree = &env->tree,
            .tar = o->tar, .res = &run->phases[p], .root = rs->root, .buf = env->buf[0],
            .buflen = IO_BUF_SIZE, .workers = env->w, .bufs = env->buf,
            .nworkers = env->nworkers,
            .tgt = env->tgt, .ws = env->tgt ? &env->ws : NULL,
            .mount_opts = c ? c->mount_opts : NULL, .params = &o->params,
            .command = c ? c->command : NULL,
            .seed = run_seed,
            .age_until_x = c ? c->age_until_x : 0,
            .age_step = c && c->age_step,
        };
        /* io_uring only where measured faster: reads on a block device (on tmpfs, where
         * every read completes at once, batching only adds work). Archives replace
         * entries on EEXIST, which needs synchronous errors. */
        if (env->async_eng && (o->phases[p]->flags & PHASE_ASYNC_GAINS) && env->dev.valid &&
            !o->tar) {
            ctx.eng = env->async_eng;
            ctx.w = &env->wa[0];
            ctx.workers = env->wa;
        }
        progress_phase_begin(env->prog, run->config, round, p, o->phases[p]->name, meas_now_ns());
        /* a writing probe of --age-steps: the phases after age work in probe/ */
        int probe_fd = probe && p > 0 ? probe_dir_open(&ctx, env->ws.fd, p == 1) : -1;
        if (probe && p > 0 && probe_fd < 0)
            failed = 1;
        else if (probe_fd >= 0)
            ctx.ws_fd = probe_fd;
        if (!failed && measure_phase(env, o->phases[p], &ctx) < 0)
            failed = 1;
        if (probe_fd >= 0)
            close(probe_fd);
        progress_phase_end(env->prog, &run->phases[p]);
        if (run->phases[p].status == PHASE_SKIPPED && !strcmp(o->phases[p]->name, "dropcaches"))
            rs->warm_cache = true;
        done = p + 1;
    }
    run->nphases = done;
    if (probe && env->ws.fd >= 0 && probe_remove(env, o) < 0)
        return -1;
    run->interrupted = failed && phase_interrupt;
    progress_run_end(env->prog, run, meas_now_ns());
    if (o->run_done && o->run_done(o->arg, rs, run) < 0)
        return -1;
    if (failed && !run->interrupted && !o->fail_fast &&
        (env->tgt || env->nfailed + 1 < (o->nconfigs ? o->nconfigs : 1)))
        return config_failed(env, c, ci, run);
    if (failed && !run->interrupted)
        mark_failed(env, ci, round);
    if (failed) {
        /* No run follows a failed one: release the directory now, so that a cleanup that
         * fails too (a read-only file system) is told in the same one line. */
        char left[512] = "";
        if (!env->tgt && env->ws.fd >= 0) {
            err_capture_begin(left, sizeof left);
            if (ws_close(&env->ws) == 0)
                left[0] = '\0';
            else
                env->clean_failed = true;
            err_capture_end();
        }
        const struct phase_result *pr = &run->phases[done - 1];
        int rc = error("run %zu%s%s, phase %s: %s%s%s", rs->nruns, c && c->name[0] ? " of " : "",
                       c ? c->name : "", pr->name, pr->note, left[0] ? "; " : "", left);
        /* its configuration failed and no other is left: the set is at its end */
        return run->interrupted || o->fail_fast ? rc : 1;
    }
    if (env->tgt && finish_target(env) < 0)
        return -1;
    return 0;
}

/* --runs auto: is every phase of every configuration precise enough? Fills env->ra. */
static bool precise_enough(struct env *env)
{
    return runner_precise_enough(env->o, env->rs, env->failed, env->failed_before, env->ra);
}

static int run_all(struct env *env)
{
    const struct runner_opts *o = env->o;
    size_t n = o->nconfigs ? o->nconfigs : 1;
    size_t order[RUNNER_MAX_CONFIGS];
    if (o->no_interleave) {
        for (size_t c = 0; c < n; c++) {
            const char *cfg = o->nconfigs ? o->configs[c].name : "";
            for (unsigned r = 0; r < o->runs; r++) {
                if (run_one(env, o->nconfigs ? &o->configs[c] : NULL, r) < 0)
                    return -1;
                if (r + 1 > env->ra->rounds)
                    env->ra->rounds = r + 1;
                if (o->round_stop && r + 1 > o->warmup &&
                    o->round_stop(o->round_stop_arg, env->rs))
                    break;
                if (!o->runs_auto || r + 1 < o->warmup + 3)
                    continue;
                /* batches: each configuration until its own medians are precise */
                if (runner_config_precise(o, env->rs, cfg))
                    break;
            }
        }
        if (o->runs_auto)
            precise_enough(env);
        return 0;
    }
    for (unsigned r = 0; r < o->runs; r++) {
        runner_round_order(o->order_seed, r, n, order);
        if (o->hooks && o->hooks->round_order)
            o->hooks->round_order(o->hooks->arg, order, n);
        for (size_t i = 0; i < n; i++)
            if (run_one(env, o->nconfigs ? &o->configs[order[i]] : NULL, r) < 0)
                return -1;
        if (env->ra)
            env->ra->rounds = r + 1;
        if (o->runs_auto && r + 1 >= o->warmup + 3 && precise_enough(env))
            break;
        if (o->until_verdict && r + 1 >= o->warmup + SEQ_FIRST_LOOK &&
            runner_verdicts_reached(o, env->rs))
            break;
        if (o->round_stop && r + 1 > o->warmup && o->round_stop(o->round_stop_arg, env->rs))
            break;
    }
    if (o->runs_auto)
        precise_enough(env);
    return 0;
}


/* Sets up the workspace or the managed target. 0 or -1 after error(). */
static int setup(struct env *env)
{
    const struct runner_opts *o = env->o;
    env->ws.fd = -1;
    if (!o->tspec) {
        if ((o->ws_join ? ws_join(&env->ws, o->dir) : ws_open(&env->ws, o->dir)) < 0)
            return -1;
        if (meas_dev_for_path(env->ws.path, &env->dev) < 0)
            env->dev.valid = false;
        env->rs->created = unix_now();
        runner_describe_set(o, env->rs, NULL, &env->dev, env->ws.path);
        return 0;
    }
    env->tgt = target_create(o->tspec);
    if (!env->tgt)
        return -1;
    if (meas_dev_for_node(target_device(env->tgt), &env->dev) < 0)
        env->dev.valid = false;
    env->rs->created = unix_now();
    runner_describe_set(o, env->rs, env->tgt, &env->dev, target_mount_point(env->tgt));
    return 0;
}

/* Releases everything, even after an interrupt. 0 or -1 after error(). */
static int teardown(struct env *env)
{
    int rc = 0;
    const struct runner_opts *o = env->o;
    struct run_set *rs = env->rs;
    if (env->tgt) {
        ws_release(&env->ws);
        if (o->keep_image && rs->nruns > 0 &&
            target_keep(env->tgt, rs->label[0] ? rs->label : "kept", rs->kept_path,
                        sizeof rs->kept_path) == 0)
            snprintf(rs->kept_kind, sizeof rs->kept_kind, "%s",
                     o->tspec->device ? "device" : "image");
        if (target_destroy(env->tgt) < 0)
            rc = -1;
        env->tgt = NULL;
    } else {
        char said[512]; /* already told with the failed run */
        if (env->clean_failed)
            err_capture_begin(said, sizeof said);
        if (o->keep_image && !o->ws_join && env->ws.fd >= 0 && rs->nruns > 0) {
            if (ws_keep(&env->ws, rs->kept_path, sizeof rs->kept_path) < 0)
                rc = -1;
            snprintf(rs->kept_kind, sizeof rs->kept_kind, "tree");
        } else if (ws_close(&env->ws) < 0) {
            rc = -1;
        }
        err_capture_end();
    }
    return rc;
}

/* Allocates the workers' counters and buffers. 0 or -1 after error(). */
static int alloc_workers(struct env *env, unsigned n)
{
    env->nworkers = n;
    env->w = calloc(n, sizeof *env->w);
    env->wa = calloc(n, sizeof *env->wa);
    env->st = calloc(n, sizeof *env->st);
    env->buf = calloc(n, sizeof *env->buf);
    env->sum = calloc(1, sizeof *env->sum);
    if (!env->w || !env->wa || !env->st || !env->buf || !env->sum)
        return error("out of memory");
    for (unsigned i = 0; i < n; i++) {
        env->st[i] = calloc(1, sizeof *env->st[i]);
        env->buf[i] = malloc(IO_BUF_SIZE);
        if (!env->st[i] || !env->buf[i])
            return error("out of memory");
        env->w[i].st = env->wa[i].st = env->st[i];
    }
    return 0;
}

static void free_workers(struct env *env)
{
    for (unsigned i = 0; i < env->nworkers; i++) {
        if (env->st)
            free(env->st[i]);
        if (env->buf)
            free(env->buf[i]);
    }
    free(env->w);
    free(env->wa);
    free(env->st);
    free(env->buf);
    free(env->sum);
}

/* Starts `n` workers of engine e in w[]: how many started (all, or stops at the first
 * failure). */
static unsigned start_workers(const struct engine *e, struct eng_worker *w, unsigned n)
{
    unsigned i = 0;
    while (i < n && (!e->worker_init || e->worker_init(&w[i]) == 0))
        i++;
    return i;
}

static void stop_workers(const struct engine *e, struct eng_worker *w, unsigned n)
{
    for (unsigned i = 0; e->worker_fini && i < n; i++)
        e->worker_fini(&w[i]);
}

/* The progress of the set (run/progress.h), with each phase's operations known from the
 * tree before it runs, and the runs the set holds from before; NULL when it cannot be. */
static struct progress *start_progress(struct env *env)
{
    const struct runner_opts *o = env->o;
    uint64_t *expect = calloc(o->nphases ? o->nphases : 1, sizeof *expect);
    struct work_tree w;
    if (expect && work_tree_count(&env->tree, o->tar, IO_BUF_SIZE, &w) == 0) {
        w.copy_offload = (o->eng->caps & ENG_CAP_COPY_OFFLOAD) != 0;
        work_expect(o->phases, o->nphases, &w, &o->params, expect);
    }
    unsigned total = o->runs * (unsigned)(o->nconfigs ? o->nconfigs : 1);
    struct progress *p =
        progress_new(STDERR_FILENO, isatty(STDERR_FILENO), total, o->nphases, expect);
    free(expect);
    for (size_t i = 0; p && i < env->rs->nruns; i++)
        progress_run_known(p, &env->rs->runs[i]);
    return p;
}

int runner_run(const struct runner_opts *o, struct run_set *rs, struct runner_auto *ra)
{
    struct runner_auto scratch;
    struct env env = {.o = o, .rs = rs, .ra = ra ? ra : &scratch};
    memset(env.ra, 0, sizeof *env.ra);
    unsigned n = o->threads ? o->threads : 1;
    int rc = 0;
    if (n > RUNNER_MAX_THREADS)
        rc = error("threads: at most %d, got %u", RUNNER_MAX_THREADS, n);
    if (rc == 0)
        rc = alloc_workers(&env, n);
    meas_op_clock_init(); /* before any operation is stamped */
    unsigned char *pattern = NULL;
    env.tree = o->tree;
    if (rc == 0 && o->tree.prof && !o->tree.pattern) {
        if (!(pattern = tree_pattern_new(o->tree.seed)))
            rc = -1;
        env.tree.pattern = pattern;
    }
    if (rc == 0)
        rc = setup(&env);
    phase_age_steps_reset(); /* age steps start on the fresh file system */
    unsigned started = 0, astarted = 0;
    if (rc == 0) {
        started = start_workers(o->eng, env.w, n);
        if (started < n)
            rc = error("engine %s: cannot start worker %u of %u", o->eng->name, started + 1, n);
    }
    if (rc == 0 && o->async_eng) {
        astarted = start_workers(o->async_eng, env.wa, n);
        if (astarted == n)
            env.async_eng = o->async_eng;
        snprintf(rs->engine, sizeof rs->engine, "auto: %s%s", env.async_eng ? "" : "all ",
                 o->eng->name);
        if (env.async_eng)
            snprintf(rs->engine, sizeof rs->engine, "auto: %s, %s for reads%s", o->eng->name,
                     o->async_eng->name, env.dev.valid ? "" : " on a block device (none)");
    }
    /* The thread count is part of how the runs were made: keep it with the engine. */
    if (n > 1) {
        size_t used = strlen(rs->engine);
        snprintf(rs->engine + used, sizeof rs->engine - used, ", -j %u", n);
    }
    /* every rank reaches this hook, also after a local failure (phase_hooks.h) */
    if (o->hooks && o->hooks->set_ready && o->hooks->set_ready(o->hooks->arg, rs, rc) < 0)
        rc = -1;
    if (rc == 0 && o->set_ready)
        rc = o->set_ready(o->arg, rs);
    if (rc == 0 && o->progress)
        env.prog = start_progress(&env);
    if (rc == 0)
        rc = run_all(&env);
    if (rc == 0 && env.nfailed)
        rc = 1; /* to its end, without the configurations that failed */
    progress_free(env.prog);
    if (o->async_eng)
        stop_workers(o->async_eng, env.wa, astarted);
    stop_workers(o->eng, env.w, started);
    if (teardown(&env) < 0)
        rc = -1;
    free_workers(&env);
    free(pattern);
    return rc;
}
