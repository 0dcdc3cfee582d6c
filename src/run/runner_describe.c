/* runner_describe.c — what a set's record says about its runs before the first one: the
 * machine, the target and its file systems, the configurations in their declared order,
 * the tree or trace the runs start from, what changes their work (struct run_work) and
 * the stop rule of a set that looks at its results after every round. It runs nothing.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "measure/measure.h"
#include "phase/tarcalls.h"
#include "run/runner_internal.h"
#include "stats/seqtest.h"
#include "tree/tarsrc.h"
#include "trace/trace_read.h"

const char *runner_target_kind(const struct runner_opts *o)
{
    if (o->tspec && o->tspec->device)
        return "device";
    return o->tspec ? "image" : "directory";
}

void runner_describe_set(const struct runner_opts *o, struct run_set *rs, struct target *tgt,
                         const struct os_blockdev *dev, const char *path)
{
    rs->schema_version = RESULTS_SCHEMA_VERSION;
    rs->root = geteuid() == 0;
    snprintf(rs->engine, sizeof rs->engine, "%s", o->eng->name);
    meas_machine_probe(&rs->machine);
    if (meas_target_probe(path, &rs->target) < 0)
        snprintf(rs->target.path, sizeof rs->target.path, "%s", path);
    if (tgt) {
        /* probed before the first mount: the path's file system is the one below it */
        snprintf(rs->target.mount_point, sizeof rs->target.mount_point, "%s", path);
        snprintf(rs->target.device, sizeof rs->target.device, "%s", target_device(tgt));
        /* every configuration's file system, each once: "ext4+xfs" for a matrix of both */
        size_t fl = 0;
        rs->target.fstype[0] = '\0';
        for (size_t i = 0; i < o->nconfigs; i++) {
            const char *fs = o->configs[i].fstype;
            bool seen = false;
            for (size_t j = 0; j < i && !seen; j++)
                seen = !strcmp(o->configs[j].fstype, fs);
            int n = seen ? 0 : snprintf(rs->target.fstype + fl, sizeof rs->target.fstype - fl,
                                        "%s%s", fl ? "+" : "", fs);
            if (n < 0 || (size_t)n >= sizeof rs->target.fstype - fl)
                break;
            fl += (size_t)n;
        }
        snprintf(rs->target.mount_opts, sizeof rs->target.mount_opts, "per configuration");
    }
    snprintf(rs->target.blockdev, sizeof rs->target.blockdev, "%s",
             dev->valid ? dev->name : "");
    snprintf(rs->target.kind, sizeof rs->target.kind, "%s", runner_target_kind(o));
    if (o->until_verdict || o->runs_auto)
        runner_stop_rule(&rs->stop, o->until_verdict ? "until-verdict" : "auto", o->confidence,
                         o->min_effect, o->negligible_s, o->runs - o->warmup);
    /* the declared order: the first configuration is the baseline verdicts are against */
    size_t used = 0;
    for (size_t i = 0; i < o->nconfigs; i++) {
        int n = snprintf(rs->target.configs + used, sizeof rs->target.configs - used, "%s%s",
                         i ? "\n" : "", o->configs[i].name);
        if (n < 0 || (size_t)n >= sizeof rs->target.configs - used)
            break;
        used += (size_t)n;
    }
    /* what changes the work, as fields (a job's rounds put one record a job instead) */
    runner_work(o, "", &rs->work[0]);
    rs->nwork = 1;
    struct tree_info *ti = &rs->tree;
    if (o->params.replay && !o->tar) {
        /* a replay: the tree is the trace's initial state */
        const struct trace_info *in = trace_file_info(o->params.replay);
        snprintf(ti->profile, sizeof ti->profile, "trace:%s",
                 trace_file_path(o->params.replay));
        ti->scale = 1;
        ti->files = in->nstate;
        ti->bytes = in->state_bytes;
        return;
    }
    if (o->tar) {
        struct tarent_totals tt;
        tarsrc_measure(o->tar, &tt);
        snprintf(ti->profile, sizeof ti->profile, "tar:%s", tarsrc_path(o->tar));
        ti->scale = 1;
        ti->files = tt.files + tt.hardlinks;
        ti->dirs = tt.dirs;
        ti->symlinks = tt.symlinks;
        ti->bytes = tt.bytes;
        return;
    }
    if (!o->tree.prof)
        return; /* fsbench cmd: no tree */
    snprintf(ti->profile, sizeof ti->profile, "%s", o->tree.prof->name);
    ti->scale = o->tree.scale;
    ti->seed = o->tree.seed;
    struct tree_totals tt;
    if (tree_measure(&o->tree, &tt) == 0) {
        ti->files = tt.files;
        ti->dirs = tt.dirs;
        ti->symlinks = tt.symlinks;
        ti->bytes = tt.bytes;
    }
}

void runner_work(const struct runner_opts *o, const char *config, struct run_work *w)
{
    memset(w, 0, sizeof *w);
    snprintf(w->config, sizeof w->config, "%s", config ? config : "");
    w->threads = o->threads ? o->threads : 1;
    if (o->tspec && o->tspec->mkfs_opts)
        snprintf(w->mkfs_opts, sizeof w->mkfs_opts, "%s", o->tspec->mkfs_opts);
    if (o->params.replay) {
        const char *path = trace_file_path(o->params.replay), *base = strrchr(path, '/');
        const struct trace_info *in = trace_file_info(o->params.replay);
        snprintf(w->trace, sizeof w->trace, "%s", base ? base + 1 : path);
        w->trace_calls = in->ncalls;
        w->trace_recorded_ns = in->started_unix_ns;
    }
    const char *calls = tarcalls_name(o->params.extract_calls);
    snprintf(w->extract_calls, sizeof w->extract_calls, "%s", calls ? calls : "tar");
    w->extract_version = RES_EXTRACT_VERSION;
}

void runner_stop_rule(struct stop_rule *st, const char *rule, double confidence, double min_effect,
                      double negligible_s, unsigned max_rounds)
{
    memset(st, 0, sizeof *st);
    snprintf(st->rule, sizeof st->rule, "%s", rule);
    snprintf(st->method, sizeof st->method, "mixture-sprt");
    snprintf(st->metric, sizeof st->metric, "wall");
    st->confidence = confidence;
    st->min_effect = min_effect;
    st->negligible_s = negligible_s;
    st->mixture_var = SEQ_MIXTURE_VAR;
    st->max_rounds = max_rounds;
}
