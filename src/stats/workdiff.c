/* workdiff.c — what differs between two groups of runs, and whether it changes the work
 * done (see workdiff.h).
 *
 * The set's description gives the tree, engine, target, kernel and machine; threads, mkfs
 * options, a replayed trace's identity and extract's calls come from the set's work records
 * (results.h, struct run_work: one per configuration, or per job of interleaved jobs). A set
 * made before they were kept has none: those are then read from the command line that made
 * the set and from its job file (the set keeps both), and extract's calls from its counts
 * (below). Phases and their file counts come from the first measured run of each side, so
 * two configurations of one set are told apart too.
 */
#include "stats/workdiff.h"

#include <stdio.h>
#include <string.h>

#include "base/text.h"

static void add(struct workdiff *d, const char *what, const char *a, const char *b, bool work)
{
    if (!strcmp(a, b) || d->n >= WORKDIFF_MAX_ITEMS)
        return;
    struct workdiff_item *it = &d->item[d->n++];
    /* values may come from an import: kept escaped, so every report prints them as is */
    text_escape(it->what, sizeof it->what, what);
    text_escape(it->a, sizeof it->a, a[0] ? a : "(none)");
    text_escape(it->b, sizeof it->b, b[0] ? b : "(none)");
    it->work = work;
    d->work |= work;
}

/* The value of option `name` (long, "--name V" or "--name=V") or `shortopt` ("-j V", "-jV")
 * on a command line joined with blanks, then of key `key` in the job text ("key = V", every
 * distinct value joined by ","); "" when neither names it. */
static void option_of(const struct run_set *rs, const char *name, const char *shortopt,
                      const char *key, char *out, size_t len)
{
    out[0] = '\0';
    char line[sizeof rs->command_line];
    snprintf(line, sizeof line, "%s", rs->command_line);
    char *save = NULL, *prev = NULL;
    size_t nl = strlen(name);
    for (char *t = strtok_r(line, " ", &save); t; prev = t, t = strtok_r(NULL, " ", &save)) {
        if (prev && (!strcmp(prev, name) || (shortopt && !strcmp(prev, shortopt)))) {
            snprintf(out, len, "%s", t);
            continue;
        }
        if (!strncmp(t, name, nl) && t[nl] == '=')
            snprintf(out, len, "%s", t + nl + 1);
        else if (shortopt && !strncmp(t, shortopt, strlen(shortopt)) && t[strlen(shortopt)])
            snprintf(out, len, "%s", t + strlen(shortopt));
    }
    if (out[0] || !key)
        return;
    size_t kl = strlen(key), used = 0;
    for (const char *p = rs->job_text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *q = p;
        while (q < p + n && (*q == ' ' || *q == '\t'))
            q++;
        if ((size_t)(p + n - q) > kl && !strncmp(q, key, kl)) {
            const char *v = q + kl;
            while (v < p + n && (*v == ' ' || *v == '\t'))
                v++;
            if (v < p + n && *v == '=') {
                v++;
                while (v < p + n && (*v == ' ' || *v == '\t'))
                    v++;
                int vl = (int)(p + n - v);
                char val[WORKDIFF_VALUE_MAX];
                snprintf(val, sizeof val, "%.*s", vl, v);
                if (!strstr(out, val) && used + strlen(val) + 2 < len)
                    used += (size_t)snprintf(out + used, len - used, "%s%s", used ? "," : "", val);
            }
        }
        p += n + (e != NULL);
    }
}

/* Threads of a set made before the work records: -j / --threads / a job's "threads", 1
 * when none is given (as a record says it). */
static void old_threads(const struct run_set *rs, char *out, size_t len)
{
    option_of(rs, "--threads", "-j", "threads", out, len);
    if (!out[0])
        snprintf(out, len, "1");
}

/* The replayed trace of a side without a record (had: it has one, out holds its value): the
 * trace file's name alone, from the record or the stored --replay / job key. */
static void old_trace(const struct workdiff_side *s, bool had, char *out, size_t len)
{
    if (had) {
        char *colon = strstr(out, ": ");
        if (colon)
            *colon = '\0';
        return;
    }
    char path[WORKDIFF_VALUE_MAX];
    option_of(s->rs, "--replay", NULL, "replay", path, sizeof path);
    const char *base = strrchr(path, '/');
    snprintf(out, len, "%s", base ? base + 1 : path);
}

