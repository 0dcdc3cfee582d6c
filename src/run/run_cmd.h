/* run_cmd.h — `fsbench cmd`'s commands checked and made a run set's configurations (see
 * run_cmd.c). */
#ifndef FSBENCH_RUN_CMD_H
#define FSBENCH_RUN_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "run/run_bisect.h"
#include "run/runner.h"

/* Whether the program after -- can be run at all: a path must name an executable file, a
 * bare name one in PATH (or be one of the shell's special built-ins: it runs under sh -c).
 * 0, or -1 after the one line that says why (before anything is run). */
int run_cmd_program_check(const char *prog);

/* The ncmds commands in cmds checked together with ro's options (--runs, --max-runs, the
 * bisection asked in bisect, the set's label: NULL when none), made ro's configurations in
 * that order, ro's order seeded with seed and its phases the "cmd" scenario's. *bisecting:
 * whether the set is a bisection's candidate. 0, or EXIT_USAGE / EXIT_RUN_FAILED after
 * error(). */
int run_cmd_configs(struct runner_opts *ro, const char *label, struct run_bisect_ask *bisect,
                    bool *bisecting, const char **cmds, size_t ncmds, unsigned max_runs,
                    unsigned long long seed);

#endif
