/* series.c — choosing, ordering and loading a series of labels (see series.h).
 *
 * The labels come from the store's list of sets (oldest first), so each label's creation
 * time is that of its first set. Patterns are fnmatch(3) globs matched against every label;
 * a plain word must name a label. A label named twice (by two patterns) is taken once, where
 * it was first named. */
#include "stats/series.h"

#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "results/meta.h"
#include "stats/workdiff.h"

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

int series_work_differs(const struct run_set *a, const struct run_set *b, char *why, size_t len)
{
    struct workdiff d;
    workdiff_compare(&(struct workdiff_side){a, NULL}, &(struct workdiff_side){b, NULL}, false,
                     &d);
    if (!d.work)
        return 0;
    if (why && len)
        workdiff_format(why, len, &d, true);
    return 1;
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
static int take_values_of(struct series *sr, struct series_label *L, const struct run_set *rs,
                          const char *config);

static int take_values(struct series *sr, struct series_label *L, const struct run_set *rs)
{
    return take_values_of(sr, L, rs, NULL);
}

/* take_values for the runs of one configuration (NULL: every run). */
static int take_values_of(struct series *sr, struct series_label *L, const struct run_set *rs,
                          const char *config)
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
        if (run->warmup || run->interrupted || (config && strcmp(run->config, config)))
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

static void free_set(struct run_set *rs)
{
    if (rs)
        run_set_free(rs);
    free(rs);
}

/* label's sets, light, into a new *out. 0, or -1 after error(). */
static int load_light(struct store *s, const char *label, const char *cmd, struct run_set **out)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return error("out of memory");
    int lr = store_load_label(s, label, *out);
    if (lr == 0)
        return 0;
    if (lr > 0)
        error("%s: label '%s' vanished while reading", cmd, text_shown(label));
    free_set(*out);
    *out = NULL;
    return -1;
}

/* The first label of the series (in its order) whose work differs from the series' first,
 * named with what differs (workdiff, compare's rule): 1 after error(), 0 when none does, -1
 * after error(). Each set is read again, one at a time: only a series about to be refused
 * pays for it. */
static int name_different_work(struct store *s, const struct series *sr, const char *cmd)
{
    struct run_set *first = NULL;
    int rc = load_light(s, sr->labels[0].label, cmd, &first);
    for (size_t i = 1; rc == 0 && i < sr->nlabels; i++) {
        struct run_set *rs = NULL;
        char why[1024];
        rc = load_light(s, sr->labels[i].label, cmd, &rs);
        if (rc == 0 && series_work_differs(first, rs, why, sizeof why)) {
            error("%s: '%s' and '%s' did different work (%s): a series compares the same "
                  "work; leave one out, or add --allow-different-work",
                  cmd, text_shown(sr->labels[0].label), text_shown(sr->labels[i].label), why);
            rc = 1;
        }
        free_set(rs);
        if (rc)
            break;
    }
    free_set(first);
    return rc;
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
    /* each label: its order key, its values, and whether its work is that of the first one
     * read (kept as ref: one set in memory besides the one being read) */
    struct run_set *ref = NULL;
    bool differs = false;
    store_set_light(s, true);
    for (size_t i = 0; rc == 0 && i < out->nlabels; i++) {
        struct series_label *L = &out->labels[i];
        struct run_set *rs = NULL;
        rc = load_light(s, L->label, cmd, &rs);
        if (rc == 0) {
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
            if (rc == 0 && rs->nmeta) { /* its notes, for history's JSON and CSV */
                L->meta = malloc(rs->nmeta * sizeof *L->meta);
                if (!L->meta)
                    rc = error("out of memory");
                else
                    memcpy(L->meta, rs->meta, rs->nmeta * sizeof *L->meta), L->nmeta = rs->nmeta;
            }
            if (rc == 0 && i == 0)
                rc = phases_of(out, rs);
            if (rc == 0)
                rc = take_values(out, L, rs);
            if (rc == 0 && !req->allow_different) {
                if (!ref)
                    ref = rs, rs = NULL;
                else
                    differs |= series_work_differs(ref, rs, NULL, 0) != 0;
            }
        }
        free_set(rs);
    }
    free_set(ref);
    if (rc == 0 && req->order != SERIES_BY_GIVEN) {
        sort_req = req;
        qsort(out->labels, out->nlabels, sizeof *out->labels, by_order);
    }
    /* the same work throughout, unless asked otherwise: a label unlike the first one read
     * is named against the first label of the series, read again only then */
    if (rc == 0 && differs)
        rc = name_different_work(s, out, cmd);
    store_set_light(s, false);
    return rc;
}

int series_from_configs(const struct run_set *rs, enum cmp_metric metric, struct series *out)
{
    memset(out, 0, sizeof *out);
    out->metric = metric;
    /* the declared order of configurations, one a line; else as the runs have them */
    char names[RUNNER_SERIES_MAX][RES_NAME_MAX];
    size_t n = 0;
    const char *p = rs->target.configs;
    while (*p && n < RUNNER_SERIES_MAX) {
        size_t l = strcspn(p, "\n");
        snprintf(names[n++], sizeof names[0], "%.*s", (int)l, p);
        p += l + (p[l] == '\n');
    }
    for (size_t r = 0; !rs->target.configs[0] && r < rs->nruns && n < RUNNER_SERIES_MAX; r++) {
        bool seen = false;
        for (size_t k = 0; k < n && !seen; k++)
            seen = !strcmp(names[k], rs->runs[r].config);
        if (!seen)
            snprintf(names[n++], sizeof names[0], "%s", rs->runs[r].config);
    }
    if (phases_of(out, rs) < 0)
        return -1;
    out->labels = calloc(n ? n : 1, sizeof *out->labels);
    if (!out->labels)
        return error("out of memory");
    for (size_t k = 0; k < n; k++) {
        struct series_label *L = &out->labels[out->nlabels++];
        snprintf(L->label, sizeof L->label, "%s", names[k]);
        snprintf(L->key, sizeof L->key, "%s", names[k]);
        if (take_values_of(out, L, rs, names[k]) < 0)
            return -1;
    }
    return 0;
}

int series_add_set(struct series *sr, const struct run_set *rs, const char *label)
{
    struct series_label *more = realloc(sr->labels, (sr->nlabels + 1) * sizeof *more);
    if (!more)
        return error("out of memory");
    sr->labels = more;
    struct series_label *L = &sr->labels[sr->nlabels++];
    memset(L, 0, sizeof *L);
    snprintf(L->label, sizeof L->label, "%s", label);
    return take_values_of(sr, L, rs, NULL);
}

static void label_free(const struct series *sr, struct series_label *L)
{
    for (size_t p = 0; L->vals && p < sr->nphases; p++)
        free(L->vals[p]);
    free(L->vals);
    free(L->nvals);
    free(L->meta);
    memset(L, 0, sizeof *L);
}

void series_drop_last(struct series *sr)
{
    if (sr->nlabels)
        label_free(sr, &sr->labels[--sr->nlabels]);
}

void series_free(struct series *sr)
{
    for (size_t i = 0; i < sr->nlabels; i++)
        label_free(sr, &sr->labels[i]);
    free(sr->labels);
    free(sr->phases);
    memset(sr, 0, sizeof *sr);
}