static bool in_side(const struct run_result *run, const struct workdiff_side *s)
{
    return !s->config || !strcmp(run->config, s->config);
}

/* The side's first measured run, or NULL. */
static const struct run_result *first_run(const struct workdiff_side *s)
{
    for (size_t i = 0; i < s->rs->nruns; i++)
        if (!s->rs->runs[i].warmup && in_side(&s->rs->runs[i], s))
            return &s->rs->runs[i];
    return NULL;
}

static void phase_list(const struct run_result *r, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; r && i < r->nphases && used + 2 < len; i++) {
        int n = snprintf(out + used, len - used, "%s%s", i ? "," : "", r->phases[i].name);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
}

/* The files the first OK occurrence of phase `name` handled in the side's measured runs
 * (the largest count seen: a tree is the same every run), -1 when none. */
static long long phase_files(const struct workdiff_side *s, const char *name)
{
    long long best = -1;
    for (size_t i = 0; i < s->rs->nruns; i++) {
        const struct run_result *r = &s->rs->runs[i];
        if (r->warmup || !in_side(r, s))
            continue;
        for (size_t k = 0; k < r->nphases; k++)
            if (!strcmp(r->phases[k].name, name)) {
                if (r->phases[k].status == PHASE_OK && (long long)r->phases[k].files > best)
                    best = (long long)r->phases[k].files;
                break;
            }
    }
    return best;
}

/* Whether work record w is about the side's configuration: "" is every one's; "job" is
 * job's and its "job/..." configurations'. A side of every run takes every record. */
static bool work_for(const struct run_work *w, const struct workdiff_side *s)
{
    if (!s->config || !w->config[0])
        return true;
    size_t n = strlen(w->config);
    return !strncmp(s->config, w->config, n) && (s->config[n] == '\0' || s->config[n] == '/');
}

enum work_field { WF_THREADS, WF_MKFS, WF_TRACE, WF_EXTRACT };

/* One record's value of a field, as workdiff lists it; "" when unknown (extract's calls of
 * an unknown version). */
static void work_value(const struct run_work *w, enum work_field f, char *out, size_t len)
{
    switch (f) {
    case WF_THREADS:
        snprintf(out, len, "%u", w->threads ? w->threads : 1);
        return;
    case WF_MKFS:
        snprintf(out, len, "%s", w->mkfs_opts);
        return;
    case WF_TRACE:
        if (!w->trace[0])
            snprintf(out, len, "%s", "");
        else /* the name to show, the calls and the recording's start to tell traces apart */
            snprintf(out, len, "%.40s: %llu calls recorded at %llu.%03llu", w->trace,
                     (unsigned long long)w->trace_calls,
                     (unsigned long long)(w->trace_recorded_ns / 1000000000u),
                     (unsigned long long)(w->trace_recorded_ns / 1000000u % 1000u));
        return;
    case WF_EXTRACT:
        if (w->extract_version == 0)
            out[0] = '\0';
        else if (w->extract_version < RES_EXTRACT_VERSION)
            snprintf(out, len, "before tar's calls (v%u)", w->extract_version);
        else
            snprintf(out, len, "%s", w->extract_calls[0] ? w->extract_calls : "tar");
        return;
    }
}

/* Whether the ","-separated list holds v. */
static bool list_has(const char *list, const char *v)
{
    size_t n = strlen(v);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, ",");
        if (k == n && !strncmp(p, v, n))
            return true;
        p += k + (p[k] == ',');
    }
    return false;
}

/* The side's value of a field from its work records: that of the records about its runs,
 * every distinct value joined by "," ("(none)" for an empty one among others); false when
 * the set has no records (made before they were kept). */
