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

#endif
