/* runner.h — runs a list of phases N times in a workspace and measures each phase.
 *
 * Every run starts from an empty workspace. Around each phase the runner takes whole-process
 * snapshots (wall, rusage, /proc/self/io, device counters), resets the engine's op counters
 * and samples progress for the time line. A failed or interrupted phase ends the run set:
 * the finished runs (and the failed one, marked) have been handed to run_done already, the
 * workspace is cleared, and runner_run returns -1 after one error line.
 */
#ifndef FSBENCH_RUNNER_H
#define FSBENCH_RUNNER_H

#include "engine.h"
#include "results.h"
#include "scenario.h"
#include "tree.h"

struct runner_opts {
    const char *dir;                /* NULL: a new temporary directory, removed after */
    struct tree_spec tree;
    const struct phase_def *phases[SCENARIO_MAX_PHASES];
    size_t nphases;
    const struct engine *eng;
    unsigned runs;
    unsigned interval_ms;           /* time-line sampling interval */
    /* Called once the set's description is filled, before the first run (may be NULL). */
    int (*set_ready)(void *arg, struct run_set *rs);
    /* Called after each run, finished or failed (may be NULL); -1 stops the set. */
    int (*run_done)(void *arg, const struct run_set *rs, const struct run_result *run);
    void *arg;
};

/* Fills rs (label, scenario and command_line set by the caller) with the description and
 * every run. 0, or -1 after error(). */
int runner_run(const struct runner_opts *o, struct run_set *rs);

#endif
