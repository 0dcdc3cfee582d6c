/* run_bisect.c — a run set classified as a bisection's candidate while it runs (see
 * run_bisect.h). */
#include "run/run_bisect.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "run/run_series.h"
#include "results/store.h"

static bool round_stop(void *arg, const struct run_set *rs);

/* The verdict of the last set classified in this process (-1: none), for the exit status. */
static int last_verdict = -1;

bool run_bisect_asked(const struct run_bisect_ask *ask)
{
    return ask->good || ask->bad;
}

int run_bisect_check(const struct run_bisect_ask *ask, struct runner_opts *ro, size_t nconfigs,
                     unsigned long max_runs, const char *label)
{
    if (!run_bisect_asked(ask)) {
        if (ask->phase || ask->metric || ask->exit_status)
            return error("--bisect-phase, --bisect-metric and --bisect-exit go with "
                         "--bisect-good G --bisect-bad B"),
                   EXIT_USAGE;
        return 0;
    }
    if (!ask->good || !ask->bad)
        return error("--bisect-good and --bisect-bad go together: the candidate is "
                     "classified against both"),
               EXIT_USAGE;
    if (!strcmp(ask->good, ask->bad) || (label && (!strcmp(label, ask->good) ||
                                                   !strcmp(label, ask->bad))))
        return error("--bisect-good, --bisect-bad and --label must be three labels"),
               EXIT_USAGE;
    if (!ro->until_verdict)
        return error("--bisect-good: give --runs until-verdict (the set runs until its "
                     "candidate is classified, at most --max-runs rounds)"),
               EXIT_USAGE;
    if (nconfigs > 1)
        return error("--bisect-good: the candidate is one configuration; %zu were given "
                     "(--fs, --mount-opts, --cmd: one each)",
                     nconfigs),
               EXIT_USAGE;
    if (max_runs < RUN_BISECT_FIRST_LOOK)
        return error("--max-runs %lu: --bisect-good looks from round %d on", max_runs,
                     RUN_BISECT_FIRST_LOOK),
               EXIT_USAGE;
    /* rounds looked at here, not the sequential test between configurations */
    ro->until_verdict = false;
    return 0;
}

int run_bisect_begin(struct run_bisect *b, const struct run_bisect_ask *ask, const char *db,
                     struct runner_opts *ro)
{
    memset(b, 0, sizeof *b);
    b->ask = ask;
    b->phase = -1;
    if (ro->hooks)
        return error("--bisect-good: not under mpirun (each rank would stop on its own)"),
               EXIT_USAGE;
    struct run_series_args sa = {.db = db, .by = "given", .metric = ask->metric};
    char *labels[2] = {(char *)ask->good, (char *)ask->bad};
    int rc = run_series_load("--bisect-good", &sa, labels, 2, &b->sr);
    if (rc != EXIT_OK)
        return rc;
    char why[640];
    b->phase = bisect_pick_phase(&b->sr, ask->phase, ask->confidence, why, sizeof why);
    if (b->phase == -2)
        return error("--bisect-phase: %s", why), EXIT_USAGE;
    if (b->phase < 0)
        return error("--bisect-good: %s; nothing to classify the candidate against", why),
               EXIT_USAGE;
    ro->round_stop = round_stop;
    ro->round_stop_arg = b;
    /* good's set, for the candidate's work (checked once it is described) */
    char path[4096];
    if (!db) {
        if (store_default_path(path, sizeof path) < 0)
            return error("--bisect-good: cannot find the results store"), EXIT_RUN_FAILED;
        db = path;
    }
    struct store *s = store_open_read(db);
    if (!s)
        return EXIT_RUN_FAILED;
    b->good_set = calloc(1, sizeof *b->good_set);
    store_set_light(s, true);
    int lr = b->good_set ? store_load_label(s, ask->good, b->good_set) : -1;
    store_set_light(s, false);
    store_close(s);
    if (lr != 0)
        return error("--bisect-good: cannot read '%s' again", text_shown(ask->good)),
               EXIT_RUN_FAILED;
    return 0;
}

