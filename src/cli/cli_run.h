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
#include "run/runner.h"

struct cli_output {
    const char *label;          /* NULL: "<scenario>-<date>-<time>" */
    const char *scenario;       /* stored as the set's scenario */
    const char *db;             /* NULL: the default store */
    bool save;
    const char *json;           /* NULL: none; "-": standard output (the table goes to
                                 * stderr then, or nowhere when quiet) */
    bool quiet;                 /* -q */
    bool wide;                  /* -v, --wide: every column, a matrix's Mode blocks and grid */
    bool skip_bad;              /* --skip-bad: configurations failing pre-flight are left out */
    enum report_format format;
    bool compilebench;          /* --format compilebench: compilebench's "run complete"
                                 * block after each run, in place of the table */
    int argc;                   /* the sub-command's arguments, for the command line */
    char **argv;
    const char *job_text;       /* the job file, expanded, stored with the set (or NULL) */
    const char *job_hash;       /* its SHA-256 */
    /* fsbench run: its arguments as a JSON array, stored with the set so that `fsbench run
     * --resume LABEL` can finish it (NULL: the set cannot be resumed, e.g. fsbench cmd). */
    const char *args_json;
    /* --resume: the stored set this run finishes (its kept runs are moved into the run
     * set, and only the runs it lacks are made), and its id; NULL: a new set. */
    struct run_set *resume;
    int64_t resume_id;
    /* Runs the set instead of runner_run (jobs interleaved in rounds), or NULL. */
    int (*run)(void *arg, const struct runner_opts *ro, struct run_set *rs,
               struct runner_auto *ra);
    void *run_arg;
    /* --bisect-good G --bisect-bad B: the set is a candidate classified as it runs
     * (cli_bisect_run.h); NULL: not one */
    const struct cli_bisect_ask *bisect;
    /* --meta KEY=VALUE, checked (results/meta.h), stored with the set */
    struct run_meta meta[RES_META_MAX];
    unsigned nmeta;
};

/* Catches every terminating signal as an interrupt (base/sig.h), before anything is made
 * that a signal could leave behind (an archive's decompressed copy, a target). 0, or
 * EXIT_RUN_FAILED after error(). */
int cli_signals_install(void);

/* Checks a --label value: 0, or EXIT_USAGE after error(). */
int cli_check_label(const char *label);

/* The columns a report on f may fill: the terminal's width, 80 when f is no terminal. */
unsigned cli_report_width(FILE *f);

/* Runs ro and reports; returns the process exit status. */
int cli_run_and_report(struct runner_opts *ro, const struct cli_output *out);

#endif
