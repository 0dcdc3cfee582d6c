/* cli.c — the one-line refusal of an option getopt_long refused, and the --runs value and
 * the --scale check of run (see cli.h). The number parser behind every numeric option is
 * base/number.c.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "run/runner.h"
#include "tree/tree.h"

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

int cli_option_runs(const char *s, struct runner_opts *ro)
{
    static const struct num_range runs = {1, 100000, NUM_WHOLE, NULL, "auto or until-verdict"};
    ro->runs_auto = !strcmp(s, "auto");
    ro->until_verdict = !strcmp(s, "until-verdict");
    if (ro->runs_auto || ro->until_verdict)
        return 0;
    double d;
    if (num_option("--runs", s, &runs, &d) < 0)
        return -1;
    ro->runs = (unsigned)d;
    return 0;
}

int cli_check_scale(const char *arg, const struct profile *p, double scale)
{
    double files = (double)p->files * scale;
    if (files <= (double)TREE_FILES_MAX)
        return 0;
    return error("--scale: '%s' would make the tree %s %.3g files, more than the %llu a tree "
                 "may hold (at most --scale %.6g)",
                 arg, p->name, files, (unsigned long long)TREE_FILES_MAX,
                 (double)TREE_FILES_MAX / (double)p->files);
}
