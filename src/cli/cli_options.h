/* cli_options.h — the long options of every command but run (whose table is run/run_request_table.c),
 * one table a command: its getopt_long reads it, and cli_opts_all lists them all so that
 * t0014 can hold each command's --help, its man page section and the completion to it. */
#ifndef FSBENCH_CLI_OPTIONS_H
#define FSBENCH_CLI_OPTIONS_H

#include <getopt.h>

struct cli_opts {
    const char *command;          /* the words that name it: "compare", "tree capture" */
    const char *shortopts;        /* getopt_long's short options */
    const struct option *longopts; /* ends with a NULL name */
};

extern const struct cli_opts cli_opts_bisect_verdict, cli_opts_cleanup, cli_opts_cmd,
    cli_opts_compare, cli_opts_history, cli_opts_layout, cli_opts_list, cli_opts_record,
    cli_opts_report, cli_opts_trace, cli_opts_tree, cli_opts_tree_capture, cli_opts_runs,
    cli_opts_show, cli_opts_export, cli_opts_import, cli_opts_forget;

/* Every table above, in the order of `fsbench --help`; ends with NULL. */
extern const struct cli_opts *const cli_opts_all[];

#endif
