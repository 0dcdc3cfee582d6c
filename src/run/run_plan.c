/* run_plan.c — `fsbench run --dry-run`: prints what one job would do, from
 * job_plan_compute(), touching nothing, and how long it would take: from the store's
 * earlier runs of the same job when it holds some, else from the work model
 * (run/duration.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "run/run_plan.h"
#include "results/store.h"
#include "run/duration.h"
#include "run/job_plan.h"
#include "run/job_rounds.h"

/* the newest sets of the store looked at for a job's measured runs */
#define PLAN_MAX_SETS 64

static void size_str(char *buf, size_t len, uint64_t b)
{
    if (b >= (1ull << 40))
        snprintf(buf, len, "%.2f TiB", (double)b / (1ull << 40));
    else if (b >= (1ull << 30))
        snprintf(buf, len, "%.2f GiB", (double)b / (1ull << 30));
    else
        snprintf(buf, len, "%.1f MiB", (double)b / (1ull << 20));
}

/* "13021456", or "about 1282921 (+-1.9%)" for an estimate. */
static void count_str(char *buf, size_t len, uint64_t v, double hw)
{
    if (hw > 0)
        snprintf(buf, len, "about %" PRIu64 " (+-%.2g%%)", v, v ? 100 * hw / (double)v : 0.0);
    else
        snprintf(buf, len, "%" PRIu64, v);
}

/* " (+-0.34%)" for an estimate's half-width, "" when exact. */
static void pct_str(char *buf, size_t len, double hw, uint64_t v)
{
    if (hw > 0 && v)
        snprintf(buf, len, " (+-%.2g%%)", 100 * hw / (double)v);
    else
        buf[0] = '\0';
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median wall of configuration cfg's kept runs in rs (a run's phases summed), their
 * number into *n; cfg matches the run's configuration as given or as an interleaved job's
 * ("JOB:cfg"). -1 when rs holds none of cfg with ro's phases. */
static double measured_run(const struct run_set *rs, const char *job, const char *cfg,
                           size_t nphases, unsigned *n)
{
    char alt[RES_NAME_MAX * 2];
    job_rounds_config_name(job, cfg, alt, sizeof alt);
    double *w = calloc(rs->nruns ? rs->nruns : 1, sizeof *w);
    size_t k = 0;
    for (size_t i = 0; w && i < rs->nruns; i++) {
        const struct run_result *r = &rs->runs[i];
        if (r->warmup || r->interrupted || r->nphases != nphases ||
            (strcmp(r->config, cfg) && strcmp(r->config, alt)))
            continue;
        double s = 0;
        for (size_t p = 0; p < r->nphases; p++)
            s += r->phases[p].wall_s;
        w[k++] = s;
    }
    double m = -1;
    if (k) {
        qsort(w, k, sizeof *w, cmp_double);
        m = k % 2 ? w[k / 2] : (w[k / 2 - 1] + w[k / 2]) / 2;
    }
    free(w);
    *n = (unsigned)k;
    return m;
}

/* Whether rs ran the same work as ro: the same tree (profile, scale, seed; an archive: an
 * archive), engine and phases in the same order (its configurations are matched by name in
 * measured_run). The job's hash is no help: it changes with --runs. */
static bool same_job(const struct run_set *rs, const struct runner_opts *ro)
{
    if (ro->tree.prof ? strcmp(rs->tree.profile, ro->tree.prof->name) ||
                            rs->tree.scale != ro->tree.scale || rs->tree.seed != ro->tree.seed
                      : strncmp(rs->tree.profile, "tar:", 4))
        return false;
    if (strcmp(rs->engine, ro->eng->name) || !rs->nruns || rs->runs[0].nphases != ro->nphases)
        return false;
    for (size_t i = 0; i < ro->nphases; i++)
        if (strcmp(rs->runs[0].phases[i].name, ro->phases[i]->name))
            return false;
    return true;
}

/* The measured run wall of each configuration of ro into run_s[] (-1: none), from the
 * newest sets of the same job (same_job) in the store at db (NULL: the default); how many
 * found. A store that is missing or cannot be read holds none (no message: a dry run says
 * what it can). */
static size_t measured_walls(const struct runner_opts *ro, const char *job, const char *db,
                             double *run_s, unsigned *nrun)
{
    size_t nc = ro->nconfigs ? ro->nconfigs : 1, found = 0;
    for (size_t k = 0; k < nc; k++)
        run_s[k] = -1, nrun[k] = 0;
    char path[4096], why[512];
    struct stat st;
    if (db)
        snprintf(path, sizeof path, "%s", db);
    else if (store_default_path(path, sizeof path) < 0)
        return 0;
    if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
        return 0;
    err_capture_begin(why, sizeof why);
    struct store *s = store_open_read(path);
    int64_t ids[PLAN_MAX_SETS];
    int n = s ? store_newest_sets(s, ids, PLAN_MAX_SETS) : 0;
    for (int i = 0; i < n && found < nc; i++) {
        struct run_set rs;
        memset(&rs, 0, sizeof rs);
        if (store_load_set(s, ids[i], &rs) != 0)
            continue;
        bool same = same_job(&rs, ro);
        for (size_t k = 0; same && k < nc; k++)
            if (run_s[k] < 0 &&
                (run_s[k] = measured_run(&rs, job, ro->nconfigs ? ro->configs[k].name : "",
                                         ro->nphases, &nrun[k])) >= 0)
                found++;
        run_set_free(&rs);
    }
    store_close(s);
    err_capture_end();
    return found;
}

