/* cli_options.c — the list of every command's option table (each is defined beside its
 * command's getopt_long loop), for the check that holds help, man page and completion to
 * them (tests/helpers/cli_options_print.c, t0014). */
#include <stddef.h>

#include "cli/cli_options.h"

const struct cli_opts *const cli_opts_all[] = {
    &cli_opts_list,    &cli_opts_tree,    &cli_opts_tree_capture, &cli_opts_cmd,
    &cli_opts_record,  &cli_opts_trace,   &cli_opts_layout,       &cli_opts_compare,
    &cli_opts_history, &cli_opts_bisect_verdict, &cli_opts_report, &cli_opts_runs,
    &cli_opts_show,    &cli_opts_export,  &cli_opts_import,       &cli_opts_forget,
    &cli_opts_cleanup, NULL,
};
