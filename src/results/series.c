/* series.c — choosing, ordering and loading a series of labels (see series.h).
 *
 * The labels come from the store's list of sets (oldest first), so each label's creation
 * time is that of its first set. Patterns are fnmatch(3) globs matched against every label;
 * a plain word must name a label. A label named twice (by two patterns) is taken once, where
 * it was first named. */
#include "results/series.h"

#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "results/meta.h"

/* ---------------------------------------------------------------- version order */

/* Whether s starts a pre-release suffix: "-rc", "-pre", "-alpha", "-beta", "~". */
static bool prerelease(const char *s)
{
    static const char *const tags[] = {"-rc", "-pre", "-alpha", "-beta", "~", NULL};
    for (size_t i = 0; tags[i]; i++)
        if (!strncmp(s, tags[i], strlen(tags[i])))
            return true;
    return false;
}

int series_version_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        bool da = isdigit((unsigned char)*a), db = isdigit((unsigned char)*b);
        if (da && db) {
            while (*a == '0' && isdigit((unsigned char)a[1]))
                a++;
            while (*b == '0' && isdigit((unsigned char)b[1]))
                b++;
            size_t la = 0, lb = 0;
            while (isdigit((unsigned char)a[la]))
                la++;
            while (isdigit((unsigned char)b[lb]))
                lb++;
            if (la != lb)
                return la < lb ? -1 : 1;
            int c = strncmp(a, b, la);
            if (c)
                return c;
            a += la, b += lb;
            continue;
        }
        bool pa = prerelease(a), pb = prerelease(b);
        if (pa != pb) /* 6.19-rc1 against 6.19.1: the pre-release first */
            return pa ? -1 : 1;
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++, b++;
    }
    if (!*a && !*b)
        return 0;
    /* one ended: 6.19 against 6.19-rc1 (the pre-release first) or 6.19.1 (after) */
    if (!*a)
        return prerelease(b) ? 1 : -1;
    return prerelease(a) ? -1 : 1;
}

/* ---------------------------------------------------------------- work */

void series_work_of(const struct run_set *rs, struct series_work *w)
{
    memset(w, 0, sizeof *w);
    w->tree = rs->tree;
    size_t used = 0;
    for (size_t r = 0; r < rs->nruns; r++) {
        if (rs->runs[r].warmup)
            continue;
        for (size_t p = 0; p < rs->runs[r].nphases; p++) {
            int n = snprintf(w->phases + used, sizeof w->phases - used, "%s%s", p ? "," : "",
                             rs->runs[r].phases[p].name);
            if (n < 0 || (size_t)n >= sizeof w->phases - used)
                break;
            used += (size_t)n;
        }
        break;
    }
    /* the threads as the command line gave them (-j N, --threads N, --threads=N) */
    const char *cl = rs->command_line;
    for (const char *p = cl; (p = strstr(p, "-")) != NULL; p++) {
        const char *v = NULL;
        if (!strncmp(p, "--threads=", 10))
            v = p + 10;
        else if (!strncmp(p, "--threads ", 10))
            v = p + 10;
        else if (!strncmp(p, "-j ", 3) && (p == cl || p[-1] == ' '))
            v = p + 3;
        else if (!strncmp(p, "-j", 2) && isdigit((unsigned char)p[2]) && (p == cl || p[-1] == ' '))
            v = p + 2;
        if (v) {
            size_t n = strcspn(v, " ");
            snprintf(w->threads, sizeof w->threads, "%.*s", (int)(n < 31 ? n : 31), v);
        }
    }
}

static void tree_text(const struct tree_info *t, char *buf, size_t len)
{
    if (!t->profile[0])
        snprintf(buf, len, "no tree");
    else if (!strncmp(t->profile, "tar:", 4) || !strncmp(t->profile, "trace:", 6))
        snprintf(buf, len, "%s", text_shown(t->profile));
    else
        snprintf(buf, len, "%s x%g seed %llu", text_shown(t->profile), t->scale,
                 (unsigned long long)t->seed);
}

