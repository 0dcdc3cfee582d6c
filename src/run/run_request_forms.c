/* run_request_forms.c — what is made from the table of run's options (run_request_table.c):
 * the getopt_long table and its short options, a row by name, the job-file keys, the walk
 * over run's argv, and a stored set's arguments (see run_request.h).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/err.h"
#include "run/run_request.h"
#include "tree/shape.h"

size_t run_options_count(void)
{
    static size_t n;
    if (!n)
        while (run_options[n].name)
            n++;
    return n;
}

bool run_option_is_flag(const struct run_option *o)
{
    return o->arg == NULL;
}

const struct option *run_options_getopt(void)
{
    static struct option opts[RUN_OPTIONS_MAX + 1];
    if (opts[0].name)
        return opts;
    size_t n = run_options_count();
    for (size_t i = 0; i < n && i < RUN_OPTIONS_MAX; i++) {
        const struct run_option *o = &run_options[i];
        opts[i] = (struct option){
            .name = o->name,
            .has_arg = run_option_is_flag(o)               ? no_argument
                       : (o->flags & RUN_OPT_OPTIONAL) ? optional_argument
                                                        : required_argument,
            .flag = NULL,
            .val = o->short_name ? o->short_name : 256 + (int)i};
    }
    return opts;
}

const char *run_options_short(void)
{
    static char s[2 * RUN_OPTIONS_MAX + 1];
    if (s[0])
        return s;
    size_t k = 0;
    for (const struct run_option *o = run_options; o->name; o++) {
        if (!o->short_name)
            continue;
        s[k++] = o->short_name;
        if (!run_option_is_flag(o))
            s[k++] = ':';
    }
    return s;
}

const struct run_option *run_option_of(int c, int idx)
{
    if (c == '?' || c == ':')
        return NULL;
    if (idx >= 0)
        return &run_options[idx];
    if (c >= 256 && (size_t)(c - 256) < run_options_count())
        return &run_options[c - 256];
    for (const struct run_option *o = run_options; o->name; o++)
        if (o->short_name && o->short_name == c)
            return o;
    return NULL;
}

const struct run_option *run_option_find(const char *name)
{
    for (const struct run_option *o = run_options; o->name; o++)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

bool run_option_is_path(const char *key, const char *value, size_t *skip)
{
    *skip = 0;
    if (!strcmp(key, "tree")) {
        if (!strncmp(value, "tar:", 4)) {
            *skip = 4;
            return true;
        }
        return shape_is_path(value) != 0;
    }
    if (!strcmp(key, "age-profile")) /* a built-in's name is no path */
        return strchr(value, '/') || strchr(value, '.');
    const struct run_option *o = run_option_find(key);
    return o && o->kind == RUN_KIND_PATH && strcmp(value, "-") != 0;
}

const struct job_keys *run_options_job_keys(void)
{
    static const char *excluded[RUN_OPTIONS_MAX + 1], *repeatable[RUN_OPTIONS_MAX + 1],
        *consent[RUN_OPTIONS_MAX + 1];
    static struct job_keys keys;
    if (keys.opts)
        return &keys;
    size_t ne = 0, nr = 0, nc = 0;
    for (const struct run_option *o = run_options; o->name; o++) {
        if (!o->key)
            excluded[ne++] = o->name; /* an option, but the command line's only */
        else if (o->kind == RUN_KIND_CONSENT)
            consent[nc++] = o->name; /* a key only to be refused: consent */
        if (o->kind == RUN_KIND_LIST)
            repeatable[nr++] = o->name;
    }
    keys = (struct job_keys){.opts = run_options_getopt(),
                             .excluded = excluded,
                             .repeatable = repeatable,
                             .cmdline_only = consent,
                             .is_path = run_option_is_path};
    return &keys;
}

void run_args_begin(struct run_args *it, int argc, char **argv)
{
    it->argc = argc;
    it->argv = argv;
    it->saved_opterr = opterr;
    it->dashes = false;
    opterr = 0;
    optind = 0; /* 0: glibc's getopt starts afresh */
    snprintf(it->shortopts, sizeof it->shortopts, "+:%s", run_options_short());
}

bool run_args_next(struct run_args *it, struct run_arg *a)
{
    *a = (struct run_arg){.c = -1};
    if (!it->dashes) {
        int prev = optind ? optind : 1, idx = -1;
        int c = getopt_long(it->argc, it->argv, it->shortopts, run_options_getopt(), &idx);
        if (c != -1) {
            a->c = c;
            a->opt = run_option_of(c, idx);
            a->value = optarg;
            a->from = prev;
            a->to = optind;
            if (c == '?' || c == ':')
                a->bad_opt = optopt;
            return true;
        }
        if (optind < it->argc && prev < optind && !strcmp(it->argv[optind - 1], "--"))
            it->dashes = true;
    }
    if (optind < 1)
        optind = 1;
    if (optind >= it->argc)
        return false;
    a->value = it->argv[optind];
    a->from = optind;
    a->to = ++optind;
    a->after_dashes = it->dashes;
    return true;
}

void run_args_end(struct run_args *it)
{
    opterr = it->saved_opterr;
    optind = 0;
}

const char *run_options_args_json(int argc, char **argv)
{
    static char buf[RES_ARGS_MAX];
    json_t *a = json_array();
    if (!a)
        return NULL;
    int bad = 0;
    struct run_args it;
    struct run_arg arg;
    run_args_begin(&it, argc, argv);
    while (run_args_next(&it, &arg)) {
        /* where results go, and consent: the table says which */
        const struct run_option *o = arg.opt;
        if (o && (o->flags & RUN_OPT_NOT_STORED || o->kind == RUN_KIND_CONSENT))
            continue;
        for (int k = arg.from; k < arg.to; k++)
            bad |= json_array_append_new(a, json_string(argv[k])) != 0;
    }
    run_args_end(&it);
    char *text = bad ? NULL : json_dumps(a, JSON_COMPACT);
    json_decref(a);
    if (!text || strlen(text) >= sizeof buf) {
        free(text);
        return NULL;
    }
    snprintf(buf, sizeof buf, "%s", text);
    free(text);
    return buf;
}
