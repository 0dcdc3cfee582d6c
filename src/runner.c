/* runner.c — the measured loop: runs x phases in a workspace (see runner.h). */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "err.h"
#include "measure.h"
#include "workspace.h"

#define IO_BUF_SIZE (128 * 1024)

static double unix_now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

/* Runs one phase with full measurement into *res. 0 or -1 (res->status/note say why). */
static int measure_phase(const struct runner_opts *o, const struct phase_def *ph,
                         struct phase_ctx *ctx, const struct meas_dev *dev)
{
    struct phase_result *res = ctx->res;
    snprintf(res->name, sizeof res->name, "%s", ph->name);
    opstats_reset(ctx->w->st);
    struct opstats *workers[1] = {ctx->w->st};
    struct meas_snap a, b;
    struct meas_sampler *smp = meas_sampler_start(workers, 1, o->interval_ms);
    meas_snap_take(&a, dev);
    int rc = ph->run(ctx);
    meas_snap_take(&b, dev);
    if (smp)
        meas_sampler_stop(smp, res);
    meas_snap_delta(&a, &b, res);
    opstats_to_result(ctx->w->st, res);
    return rc;
}

static void describe_set(const struct runner_opts *o, struct run_set *rs,
                         const struct workspace *ws)
{
    rs->schema_version = RESULTS_SCHEMA_VERSION;
    rs->created = unix_now();
    rs->root = geteuid() == 0;
    snprintf(rs->engine, sizeof rs->engine, "%s", o->eng->name);
    meas_machine_probe(&rs->machine);
    if (meas_target_probe(ws->path, &rs->target) < 0)
        snprintf(rs->target.path, sizeof rs->target.path, "%s", ws->path);
    struct tree_info *ti = &rs->tree;
    snprintf(ti->profile, sizeof ti->profile, "%s", o->tree.prof->name);
    ti->scale = o->tree.scale;
    ti->seed = o->tree.seed;
}

static int run_phases(const struct runner_opts *o, struct run_set *rs, struct workspace *ws,
                      struct eng_worker *w, void *buf, const struct meas_dev *dev)
{
    for (unsigned i = 0; i < o->runs; i++) {
        if (ws_clear(ws) < 0)
            return -1;
        struct run_result *run = run_set_add_run(rs, o->nphases);
        if (!run)
            return -1;
        run->round = i;
        run->started = unix_now();
        int failed = 0;
        size_t done = 0;
        for (size_t p = 0; p < o->nphases && !failed; p++) {
            struct phase_ctx ctx = {
                .eng = o->eng, .w = w, .ws_fd = ws->fd, .tree = &o->tree,
                .res = &run->phases[p], .root = rs->root, .buf = buf, .buflen = IO_BUF_SIZE,
            };
            if (measure_phase(o, o->phases[p], &ctx, dev) < 0)
                failed = 1;
            if (run->phases[p].status == PHASE_SKIPPED &&
                strcmp(o->phases[p]->name, "dropcaches") == 0)
                rs->warm_cache = true;
            done = p + 1;
        }
        run->nphases = done;
        if (o->run_done && o->run_done(o->arg, rs, run) < 0)
            return -1;
        if (failed) {
            const struct phase_result *pr = &run->phases[done - 1];
            return error("run %u, phase %s: %s", i + 1, pr->name, pr->note);
        }
    }
    return 0;
}

int runner_run(const struct runner_opts *o, struct run_set *rs)
{
    struct workspace ws;
    if (ws_open(&ws, o->dir) < 0) {
        ws_close(&ws);
        return -1;
    }
    describe_set(o, rs, &ws);
    struct tree_totals tt;
    int rc = tree_measure(&o->tree, &tt);
    if (rc == 0) {
        rs->tree.files = tt.files;
        rs->tree.dirs = tt.dirs;
        rs->tree.symlinks = tt.symlinks;
        rs->tree.bytes = tt.bytes;
    }
    struct meas_dev dev;
    if (meas_dev_for_path(ws.path, &dev) < 0)
        dev.valid = false;
    snprintf(rs->target.blockdev, sizeof rs->target.blockdev, "%s", dev.valid ? dev.name : "");

    struct opstats *st = calloc(1, sizeof *st);
    void *buf = malloc(IO_BUF_SIZE);
    struct eng_worker w = {.st = st};
    if (!st || !buf)
        rc = error("out of memory");
    if (rc == 0 && o->eng->worker_init && o->eng->worker_init(&w) < 0)
        rc = error("engine %s: cannot start a worker", o->eng->name);
    if (rc == 0 && o->set_ready)
        rc = o->set_ready(o->arg, rs);
    if (rc == 0)
        rc = run_phases(o, rs, &ws, &w, buf, &dev);
    if (o->eng->worker_fini && st)
        o->eng->worker_fini(&w);
    free(buf);
    free(st);
    if (ws_close(&ws) < 0)
        rc = -1;
    return rc;
}
