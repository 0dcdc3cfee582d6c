/* job_keys.c — which keys a job file may hold, and their values: the long options of
 * `fsbench run` (from the caller's getopt_long table, never a copy of its names), the job
 * keys, phase parameters phase.NAME.KEY, and "did you mean ...?" for a near miss.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "phase/phase.h"
#include "phase/phase_registry.h"
#include "run/job_internal.h"

/* Which options are parameters of which phase: phase.NAME.KEY sets option KEY, and only
 * for the phase it belongs to (test_job checks every name is an option of `run`). */
static const struct {
    const char *phase;
    const char *option;
} phase_params[] = {
    {"fsyncstorm", "fsync-dir"}, {"cb_initial", "initial"}, {"cb_random", "random"},
    {"age", "age-written"},      {"age", "age-fullness"},   {"age", "age-profile"},
    {"age", "age-converge"},     {"age", "age-free-target"}, {NULL, NULL},
};

static const char *const job_only_keys[] = {JOB_KEY_INCLUDE, JOB_KEY_INTERLEAVE,
                                            JOB_KEY_DESCRIPTION, NULL};

int job_bool(const char *v)
{
    static const char *const yes[] = {"1", "yes", "true", "on", NULL};
    static const char *const no[] = {"0", "no", "false", "off", NULL};
    for (size_t i = 0; yes[i]; i++) {
        if (!strcasecmp(v, yes[i]))
            return 1;
        if (!strcasecmp(v, no[i]))
            return 0;
    }
    return -1;
}

static bool listed(const char *s, const char *const *list)
{
    for (size_t i = 0; list && list[i]; i++)
        if (!strcmp(s, list[i]))
            return true;
    return false;
}

const struct option *job_key_option(const struct job_keys *keys, const char *name)
{
    if (listed(name, keys->excluded))
        return NULL;
    for (const struct option *o = keys->opts; o->name; o++)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

/* Levenshtein distance, capped at 255 characters of each. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strnlen(a, 255), lb = strnlen(b, 255);
    size_t row[256];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *job_nearest(const char *s, const char *const *names)
{
    const char *best = NULL;
    size_t bd = (size_t)-1;
    for (size_t i = 0; names[i]; i++) {
        size_t d = distance(s, names[i]);
        if (d < bd) {
            bd = d;
            best = names[i];
        }
    }
    /* close: at most a third of the name wrong (a typo, a missing s, a swapped pair) */
    size_t len = strlen(s);
    return best && bd <= (len < 3 ? 1 : len / 3 + 1) ? best : NULL;
}

/* Every valid key name into out (at most max - 1, NULL-ended). */
static void key_names(const struct job_keys *keys, const char **out, size_t max)
{
    size_t n = 0;
    for (const struct option *o = keys->opts; o->name && n + 1 < max; o++)
        if (!listed(o->name, keys->excluded))
            out[n++] = o->name;
    for (size_t i = 0; job_only_keys[i] && n + 1 < max; i++)
        out[n++] = job_only_keys[i];
    out[n] = NULL;
}

/* phase.NAME.KEY: *name = KEY's option. 0 or -1 with why. */
static int phase_key(const struct job_keys *keys, const char *key, const char **name, char *why,
                     size_t len)
{
    char phase[64];
    const char *dot = strchr(key + 6, '.');
    if (!dot || dot == key + 6 || (size_t)(dot - key - 6) >= sizeof phase || !dot[1]) {
        snprintf(why, len, "'%s': a phase parameter is phase.NAME.KEY", key);
        return -1;
    }
    snprintf(phase, sizeof phase, "%.*s", (int)(dot - key - 6), key + 6);
    if (!phase_find(phase)) {
        const char *names[64];
        size_t n = 0;
        for (const struct phase_def *p = phase_table; p->name && n + 1 < 64; p++)
            names[n++] = p->name;
        names[n] = NULL;
        const char *near = job_nearest(phase, names);
        snprintf(why, len, "'%s': unknown phase '%s'%s%s%s", key, phase,
                 near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
        return -1;
    }
    const char *params[16];
    size_t n = 0;
    for (size_t i = 0; phase_params[i].phase; i++)
        if (!strcmp(phase_params[i].phase, phase) && n + 1 < 16)
            params[n++] = phase_params[i].option;
    params[n] = NULL;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(params[i], dot + 1) && job_key_option(keys, params[i])) {
            *name = job_key_option(keys, params[i])->name;
            return 0;
        }
    if (!n) {
        snprintf(why, len, "'%s': phase %s takes no parameters", key, phase);
        return -1;
    }
    const char *near = job_nearest(dot + 1, params);
    snprintf(why, len, "'%s': phase %s has no parameter '%s' (%s%s%s%s)", key, phase, dot + 1,
             near ? "did you mean " : "it has ", near ? near : params[0],
             !near && n > 1 ? ", " : "", !near && n > 1 ? params[1] : "");
    if (near) {
        size_t l = strlen(why);
        snprintf(why + l - 1, len - l + 1, "?)");
    }
    return -1;
}

