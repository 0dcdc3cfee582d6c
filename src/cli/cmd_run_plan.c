/* cmd_run_plan.c — `fsbench run --dry-run`: prints what one job would do, from
 * job_plan_compute(), touching nothing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd_run.h"
#include "run/job_plan.h"

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

int cmd_run_plan_print(FILE *f, const char *job, const struct runner_opts *ro, const char *tree_arg)
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
    if (p.ages) {
        char at[512];
        if (p.age_known)
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
    fprintf(f, "  space: about %s needed%s in %s; %s free%s\n", a,
            p.cb_need && p.cb_need == p.need ? " (compilebench's trees, from the listings)"
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
