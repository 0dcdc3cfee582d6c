/* test_shares.c — what running on several ranks adds below src/mpi/: shares of a shared
 * tree (phase_owns_top divides every top-level name once; extract, walk and delete by
 * share add up to the whole tree and leave nothing), the stonewall flag, the JSON of
 * per-rank figures and the report's slowest/fastest rank row.
 */
#include "testutil.h"

#include "base/err.h"

#include "phase/phase.h"
#include "report/report.h"
#include "results/resjson.h"

static void owns_top_divides_names(void **state)
{
    struct phase_ctx ctx = {.nparts = 3};
    char name[32];
    for (int i = 0; i < 500; i++) {
        snprintf(name, sizeof name, "dir_%d", i);
        int owners = 0;
        for (unsigned p = 0; p < 3; p++) {
            ctx.part = p;
            owners += phase_owns_top(&ctx, name);
        }
        assert_int_equal(owners, 1);
    }
    ctx.nparts = 1;
    assert_true(phase_owns_top(&ctx, "x"));
    ctx.nparts = 0;
    assert_true(phase_owns_top(&ctx, "x"));
    ctx.nparts = 2;
    /* only the top level of the tree or its copy: a queued subdirectory is all one share's */
    bool mine = phase_owns_top(&ctx, "x");
    assert_true(phase_skips_entry(&ctx, "tree", 0, "x") == !mine);
    assert_true(phase_skips_entry(&ctx, "copy", 0, "x") == !mine);
    assert_false(phase_skips_entry(&ctx, "tree/a", 0, "x"));
    assert_false(phase_skips_entry(&ctx, "tree", 1, "x"));
}

/* Three shares of one tree, made, walked and deleted one after another in one workspace. */
static void shares_add_up(void **state)
{
    char dir[4096];
    struct tree_spec spec;
    struct tree_totals tot;
    assert_int_equal(tu_tree_scratch(dir, sizeof dir, "shares", "tiny", 1, 3, &spec, &tot), 0);
    struct eng_worker w = {0};
    assert_non_null(tu_worker_stats(&w));
    static char buf[65536];
    uint64_t files = 0, walked = 0, deleted = 0;
    for (int phase = 0; phase < 3; phase++) {
        for (unsigned p = 0; p < 3; p++) {
            struct phase_result res = {0};
            struct phase_ctx ctx = {0};
            assert_int_equal(tu_phase_ctx(&ctx, &w, dir, &spec, &res, buf, sizeof buf), 0);
            ctx.part = p;
            ctx.nparts = 3;
            int rc = phase == 0 ? phase_extract(&ctx) : phase == 1 ? phase_statwalk(&ctx)
                                                                   : phase_delete(&ctx);
            assert_int_equal(rc, 0);
            *(phase == 0 ? &files : phase == 1 ? &walked : &deleted) += res.files;
            close(ctx.ws_fd);
        }
    }
    assert_int_equal(files, tot.files);
    assert_int_equal(walked, tot.files);
    assert_int_equal(deleted, tot.files);
    struct stat st;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, PHASE_TREE_DIR);
    assert_int_equal(lstat(path, &st), -1); /* the last share out removed the root */
    free(w.st);
    assert_int_equal(tu_rm_tree(dir), 0);
}

static void stonewall_stops_as_ok_work(void **state)
{
    struct phase_result res = {0};
    struct phase_ctx ctx = {.res = &res};
    assert_int_equal(phase_check_interrupt(&ctx), 0);
    atomic_store(&phase_stonewall, 1);
    assert_int_equal(phase_check_interrupt(&ctx), -1);
    assert_string_equal(res.note, "stopped by the stonewall");
    atomic_store(&phase_stonewall, 0);
}

static void fill_ranks(struct phase_result *p)
{
    static const double wall[3] = {0.5, 2.0, 1.0};
    p->nranks = 3;
    p->ranks = calloc(3, sizeof *p->ranks);
    assert_non_null(p->ranks);
    for (int r = 0; r < 3; r++)
        p->ranks[r] = (struct rank_result){.wall_s = wall[r], .ops_total = 1000u * (r + 1),
                                           .bytes = 7u + r, .entries = 100u + r,
                                           .status = r == 2 ? PHASE_FAILED : PHASE_OK};
    p->stonewalled = true;
    p->wall_s = 2.0;
    p->ops_total = 6000;
}

static void ranks_json_round_trip(void **state)
{
    struct phase_result a = {0}, b = {0};
    snprintf(a.name, sizeof a.name, "extract");
    fill_ranks(&a);
    json_t *j = resjson_from_phase(&a);
    assert_non_null(j);
    assert_int_equal(resjson_to_phase(j, &b, "p"), 0);
    json_decref(j);
    assert_int_equal(b.nranks, 3);
    assert_true(b.stonewalled);
    for (int r = 0; r < 3; r++) {
        assert_true(b.ranks[r].wall_s == a.ranks[r].wall_s);
        assert_int_equal(b.ranks[r].ops_total, a.ranks[r].ops_total);
        assert_int_equal(b.ranks[r].bytes, a.ranks[r].bytes);
        assert_int_equal(b.ranks[r].entries, a.ranks[r].entries);
        assert_int_equal(b.ranks[r].status, a.ranks[r].status);
    }
    struct ranks_info ri = {.count = 4, .nodes = 2, .placement = "shared", .shift = 1,
                            .stonewall_s = 2.5}, back = {0};
    j = resjson_from_ranks(&ri);
    assert_int_equal(resjson_to_ranks(j, &back, "ranks"), 0);
    json_decref(j);
    assert_int_equal(back.count, 4);
    assert_int_equal(back.nodes, 2);
    assert_string_equal(back.placement, "shared");
    assert_int_equal(back.shift, 1);
    assert_true(back.stonewall_s == 2.5);
    phase_result_free(&a);
    phase_result_free(&b);
}

static void report_names_slowest_and_fastest(void **state)
{
    struct run_set rs = {0};
    rs.ranks = (struct ranks_info){.count = 3, .nodes = 1, .placement = "unique"};
    struct run_result *r = run_set_add_run(&rs, 1);
    assert_non_null(r);
    snprintf(r->phases[0].name, sizeof r->phases[0].name, "extract");
    fill_ranks(&r->phases[0]);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    report_ranks(f, &rs, "");
    fclose(f);
    assert_non_null(strstr(text, "ranks: 3 on 1 node, unique placement"));
    /* slowest rank 1 (2.000 s, 1.0 kops/s), fastest rank 0 (0.500 s, 2.0 kops/s), 4x */
    assert_non_null(strstr(text, "extract        1     2.000        3.0      1    2.000      1.0"
                                 "      0    0.500      2.0    4.00x  stonewalled"));
    free(text);
    run_set_free(&rs);
}

int main(void)
{
    err_set_quiet(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(owns_top_divides_names),
        cmocka_unit_test(shares_add_up),
        cmocka_unit_test(stonewall_stops_as_ok_work),
        cmocka_unit_test(ranks_json_round_trip),
        cmocka_unit_test(report_names_slowest_and_fastest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
