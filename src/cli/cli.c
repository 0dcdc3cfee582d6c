/* cli.c — the one-line refusal of an option getopt_long refused (see cli.h). The number
 * parser behind every numeric option is base/number.c; --runs' value is parsed by the table
 * of run's options (run/run_request_table.c), and a scale is checked by tree_check_scale().
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"

int cli_bad_option(const char *cmd, int c, char **argv)
{
    return cli_bad_option_was(cmd, c, optopt, argv[optind - 1]);
}

int cli_bad_option_was(const char *cmd, int c, int opt, const char *arg)
{
    if (c == ':')
        error("%s: option '%s' needs a value; try 'fsbench %s --help'", cmd, arg, cmd);
    else if (opt && !(arg[0] == '-' && arg[1] == '-'))
        error("%s: unknown option '-%c'; try 'fsbench %s --help'", cmd, opt, cmd);
    else
        error("%s: unknown option '%s'; try 'fsbench %s --help'", cmd, arg, cmd);
    return EXIT_USAGE;
}
