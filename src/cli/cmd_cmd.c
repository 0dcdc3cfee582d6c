/* cmd_cmd.c — `fsbench cmd`: time any command the way fsbench times a phase (seed 002 timed
 * `make buildworld` with a lock checker on and off). Several commands (--cmd, repeatable) are
 * configurations run in interleaved rounds, so compare can pair them; a command given after
 * `--` is one more. Each run: --prepare (untimed), then the command, measured with its
 * children: wall, user, sys, context switches, faults, block I/O. A failing command fails the
 * run with its exit status and the last line of its stderr; finished runs stay saved.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_run.h"
#include "results/meta.h"
#include "base/err.h"
#include "base/text.h"
#include "stats/seqtest.h"

#define MAX_CMDS 16

static void cmd_usage(FILE *out)
{
    fprintf(out,
            "usage: fsbench cmd [OPTIONS] [--cmd 'COMMAND']... [-- COMMAND ARGS...]\n"
            "  --cmd STRING      a shell command; repeat to compare several (interleaved)\n"
            "  --runs N|auto|until-verdict  rounds (default 5); auto: until every ratio to the\n"
            "                    first command is --precision precise; until-verdict: until each\n"
            "                    command has a verdict against the first (a difference, or\n"
            "                    equivalence within --min-effect), by a sequential test\n"
            "  --max-runs N      most rounds for auto and until-verdict (default 30)\n"
            "  --min-effect P    until-verdict: equivalent when within P either way (default 5%%)\n"
            "  --precision P     auto: relative 95%% CI half-width wanted (default 5%%)\n"
            "  --prepare CMD     run before each run, untimed (e.g. make clean)\n"
            "  --label NAME      name the run set in the results store\n"
            "  --meta KEY=VALUE  a note kept with the set (repeatable), e.g. commit=abc123\n"
            "  --db FILE         results store;  --no-save  do not save\n"
            "  --json FILE       write the runs as JSON;  --format table|seeds\n"
            "  --seed N          seeds the order of commands in each round (default 1)\n"
            "  --no-interleave   all runs of one command, then the next\n");
}

/* Appends arg to buf quoted for /bin/sh ('...' with ' as '\''). */
static int shell_quote(char *buf, size_t len, size_t *used, const char *arg)
{
    size_t u = *used;
    if (u && u + 1 < len)
        buf[u++] = ' ';
    if (u + 1 >= len)
        return -1;
    buf[u++] = '\'';
    for (const char *p = arg; *p; p++) {
        const char *piece = *p == '\'' ? "'\\''" : NULL;
        size_t n = piece ? 4 : 1;
        if (u + n + 2 >= len)
            return -1;
        if (piece)
            memcpy(buf + u, piece, n);
        else
            buf[u] = *p;
        u += n;
    }
    buf[u++] = '\'';
    buf[u] = '\0';
    *used = u;
    return 0;
}

enum {
    OPT_NO_SAVE = 256,
    OPT_PREPARE,
    OPT_NO_INTERLEAVE,
    OPT_MAX_RUNS,
    OPT_MIN_EFFECT,
    OPT_PRECISION,
    OPT_META
};

