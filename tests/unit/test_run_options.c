/* test_run_options.c — unit tests of the table of run's options (src/run/run_request_table.c):
 * every row is whole (unique names, a help line that fits, values for an enum, no setter
 * for consent), the defaults parse into what run used before the table, the table checks
 * ranges and values with the messages the command line gave, a one-value option given
 * twice is refused, and consent is set from the command line alone, by its kind.
 */
#include "testutil.h"

#include "base/err.h"
#include "run/run_request.h"
#include "engine/engine.h"
#include "report/report.h"

static char msg[1024];

/* Sets name = value from src into rq; the exit status, the message in msg. */
static int set(struct run_request *rq, const char *name, const char *value, enum run_source src)
{
    const struct run_option *o = run_option_find(name);
    assert_non_null(o);
    err_capture_begin(msg, sizeof msg);
    int rc = run_request_set(rq, o, value, src);
    err_capture_end();
    return rc;
}

static void test_rows_are_whole(void **state)
{
    size_t n = 0;
    for (const struct run_option *o = run_options; o->name; o++, n++) {
        for (const struct run_option *p = run_options; p < o; p++) {
            assert_string_not_equal(o->name, p->name);
            assert_false(o->short_name && o->short_name == p->short_name);
        }
        if (o->key)
            assert_string_equal(o->key, o->name);
        assert_non_null(o->help);
        for (const char *h = o->help; *h;) {
            size_t len = strcspn(h, "\n");
            /* at column 20: 64 is what the help had when the table was made (84 wide) */
            if (len > 64)
                fail_msg("--%s: a help line of %zu columns (64 at most)", o->name, len);
            h += len + (h[len] == '\n');
        }
        if (o->kind == RUN_KIND_ENUM)
            assert_true(o->values && o->values[0] && o->bad);
        if (o->kind == RUN_KIND_CONSENT)
            assert_null(o->set); /* consent is run_consent()'s, never the request's */
        else if (!(o->flags & RUN_OPT_HANDLED))
            assert_non_null(o->set);
        if (o->range)
            assert_true(o->kind == RUN_KIND_NUMBER || o->kind == RUN_KIND_DURATION);
        const struct option *g = &run_options_getopt()[n];
        assert_string_equal(g->name, o->name);
        assert_int_equal(g->has_arg, !o->arg                           ? no_argument
                                     : o->flags & RUN_OPT_OPTIONAL ? optional_argument
                                                                   : required_argument);
        assert_ptr_equal(run_option_of(g->val, -1), o);
    }
    assert_true(n >= 60 && n <= RUN_OPTIONS_MAX);
    assert_null(run_options_getopt()[n].name);
}

/* The defaults, from the table, are the values run had before it. */
static void test_defaults(void **state)
{
    static struct run_request rq;
    assert_int_equal(run_request_init(&rq, 0, NULL), 0);
    assert_int_equal(rq.ro.runs, 1);
    assert_false(rq.ro.runs_auto || rq.ro.until_verdict);
    assert_int_equal(rq.ro.interval_ms, 100);
    assert_true(rq.ro.precision == 0.05);
    assert_true(rq.ro.min_effect == 0.10);
    assert_true(rq.ro.negligible_s == 0.001);
    assert_true(rq.ro.confidence == 0.95);
    assert_int_equal(rq.ro.params.cb_initial, 3);
    assert_int_equal(rq.ro.params.cb_runs, 20);
    assert_int_equal(rq.ro.params.fsync_rounds, 2);
    assert_true(rq.ro.params.age_written == 4 && rq.ro.params.age_fullness == 0.8);
    assert_int_equal(rq.max_runs, 30);
    assert_int_equal(rq.seed, 1);
    assert_true(rq.scale == 1);
    assert_int_equal(rq.format, REPORT_TABLE);
    assert_false(rq.cb_format);
    assert_ptr_equal(rq.ro.eng, &engine_posix);
    assert_null(rq.ro.async_eng);
    assert_string_equal(rq.profile, "tiny");
    assert_true(rq.save);
    /* a default is not "given": --scale, --threads and --fsync-rounds were not */
    assert_false(run_request_given(&rq, "scale") || run_request_given(&rq, "threads") ||
                 run_request_given(&rq, "fsync-rounds"));
    assert_int_equal(rq.ro.threads, 0); /* said, not parsed: replay picks its own */
}