int series_work_differs(const struct series_work *a, const struct series_work *b, char *why,
                        size_t len)
{
    const struct tree_info *ta = &a->tree, *tb = &b->tree;
    if (strcmp(ta->profile, tb->profile) || ta->scale != tb->scale || ta->seed != tb->seed) {
        char x[200], y[200];
        tree_text(ta, x, sizeof x);
        tree_text(tb, y, sizeof y);
        const char *what = !strncmp(ta->profile, "tar:", 4) || !strncmp(tb->profile, "tar:", 4)
                               ? "archive"
                           : !strncmp(ta->profile, "trace:", 6) ||
                                   !strncmp(tb->profile, "trace:", 6)
                               ? "replay trace"
                               : "tree";
        snprintf(why, len, "%s: %s vs %s", what, x, y);
        return 1;
    }
    if (strcmp(a->phases, b->phases)) {
        snprintf(why, len, "phases: %s vs %s", text_shown(a->phases), text_shown(b->phases));
        return 1;
    }
    if (strcmp(a->threads, b->threads)) {
        snprintf(why, len, "threads: %s vs %s", a->threads[0] ? text_shown(a->threads) : "1",
                 b->threads[0] ? text_shown(b->threads) : "1");
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- choosing */

struct known {
    char (*label)[RES_NAME_MAX];
    double *created;
    size_t n, cap;
};

static int collect(const struct store_set_info *info, void *arg)
{
    struct known *k = arg;
    for (size_t i = k->n; i-- > 0;) /* sets of one label are usually together */
        if (!strcmp(k->label[i], info->label))
            return 0;
    if (k->n == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 64;
        void *l = realloc(k->label, cap * sizeof *k->label);
        if (l)
            k->label = l;
        void *c = l ? realloc(k->created, cap * sizeof *k->created) : NULL;
        if (!l || !c)
            return error("out of memory");
        k->created = c;
        k->cap = cap;
    }
    snprintf(k->label[k->n], sizeof k->label[k->n], "%s", info->label);
    k->created[k->n++] = info->created;
    return 0;
}

static bool is_pattern(const char *s)
{
    return strpbrk(s, "*?[") != NULL;
}

static const struct series_request *sort_req;
static int by_order(const void *pa, const void *pb)
{
    const struct series_label *a = pa, *b = pb;
    if (sort_req->order == SERIES_BY_KEY) {
        int c = series_version_cmp(a->key, b->key);
        if (c)
            return c;
    }
    return (a->created > b->created) - (a->created < b->created);
}

/* Copies label's values per phase of the series into L (phases named as compare does). */
static int take_values(struct series *sr, struct series_label *L, const struct run_set *rs)
{
    L->vals = calloc(sr->nphases ? sr->nphases : 1, sizeof *L->vals);
    L->nvals = calloc(sr->nphases ? sr->nphases : 1, sizeof *L->nvals);
    if (!L->vals || !L->nvals)
        return error("out of memory");
    for (size_t p = 0; p < sr->nphases; p++) {
        L->vals[p] = calloc(rs->nruns ? rs->nruns : 1, sizeof **L->vals);
        if (!L->vals[p])
            return error("out of memory");
    }
    for (size_t r = 0; r < rs->nruns; r++) {
        const struct run_result *run = &rs->runs[r];
        if (run->warmup || run->interrupted)
            continue;
        for (size_t i = 0; i < run->nphases; i++) {
            const struct phase_result *ph = &run->phases[i];
            /* the k-th phase of this name: "sync (2)" */
            unsigned k = 0;
            for (size_t j = 0; j < i; j++)
                k += !strcmp(run->phases[j].name, ph->name);
            char name[RES_NAME_MAX + 16];
            if (k)
                snprintf(name, sizeof name, "%s (%u)", ph->name, k + 1);
            else
                snprintf(name, sizeof name, "%s", ph->name);
            double v;
            if (ph->status != PHASE_OK || cmp_metric_value(ph, sr->metric, &v) != 0 ||
                !(v > 0) || !isfinite(v))
                continue;
            for (size_t p = 0; p < sr->nphases; p++)
                if (!strcmp(sr->phases[p], name)) {
                    L->vals[p][L->nvals[p]++] = v;
                    break;
                }
        }
    }
    return 0;
}

/* The phase names of rs's first measured run, as the series' phases. */
static int phases_of(struct series *sr, const struct run_set *rs)
{
    for (size_t r = 0; r < rs->nruns; r++) {
        const struct run_result *run = &rs->runs[r];
        if (run->warmup)
            continue;
        sr->phases = calloc(run->nphases ? run->nphases : 1, sizeof *sr->phases);
        if (!sr->phases)
            return error("out of memory");
        for (size_t i = 0; i < run->nphases; i++) {
            unsigned k = 0;
            for (size_t j = 0; j < i; j++)
                k += !strcmp(run->phases[j].name, run->phases[i].name);
            if (k)
                snprintf(sr->phases[i], sizeof sr->phases[i], "%s (%u)", run->phases[i].name,
                         k + 1);
            else
                snprintf(sr->phases[i], sizeof sr->phases[i], "%s", run->phases[i].name);
        }
        sr->nphases = run->nphases;
        return 0;
    }
    return 0;
}

int series_load(struct store *s, const struct series_request *req, const char *cmd,
                struct series *out)
{
    memset(out, 0, sizeof *out);
    out->metric = req->metric;
    struct known k = {0};
    int rc = store_list(s, collect, &k);
    if (rc == 0) {
        out->labels = calloc(k.n ? k.n : 1, sizeof *out->labels);
        if (!out->labels)
            rc = error("out of memory");
    }
    for (size_t a = 0; rc == 0 && a < req->nargs; a++) {
        const char *arg = req->args[a];
        bool pattern = is_pattern(arg), any = false;
        for (size_t i = 0; i < k.n; i++) {
            if (pattern ? fnmatch(arg, k.label[i], 0) != 0 : strcmp(arg, k.label[i]) != 0)
                continue;
            any = true;
            bool have = false;
            for (size_t j = 0; j < out->nlabels && !have; j++)
                have = !strcmp(out->labels[j].label, k.label[i]);
            if (have)
                continue;
            struct series_label *L = &out->labels[out->nlabels++];
            snprintf(L->label, sizeof L->label, "%s", k.label[i]);
            L->created = k.created[i];
        }
        if (!any) {
            error(pattern ? "%s: no label matches '%s'; 'fsbench runs' lists them"
                          : "%s: no run set labelled '%s'; 'fsbench runs' lists them",
                  cmd, text_shown(arg));
            rc = 1;
        }
    }
    free(k.label);
    free(k.created);
    /* each label: its order key, its work, its values (one set in memory at a time) */
    store_set_light(s, true);
    for (size_t i = 0; rc == 0 && i < out->nlabels; i++) {
        struct series_label *L = &out->labels[i];
        struct run_set *rs = calloc(1, sizeof *rs);
        if (!rs) {
            rc = error("out of memory");
            break;
        }
        int lr = store_load_label(s, L->label, rs);
        if (lr != 0) {
            rc = lr < 0 ? -1 : (error("%s: label '%s' vanished while reading", cmd,
                                      text_shown(L->label)), -1);
        } else {
            series_work_of(rs, &L->work);
            if (req->order == SERIES_BY_KEY) {
                const char *v = meta_find(rs->meta, rs->nmeta, req->key);
                if (!v && !strcmp(req->key, "kernel"))
                    v = rs->machine.kernel;
                if (!v || !*v) {
                    error("%s: --by %s: label '%s' has no %s (fsbench run --meta %s=VALUE "
                          "records one)",
                          cmd, req->key, text_shown(L->label), req->key, req->key);
                    rc = 1;
                } else {
                    snprintf(L->key, sizeof L->key, "%s", v);
                }
            }
            if (rc == 0 && i == 0)
                rc = phases_of(out, rs);
            if (rc == 0)
                rc = take_values(out, L, rs);
        }
        run_set_free(rs);
        free(rs);
    }
    store_set_light(s, false);
    if (rc == 0 && req->order != SERIES_BY_GIVEN) {
        sort_req = req;
        qsort(out->labels, out->nlabels, sizeof *out->labels, by_order);
    }
    /* the same work throughout, unless asked otherwise: compared with the first label */
    for (size_t i = 1; rc == 0 && i < out->nlabels && !req->allow_different; i++) {
        char why[1024];
        if (series_work_differs(&out->labels[0].work, &out->labels[i].work, why, sizeof why)) {
            error("%s: '%s' and '%s' did different work (%s): a series compares the same "
                  "work; leave one out, or add --allow-different-work",
                  cmd, text_shown(out->labels[0].label), text_shown(out->labels[i].label), why);
            rc = 1;
        }
    }
    return rc;
}

void series_free(struct series *sr)
{
    for (size_t i = 0; i < sr->nlabels; i++) {
        struct series_label *L = &sr->labels[i];
        for (size_t p = 0; L->vals && p < sr->nphases; p++)
            free(L->vals[p]);
        free(L->vals);
        free(L->nvals);
    }
    free(sr->labels);
    free(sr->phases);
    memset(sr, 0, sizeof *sr);
}
