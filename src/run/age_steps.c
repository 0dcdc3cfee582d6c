/* age_steps.c — parsing and checking --age-steps, and the step configurations (see
 * age_steps.h). */
#include "run/age_steps.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "phase/phase.h"
#include "phase/workload.h"
#include "stats/history.h"

#define AGE_STEPS_MAX_X 50 /* as --age-written */

void age_steps_name(double x, char *buf, size_t len)
{
    snprintf(buf, len, "aged-%gx", x);
}

int age_steps_parse(const char *arg, double age_written, double *x, size_t *n)
{
    *n = 0;
    char *end;
    errno = 0;
    long whole = strtol(arg, &end, 10);
    if (*arg && !*end && !strchr(arg, '.') && !strchr(arg, ',')) {
        if (errno || whole < 1 || whole > AGE_STEPS_MAX)
            return error("--age-steps: '%s': give 1 to %d steps, or a list of written "
                         "multiples (e.g. 0,0.5,1,2,4)",
                         arg, AGE_STEPS_MAX);
        if (!(age_written > 0))
            return error("--age-steps %s: equal steps need a written limit (--age-written "
                         "X above 0); or give the multiples (e.g. 0.5,1,2,4)",
                         arg);
        for (long k = 1; k <= whole; k++)
            x[(*n)++] = age_written * (double)k / (double)whole;
        return 0;
    }
    const char *p = arg;
    while (*p) {
        if (*n == AGE_STEPS_MAX)
            return error("--age-steps: '%s': at most %d steps", arg, AGE_STEPS_MAX);
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || errno || !isfinite(v) || (*end && *end != ','))
            return error("--age-steps: '%s' is not N or a list of written multiples (e.g. "
                         "0,0.5,1,2,4)",
                         arg);
        if (v < 0 || v > AGE_STEPS_MAX_X)
            return error("--age-steps: %g is not a written multiple from 0 to %d", v,
                         AGE_STEPS_MAX_X);
        if (*n && v <= x[*n - 1])
            return error("--age-steps: '%s': the multiples must rise (%g after %g)", arg, v,
                         x[*n - 1]);
        x[(*n)++] = v;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return error("--age-steps: '%s' ends with a comma", arg);
    }
    if (!*n)
        return error("--age-steps: empty; give N or a list of written multiples");
    return 0;
}

/* Phases that write or remove a tree of their own: the next round would find or lose it,
 * unless they work in the probe's own directory (run/probe_dir.h), which extract, copy and
 * delete can (extract making the fresh tree first). */
static bool age_steps_probe_ok(const char *name)
{
    static const char *const bad[] = {"createsync", "fsyncstorm", "replay", "age", NULL};
    if (!strncmp(name, "cb_", 3))
        return false;
    for (size_t i = 0; bad[i]; i++)
        if (!strcmp(name, bad[i]))
            return false;
    return true;
}

static bool age_steps_probe_writes(const char *name)
{
    return !strcmp(name, "extract") || !strcmp(name, "copy") || !strcmp(name, "delete");
}

