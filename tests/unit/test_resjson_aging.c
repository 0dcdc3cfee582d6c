/* test_resjson_aging.c — a phase's "age_replay" object (aging by replay's own figures):
 * with a profile and without one it survives the JSON round trip member by member (absent
 * distances and targets stay absent, an unknown free space keeps its reason), a copied
 * phase owns its own repetitions, and a wrong member is refused naming its path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"
#include "measure/results.h"
#include "results/resjson.h"

static struct age_replay_result *make(bool prof, size_t nreps)
{
    struct age_replay_result *a = calloc(1, sizeof *a);
    assert_non_null(a);
    snprintf(a->trace, sizeof a->trace, "git.fsbt");
    if (prof)
        snprintf(a->profile, sizeof a->profile, "smallfiles");
    snprintf(a->stop, sizeof a->stop, "written target reached");
    a->first = 3;
    a->last = (unsigned)(2 + nreps);
    a->bytes_written = 5580000ull * nreps;
    a->fs_bytes = 120015872;
    a->fullness = 0.125;
    a->free_before = (struct age_free_figures){true, "GETFSMAP", "", 7, 120000512, 58455040, 0.0625};
    if (prof)
        a->free_after = (struct age_free_figures){true, "e2freefrag", "", 1227, 9e8, 1 << 20, 0.5};
    else
        snprintf(a->free_after.why, sizeof a->free_after.why, "GETFSMAP: Operation not supported");
    a->files = 90;
    a->distance = prof ? 0.25 : -1;
    for (int k = 0; k < 3; k++)
        a->dim_distance[k] = prof ? 0.125 * k : -1;
    a->nbuckets = 5;
    for (unsigned b = 0; b < a->nbuckets; b++)
        a->buckets[b] = (struct age_bucket_figure){b % 3, 512ull << b, prof ? 0.25 : -1, 0.125 * b};
    a->reps = calloc(nreps, sizeof *a->reps);
    a->nreps = nreps;
    for (size_t i = 0; i < nreps; i++)
        a->reps[i] = (struct age_rep_figure){1860000 + i, prof ? 0.5 / (double)(i + 1) : -1};
    return a;
}

static void assert_free_equal(const struct age_free_figures *x, const struct age_free_figures *y)
{
    assert_int_equal(x->known, y->known);
    assert_string_equal(x->source, y->source);
    assert_string_equal(x->why, y->why);
    assert_int_equal(x->extents, y->extents);
    assert_int_equal(x->bytes, y->bytes);
    assert_int_equal(x->largest, y->largest);
    assert_true(x->small_share == y->small_share);
}

static void assert_aging_equal(const struct age_replay_result *x, const struct age_replay_result *y)
{
    assert_non_null(x);
    assert_non_null(y);
    assert_string_equal(x->trace, y->trace);
    assert_string_equal(x->profile, y->profile);
    assert_string_equal(x->stop, y->stop);
    assert_int_equal(x->first, y->first);
    assert_int_equal(x->last, y->last);
    assert_int_equal(x->bytes_written, y->bytes_written);
    assert_true(x->fs_bytes == y->fs_bytes && x->fullness == y->fullness);
    assert_free_equal(&x->free_before, &y->free_before);
    assert_free_equal(&x->free_after, &y->free_after);
    assert_int_equal(x->files, y->files);
    assert_true(x->distance == y->distance);
    for (int k = 0; k < 3; k++)
        assert_true(x->dim_distance[k] == y->dim_distance[k]);
    assert_int_equal(x->nbuckets, y->nbuckets);
    for (size_t b = 0; b < x->nbuckets; b++) {
        assert_int_equal(x->buckets[b].dim, y->buckets[b].dim);
        assert_int_equal(x->buckets[b].from, y->buckets[b].from);
        assert_true(x->buckets[b].target == y->buckets[b].target);
        assert_true(x->buckets[b].now == y->buckets[b].now);
    }
    assert_int_equal(x->nreps, y->nreps);
    for (size_t i = 0; i < x->nreps; i++) {
        assert_int_equal(x->reps[i].bytes_written, y->reps[i].bytes_written);
        assert_true(x->reps[i].distance == y->reps[i].distance);
    }
}

/* Through JSON and back, and the members a reader relies on, by name. */
static void round_trip(bool prof)
{
    struct phase_result a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    snprintf(a.name, sizeof a.name, "age");
    a.age_replay = make(prof, 4);
    json_t *j = resjson_from_phase(&a);
    assert_non_null(j);
    json_t *o = json_object_get(j, "age_replay");
    assert_non_null(o);
    assert_int_equal(json_integer_value(json_object_get(o, "repetitions")), 4);
    assert_true(json_is_array(json_object_get(o, "per_repetition")));
    assert_int_equal(json_array_size(json_object_get(o, "per_repetition")), 4);
    assert_int_equal(json_is_null(json_object_get(o, "distance")), !prof);
    assert_int_equal(json_is_null(json_object_get(o, "profile")), !prof);
    json_t *b0 = json_array_get(json_object_get(o, "buckets"), 1);
    assert_string_equal(json_string_value(json_object_get(b0, "dimension")), "ages");
    assert_int_equal(json_object_get(b0, "target") != NULL, prof); /* no target: absent */
    if (!prof)
        assert_string_equal(
            json_string_value(json_object_get(json_object_get(o, "free_after"), "unknown")),
            "GETFSMAP: Operation not supported");
    assert_int_equal(resjson_to_phase(j, &b, "x"), 0);
    assert_aging_equal(a.age_replay, b.age_replay);
    json_decref(j);
    phase_result_free(&a);
    phase_result_free(&b);
    assert_null(a.age_replay);
}

