/* test_workdiff.c — what differs between two groups of runs: the set's work records
 * (threads, mkfs options, a replayed trace's identity, extract's calls and their version),
 * configurations of one set matched to their job's record, and sets made before the records
 * were kept (their stored arguments, and extract's calls from its counts). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "results/meta.h"
#include "stats/workdiff.h"

/* A set of one measured run (config) whose extract handled 100 files, 10 directories and
 * made `setattr` setattr calls; a record per name in configs ("" when none given). */
static void make_set(struct run_set *rs, const char *config, uint64_t setattr)
{
    memset(rs, 0, sizeof *rs);
    rs->root = true;
    snprintf(rs->tree.profile, sizeof rs->tree.profile, "tiny");
    rs->tree.scale = 1;
    struct run_result *r = run_set_add_run(rs, 1);
    assert_non_null(r);
    snprintf(r->config, sizeof r->config, "%s", config);
    struct phase_result *p = &r->phases[0];
    snprintf(p->name, sizeof p->name, "extract");
    p->status = PHASE_OK;
    p->files = 100;
    p->dirs = 10;
    p->ops[OP_SETATTR] = setattr;
}

static struct run_work *add_work(struct run_set *rs, const char *config, unsigned threads)
{
    struct run_work *w = &rs->work[rs->nwork++];
    memset(w, 0, sizeof *w);
    snprintf(w->config, sizeof w->config, "%s", config);
    w->threads = threads;
    snprintf(w->extract_calls, sizeof w->extract_calls, "tar");
    w->extract_version = RES_EXTRACT_VERSION;
    return w;
}

static void diff(const struct run_set *a, const char *ca, const struct run_set *b,
                 const char *cb, bool same, char *buf, size_t len, bool *work)
{
    struct workdiff_side sa = {a, ca}, sb = {b, cb};
    struct workdiff d;
    workdiff_compare(&sa, &sb, same, &d);
    workdiff_format(buf, len, &d, false);
    *work = d.work;
}

static void test_threads_from_records(void **state)
{
    (void)state;
    struct run_set a, b;
    make_set(&a, "", 330);
    make_set(&b, "", 330);
    add_work(&a, "", 1);
    add_work(&b, "", 4);
    /* the stored command line says otherwise: the records win */
    snprintf(a.command_line, sizeof a.command_line, "fsbench run -j 4");
    char buf[2048];
    bool work;
    diff(&a, NULL, &b, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "threads 1 vs 4");
    assert_true(work);
    b.work[0].threads = 1;
    diff(&a, NULL, &b, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "");
    assert_false(work);
    run_set_free(&a);
    run_set_free(&b);
}

static void test_older_set_reads_arguments(void **state)
{
    (void)state;
    struct run_set old, now;
    make_set(&old, "", 330);
    make_set(&now, "", 330);
    add_work(&now, "", 4);
    snprintf(old.command_line, sizeof old.command_line, "fsbench run --dir d -j 4");
    char buf[2048];
    bool work;
    diff(&old, NULL, &now, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, ""); /* -j 4 on both sides */
    snprintf(old.command_line, sizeof old.command_line, "fsbench run --dir d");
    diff(&old, NULL, &now, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "threads 1 vs 4"); /* no -j: one thread, as a record says it */
    assert_true(work);
    run_set_free(&old);
    run_set_free(&now);
}

static void test_extract_version(void **state)
{
    (void)state;
    struct run_set a, b;
    make_set(&a, "", 330);
    make_set(&b, "", 330);
    add_work(&a, "", 1)->extract_version = 1;
    add_work(&b, "", 1);
    char buf[2048];
    bool work;
    diff(&a, NULL, &b, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "extract calls before tar's calls (v1) vs tar");
    assert_true(work);
    snprintf(a.work[0].extract_calls, sizeof a.work[0].extract_calls, "create");
    a.work[0].extract_version = RES_EXTRACT_VERSION;
    diff(&a, NULL, &b, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "extract calls create vs tar");

    /* a set made before the records, as root: its counts tell. 110 entries with 330 setattr
     * calls made tar's calls; with 120 the extract before them */
    struct run_set old;
    make_set(&old, "", 330);
    a.work[0] = b.work[0];
    diff(&old, NULL, &b, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "");
    old.runs[0].phases[0].ops[OP_SETATTR] = 120;
    diff(&old, NULL, &b, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "extract calls before tar's calls (v1) vs tar");
    assert_true(work);
    /* its arguments name --extract-calls: made after the change */
    snprintf(old.command_line, sizeof old.command_line, "fsbench run --extract-calls create");
    diff(&old, NULL, &b, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "extract calls create vs tar");
    /* another user's extract: the same calls before and after, near enough: not called */
    old.command_line[0] = '\0';
    old.root = false;
    diff(&old, NULL, &b, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "");
    /* no extract phase: extract's calls do not matter */
    old.root = true;
    snprintf(old.runs[0].phases[0].name, sizeof old.runs[0].phases[0].name, "walk");
    snprintf(b.runs[0].phases[0].name, sizeof b.runs[0].phases[0].name, "walk");
    diff(&old, NULL, &b, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "");
    run_set_free(&a);
    run_set_free(&b);
    run_set_free(&old);
}

