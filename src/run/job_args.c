/* job_args.c — one job of a job file as the argument list of `fsbench run`: [global]'s keys
 * the job does not set, then the job's own, each one "--key=value"; the command line's
 * options are left out of both so that the command line overrides the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "run/job_internal.h"

size_t job_count(const struct job_file *jf)
{
    return jf->nsec > 1 ? jf->nsec - 1 : 1;
}

/* The section job i's own keys are in ([global] when the file has no jobs). */
static const struct job_section *job_sec(const struct job_file *jf, size_t i)
{
    return jf->nsec > 1 ? &jf->sec[i + 1] : &jf->sec[0];
}

const char *job_name(const struct job_file *jf, size_t i)
{
    if (jf->nsec > 1)
        return jf->sec[i + 1].name;
    /* a file of [global] alone is one job named after the file */
    static char name[64];
    const char *base = strrchr(jf->path, '/');
    base = base ? base + 1 : jf->path;
    size_t len = strcspn(base, ".");
    snprintf(name, sizeof name, "%.*s", (int)(len ? len : strlen(base)), base);
    return name;
}

static const char *lookup(const struct job_section *sec, const char *key)
{
    const char *v = NULL;
    for (size_t k = 0; k < sec->n; k++)
        if (!strcmp(sec->e[k].key, key))
            v = sec->e[k].value;
    return v;
}

const char *job_description(const struct job_file *jf, size_t i)
{
    const char *d = lookup(job_sec(jf, i), JOB_KEY_DESCRIPTION);
    return d ? d : lookup(&jf->sec[0], JOB_KEY_DESCRIPTION);
}

static bool listed(const char *s, const char *const *list)
{
    for (size_t i = 0; list && list[i]; i++)
        if (!strcmp(s, list[i]))
            return true;
    return false;
}

void job_args_free(struct job_arg *a, int n)
{
    for (int i = 0; a && i < n; i++)
        free(a[i].arg);
    free(a);
}

/* Adds the entries of sec that are options, not in skip, and (for [global]) not set by the
 * job's own section own. */
static int add_section(const struct job_section *sec, const struct job_section *own,
                       const struct job_keys *keys, const char *const *skip, struct job_arg *out,
                       int *n)
{
    for (size_t k = 0; k < sec->n; k++) {
        const struct job_entry *e = &sec->e[k];
        const struct option *o = job_key_option(keys, e->key);
        if (!o || listed(e->key, skip) || (own && lookup(own, e->key)))
            continue;
        /* one value for a non-repeatable key: the last one */
        if (!listed(e->key, keys->repeatable) && lookup(sec, e->key) != e->value)
            continue;
        bool flag = o->has_arg == no_argument;
        if (flag && job_bool(e->value) != 1)
            continue;
        const char *v = flag ? "" : e->arg ? e->arg : e->value;
        size_t len = strlen(o->name) + strlen(v) + 4;
        char *buf = malloc(len);
        if (!buf)
            return error("out of memory");
        snprintf(buf, len, flag ? "--%s" : "--%s=%s", o->name, v);
        out[(*n)++] = (struct job_arg){.arg = buf,
                                       .value = flag ? NULL : v,
                                       .key = o->name,
                                       .file = e->file,
                                       .line = e->line};
    }
    return 0;
}

int job_args(const struct job_file *jf, size_t i, const struct job_keys *keys,
             const char *const *skip, struct job_arg **out)
{
    const struct job_section *own = job_sec(jf, i);
    size_t max = jf->sec[0].n + (own != &jf->sec[0] ? own->n : 0) + 1;
    struct job_arg *a = calloc(max, sizeof *a);
    int n = 0;
    if (!a)
        return error("out of memory");
    if ((own != &jf->sec[0] && add_section(&jf->sec[0], own, keys, skip, a, &n) < 0) ||
        add_section(own, NULL, keys, skip, a, &n) < 0) {
        job_args_free(a, n);
        return -1;
    }
    *out = a;
    return n;
}