static bool work_of(const struct workdiff_side *s, enum work_field f, char *out, size_t len)
{
    out[0] = '\0';
    if (!s->rs->nwork)
        return false;
    char v[RES_WORK_MAX][WORKDIFF_VALUE_MAX];
    unsigned n = 0;
    for (unsigned i = 0; i < s->rs->nwork && i < RES_WORK_MAX; i++)
        if (work_for(&s->rs->work[i], s))
            work_value(&s->rs->work[i], f, v[n++], sizeof v[0]);
    size_t used = 0;
    for (unsigned i = 0; i < n; i++) {
        const char *shown = v[i][0] || n == 1 ? v[i] : "(none)";
        if (list_has(out, shown))
            continue;
        int w = snprintf(out + used, len - used, "%s%s", used ? "," : "", shown);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
    if (!strcmp(out, "(none)")) /* none in every record: as a single record says it */
        out[0] = '\0';
    return true;
}

/* The extract phase's calls of a set made before the work records were kept: what the
 * stored arguments or job file say (--extract-calls, which exists only since extract makes
 * tar's calls), else, as root, what its counts say: tar's calls set owner, mode and times on
 * every entry (three setattr calls an entry, two at least), the extract before them only
 * times and some modes (about 1.2). Another user's extract made the same calls before and
 * after, near enough: unknown (""), never called different. */
static void old_extract_calls(const struct workdiff_side *s, const struct run_result *first,
                              char *out, size_t len)
{
    option_of(s->rs, "--extract-calls", NULL, "extract-calls", out, len);
    if (out[0] || !s->rs->root || !first)
        return;
    for (size_t k = 0; k < first->nphases; k++) {
        const struct phase_result *p = &first->phases[k];
        uint64_t entries = p->files + p->dirs + p->symlinks;
        if (strcmp(p->name, "extract") || p->status != PHASE_OK || entries == 0)
            continue;
        struct run_work w = {.extract_version = p->ops[OP_SETATTR] >= 2 * entries
                                                    ? RES_EXTRACT_VERSION
                                                    : 1};
        work_value(&w, WF_EXTRACT, out, len);
        return;
    }
}

static bool runs_phase(const struct run_result *r, const char *name)
{
    for (size_t k = 0; r && k < r->nphases; k++)
        if (!strcmp(r->phases[k].name, name))
            return true;
    return false;
}

static const char *target_kind(const struct run_set *rs)
{
    if (!rs->target.blockdev[0])
        return "directory";
    return strncmp(rs->target.blockdev, "loop", 4) ? "device" : "image";
}

/* Both sides' value of field f, from their work records or, for a set made before them, as
 * `old` reads it (NULL: not read then, the item left out). */
static void work_item(struct workdiff *out, const struct workdiff_side *a,
                      const struct workdiff_side *b, enum work_field f, const char *what,
                      bool work)
{
    char va[WORKDIFF_VALUE_MAX], vb[WORKDIFF_VALUE_MAX];
    bool ha = work_of(a, f, va, sizeof va), hb = work_of(b, f, vb, sizeof vb);
    if (!ha || !hb) {
        if (a->rs == b->rs)
            return; /* configurations of an older set: its arguments are the same for both */
        switch (f) {
        case WF_THREADS:
            if (!ha)
                old_threads(a->rs, va, sizeof va);
            if (!hb)
                old_threads(b->rs, vb, sizeof vb);
            break;
        case WF_MKFS:
            if (!ha)
                option_of(a->rs, "--mkfs-opts", NULL, "mkfs-opts", va, sizeof va);
            if (!hb)
                option_of(b->rs, "--mkfs-opts", NULL, "mkfs-opts", vb, sizeof vb);
            break;
        case WF_TRACE: /* an older set: the traces' file names alone */
            old_trace(a, ha, va, sizeof va);
            old_trace(b, hb, vb, sizeof vb);
            break;
        case WF_EXTRACT:
            if (!ha)
                old_extract_calls(a, first_run(a), va, sizeof va);
            if (!hb)
                old_extract_calls(b, first_run(b), vb, sizeof vb);
            break;
        }
    }
    if (f == WF_EXTRACT && (!va[0] || !vb[0]))
        return; /* unknown on a side: not called different */
    add(out, what, va, vb, work);
}

/* Whether both sides replayed a trace they know by its identity (then that, not the path
 * in the tree's profile "trace:PATH", tells them apart). */
static bool traces_known(const struct workdiff_side *a, const struct workdiff_side *b)
{
    char va[WORKDIFF_VALUE_MAX], vb[WORKDIFF_VALUE_MAX];
    return work_of(a, WF_TRACE, va, sizeof va) && work_of(b, WF_TRACE, vb, sizeof vb) &&
           va[0] && vb[0] && !strncmp(a->rs->tree.profile, "trace:", 6) &&
           !strncmp(b->rs->tree.profile, "trace:", 6);
}

void workdiff_compare(const struct workdiff_side *a, const struct workdiff_side *b, bool same_set,
                      struct workdiff *out)
{
    memset(out, 0, sizeof *out);
    const struct run_set *ra = a->rs, *rb = b->rs;
    char va[WORKDIFF_VALUE_MAX], vb[WORKDIFF_VALUE_MAX];
    if (!same_set) {
        if (!traces_known(a, b))
            add(out, "tree", ra->tree.profile, rb->tree.profile, true);
        snprintf(va, sizeof va, "%g", ra->tree.scale);
        snprintf(vb, sizeof vb, "%g", rb->tree.scale);
        add(out, "scale", va, vb, true);
        snprintf(va, sizeof va, "%llu", (unsigned long long)ra->tree.seed);
        snprintf(vb, sizeof vb, "%llu", (unsigned long long)rb->tree.seed);
        add(out, "seed", va, vb, true);
        snprintf(va, sizeof va, "%llu", (unsigned long long)ra->tree.files);
        snprintf(vb, sizeof vb, "%llu", (unsigned long long)rb->tree.files);
        add(out, "tree files", va, vb, true);
    }
    /* configurations of one set (jobs interleaved) may differ in these too: listed */
    work_item(out, a, b, WF_THREADS, "threads", true);
    work_item(out, a, b, WF_TRACE, "replayed trace", true);
    const struct run_result *fa = first_run(a), *fb = first_run(b);
    if (runs_phase(fa, "extract") && runs_phase(fb, "extract"))
        work_item(out, a, b, WF_EXTRACT, "extract calls", true);
    char pa[WORKDIFF_VALUE_MAX], pb[WORKDIFF_VALUE_MAX];
    phase_list(fa, pa, sizeof pa);
    phase_list(fb, pb, sizeof pb);
    add(out, "phases", pa, pb, true);
    /* file counts of the phases both ran */
    char what[RES_NAME_MAX + 16];
    for (size_t i = 0; fa && fb && i < fa->nphases; i++) {
        const char *name = fa->phases[i].name;
        bool dup = false;
        for (size_t k = 0; k < i; k++)
            dup |= !strcmp(fa->phases[k].name, name);
        long long fa_n = dup ? -1 : phase_files(a, name), fb_n = dup ? -1 : phase_files(b, name);
        if (fa_n < 0 || fb_n < 0 || fa_n == fb_n || out->n >= WORKDIFF_MAX_ITEMS)
            continue;
        snprintf(what, sizeof what, "%s files", name);
        snprintf(va, sizeof va, "%lld", fa_n);
        snprintf(vb, sizeof vb, "%lld", fb_n);
        add(out, what, va, vb, true);
    }
    if (!same_set) {
        add(out, "engine", ra->engine, rb->engine, false);
        add(out, "target", target_kind(ra), target_kind(rb), false);
        add(out, "file system", ra->target.fstype, rb->target.fstype, false);
        add(out, "mount options", ra->target.mount_opts, rb->target.mount_opts, false);
    }
    work_item(out, a, b, WF_MKFS, "mkfs options", false);
    if (!same_set) {
        add(out, "kernel", ra->machine.kernel, rb->machine.kernel, false);
        add(out, "machine", ra->machine.hostname, rb->machine.hostname, false);
        /* configurations of one set differ on purpose: that is the comparison */
        add(out, "configuration", a->config ? a->config : "", b->config ? b->config : "", false);
    }
}

void workdiff_format(char *buf, size_t len, const struct workdiff *d, bool only_work)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < d->n; i++) {
        const struct workdiff_item *it = &d->item[i];
        if (only_work && !it->work)
            continue;
        int n = snprintf(buf + used, len - used, "%s%s %s vs %s", used ? "; " : "", it->what,
                         it->a, it->b);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
}