int run_plan_estimate(FILE *f, const char *job, const struct runner_opts *ro, const char *db,
                          double *total_s)
{
    size_t nc = ro->nconfigs ? ro->nconfigs : 1;
    double run_s[RUNNER_MAX_CONFIGS];
    unsigned nrun[RUNNER_MAX_CONFIGS];
    size_t measured = measured_walls(ro, job, db, run_s, nrun);
    double model = duration_model_run(ro), total = 0;
    bool upto = ro->runs_auto || ro->until_verdict;
    char t[64], u[64];
    for (size_t k = 0; k < nc; k++)
        total += ro->runs * (run_s[k] >= 0 ? run_s[k] : model);
    *total_s = -1;
    if (measured < nc && model < 0) {
        fprintf(f, "  estimated duration: unknown (an archive's work is known once it is "
                   "read, and no earlier runs of this job are in the store)\n");
        return 0;
    }
    *total_s = total;
    fprintf(f, "  estimated duration: %s%s (%s%u run%s x %zu configuration%s; %s)\n",
            upto ? "at most " : "", duration_text(t, sizeof t, total), upto ? "at most " : "",
            ro->runs, ro->runs == 1 ? "" : "s", nc, nc == 1 ? "" : "s",
            measured == nc ? "measured: earlier runs of this job in the store"
            : measured     ? "earlier runs of this job in the store where they exist, "
                             "else the work model"
                           : "from the work model, no earlier runs of this job in the store");
    for (size_t k = 0; k < nc && (nc > 1 || measured); k++) {
        double r = run_s[k] >= 0 ? run_s[k] : model;
        duration_text(u, sizeof u, r);
        if (run_s[k] >= 0)
            fprintf(f, "    %s: %s%s (runs of %s: the median of %u earlier run%s)\n",
                    ro->nconfigs ? ro->configs[k].name : "this job", upto ? "at most " : "",
                    duration_text(t, sizeof t, ro->runs * r), u + 6, nrun[k],
                    nrun[k] == 1 ? "" : "s");
        else
            fprintf(f, "    %s: %s%s (runs of %s: the work model)\n",
                    ro->nconfigs ? ro->configs[k].name : "this job", upto ? "at most " : "",
                    duration_text(t, sizeof t, ro->runs * r), u + 6);
    }
    if (measured < nc)
        fprintf(f, "    (the work model: each phase's operations at an assumed %.0f ops/s%s;\n"
                   "     the progress line gives the real rate from the first run on)\n",
                DURATION_OPS_PER_S, ro->tspec ? ", 2 s a mkfs" : "");
    return 0;
}

