/* workdiff.c — what differs between two groups of runs, and whether it changes the work
 * done (see workdiff.h).
 *
 * The set's description gives the tree, engine, target, kernel and machine; threads, mkfs
 * options and a replayed trace are read from the command line that made the set and from its
 * job file (the set keeps both); phases and their file counts come from the first measured
 * run of each side, so two configurations of one set are told apart too.
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

static const char *target_kind(const struct run_set *rs)
{
    if (!rs->target.blockdev[0])
        return "directory";
    return strncmp(rs->target.blockdev, "loop", 4) ? "device" : "image";
}

void workdiff_compare(const struct workdiff_side *a, const struct workdiff_side *b, bool same_set,
                      struct workdiff *out)
{
    memset(out, 0, sizeof *out);
    const struct run_set *ra = a->rs, *rb = b->rs;
    char va[WORKDIFF_VALUE_MAX], vb[WORKDIFF_VALUE_MAX];
    if (!same_set) {
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
        option_of(ra, "--threads", "-j", "threads", va, sizeof va);
        option_of(rb, "--threads", "-j", "threads", vb, sizeof vb);
        add(out, "threads", va, vb, true);
        option_of(ra, "--replay", NULL, "replay", va, sizeof va);
        option_of(rb, "--replay", NULL, "replay", vb, sizeof vb);
        add(out, "replayed trace", va, vb, true);
    }
    const struct run_result *fa = first_run(a), *fb = first_run(b);
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
        option_of(ra, "--mkfs-opts", NULL, "mkfs-opts", va, sizeof va);
        option_of(rb, "--mkfs-opts", NULL, "mkfs-opts", vb, sizeof vb);
        add(out, "mkfs options", va, vb, false);
        add(out, "kernel", ra->machine.kernel, rb->machine.kernel, false);
        add(out, "machine", ra->machine.hostname, rb->machine.hostname, false);
    }
    if (!same_set) /* configurations of one set differ on purpose: that is the comparison */
        add(out, "configuration", a->config ? a->config : "", b->config ? b->config : "", false);
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
