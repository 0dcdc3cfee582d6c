/* test_resjson_aging.c — a phase's "age_replay" object (aging by replay's own figures) and
 * its sibling "age_profile" (profile aging's): with a profile and without one replay's
 * survives the JSON round trip member by member (absent distances and targets stay absent,
 * an unknown free space keeps its reason), profile aging's too (ops, no trace or
 * repetitions), an object stored before age_profile existed still reads, a copied phase
 * owns its own figures, a wrong member is refused naming its path, and the profile engine's
 * outcome becomes the figures (age_profile_figures).
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
#include "phase/age.h"
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
    assert_int_equal(x->ops, y->ops);
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

/* Profile aging's figures as the profile engine leaves them: no trace, no repetitions. */
static struct age_replay_result *make_profile(void)
{
    struct age_replay_result *a = make(true, 0);
    a->trace[0] = 0;
    a->first = a->last = 0;
    a->ops = 498820;
    snprintf(a->stop, sizeof a->stop, "converged");
    return a;
}

/* "age_profile": through JSON and back, beside no "age_replay"; ops, and no trace or
 * repetitions in it. */
static void test_round_trip_age_profile(void **state)
{
    (void)state;
    struct phase_result a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    snprintf(a.name, sizeof a.name, "age");
    a.age_profile = make_profile();
    json_t *j = resjson_from_phase(&a);
    assert_non_null(j);
    assert_null(json_object_get(j, "age_replay"));
    json_t *o = json_object_get(j, "age_profile");
    assert_non_null(o);
    assert_int_equal(json_integer_value(json_object_get(o, "ops")), 498820);
    assert_string_equal(json_string_value(json_object_get(o, "profile")), "smallfiles");
    assert_string_equal(json_string_value(json_object_get(o, "stop")), "converged");
    assert_null(json_object_get(o, "trace"));
    assert_null(json_object_get(o, "repetitions"));
    assert_null(json_object_get(o, "per_repetition"));
    assert_true(json_real_value(json_object_get(json_object_get(o, "distance_by"), "depths")) ==
                0.25);
    assert_int_equal(json_array_size(json_object_get(o, "buckets")), 5);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(o, "free_after"), "source")),
        "e2freefrag");
    assert_int_equal(resjson_to_phase(j, &b, "x"), 0);
    assert_null(b.age_replay);
    assert_aging_equal(a.age_profile, b.age_profile);
    json_decref(j);
    phase_result_free(&a);
    phase_result_free(&b);
    assert_null(a.age_profile);
}

/* An "age_replay" object as stored before "age_profile" existed (no ops) still reads. */
static void test_stored_before(void **state)
{
    (void)state;
    const char *txt =
        "{\"name\":\"age\",\"age_replay\":{\"trace\":\"t.fsbt\",\"profile\":null,"
        "\"repetitions\":1,\"first\":1,\"last\":1,\"bytes_written\":1860000,"
        "\"fs_bytes\":134217728,\"fullness\":0.06,\"stop\":\"repetitions done\","
        "\"free_before\":{\"unknown\":\"no GETFSMAP\"},\"free_after\":{\"unknown\":\"no "
        "GETFSMAP\"},\"files\":30,\"distance\":null,\"distance_by\":null,"
        "\"per_repetition\":[{\"bytes_written\":1860000,\"distance\":null}],"
        "\"buckets\":[{\"dimension\":\"sizes\",\"from\":0,\"now\":1}]}}";
    json_error_t je;
    json_t *j = json_loads(txt, 0, &je);
    assert_non_null(j);
    struct phase_result b;
    memset(&b, 0, sizeof b);
    assert_int_equal(resjson_to_phase(j, &b, "x"), 0);
    assert_non_null(b.age_replay);
    assert_null(b.age_profile);
    assert_string_equal(b.age_replay->trace, "t.fsbt");
    assert_int_equal(b.age_replay->nreps, 1);
    assert_int_equal(b.age_replay->ops, 0);
    assert_true(b.age_replay->distance == -1);
    json_decref(j);
    phase_result_free(&b);
}