int age_steps_apply(const char *arg, struct runner_opts *ro, char *list, size_t len)
{
    double x[AGE_STEPS_MAX];
    size_t n;
    if (age_steps_parse(arg, ro->params.age_written, x, &n) < 0)
        return EXIT_USAGE;
    if (!ro->tspec)
        return error("--age-steps ages one file system of fsbench's own between the probes: "
                     "give --image SIZE or --device DEV"),
               EXIT_USAGE;
    if (ro->nconfigs != 1)
        return error("--age-steps: one configuration (one --fs, one --mount-opts), got %zu: "
                     "each step is a configuration of the set",
                     ro->nconfigs),
               EXIT_USAGE;
    if (ro->until_verdict)
        return error("--age-steps: --runs until-verdict compares configurations run in "
                     "rounds; the steps run one after the other (give --runs N)"),
               EXIT_USAGE;
    if (!ro->nphases || strcmp(ro->phases[0]->name, "age"))
        return error("--age-steps: the phases must begin with age (e.g. --phases "
                     "age,sync,dropcaches,statwalk,read)"),
               EXIT_USAGE;
    if (ro->nphases < 2)
        return error("--age-steps: no probe: give phases after age (e.g. --phases "
                     "age,sync,dropcaches,statwalk,read)"),
               EXIT_USAGE;
    for (size_t i = 1; i < ro->nphases; i++)
        if (!age_steps_probe_ok(ro->phases[i]->name))
            return error("--age-steps: phase %s writes or removes files of its own, which the "
                         "next round on the aged file system would find or lose; the probe "
                         "can be sync, dropcaches, remount, layout, walk, statwalk, read, cmd, "
                         "and extract (a fresh tree in a directory of the probe's own), copy, "
                         "delete after it",
                         ro->phases[i]->name),
                   EXIT_USAGE;
    /* a writing probe: its phases in probe/, which extract fills first */
    const char *reads_at = NULL;
    ro->probe_dir = false;
    for (size_t i = 1; i < ro->nphases && !ro->probe_dir; i++) {
        if (!age_steps_probe_writes(ro->phases[i]->name)) {
            if (ro->phases[i]->flags & PHASE_READS_TREE) /* read before a writing probe */
                reads_at = reads_at ? reads_at : ro->phases[i]->name;
            continue;
        }
        if (strcmp(ro->phases[i]->name, "extract"))
            return error("--age-steps: phase %s in the probe needs a fresh tree before it: "
                         "put extract first (e.g. --phases age,extract,sync,dropcaches,read)",
                         ro->phases[i]->name),
                   EXIT_USAGE;
        ro->probe_dir = true;
    }
    if (ro->probe_dir && reads_at)
        return error("--age-steps: phase %s reads the tree before extract makes the probe's "
                     "fresh one: put it after extract",
                     reads_at),
               EXIT_USAGE;
    if (n > RUNNER_MAX_CONFIGS)
        return error("--age-steps: at most %d steps", RUNNER_MAX_CONFIGS), EXIT_USAGE;
    struct runner_config base = ro->configs[0];
    size_t used = 0;
    list[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        struct runner_config *c = &ro->configs[i];
        *c = base;
        age_steps_name(x[i], c->name, sizeof c->name);
        c->age_until_x = x[i];
        c->age_step = true;
        int w = snprintf(list + used, len - used, "%s%g", i ? "," : "", x[i]);
        if (w > 0 && (size_t)w < len - used)
            used += (size_t)w;
    }
    ro->nconfigs = n;
    ro->keep_fs = true;
    ro->no_interleave = true;
    return 0;
}

void age_steps_say(FILE *f, const struct run_result *run)
{
    fprintf(f, "step %s, round %u: %.1f MiB written in all; probe:", run->config, run->round + 1,
            phase_age_steps_written() / 1048576.0);
    for (size_t i = 0; i < run->nphases; i++) {
        const struct phase_result *p = &run->phases[i];
        if (!strcmp(p->name, "age"))
            continue;
        if (p->status == PHASE_OK)
            fprintf(f, " %s %.3f s%s", p->name, p->wall_s, i + 1 < run->nphases ? "," : "");
        else
            fprintf(f, " %s %s%s", p->name, p->status == PHASE_SKIPPED ? "skipped" : "failed",
                    i + 1 < run->nphases ? "," : "");
    }
    fputc('\n', f);
    fflush(f);
}

const char *age_steps_of(const struct run_set *rs)
{
    for (unsigned i = 0; i < rs->nmeta; i++)
        if (!strcmp(rs->meta[i].key, "age-steps"))
            return rs->meta[i].value;
    return NULL;
}

int age_steps_series(const struct run_set *rs, struct series *sr, struct hist_result *h)
{
    memset(h, 0, sizeof *h);
    int rc = series_from_configs(rs, CMP_WALL, sr);
    if (rc == 0 && sr->nlabels < 2)
        return 1;
    if (rc == 0) {
        struct cp_options o;
        cp_options_default(&o);
        rc = hist_build(sr, &o, NULL, h) < 0 ? -1 : 0;
    }
    return rc;
}
