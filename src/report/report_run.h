/* report_run.h — the report printed after a run set is made (`fsbench run`, `fsbench cmd`):
 * the callbacks a run session (run/run_session.h) calls when its runs are done and as it
 * saves them, printing on standard output (or stderr with --json -) as the options say.
 */
#ifndef FSBENCH_REPORT_RUN_H
#define FSBENCH_REPORT_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "report/report.h"
#include "run/run_session.h"
#include "run/runner.h"

/* How a set is reported. */
struct report_run_opts {
    enum report_format format;
    bool compilebench; /* --format compilebench: compilebench's "run complete" block after
                        * each run, in place of the table */
    bool quiet;        /* -q */
    bool wide;         /* -v, --wide: every column, a matrix's Mode blocks and grid */
    const char *json;  /* --json FILE (NULL: none; "-": standard output, the report going to
                        * stderr then, or nowhere when quiet) */
};

/* The state of the callbacks (report_run_hooks() fills it): the options, the report's
 * stream, and whether compilebench's phases ran. Alive while the set is made. */
struct report_run {
    struct report_run_opts out;
    FILE *rep; /* the report's stream; NULL: none (--json - with -q) */
    bool cb_ran;
};

/* Fills rep with the callbacks that print the report of the set ro is about to make, as
 * out says; c holds their state. */
void report_run_hooks(struct report_run *c, const struct report_run_opts *out,
                      const struct runner_opts *ro, struct run_session_report *rep);

/* The columns a report on f may fill: the terminal's width, 80 when f is no terminal. */
unsigned report_term_width(FILE *f);

#endif