static void test_round_trip_profile(void **state)
{
    (void)state;
    round_trip(true);
}

static void test_round_trip_no_profile(void **state)
{
    (void)state;
    round_trip(false);
}

/* A phase without the object writes none, and reads back without one. */
static void test_absent(void **state)
{
    (void)state;
    struct phase_result a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    snprintf(a.name, sizeof a.name, "read");
    json_t *j = resjson_from_phase(&a);
    assert_null(json_object_get(j, "age_replay"));
    assert_int_equal(resjson_to_phase(j, &b, "x"), 0);
    assert_null(b.age_replay);
    json_decref(j);
}

/* A copy owns its own figures: both are freed apart (ASan would see a double free). */
static void test_copy(void **state)
{
    (void)state;
    struct phase_result a, b;
    memset(&a, 0, sizeof a);
    a.age_replay = make(true, 3);
    assert_int_equal(phase_result_copy(&b, &a), 0);
    assert_true(b.age_replay != a.age_replay);
    assert_true(b.age_replay->reps != a.age_replay->reps);
    assert_aging_equal(a.age_replay, b.age_replay);
    phase_result_free(&a);
    assert_int_equal(b.age_replay->reps[2].bytes_written, 1860002);
    phase_result_free(&b);
}

/* What the reader refuses: an unknown dimension, a share above 1; the message names the
 * member's path. */
static void test_refused(void **state)
{
    (void)state;
    static const struct {
        const char *json, *path;
    } bad[] = {
        {"{\"name\":\"age\",\"age_replay\":{\"buckets\":[{\"dimension\":\"colours\",\"from\":0,"
         "\"now\":0}]}}",
         "age_replay.buckets[0].dimension"},
        {"{\"name\":\"age\",\"age_replay\":{\"per_repetition\":[{\"bytes_written\":1,"
         "\"distance\":2}]}}",
         "age_replay.per_repetition[0].distance"},
        {"{\"name\":\"age\",\"age_replay\":[]}", "age_replay"},
        {"{\"name\":\"age\",\"age_replay\":{\"free_before\":{\"source\":\"GETFSMAP\","
         "\"extents\":-1}}}",
         "age_replay.free_before.extents"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json_error_t je;
        json_t *j = json_loads(bad[i].json, 0, &je);
        assert_non_null(j);
        struct phase_result b;
        memset(&b, 0, sizeof b);
        char msg[512] = "";
        err_capture_begin(msg, sizeof msg);
        int rc = resjson_to_phase(j, &b, "x");
        err_capture_end();
        assert_int_equal(rc, -1);
        if (!strstr(msg, bad[i].path))
            fail_msg("case %zu: '%s' does not name %s", i, msg, bad[i].path);
        assert_null(b.age_replay); /* freed with the phase */
        json_decref(j);
    }
}

int main(void)
{
    err_set_quiet(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_profile), cmocka_unit_test(test_round_trip_no_profile),
        cmocka_unit_test(test_absent),             cmocka_unit_test(test_copy),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests_name("resjson_aging", tests, NULL, NULL);
}