/* fio's names for keys that mean the same here: a job file written the fio way reads.
 * (numjobs, runtime, bs, rw and the like have no meaning in fsbench: they stay unknown.) */
static const struct {
    const char *fio, *ours;
} fio_keys[] = {
    {"directory", "dir"},      /* where the files go */
    {"loops", "runs"},         /* how many times the job runs */
    {"randseed", "seed"},      /* the seed of what is random */
    {"iodepth", "queue-depth"}, /* io_uring's queue depth */
    {NULL, NULL},
};

static const char *job_key_fio_name(const char *key)
{
    for (size_t i = 0; fio_keys[i].fio; i++)
        if (!strcmp(key, fio_keys[i].fio))
            return fio_keys[i].ours;
    return key;
}

int job_key_check(const struct job_keys *keys, bool global, const char *key, const char *value,
                  const char **name, char *why, size_t len)
{
    key = job_key_fio_name(key);
    if (!strcmp(key, JOB_KEY_INTERLEAVE)) {
        if (!global) {
            snprintf(why, len, "interleave belongs in [global]: it says how the jobs run");
            return -1;
        }
        if (strcmp(value, "jobs") && strcmp(value, "no")) {
            snprintf(why, len, "interleave: '%s' is not jobs or no", value);
            return -1;
        }
        *name = JOB_KEY_INTERLEAVE;
        return 0;
    }
    if (!strcmp(key, JOB_KEY_DESCRIPTION)) {
        *name = JOB_KEY_DESCRIPTION;
        return 0;
    }
    const struct option *o = NULL;
    if (!strncmp(key, "phase.", 6)) {
        if (phase_key(keys, key, name, why, len) < 0)
            return -1;
        o = job_key_option(keys, *name);
    } else if (!(o = job_key_option(keys, key))) {
        for (const struct option *x = keys->opts; x->name; x++)
            if (!strcmp(x->name, key)) { /* an option, but no key: consent, help, dry-run */
                snprintf(why, len, "'%s' is not a job key: it is given on the command line "
                                   "only (--%s)",
                         key, key);
                return -1;
            }
        const char *names[128];
        key_names(keys, names, 128);
        const char *near = job_nearest(key, names);
        snprintf(why, len, "unknown key '%s'%s%s%s", key, near ? ": did you mean " : "",
                 near ? near : "", near ? "?" : " (see fsbench run --help)");
        return -1;
    }
    *name = o->name;
    if (o->has_arg == no_argument) {
        if (job_bool(value) < 0) {
            snprintf(why, len, "%s: '%s' is not a flag value (1/0, yes/no, true/false)", key,
                     value);
            return -1;
        }
        return 0;
    }
    if (!*value) {
        snprintf(why, len, "%s: no value", key);
        return -1;
    }
    if (!keys->check)
        return 0;
    return keys->check(keys->arg, o->name, value, why, len);
}

const char *job_phase_param(size_t i, const char **phase)
{
    if (!phase_params[i].phase)
        return NULL;
    *phase = phase_params[i].phase;
    return phase_params[i].option;
}
