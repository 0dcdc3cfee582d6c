/* run_request.c — the request of a run (run_request.h): its defaults from the table, and one
 * value of any source (a command line, a job file's key, a stored set) checked by its row's
 * kind and set: the range or the values, one value of a one-value option, consent from this
 * process's command line alone.
 */
#include "run/run_request.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"

static size_t row_index(const struct run_option *o)
{
    return (size_t)(o - run_options);
}

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
