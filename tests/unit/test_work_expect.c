/* test_work_expect.c — the operations each phase will make, known before it runs
 * (run/work_expect.h), against what the phases really make: every tree phase of a
 * synthetic tree run by the runner in a scratch directory, on several profiles and with
 * -j 1 or 2 (the counts do not depend on it), an archive's tree, and compilebench's initial
 * trees. A phase whose code changes its calls fails here until its formula follows.
 */
#include "testutil.h"

#include "tarwrite.h"

#include "run/runner.h"
#include "run/scenario.h"
#include "run/work_expect.h"
#include "phase/tarcalls.h"
#include "tree/profile.h"
#include "tree/tarsrc.h"

#define IO_BUF (128 * 1024) /* the runner's buffer: read calls are counted through it */

struct case_ {
    const char *profile;
    double scale;
};

/* Runs phases on tree (prof, scale), or on the archive tar when given, with threads and
 * checks every phase's operations against the expectation: exact, or within tol
 * (relative) where the formula is a mean or an estimate. */
static void check_tree(const char *prof, double scale, struct tarsrc *tar, unsigned threads,
                       const char *list, const double *tol)
{
    char dir[4096];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "work"));
    struct runner_opts o = {0};
    o.dir = dir;
    o.eng = &engine_posix;
    o.runs = 1;
    o.interval_ms = 100;
    o.threads = threads;
    if (tar) {
        o.tar = tar;
    } else {
        o.tree.prof = profile_find(prof);
        assert_non_null(o.tree.prof);
        o.tree.scale = scale;
        o.tree.seed = 1;
    }
    o.params = (struct phase_params){.cb_initial = 2, .cb_runs = 12, .fsync_rounds = 1};
    int n = scenario_resolve(list, o.phases, SCENARIO_MAX_PHASES);
    assert_true(n > 0);
    o.nphases = (size_t)n;
    struct work_tree w;
    assert_int_equal(work_tree_count(&o.tree, tar, IO_BUF, &w), 0);
    w.copy_offload = (o.eng->caps & ENG_CAP_COPY_OFFLOAD) != 0;
    uint64_t expect[SCENARIO_MAX_PHASES];
    work_expect(o.phases, o.nphases, &w, &o.params, expect);
    struct run_set rs = {0};
    assert_int_equal(runner_run(&o, &rs, NULL), 0);
    assert_int_equal(rs.nruns, 1);
    for (size_t p = 0; p < o.nphases; p++) {
        double got = (double)rs.runs[0].phases[p].ops_total, want = (double)expect[p];
        double err = got > 0 ? (want - got) / got : want;
        if (err < 0)
            err = -err;
        if (err > tol[p])
            fail_msg("%s x%g -j %u: %s made %.0f operations, expected %.0f", tar ? "archive" : prof,
                     scale, threads, o.phases[p]->name, got, want);
    }
    run_set_free(&rs);
    rmdir(dir);
}

static void check(const char *prof, double scale, unsigned threads, const char *list,
                  const double *tol)
{
    check_tree(prof, scale, NULL, threads, list, tol);
}

static void test_tree_phases(void **state)
{
    (void)state;
    static const struct case_ cases[] = {
        {"tiny", 1}, {"pkgsrc", 0.02}, {"kernel", 0.01}, {"mixed", 0.002}};
    static const char list[] = "extract,walk,statwalk,read,copy,delete";
    static const double exact[SCENARIO_MAX_PHASES] = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check(cases[i].profile, cases[i].scale, i == 0 ? 2 : 1, list, exact);
    /* the fsync phases (one tree: their fsyncs are slow on a disk); the delete after
     * fsyncstorm finds one entry more than the tree */
    static const double fsyncs[] = {0, 0, 0.01};
    check("tiny", 1, 1, "createsync,fsyncstorm,delete", fsyncs);
}

static void test_compilebench(void **state)
{
    (void)state;
    /* cb_initial: its trees and the three reference trees, within 2 % (the compiled tree's
     * objects are a share of the model's entries); cb_random: the mean of its draws, within half */
    static const double tol[] = {0.02, 0.5};
    check("tiny", 1, 1, "cb_initial,cb_random", tol);
}

