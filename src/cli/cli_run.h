/* cli_run.h — what `fsbench run` and `fsbench cmd` share once their options are parsed:
 * stopping cleanly on SIGINT/SIGTERM, the set run through a run session (naming it, saving
 * every finished run as it finishes: run/run_session.h), printing the report and writing
 * JSON.
 */
#ifndef FSBENCH_CLI_RUN_H
#define FSBENCH_CLI_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"
#include "report/report_run.h"
#include "run/run_session.h"
#include "run/runner.h"

/* A run's set (what it is, where its results go: the run session's options) and how it is
 * reported. */
struct cli_output {
    /* the set: label, scenario, store, --json (NULL: none; "-": standard output, the table
     * going to stderr then, or nowhere when quiet), the command line, the job text, what
     * resumes it, a --resume's stored set, a runner of its own (jobs interleaved in
     * rounds); its meta is meta[] below */
    struct run_session_opts set;
    bool quiet;                 /* -q */
    bool wide;                  /* -v, --wide: every column, a matrix's Mode blocks and grid */
    bool skip_bad;              /* --skip-bad: configurations failing pre-flight are left out */
    enum report_format format;
    bool compilebench;          /* --format compilebench: compilebench's "run complete"
                                 * block after each run, in place of the table */
    /* --bisect-good G --bisect-bad B: the set is a candidate classified as it runs
     * (run_bisect.h); NULL: not one */
    const struct run_bisect_ask *bisect;
    /* --meta KEY=VALUE, checked (results/meta.h), stored with the set */
    struct run_meta meta[RES_META_MAX];
    unsigned nmeta;
};

/* Catches every terminating signal as an interrupt (base/sig.h), before anything is made
 * that a signal could leave behind (an archive's decompressed copy, a target). 0, or
 * EXIT_RUN_FAILED after error(). */
int cli_signals_install(void);

/* Fills rep (run/run_session.h) with the callbacks that print the report of the set ro is
 * about to make (report/report_run.h), as out says (its format, -q, -v, --json); c holds
 * their state. */
void cli_run_reporter(struct report_run *c, const struct cli_output *out,
                      const struct runner_opts *ro, struct run_session_report *rep);

/* Runs ro and reports; returns the process exit status. */
int cli_run_and_report(struct runner_opts *ro, const struct cli_output *out);

#endif