/* The profile engine's outcome as the figures: its ops, bytes, stop, free space (flattened,
 * the share under 1 MiB), the buckets with their targets; shares kept within 0..1; and no
 * distance where no file is left. */
static void test_profile_figures(void **state)
{
    (void)state;
    static struct ageprof p;
    static struct age_outcome o;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    snprintf(p.name, sizeof p.name, "tiny");
    for (unsigned d = 0; d < AGEPROF_DIMS; d++) {
        p.dist[d].n = 2;
        p.dist[d].lo[1] = 4096;
        p.dist[d].share[0] = 0.25;
        p.dist[d].share[1] = 0.75;
    }
    o.ops = 1234;
    o.written = 5u << 20;
    o.fs_size = 134217728;
    o.fs_full = 0.5;
    o.hist.files = 4;
    for (unsigned d = 0; d < AGEPROF_DIMS; d++)
        o.hist.count[d][1] = 4;
    o.dist.max_abs = 0.25;
    o.dist.dim_max[0] = 0.25;
    o.dist.dim_max[2] = 1.5; /* out of range: clipped */
    o.free_after.known = true;
    snprintf(o.free_after.source, sizeof o.free_after.source, "GETFSMAP");
    o.free_after.extents = 3;
    o.free_after.largest = 8u << 20;
    snprintf(o.free_before.why, sizeof o.free_before.why, "no GETFSMAP here");
    struct age_replay_result a;
    age_profile_figures(&a, &p, &o, "written target reached");
    assert_string_equal(a.profile, "tiny");
    assert_string_equal(a.trace, "");
    assert_string_equal(a.stop, "written target reached");
    assert_int_equal(a.ops, 1234);
    assert_int_equal(a.bytes_written, 5u << 20);
    assert_int_equal(a.files, 4);
    assert_true(a.fullness == 0.5 && a.fs_bytes == 134217728);
    assert_true(a.distance == 0.25 && a.dim_distance[0] == 0.25 && a.dim_distance[2] == 1);
    assert_false(a.free_before.known);
    assert_string_equal(a.free_before.why, "no GETFSMAP here");
    assert_true(a.free_after.known);
    assert_string_equal(a.free_after.source, "GETFSMAP");
    assert_int_equal(a.free_after.extents, 3);
    assert_int_equal(a.nbuckets, 6);
    assert_int_equal(a.buckets[3].dim, 1);
    assert_int_equal(a.buckets[3].from, 4096);
    assert_true(a.buckets[3].target == 0.75 && a.buckets[3].now == 1);
    assert_true(a.buckets[2].now == 0);
    assert_int_equal(a.nreps, 0);
    assert_null(a.reps);
    o.hist.files = 0;
    age_profile_figures(&a, &p, &o, "failed");
    assert_true(a.distance == -1 && a.dim_distance[1] == -1);
    assert_true(a.buckets[3].now == 0);
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
    assert_null(json_object_get(j, "age_profile"));
    assert_int_equal(resjson_to_phase(j, &b, "x"), 0);
    assert_null(b.age_replay);
    assert_null(b.age_profile);
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
    memset(&a, 0, sizeof a);
    a.age_profile = make_profile();
    assert_int_equal(phase_result_copy(&b, &a), 0);
    assert_true(b.age_profile && b.age_profile != a.age_profile);
    assert_aging_equal(a.age_profile, b.age_profile);
    phase_result_free(&a);
    assert_int_equal(b.age_profile->ops, 498820);
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
        {"{\"name\":\"age\",\"age_profile\":{\"ops\":-1}}", "age_profile.ops"},
        {"{\"name\":\"age\",\"age_profile\":{\"ops\":1,\"buckets\":[{\"dimension\":"
         "\"colours\",\"from\":0,\"now\":0}]}}",
         "age_profile.buckets[0].dimension"},
        {"{\"name\":\"age\",\"age_profile\":{\"ops\":1,\"distance\":1.5}}",
         "age_profile.distance"},
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
        assert_null(b.age_profile);
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
        cmocka_unit_test(test_round_trip_age_profile),
        cmocka_unit_test(test_stored_before),
        cmocka_unit_test(test_profile_figures),
    };
    return cmocka_run_group_tests_name("resjson_aging", tests, NULL, NULL);
}