/* An archive's phases from its index: extract close (the directories it opens to set
 * modes and times are estimated), and read (and copy by reads) close, as the index gives
 * the files' bytes in total, not each file's calls; the walks and delete exactly. */
static void test_archive(void **state)
{
    (void)state;
    char base[4096], arc[4200], scr[4200];
    assert_non_null(tu_scratch_dir(base, sizeof base, "workarc"));
    snprintf(arc, sizeof arc, "%s/a.tar", base);
    snprintf(scr, sizeof scr, "%s/scratch", base);
    assert_int_equal(mkdir(scr, 0700), 0);
    enum { DIRS = 12, FILES = 240, LINKS = 6 };
    static char names[DIRS + FILES + LINKS][32];
    struct spec s[DIRS + FILES + LINKS];
    size_t n = 0;
    for (unsigned d = 0; d < DIRS; d++) {
        snprintf(names[n], sizeof names[n], d < 4 ? "d%u" : "d%u/s%u", d % 4, d);
        s[n] = (struct spec){'d', names[n], 0755, NULL, 0, 0, 0};
        n++;
    }
    for (unsigned f = 0; f < FILES; f++) {
        unsigned d = 4 + f % (DIRS - 4);
        snprintf(names[n], sizeof names[n], "d%u/s%u/f%u", d % 4, d, f);
        /* empty, small, and some over the runner's buffer */
        size_t size = f % 7 == 0 ? 0 : f % 13 == 0 ? 300 * 1024 + f : (size_t)f * 97;
        s[n] = (struct spec){'f', names[n], 0644, NULL, size, 0, 0};
        n++;
    }
    for (unsigned l = 0; l < LINKS; l++) {
        snprintf(names[n], sizeof names[n], "d%u/l%u", l % 4, l);
        s[n] = (struct spec){'l', names[n], 0777, "s4", 0, 0, 0};
        n++;
    }
    write_archive(arc, s, n, PAX);
    struct tarsrc *tar = tarsrc_open(arc, scr);
    assert_non_null(tar);
    static const double tol[] = {0.15, 0, 0.1, 0.1, 0};
    /* -j2: from the index (at -j1 tar's calls stream the archive in its order, and this one
     * goes from directory to directory at every file: a directory reopened for each) */
    check_tree(NULL, 1, tar, 2, "extract,statwalk,read,copy,delete", tol);
    tarsrc_close(tar);
    unlink(arc);
    rmdir(scr);
    rmdir(base);
}

static void test_unknown_work(void **state)
{
    (void)state;
    /* phases whose work is not counted in operations, and tree phases with no tree */
    const struct phase_def *ph[SCENARIO_MAX_PHASES];
    int n =
        scenario_resolve("sync,walk,dropcaches,extract,walk,delete,read", ph, SCENARIO_MAX_PHASES);
    assert_int_equal(n, 7);
    struct work_tree w = {.files = 10, .dirs = 2, .writes = 10, .reads = 20};
    uint64_t ops[7];
    work_expect(ph, 7, &w, NULL, ops);
    assert_int_equal(ops[0], 0);
    assert_int_equal(ops[1], 0); /* walk before any tree */
    assert_int_equal(ops[2], 0);
    /* with tar's calls (the default): times, and as root owner and mode, of each entry */
    assert_int_equal(ops[3], 3 * 3 + 2 * 10 + 10 + (geteuid() == 0 ? 3 : 1) * (10 + 2));
    assert_int_equal(ops[4], 4 * 3);
    assert_int_equal(ops[5], 5 * 3 + 10 + 1);
    assert_int_equal(ops[6], 0); /* read after delete */
    const struct phase_params lean = {.extract_calls = EXTRACT_CALLS_CREATE};
    work_expect(ph, 7, &w, &lean, ops);
    assert_int_equal(ops[3], 3 * 3 + 2 * 10 + 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_phases),
        cmocka_unit_test(test_compilebench),
        cmocka_unit_test(test_archive),
        cmocka_unit_test(test_unknown_work),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
