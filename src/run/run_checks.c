/* run_checks.c — a run's options checked together before anything is touched (see
 * run_checks.h). Every message names the option the user gave.
 */
#include "run/run_checks.h"

#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "phase/phase.h"
#include "run/run_consent.h"
#include "run/sizing.h"
#include "stats/seqtest.h"

/* age on a --dir without --age-host-fs: the whole file system holding dir would be aged.
 * Says what that would take, and returns EXIT_USAGE. */
static int age_refused(const char *phase, const char *dir, const struct phase_params *p)
{
    struct sizing_age a;
    char what[512] = "", size[256];
    if (sizing_age_at(p, dir, &a) == 0)
        snprintf(what, sizeof what, ": it %s", sizing_age_text(&a, size, sizeof size));
    return error("phase %s ages the whole file system holding %s, not one of its own%s; give "
                 "it its own with --image SIZE or --device DEV, or add --age-host-fs to the "
                 "command line to age this one",
                 phase, dir, what),
           EXIT_USAGE;
}

int run_checks_together(struct runner_opts *ro, const struct target_args *ta,
                        const char *phases, const char *age_replay, unsigned long max_runs)
{
    bool ages = false;
    for (size_t i = 0; i < ro->nphases; i++)
        ages |= !strcmp(ro->phases[i]->name, "age");
    if ((age_replay || ro->params.age_replay_times) && !ages)
        return error("--age-replay: the phases (%s) hold no age",
                     phases ? phases : "the default's"), EXIT_USAGE;
    if (ro->params.age_replay_times && !age_replay)
        return error("--age-replay-times needs --age-replay FILE"), EXIT_USAGE;
    for (size_t i = 0; i < ro->nphases; i++) {
        if (!(ro->phases[i]->flags & PHASE_KEEPS_TREE) || ta->image || ta->spec.device)
            continue;
        if (!ro->dir)
            return error("phase %s writes several times the size of the file system it runs "
                         "on: give it one with --image SIZE, --device DEV or --dir DIR",
                         ro->phases[i]->name), EXIT_USAGE;
        if (!run_consent()->age_host_fs)
            return age_refused(ro->phases[i]->name, ro->dir, &ro->params);
    }
    char why[256];
    if (ro->eng->available && ro->eng->available(why, sizeof why) < 0)
        return error("--engine %s: %s (--engine auto falls back to posix)", ro->eng->name, why),
               EXIT_RUN_FAILED;
    const struct engine *async = ro->async_eng;
    if (async && async->available && async->available(why, sizeof why) < 0) {
        warning("--engine auto: %s: posix for every phase", why);
        ro->async_eng = NULL;
    }
    if (ro->runs_auto || ro->until_verdict) {
        ro->runs = (unsigned)max_runs + ro->warmup;
    } else if (ro->warmup >= ro->runs) {
        return error("--warmup %u leaves none of the %u runs to count", ro->warmup, ro->runs),
               EXIT_USAGE;
    }
    return 0;
}

int run_checks_until_verdict(const struct runner_opts *ro, unsigned long max_runs,
                             bool by_caller)
{
    if (max_runs < SEQ_FIRST_LOOK)
        return error("--max-runs %lu: --runs until-verdict needs at least %d (a verdict needs "
                     "%d pairs)",
                     max_runs, SEQ_FIRST_LOOK, SEQ_FIRST_LOOK),
               EXIT_USAGE;
    if (ro->no_interleave)
        return error("--runs until-verdict pairs the configurations' runs of each round: it "
                     "needs them interleaved (drop --no-interleave)"),
               EXIT_USAGE;
    if (!by_caller && ro->nconfigs < 2)
        return error("--runs until-verdict compares configurations with the first: give two "
                     "or more (--fs, --mount-opts, or jobs with interleave = jobs)"),
               EXIT_USAGE;
    return 0;
}