/* Classifies rs as it is now into b->last. */
static int look(struct run_bisect *b, const struct run_set *rs)
{
    if (series_add_set(&b->sr, rs, rs->label) < 0) {
        if (b->sr.nlabels == 3)
            series_drop_last(&b->sr);
        return -1;
    }
    bisect_judge(&b->sr, (size_t)b->phase, b->ask->confidence, &b->last);
    series_drop_last(&b->sr);
    b->looked = true;
    return 0;
}

/* Counted rounds of rs: the most runs any configuration has outside the warm-up. */
static unsigned counted_rounds(const struct run_set *rs)
{
    unsigned n = 0;
    for (size_t r = 0; r < rs->nruns; r++)
        n += !rs->runs[r].warmup && !rs->runs[r].interrupted;
    return n;
}

/* The runner's round_stop: looks from round RUN_BISECT_FIRST_LOOK on; true once settled. */
static bool round_stop(void *arg, const struct run_set *rs)
{
    struct run_bisect *b = arg;
    b->rounds = counted_rounds(rs);
    char why[512];
    if (!b->looked && !b->other_work && b->rounds >= 1 &&
        series_work_differs(b->good_set, rs, why, sizeof why)) {
        error("--bisect-good: the candidate does other work than '%s' (%s): a bisection "
              "compares the same work; the set stops",
              text_shown(b->ask->good), why);
        b->other_work = true;
    }
    if (b->other_work)
        return true;
    if (b->rounds < RUN_BISECT_FIRST_LOOK || look(b, rs) < 0)
        return false;
    b->between_looks = b->last.cls == BISECT_BETWEEN ? b->between_looks + 1 : 0;
    b->settled = b->last.settled &&
                 (b->last.cls != BISECT_BETWEEN || b->between_looks >= RUN_BISECT_BETWEEN_LOOKS);
    return b->settled;
}

int run_bisect_end(struct run_bisect *b, FILE *f, const struct run_set *rs, int rc)
{
    last_verdict = -1;
    if (b->other_work)
        return -1;
    unsigned rounds = counted_rounds(rs);
    if ((!b->looked || rounds != b->rounds) && rounds > 0) {
        b->rounds = rounds;
        if (look(b, rs) < 0)
            return -1;
    }
    if (!b->looked) {
        fprintf(f, "\nbisect: no round of the candidate finished: not classified\n");
        return 0;
    }
    last_verdict = b->last.verdict;
    const char *as = b->last.verdict == BISECT_GOOD  ? "good"
                     : b->last.verdict == BISECT_BAD ? "bad"
                                                     : "cannot tell";
    fprintf(f, "\nbisect: %s\n", b->last.why);
    if (b->settled && rc == 0)
        fprintf(f, "until-verdict: classified after %u round%s: %s%s\n", b->rounds,
                b->rounds == 1 ? "" : "s", as,
                b->last.cls == BISECT_BETWEEN ? " (it differs from both ends at "
                                                "3 looks in a row: more runs would not tell)"
                                              : "");
    else if (rc == 0)
        fprintf(f, "until-verdict: stopped at --max-runs (%u rounds) before the candidate was "
                   "classified: %s (give a larger --max-runs)\n",
                b->rounds, as);
    else
        fprintf(f, "until-verdict: the set stopped in round %u, before the candidate was "
                   "classified\n",
                b->rounds);
    if (rc != 0)
        last_verdict = -1;
    return 0;
}

void run_bisect_free(struct run_bisect *b)
{
    series_free(&b->sr);
    if (b->good_set) {
        run_set_free(b->good_set);
        free(b->good_set);
    }
    memset(b, 0, sizeof *b);
}

int run_bisect_exit(int argc, char **argv, int rc)
{
    bool asked = false;
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        asked |= !strcmp(argv[i], "--bisect-exit");
    if (!asked)
        return rc;
    return rc == EXIT_OK && last_verdict >= 0 ? last_verdict : BISECT_ERROR;
}