int run_plan_print(FILE *f, const char *job, const struct runner_opts *ro, const char *tree_arg)
{
    struct job_plan p;
    if (job_plan_compute(ro, tree_arg, &p) < 0)
        return -1;
    size_t nc = ro->nconfigs ? ro->nconfigs : 1;
    fprintf(f, "job %s\n", job);
    fprintf(f, "  configurations: %zu:", nc);
    if (!ro->nconfigs)
        fprintf(f, " one, in %s\n", ro->dir ? ro->dir : "a new temporary directory");
    for (size_t i = 0; i < ro->nconfigs; i++)
        fprintf(f, "%s %s", i ? "," : "", ro->configs[i].name);
    if (ro->nconfigs)
        fprintf(f, " (%s)\n", ro->keep_fs ? "mkfs once per file system" : "a fresh mkfs per run");
    if (ro->runs_auto)
        fprintf(f, "  rounds: until every median is within %.1f%% (at most %u)",
                ro->precision * 100, ro->runs - ro->warmup);
    else if (ro->until_verdict)
        fprintf(f,
                "  rounds: until every phase has a verdict against the first configuration: "
                "a difference, or none of %g%% or more (at most %u)",
                ro->min_effect * 100, ro->runs - ro->warmup);
    else
        fprintf(f, "  rounds: %u (%zu run%s)", ro->runs, ro->runs * nc,
                ro->runs * nc == 1 ? "" : "s");
    if (ro->warmup)
        fprintf(f, ", the first %u warm-up", ro->warmup);
    fprintf(f, "%s\n",
            nc > 1 ? (ro->no_interleave ? ", one configuration after the other"
                                        : ", configurations in a seeded random "
                                          "order each round")
                   : "");
    fprintf(f, "  phases: ");
    for (size_t i = 0; i < ro->nphases; i++)
        fprintf(f, "%s%s", i ? "," : "", ro->phases[i]->name);
    fprintf(f, " (%zu)\n", ro->nphases);
    fprintf(f, "  engine: %s%s, threads %u\n", ro->eng->name, ro->async_eng ? " (auto)" : "",
            ro->threads ? ro->threads : 1);
    char a[32], b[32], c[32];
    size_str(a, sizeof a, p.bytes);
    size_str(b, sizeof b, p.disk);
    if (p.tree_known && !p.estimated)
        fprintf(f,
                "  tree: %s x%g seed %" PRIu64 ": %" PRIu64 " files, %" PRIu64 " dirs, %" PRIu64
                " symlinks, %s of content, about %s on disk\n",
                ro->tree.prof->name, ro->tree.scale, ro->tree.seed, p.files, p.dirs, p.symlinks, a,
                b);
    else if (p.tree_known) {
        /* a big tree: estimated, each figure with its 95% interval (exact when 0) */
        char d[64], sy[64], by[32], dk[32], sub[32];
        const struct tree_estimate *e = &p.est;
        count_str(d, sizeof d, e->dirs, e->dirs_hw);
        count_str(sy, sizeof sy, e->symlinks, e->symlinks_hw);
        pct_str(by, sizeof by, e->bytes_hw, e->bytes);
        pct_str(dk, sizeof dk, e->disk_hw, e->disk);
        snprintf(sub, sizeof sub, "%" PRIu64, e->subtree_samples);
        fprintf(f,
                "  tree: %s x%g seed %" PRIu64 ": %" PRIu64 " files, %s dirs, %s symlinks, "
                "%s of content%s, about %s on disk%s (not streamed: sizes and symlinks "
                "estimated from %" PRIu64 " of its files%s%s%s; +- is a 95%% interval)\n",
                ro->tree.prof->name, ro->tree.scale, ro->tree.seed, p.files, d, sy, a, by, b, dk,
                e->file_samples, e->dirs_hw > 0 ? ", directories from " : "",
                e->dirs_hw > 0 ? sub : "", e->dirs_hw > 0 ? " of its subtrees" : "");
    } else
        fprintf(f,
                "  tree: %s (an archive of %s: its content is counted when it is "
                "decompressed, before the first phase)\n",
                tree_arg ? tree_arg : "?", a);
    if (!p.tree_written)
        fprintf(f, "  (no phase lays this tree down: it takes no space)\n");
    if (p.ages) {
        char at[1024];
        if (p.age_known && p.replay_known) {
            char rt[600], tail[400];
            sizing_age_replay_text(&p.replay, ro->params.age_replay_path, p.age.fs_bytes, rt,
                                   sizeof rt);
            if (p.age.fullness > 0)
                snprintf(tail, sizeof tail, "; sooner if it is %.0f%% full first", p.age.fullness * 100);
            else
                tail[0] = 0;
            snprintf(at, sizeof at, "%s%s", rt, tail);
        } else if (p.age_known && p.replays) {
            char aw[512];
            snprintf(at, sizeof at, "%s (the trace %s: sized by --age-written)",
                     sizing_age_text(&p.age, aw, sizeof aw), p.replay_why);
        } else if (p.age_known)
            sizing_age_text(&p.age, at, sizeof at);
        else
            snprintf(at, sizeof at, "writes %gx its size (which cannot be read now)",
                     p.age.written_x > 0 ? p.age.written_x : ro->params.age_written);
        if (p.age_host)
            fprintf(f, "  age: ages the file system holding %s, not one of its own "
                       "(--age-host-fs): it %s\n",
                    ro->dir ? ro->dir : p.where, at);
        else if (ro->tspec && ro->tspec->device)
            fprintf(f, "  age: ages the file system made on %s: it %s\n", ro->tspec->device, at);
        else
            fprintf(f, "  age: ages the file system made on the image: it %s; the sparse image "
                       "grows to what is written, at most its size\n",
                    at);
    }
    size_str(a, sizeof a, p.need);
    size_str(c, sizeof c, p.free_bytes);
    char by_replay[96] = "";
    if (p.need_by_replay)
        snprintf(by_replay, sizeof by_replay, " (aging by replay: %u repetition%s of the trace)",
                 p.replay.reps, p.replay.reps == 1 ? "" : "s");
    fprintf(f, "  space: about %s needed%s in %s; %s free%s\n", a,
            p.cb_need && p.cb_need == p.need ? " (compilebench's trees, from the listings)"
            : p.need_by_replay               ? by_replay
            : p.copies > 1                   ? " (the tree and its copy)"
                                             : "",
            p.where, p.free_bytes ? c : "unknown",
            (p.free_bytes && p.need > p.free_bytes) || (p.fs_size && p.cb_need > p.fs_size)
                ? ": NOT ENOUGH"
                : "");
    fprintf(f, "  root: %s%s%s%s; %s root\n",
            p.needs_root   ? "needed"
            : p.wants_root ? "wanted"
                           : "not needed",
            p.root_why[0] ? " (" : "", p.root_why, p.root_why[0] ? ")" : "",
            geteuid() == 0 ? "running as" : "not running as");
    return 0;
}