/* Ranges and values are the table's, with the command line's messages. */
static void test_checks(void **state)
{
    static struct run_request rq;
    assert_int_equal(run_request_init(&rq, 0, NULL), 0);
    assert_int_equal(set(&rq, "threads", "0", RUN_FROM_ARGV), EXIT_USAGE);
    assert_string_equal(msg, "--threads: '0' is not a whole number from 1 to 64");
    assert_int_equal(set(&rq, "format", "csv", RUN_FROM_JOB), EXIT_USAGE);
    assert_string_equal(msg, "--format: unknown format 'csv' (table, seeds, compilebench)");
    assert_int_equal(set(&rq, "replay-timing", "slow", RUN_FROM_ARGV), EXIT_USAGE);
    assert_string_equal(msg, "--replay-timing: 'slow' is neither afap nor original");
    assert_int_equal(run_request_init(&rq, 0, NULL), 0); /* a refusal ends the parse */
    assert_int_equal(set(&rq, "format", "compilebench", RUN_FROM_ARGV), 0);
    assert_true(rq.cb_format && rq.format == REPORT_TABLE);
    assert_int_equal(set(&rq, "threads", "4", RUN_FROM_JOB), 0);
    assert_int_equal(rq.ro.threads, 4);
    assert_true(run_request_given(&rq, "threads"));
    /* one value: the same again is fine, another is refused naming both */
    assert_int_equal(set(&rq, "threads", "4", RUN_FROM_ARGV), 0);
    assert_int_equal(set(&rq, "threads", "8", RUN_FROM_ARGV), EXIT_USAGE);
    assert_string_equal(msg, "--threads given twice, as '4' and as '8': it takes one value "
                             "(list options such as --fs and --mount-opts take several)");
    /* a list adds up */
    assert_int_equal(set(&rq, "fs", "ext4", RUN_FROM_JOB), 0);
    assert_int_equal(set(&rq, "fs", "xfs", RUN_FROM_ARGV), 0);
    assert_string_equal(rq.ta.fs_list, "ext4,xfs");
}

/* Consent: from this process's command line alone, by the row's kind; the request never
 * holds it (run_consent() does). */
static void test_consent_by_kind(void **state)
{
    static struct run_request rq;
    assert_int_equal(run_request_init(&rq, 0, NULL), 0);
    size_t n = 0;
    for (const struct run_option *o = run_options; o->name; o++) {
        if (o->kind != RUN_KIND_CONSENT)
            continue;
        n++;
        const char *v = o->arg ? "/dev/x" : NULL;
        assert_int_equal(set(&rq, o->name, v, RUN_FROM_ARGV), 0);
        assert_int_equal(set(&rq, o->name, v, RUN_FROM_JOB), EXIT_USAGE);
        assert_non_null(strstr(msg, "cannot consent: give it on the command line"));
        assert_int_equal(set(&rq, o->name, v, RUN_FROM_STORED), EXIT_USAGE);
        /* a job file refuses it as a key: as consent, or as the command line's only */
        const struct job_keys *k = run_options_job_keys();
        bool refused = false;
        for (size_t i = 0; k->cmdline_only[i]; i++)
            refused |= !strcmp(k->cmdline_only[i], o->name);
        for (size_t i = 0; k->excluded[i]; i++)
            refused |= !strcmp(k->excluded[i], o->name);
        assert_true(refused);
        assert_true(o->flags & RUN_OPT_NOT_STORED);
    }
    assert_int_equal(n, 3);
}

/* run_args: options with their words, a bad option, positionals in place, the words after
 * "--" as positionals ("--" itself in none), and the consent words by their row. */
static void test_args_walk(void **state)
{
    (void)state;
    char *argv[] = {"run", "basic", "-j", "2", "--destroy-data", "--nosuch", "--scale=0.5",
                    "x", "--", "--tree", "y", NULL};
    int argc = 11;
    struct run_args it;
    struct run_arg a;
    char seen[256] = "";
    run_args_begin(&it, argc, argv);
    while (run_args_next(&it, &a)) {
        char one[64];
        if (a.c == -1)
            snprintf(one, sizeof one, "%s%s[%d,%d) ", a.after_dashes ? "after:" : "pos:", a.value,
                     a.from, a.to);
        else if (!a.opt)
            snprintf(one, sizeof one, "bad:%s ", argv[a.to - 1]);
        else
            snprintf(one, sizeof one, "%s%s=%s[%d,%d) ",
                     a.opt->kind == RUN_KIND_CONSENT ? "consent:" : "", a.opt->name,
                     a.value ? a.value : "", a.from, a.to);
        strncat(seen, one, sizeof seen - strlen(seen) - 1);
    }
    run_args_end(&it);
    assert_string_equal(seen, "pos:basic[1,2) threads=2[2,4) consent:destroy-data=[4,5) "
                              "bad:--nosuch scale=0.5[6,7) pos:x[7,8) after:--tree[9,10) "
                              "after:y[10,11) ");
    /* the stored arguments leave out consent and where results go */
    assert_string_equal(run_options_args_json(argc, argv),
                        "[\"basic\",\"-j\",\"2\",\"--nosuch\",\"--scale=0.5\",\"x\","
                        "\"--tree\",\"y\"]");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_are_whole),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_consent_by_kind),
        cmocka_unit_test(test_args_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
