/* results.c — names of op kinds and memory management of run sets (see results.h). */
#include "measure/results.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"

static const char *const op_names[OP_KINDS] = {
    [OP_MKDIR] = "mkdir",       [OP_CREATE] = "create", [OP_WRITE] = "write",
    [OP_OPEN] = "open",         [OP_READ] = "read",     [OP_CLOSE] = "close",
    [OP_STAT] = "stat",         [OP_READDIR] = "readdir", [OP_UNLINK] = "unlink",
    [OP_RMDIR] = "rmdir",       [OP_RENAME] = "rename", [OP_FSYNC] = "fsync",
    [OP_SYNCFS] = "syncfs",     [OP_SYMLINK] = "symlink", [OP_READLINK] = "readlink",
    [OP_LINK] = "link",         [OP_COPY] = "copy",     [OP_SETATTR] = "setattr",
    [OP_SEEK] = "seek",         [OP_FCNTL] = "fcntl",
};

const char *op_kind_name(enum op_kind k)
{
    return (unsigned)k < OP_KINDS ? op_names[k] : "?";
}

struct run_result *run_set_add_run(struct run_set *rs, size_t nphases)
{
    struct run_result *runs = realloc(rs->runs, (rs->nruns + 1) * sizeof *runs);
    if (!runs) {
        error("out of memory");
        return NULL;
    }
    rs->runs = runs;
    struct run_result *r = &runs[rs->nruns];
    memset(r, 0, sizeof *r);
    r->phases = calloc(nphases ? nphases : 1, sizeof *r->phases);
    if (!r->phases) {
        error("out of memory");
        return NULL;
    }
    r->nphases = nphases;
    r->index = (unsigned)rs->nruns;
    rs->nruns++;
    return r;
}

void phase_result_free(struct phase_result *pr)
{
    free(pr->timeline);
    pr->timeline = NULL;
    pr->timeline_len = 0;
    free(pr->ranks);
    pr->ranks = NULL;
    pr->nranks = 0;
    free(pr->stalls);
    pr->stalls = NULL;
    pr->nstalls = 0;
    age_replay_result_free(pr->age_replay);
    pr->age_replay = NULL;
    age_replay_result_free(pr->age_profile);
    pr->age_profile = NULL;
}

void age_replay_result_free(struct age_replay_result *a)
{
    if (a)
        free(a->reps);
    free(a);
}

/* A fresh copy of n elements of size sz (NULL for none). 0 or -1 after error(). */
static int dup_array(void **out, const void *src, size_t n, size_t sz)
{
    *out = NULL;
    if (!n || !src)
        return 0;
    if (!(*out = malloc(n * sz)))
        return error("out of memory");
    memcpy(*out, src, n * sz);
    return 0;
}

struct age_replay_result *age_replay_result_dup(const struct age_replay_result *a)
{
    if (!a)
        return NULL;
    struct age_replay_result *d = malloc(sizeof *d);
    if (!d) {
        error("out of memory");
        return NULL;
    }
    *d = *a;
    void *reps;
    if (dup_array(&reps, a->reps, a->nreps, sizeof *a->reps) < 0) {
        free(d);
        return NULL;
    }
    d->reps = reps;
    if (!reps)
        d->nreps = 0;
    return d;
}

int phase_result_copy(struct phase_result *dst, const struct phase_result *src)
{
    *dst = *src;
    void *tl, *st, *rk;
    dst->age_replay = NULL;
    dst->age_profile = NULL;
    if (src->age_replay && !(dst->age_replay = age_replay_result_dup(src->age_replay))) {
        dst->timeline = NULL, dst->stalls = NULL, dst->ranks = NULL;
        return -1;
    }
    if (src->age_profile && !(dst->age_profile = age_replay_result_dup(src->age_profile))) {
        dst->timeline = NULL, dst->stalls = NULL, dst->ranks = NULL;
        phase_result_free(dst);
        return -1;
    }
    if (dup_array(&tl, src->timeline, src->timeline_len, sizeof *src->timeline) < 0) {
        dst->timeline = NULL, dst->stalls = NULL, dst->ranks = NULL;
        phase_result_free(dst);
        return -1;
    }
    dst->timeline = tl;
    if (dup_array(&st, src->stalls, src->nstalls, sizeof *src->stalls) < 0) {
        dst->stalls = NULL, dst->ranks = NULL;
        phase_result_free(dst);
        return -1;
    }
    dst->stalls = st;
    if (dup_array(&rk, src->ranks, src->nranks, sizeof *src->ranks) < 0) {
        dst->ranks = NULL;
        phase_result_free(dst);
        return -1;
    }
    dst->ranks = rk;
    if (!tl)
        dst->timeline_len = 0;
    if (!st)
        dst->nstalls = 0;
    if (!rk)
        dst->nranks = 0;
    return 0;
}

void run_set_free(struct run_set *rs)
{
    for (size_t i = 0; i < rs->nruns; i++) {
        for (size_t j = 0; j < rs->runs[i].nphases; j++)
            phase_result_free(&rs->runs[i].phases[j]);
        free(rs->runs[i].phases);
    }
    free(rs->runs);
    rs->runs = NULL;
    rs->nruns = 0;
}
