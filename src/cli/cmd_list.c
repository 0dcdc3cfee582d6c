/* cmd_list.c — `fsbench list`: the scenarios (the shipped job files), phases, tree profiles (with
 * their file count, total size and the source of their shape, computed by streaming each tree),
 * engines and report formats, fitting the terminal (80 columns when not one: descriptions
 * folded under their column, a profile's source with -v/--wide, which also prints every
 * line whole); `fsbench list --names KIND` prints one kind's names alone, one a line, for
 * scripts and the bash completion. This file parses list's options; report/list_print.c
 * prints.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_run.h"
#include "cli/cmd_run.h"
#include "run/run_request.h"
#include "engine/engine.h"
#include "base/err.h"
#include "phase/phase_registry.h"
#include "tree/profile.h"
#include "run/job.h"
#include "run/job_builtin.h"
#include "tree/tree.h"
#include "report/list_print.h"
#include "report/report_run.h"

/* list's options: the one table its getopt_long reads (t0014 holds its --help, the man
 * page and the completion to it) */
const struct cli_opts cli_opts_list = {
    "list", ":hv",
    (const struct option[]){
        {"wide", no_argument, NULL, 'v'},
        {"names", required_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

static void list_usage(void)
{
    printf("usage: fsbench list [-v|--wide] [--names scenarios|phases|profiles|engines]\n"
           "  what fsbench can run: the shipped scenarios (with their phases or\n"
           "  jobs), the phases, the tree profiles (files, directories, size, depth\n"
           "  and, with -v, where their shape comes from), the engines and the report\n"
           "  formats, fitting the terminal (80 columns when not one)\n"
           "  -v, --wide    where each profile's shape comes from too, and every line\n"
           "                whole, however wide\n"
           "  --names KIND  only the names of one kind, one a line (for scripts and\n"
           "                the bash completion): scenarios, phases, profiles or\n"
           "                engines\n");
}

int cmd_list(int argc, char **argv)
{
    bool wide = false;
    const char *names = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_list.shortopts, cli_opts_list.longopts,
                            NULL)) != -1) {
        switch (c) {
        case 'v': wide = true; break;
        case 'n': names = optarg; break;
        case 'h': list_usage(); return EXIT_OK;
        default: return cli_bad_option("list", c, argv);
        }
    }
    if (optind < argc)
        return error("list: takes no arguments but --names KIND; try 'fsbench list --help'"),
               EXIT_USAGE;
    if (names)
        return list_print_names(names) < 0 ? EXIT_USAGE : EXIT_OK;
    unsigned width = wide ? 0 : report_term_width(stdout);
    return list_print_all(width, wide, run_options_job_keys()) < 0 ? EXIT_RUN_FAILED : EXIT_OK;
}