static void test_trace_identity(void **state)
{
    (void)state;
    struct run_set a, b;
    make_set(&a, "", 330);
    make_set(&b, "", 330);
    snprintf(a.tree.profile, sizeof a.tree.profile, "trace:/tmp/x/cvs.fsbtrace");
    snprintf(b.tree.profile, sizeof b.tree.profile, "trace:/home/u/cvs.fsbtrace");
    struct run_work *wa = add_work(&a, "", 1), *wb = add_work(&b, "", 1);
    snprintf(wa->trace, sizeof wa->trace, "cvs.fsbtrace");
    snprintf(wb->trace, sizeof wb->trace, "cvs.fsbtrace");
    wa->trace_calls = wb->trace_calls = 5000;
    wa->trace_recorded_ns = wb->trace_recorded_ns = 1764800000123000000ull;
    char buf[2048];
    bool work;
    /* the same recording moved elsewhere: the same work */
    diff(&a, NULL, &b, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "");
    /* recorded again under the same name: different work */
    wb->trace_recorded_ns += 60000000000ull;
    diff(&a, NULL, &b, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "replayed trace cvs.fsbtrace: 5000 calls recorded at 1764800000.123 vs "
                             "cvs.fsbtrace: 5000 calls recorded at 1764800060.123");
    assert_true(work);
    run_set_free(&a);
    run_set_free(&b);
}

static void test_jobs_of_one_set(void **state)
{
    (void)state;
    struct run_set rs;
    make_set(&rs, "one", 330);
    struct run_result *r = run_set_add_run(&rs, 1);
    snprintf(r->config, sizeof r->config, "four/ext4");
    r->phases[0] = rs.runs[0].phases[0];
    r->phases[0].timeline = NULL;
    add_work(&rs, "one", 1);
    snprintf(add_work(&rs, "four", 4)->mkfs_opts, sizeof rs.work[1].mkfs_opts, "-b 1024");
    char buf[2048];
    bool work;
    diff(&rs, "one", &rs, "four/ext4", true, buf, sizeof buf, &work);
    assert_string_equal(buf, "threads 1 vs 4; mkfs options (none) vs -b 1024");
    /* every run of the set: both values */
    struct run_set b;
    make_set(&b, "", 330);
    add_work(&b, "", 1);
    diff(&b, NULL, &rs, NULL, false, buf, sizeof buf, &work);
    assert_string_equal(buf, "threads 1 vs 1,4; mkfs options (none) vs (none),-b 1024");
    run_set_free(&rs);
    run_set_free(&b);
}

static void test_records_round_trip(void **state)
{
    (void)state;
    struct run_set a, b;
    make_set(&a, "", 330);
    memset(&b, 0, sizeof b);
    struct run_work *w = add_work(&a, "job/x", 8);
    snprintf(w->mkfs_opts, sizeof w->mkfs_opts, "-O ^has_journal");
    snprintf(w->trace, sizeof w->trace, "t.fsbtrace");
    w->trace_calls = 12;
    w->trace_recorded_ns = 1764800000000000001ull;
    snprintf(a.meta[0].key, sizeof a.meta[0].key, "commit");
    snprintf(a.meta[0].value, sizeof a.meta[0].value, "abc");
    a.nmeta = 1;
    json_t *o = meta_store_json(&a);
    assert_non_null(o);
    assert_int_equal(meta_from_json(o, &b, "t"), 0);
    json_decref(o);
    assert_int_equal(b.nmeta, 1);
    assert_string_equal(b.meta[0].key, "commit");
    assert_int_equal(b.nwork, 1);
    assert_memory_equal(&a.work[0], &b.work[0], sizeof a.work[0]);

    /* hostile records: one line naming the member */
    static const char *const bad[] = {
        "[{\"threads\": -1}]", "[{\"config\": \"a\\u0007b\"}]", "{\"threads\": 1}",
        "[{\"trace\": 7}]", "[{\"extract_calls\": \"a-very-long-name-indeed\"}]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *j = json_loads(bad[i], 0, NULL);
        assert_non_null(j);
        assert_int_equal(meta_work_from_json(j, &b, "f.json"), -1);
        json_decref(j);
    }
    run_set_free(&a);
    run_set_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_from_records),
        cmocka_unit_test(test_older_set_reads_arguments),
        cmocka_unit_test(test_extract_version),
        cmocka_unit_test(test_trace_identity),
        cmocka_unit_test(test_jobs_of_one_set),
        cmocka_unit_test(test_records_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
