/* run_options_parse.c — what is made from the table of run's options (run_options.c): the
 * getopt_long table, the job-file keys, `run --help`, and parsing a value of any source into
 * the request, checked by the row (range, values, one value, consent from argv alone).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/err.h"
#include "cli/run_options.h"
#include "tree/shape.h"

static size_t row_count(void)
{
    static size_t n;
    if (!n)
        while (run_options[n].name)
            n++;
    return n;
}

static size_t row_index(const struct run_option *o)
{
    return (size_t)(o - run_options);
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
    size_t n = row_count();
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
    if (c >= 256 && (size_t)(c - 256) < row_count())
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

/* ---- the request ------------------------------------------------------------------- */

bool run_request_given(const struct run_request *rq, const char *name)
{
    const struct run_option *o = run_option_find(name);
    return o && rq->given[row_index(o)];
}

int run_request_set(struct run_request *rq, const struct run_option *o, const char *value,
                    enum run_source src)
{
    size_t i = row_index(o);
    if (o->kind == RUN_KIND_CONSENT) {
        /* by its kind: consent is this process's command line's (run_consent()), never a
         * job file's, an include's, a stored set's or an import's */
        if (src != RUN_FROM_ARGV)
            return error("--%s: a job file or a stored set cannot consent: give it on the "
                         "command line",
                         o->name),
                   EXIT_USAGE;
        return 0;
    }
    if (run_option_is_flag(o))
        value = NULL;
    else if (!value)
        return error("--%s: no value", o->name), EXIT_USAGE;
    /* a one-value option given again: fine with the same value, refused with another */
    if (value && src != RUN_FROM_DEFAULT && o->kind != RUN_KIND_LIST &&
        !(o->flags & RUN_OPT_OPTIONAL)) {
        if (rq->seen[i] && strcmp(rq->seen[i], value))
            return error("--%s given twice, as '%s' and as '%s': it takes one value (list "
                         "options such as --fs and --mount-opts take several)",
                         o->name, rq->seen[i], value),
                   EXIT_USAGE;
        rq->seen[i] = value;
    }
    double num = 0;
    char dashed[64];
    snprintf(dashed, sizeof dashed, "--%s", o->name);
    if (value && o->range && num_option(dashed, value, o->range, &num) < 0)
        return EXIT_USAGE;
    if (value && o->kind == RUN_KIND_ENUM && o->values) {
        size_t k = 0;
        while (o->values[k] && strcmp(o->values[k], value))
            k++;
        if (!o->values[k]) {
            char why[256];
            snprintf(why, sizeof why, o->bad ? o->bad : "'%s' is not one of its values", value);
            return error("--%s: %s", o->name, why), EXIT_USAGE;
        }
        num = (double)k;
    }
    if (src != RUN_FROM_DEFAULT)
        rq->given[i] = true;
    return o->set ? o->set(rq, o, value, num) : 0;
}

int run_request_init(struct run_request *rq, int argc, char **argv)
{
    memset(rq, 0, sizeof *rq);
    rq->argc = argc;
    rq->argv = argv;
    rq->save = true;
    rq->ro.confidence = 0.95;
    for (const struct run_option *o = run_options; o->name; o++)
        if (o->def && !(o->flags & RUN_OPT_DEF_SAID) && o->set &&
            run_request_set(rq, o, o->def, RUN_FROM_DEFAULT) != 0)
            return EXIT_USAGE;
    return 0;
}

int run_request_argv(struct run_request *rq, int argc, char **argv, enum run_source src)
{
    int c, idx;
    optind = 0; /* 0: getopt starts afresh (argv was scanned before) */
    while ((idx = -1, c = getopt_long(argc, argv, run_options_short(), run_options_getopt(),
                                      &idx)) != -1) {
        const struct run_option *o = run_option_of(c, idx);
        if (!o)
            return RUN_ARGV_BAD;
        if (!strcmp(o->name, "help"))
            return RUN_ARGV_HELP;
        int rc = run_request_set(rq, o, optarg, src);
        if (rc)
            return rc;
    }
    for (; optind < argc; optind++)
        if (rq->npos < 2)
            rq->pos[rq->npos++] = argv[optind];
    return RUN_ARGV_OK;
}

/* ---- run --help -------------------------------------------------------------------- */

/* The left column of row o: "-j N, --threads N", "--dir DIR", "--no-save". */
static const char *left_column(const struct run_option *o, char *buf, size_t len)
{
    if (o->usage)
        return o->usage;
    const char *arg = o->arg ? o->arg : "";
    const char *sp = o->arg ? " " : "";
    if (o->short_name)
        snprintf(buf, len, "-%c%s%s, --%s%s%s", o->short_name, sp, arg, o->name, sp, arg);
    else
        snprintf(buf, len, "--%s%s%s", o->name, sp, arg);
    return buf;
}

void run_options_usage(FILE *out)
{
    fputs("usage: fsbench run [OPTIONS] [SCENARIO]   (default scenario: basic)\n"
          "       fsbench run [OPTIONS] JOB.ini | --job JOB.ini | JOB   (a job file, or a\n"
          "                    shipped job: see fsbench list)\n",
          out);
    for (int s = 0; s < RUN_SEC_HIDDEN; s++) {
        if (run_sections[s].title)
            fprintf(out, "%s\n", run_sections[s].title);
        for (const struct run_option *o = run_options; o->name; o++) {
            if ((int)o->section != s)
                continue;
            char buf[128];
            const char *left = left_column(o, buf, sizeof buf);
            size_t w = strlen(left);
            const char *h = o->help;
            size_t n = strcspn(h, "\n");
            /* the help at column 20, or after the left column when it is wider */
            fprintf(out, w <= 17 ? "  %-17s %.*s\n" : w == 18 ? "  %s %.*s\n" : "  %s  %.*s\n",
                    left, (int)n, h);
            for (h += n; *h; h += n) {
                h++;
                n = strcspn(h, "\n");
                fprintf(out, "%20s%.*s\n", "", (int)n, h);
            }
        }
        if (run_sections[s].note)
            fprintf(out, "%s\n", run_sections[s].note);
    }
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
