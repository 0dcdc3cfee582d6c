/* main.c — fsbench's entry point: dispatches to a sub-command and returns its exit status. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "base/err.h"
#include "base/outcheck.h"
#include "base/sig.h"

#ifndef FSBENCH_VERSION
#define FSBENCH_VERSION "0.1.0"
#endif

struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"run", cmd_run, "run a scenario: measure every phase over N runs"},
    {"list", cmd_list, "scenarios, phases, tree profiles and engines"},
    {"tree", cmd_tree, "make a tree without timing it, or show its statistics"},
    {"cmd", cmd_cmd, "time any command, or several interleaved, like a phase"},
    {"record", cmd_record, "trace a program's file-system calls, to replay (run --replay)"},
    {"trace", cmd_trace, "what a recorded trace holds (trace stats FILE)"},
    {"layout", cmd_layout, "extents, layout score and directory locality of a tree (FIEMAP)"},
    {"compare", cmd_compare, "compare stored run sets or configurations, with a verdict"},
    {"history", cmd_history, "a series of labels: every phase, its change points, the first bad"},
    {"bisect", cmd_bisect, "bisect verdict: is a candidate like the good or the bad label"},
    {"report", cmd_report, "one HTML page with charts of run sets and their comparison"},
    {"runs", cmd_runs, "list the stored run sets"},
    {"show", cmd_show, "print a stored run set as run would"},
    {"export", cmd_export, "export a stored run set as JSON or CSV"},
    {"import", cmd_import, "store a run set from a JSON file"},
    {"forget", cmd_forget, "delete the stored run sets with a label"},
    {"cleanup", cmd_cleanup, "release what killed runs left: mounts, loop devices, images, trees"},
    {NULL, NULL, NULL},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: fsbench COMMAND [OPTIONS]   (fsbench COMMAND --help for its options)\n\n");
    for (const struct command *c = commands; c->name; c++)
        fprintf(out, "  %-9s %s\n", c->name, c->summary);
    fprintf(out, "\nfsbench run            runs the 'basic' scenario on the 'tiny' tree in a "
                 "temporary directory\n"
                 "fsbench help COMMAND   the same as fsbench COMMAND --help\n"
                 "fsbench -V, --version  the version\n"
                 "man fsbench            the manual; the guide: docs/guide.md "
                 "(/usr/share/doc/fsbench/ installed)\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (sig_ignore_pipe() < 0)
        return EXIT_RUN_FAILED;
    const char *cmd = argv[1];
    int rc = -1;
    char help_opt[] = "--help";
    char *help_argv[] = {argv[0], argc > 2 ? argv[2] : NULL, help_opt, NULL};
    if (!strcmp(cmd, "help") && argc > 2) {
        /* help COMMAND: what COMMAND --help says */
        if (argc > 3) {
            error("help: takes one command, not '%s'", argv[3]);
            return EXIT_USAGE;
        }
        cmd = argv[2];
        argc = 3;
        argv = help_argv;
    } else if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        rc = EXIT_OK;
    } else if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V") || !strcmp(cmd, "version")) {
        printf("fsbench %s\n", FSBENCH_VERSION);
        rc = EXIT_OK;
    }
    for (const struct command *c = commands; rc < 0 && c->name; c++)
        if (!strcmp(c->name, cmd))
            rc = c->fn(argc - 1, argv + 1);
    if (rc < 0) {
        error("unknown command '%s' (see 'fsbench --help')", cmd);
        return EXIT_USAGE;
    }
    /* every command's output is checked: a closed pipe or a full disk is one line, exit 1 */
    if (outcheck_stdout(NULL) < 0 && rc == EXIT_OK)
        rc = EXIT_RUN_FAILED;
    /* stopped by a signal (after the cleanup and the line naming it): 128 + its number, as
     * a shell reports a command a signal ended (SIGINT 130, SIGTERM 143) */
    int sig = sig_stop_requested();
    if (rc != EXIT_OK && sig > 0 && sig < 128)
        rc = 128 + sig;
    return rc;
}