int cmd_cmd(int argc, char **argv)
{
    static const struct option opts[] = {
        {"cmd", required_argument, NULL, 'c'},     {"runs", required_argument, NULL, 'n'},
        {"prepare", required_argument, NULL, OPT_PREPARE},
        {"label", required_argument, NULL, 'l'},   {"db", required_argument, NULL, 'D'},
        {"meta", required_argument, NULL, OPT_META},
        {"no-save", no_argument, NULL, OPT_NO_SAVE},
        {"json", required_argument, NULL, 'j'},    {"format", required_argument, NULL, 'f'},
        {"seed", required_argument, NULL, 'S'},
        {"no-interleave", no_argument, NULL, OPT_NO_INTERLEAVE},
        {"max-runs", required_argument, NULL, OPT_MAX_RUNS},
        {"min-effect", required_argument, NULL, OPT_MIN_EFFECT},
        {"precision", required_argument, NULL, OPT_PRECISION},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    struct runner_opts ro = {0};
    ro.eng = &engine_posix;
    ro.runs = 5;
    ro.interval_ms = 100;
    ro.confidence = 0.95;
    ro.precision = 0.05;
    ro.min_effect = 0.05;
    unsigned max_runs = 30;
    const char *cmds[MAX_CMDS];
    size_t ncmds = 0;
    struct cli_output out = {.save = true, .format = REPORT_TABLE, .scenario = "cmd",
                             .argc = argc, .argv = argv};
    static const struct cli_range max_range = {1, 100000, CLI_WHOLE, NULL, NULL};
    static const struct cli_range effect_range = {0, 100, CLI_HI_OPEN | CLI_PERCENT, NULL, NULL};
    static const struct cli_range precision_range = {
        0, 100, CLI_LO_OPEN | CLI_HI_OPEN | CLI_PERCENT, NULL, NULL};
    double d;
    unsigned long long seed = 1;
    int c;

    if (cli_signals_install() < 0)
        return EXIT_RUN_FAILED;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
        switch (c) {
        case 'c':
            if (!*optarg)
                return error("--cmd: empty command"), EXIT_USAGE;
            if (ncmds == MAX_CMDS)
                return error("--cmd: at most %d commands", MAX_CMDS), EXIT_USAGE;
            cmds[ncmds++] = optarg;
            break;
        case 'n':
            if (cli_option_runs(optarg, &ro) < 0)
                return EXIT_USAGE;
            break;
        case OPT_MAX_RUNS:
            if (cli_option_number("--max-runs", optarg, &max_range, &d) < 0)
                return EXIT_USAGE;
            max_runs = (unsigned)d;
            break;
        case OPT_MIN_EFFECT:
            if (cli_option_number("--min-effect", optarg, &effect_range, &ro.min_effect) < 0)
                return EXIT_USAGE;
            break;
        case OPT_PRECISION:
            if (cli_option_number("--precision", optarg, &precision_range, &ro.precision) < 0)
                return EXIT_USAGE;
            break;
        case OPT_PREPARE: ro.prepare = optarg; break;
        case 'l': out.label = optarg; break;
        case 'D': out.db = optarg; break;
        case OPT_META:
            if (meta_add_arg(out.meta, &out.nmeta, optarg, "--meta") < 0)
                return EXIT_USAGE;
            break;
        case OPT_NO_SAVE: out.save = false; break;
        case 'j': out.json = optarg; break;
        case 'f': {
            int f = report_format_find(optarg);
            if (f < 0)
                return error("--format: unknown format '%s' (table, seeds)", optarg), EXIT_USAGE;
            out.format = (enum report_format)f;
            break;
        }
        case 'S':
            if (cli_parse_u64(optarg, &seed) < 0)
                return error("--seed: '%s' is not a whole number", optarg), EXIT_USAGE;
            break;
        case OPT_NO_INTERLEAVE: ro.no_interleave = true; break;
        case 'h': cmd_usage(stdout); return EXIT_OK;
        default: return cli_bad_option("cmd", c, argv);
        }
    }
    static char tail_cmd[4096];
    if (optind < argc) {
        size_t used = 0;
        tail_cmd[0] = '\0';
        for (int i = optind; i < argc; i++)
            if (shell_quote(tail_cmd, sizeof tail_cmd, &used, argv[i]) < 0)
                return error("cmd: the command after -- is too long"), EXIT_USAGE;
        if (ncmds == MAX_CMDS)
            return error("--cmd: at most %d commands", MAX_CMDS), EXIT_USAGE;
        cmds[ncmds++] = tail_cmd;
    }
    if (ncmds == 0)
        return error("cmd: no command given (--cmd STRING or -- COMMAND ARGS...); try "
                     "'fsbench cmd --help'"), EXIT_USAGE;
    if (cli_check_label(out.label))
        return EXIT_USAGE;
    if (ro.runs_auto || ro.until_verdict)
        ro.runs = max_runs;
    if (ro.until_verdict && max_runs < SEQ_FIRST_LOOK)
        return error("--max-runs %u: --runs until-verdict needs at least %d (a verdict needs %d "
                     "pairs)",
                     max_runs, SEQ_FIRST_LOOK, SEQ_FIRST_LOOK),
               EXIT_USAGE;
    if (ro.until_verdict && ro.no_interleave)
        return error("--runs until-verdict pairs the commands' runs of each round: it needs "
                     "them interleaved (drop --no-interleave)"),
               EXIT_USAGE;
    if (ro.until_verdict && ncmds < 2)
        return error("--runs until-verdict compares commands with the first: give two or more "
                     "(--cmd, repeated)"),
               EXIT_USAGE;
    for (size_t i = 0; i < ncmds; i++) {
        struct runner_config *rc = &ro.configs[ro.nconfigs++];
        rc->command = cmds[i];
        /* the command names its configuration, escaped: a name holds no line break */
        text_escape(rc->name, sizeof rc->name, cmds[i]);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(ro.configs[j].name, rc->name))
                snprintf(rc->name, sizeof rc->name, "#%zu %.58s", i + 1, text_shown(cmds[i]));
    }
    ro.order_seed = seed;
    int n = scenario_resolve("cmd", ro.phases, SCENARIO_MAX_PHASES);
    if (n < 0)
        return EXIT_RUN_FAILED;
    ro.nphases = (size_t)n;
    return cli_run_and_report(&ro, &out);
}
