/* duration.c — a run's duration from the work model, before anything runs (duration.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "run/duration.h"
#include "run/work_expect.h"

/* what the model cannot count: a phase without operations (sync, dropcaches, the mount
 * cycle) */
#define DURATION_UNCOUNTED_PHASE_S 0.5
/* below this many operations a phase is taken as uncounted (as progress.c does) */
#define DURATION_MIN_OPS 64

double duration_model_run(const struct runner_opts *o)
{
    struct work_tree w;
    if (work_tree_count(&o->tree, o->tar, RUNNER_IO_BUF_SIZE, &w) < 0)
        return -1;
    w.copy_offload = (o->eng->caps & ENG_CAP_COPY_OFFLOAD) != 0;
    uint64_t *ops = calloc(o->nphases ? o->nphases : 1, sizeof *ops);
    if (!ops)
        return -1;
    work_expect(o->phases, o->nphases, &w, &o->params, ops);
    double s = 0;
    for (size_t i = 0; i < o->nphases; i++)
        s += ops[i] >= DURATION_MIN_OPS ? (double)ops[i] / DURATION_OPS_PER_S
                                        : DURATION_UNCOUNTED_PHASE_S;
    free(ops);
    if (o->tspec) /* a file system made for the runs: a mkfs per run, or once (keep_fs) */
        s += o->keep_fs ? DURATION_MKFS_S / (o->runs ? o->runs : 1) : DURATION_MKFS_S;
    return s;
}

char *duration_text(char *buf, size_t len, double s)
{
    double r = s < 0 ? 0 : s;
    if (isnan(s) || isinf(s))
        snprintf(buf, len, "?");
    else if (r < 59.5)
        snprintf(buf, len, "about %.0f s", r < 1 ? 1 : r);
    else if (r < 3599.5) {
        unsigned t = (unsigned)(r + 0.5), m = t / 60, sec = t % 60;
        if (sec)
            snprintf(buf, len, "about %u min %u s", m, sec);
        else
            snprintf(buf, len, "about %u min", m);
    } else {
        unsigned t = (unsigned)(r / 60 + 0.5), h = t / 60, m = t % 60;
        if (m)
            snprintf(buf, len, "about %u h %u min", h, m);
        else
            snprintf(buf, len, "about %u h", h);
    }
    return buf;
}
