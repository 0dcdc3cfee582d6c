/* cli.h — the sub-commands. Each takes (argc, argv) with argv[0] the sub-command's name,
 * parses its own options with getopt_long, and returns the process exit status
 * (EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE from err.h). Only these and main() decide exits.
 */
#ifndef FSBENCH_CLI_H
#define FSBENCH_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "base/number.h"

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_layout(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_forget(int argc, char **argv);
int cmd_cmd(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_bisect(int argc, char **argv);

/* The one-line message for an option getopt_long refused (call with opterr = 0 and an
 * optstring starting with ':'): c is what getopt_long returned. Returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, int c, char **argv);
/* The same, for a refusal noted earlier: c as above, opt getopt's optopt then, arg the
 * argument it was in (argv[optind - 1] then). */
int cli_bad_option_was(const char *cmd, int c, int opt, const char *arg);

struct runner_opts;
/* --runs S: "auto", "until-verdict" or a whole number from 1 to 100000, into ro (the last
 * --runs given wins). 0, or -1 after error(). */
int cli_option_runs(const char *s, struct runner_opts *ro);

struct profile;
/* 0 if profile p at scale (given as arg) stays within TREE_FILES_MAX files, else -1 after
 * error() naming the option, the tree and the largest scale that would do. */
int cli_check_scale(const char *arg, const struct profile *p, double scale);

#endif
