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
#include "cli/cli_options.h"
#include "run/run_bisect.h"
#include "run/run_request.h"
#include "run/run_cmd.h"
#include "cli/cli_run.h"
#include "results/meta.h"
#include "base/err.h"
#include "base/text.h"
#include "stats/compare.h"
#include "stats/negligible.h"
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
            "                    none of --min-effect or more shown), by a sequential test\n"
            "  --max-runs N      most rounds for auto and until-verdict (default 30)\n"
            "  --min-effect P    until-verdict: futile once an effect of P or more is ruled\n"
            "                    out (default 10%%; 0: off)\n"
            "  --negligible S    until-verdict: a command under S seconds (median, both sides)\n"
            "                    is negligible and holds nothing up (default 0.001; 0: off)\n"
            "  --precision P     auto: relative 95%% CI half-width wanted (default 5%%)\n"
            "  --prepare CMD     run before each run, untimed (e.g. make clean)\n"
            "  --label NAME      name the run set in the results store\n"
            "  --meta KEY=VALUE  a note kept with the set (repeatable), e.g. commit=abc123\n"
            "  --db FILE         results store\n"
            "  --no-save         do not save\n"
            "  --json FILE       write the runs as JSON\n"
            "  --format F        table (default) or seeds, as for run\n"
            "  --seed N          seeds the order of commands in each round (default 1)\n"
            "  --no-interleave   all runs of one command, then the next\n"
            "  -v, --wide        every column of the table, and each command's Mode block\n"
            "                    and the grid of medians\n"
            "  --bisect-good G --bisect-bad B  with --runs until-verdict and one command:\n"
            "                    a bisection's candidate, run until bisect verdict's class\n"
            "                    against the stored labels G and B is settled\n"
            "  --bisect-phase, --bisect-metric, --bisect-confidence  as bisect verdict's\n"
            "  --bisect-exit     exit 0 like good, 1 like bad, 125 cannot tell, 128 an error\n");
}

/* Appends arg to buf for /bin/sh: as it is when every byte is one the shell takes
 * literally (make, -C, /usr/src), else quoted ('...' with ' as '\''), so the command
 * reads as typed in its configuration's name and messages. */
static int shell_quote(char *buf, size_t len, size_t *used, const char *arg)
{
    size_t u = *used;
    if (u && u + 1 < len)
        buf[u++] = ' ';
    if (u + 1 >= len)
        return -1;
    /* no '=': "a=b" first would be an assignment to sh, not a program */
    if (*arg && strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                            "_-./:,+@%") == strlen(arg)) {
        size_t n = strlen(arg);
        if (u + n >= len)
            return -1;
        memcpy(buf + u, arg, n + 1);
        *used = u + n;
        return 0;
    }
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
    OPT_NEGLIGIBLE,
    OPT_PRECISION,
    OPT_META,
    OPT_BISECT_GOOD,
    OPT_BISECT_BAD,
    OPT_BISECT_PHASE,
    OPT_BISECT_METRIC,
    OPT_BISECT_CONF,
    OPT_BISECT_EXIT
};

/* The commands cmd_cmd_run parsed (ncmds of them, in cmds) made the configurations of ro
 * (run/run_cmd.h), and run and reported. The exit status. */
static int cmd_cmd_commands(struct runner_opts *ro, struct cli_output *out,
                            struct run_bisect_ask *bisect, const char **cmds, size_t ncmds,
                            unsigned max_runs, unsigned long long seed)
{
    bool bisecting = false;
    int rc = run_cmd_configs(ro, out->set.label, bisect, &bisecting, cmds, ncmds, max_runs,
                             seed);
    if (rc)
        return rc;
    out->bisect = bisecting ? bisect : NULL;
    return cli_run_and_report(ro, out);
}

/* cmd's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_cmd = {
    "cmd", "+:hv",
    (const struct option[]){
        {"cmd", required_argument, NULL, 'c'},
        {"runs", required_argument, NULL, 'n'},
        {"prepare", required_argument, NULL, OPT_PREPARE},
        {"label", required_argument, NULL, 'l'},
        {"db", required_argument, NULL, 'D'},
        {"meta", required_argument, NULL, OPT_META},
        {"no-save", no_argument, NULL, OPT_NO_SAVE},
        {"json", required_argument, NULL, 'j'},
        {"format", required_argument, NULL, 'f'},
        {"seed", required_argument, NULL, 'S'},
        {"no-interleave", no_argument, NULL, OPT_NO_INTERLEAVE},
        {"max-runs", required_argument, NULL, OPT_MAX_RUNS},
        {"min-effect", required_argument, NULL, OPT_MIN_EFFECT},
        {"negligible", required_argument, NULL, OPT_NEGLIGIBLE},
        {"precision", required_argument, NULL, OPT_PRECISION},
        {"wide", no_argument, NULL, 'v'},
        {"bisect-good", required_argument, NULL, OPT_BISECT_GOOD},
        {"bisect-bad", required_argument, NULL, OPT_BISECT_BAD},
        {"bisect-phase", required_argument, NULL, OPT_BISECT_PHASE},
        {"bisect-metric", required_argument, NULL, OPT_BISECT_METRIC},
        {"bisect-confidence", required_argument, NULL, OPT_BISECT_CONF},
        {"bisect-exit", no_argument, NULL, OPT_BISECT_EXIT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

static int cmd_cmd_run(int argc, char **argv)
{
    struct runner_opts ro = {0};
    ro.eng = &engine_posix;
    ro.runs = 5;
    ro.interval_ms = 100;
    ro.confidence = 0.95;
    ro.precision = 0.05;
    ro.min_effect = SEQ_MIN_EFFECT_DEFAULT;
    ro.negligible_s = STATS_NEGLIGIBLE_DEFAULT_S;
    unsigned max_runs = 30;
    struct run_bisect_ask bisect = {.confidence = 0.95};
    const char *cmds[MAX_CMDS];
    size_t ncmds = 0;
    struct cli_output out = {.set = {.save = true, .scenario = "cmd", .argc = argc, .argv = argv},
                             .format = REPORT_TABLE};
    static const struct num_range max_range = {1, 100000, NUM_WHOLE, NULL, NULL};
    static const struct num_range effect_range = {0, 100, NUM_HI_OPEN | NUM_PERCENT, NULL, NULL};
    static const struct num_range precision_range = {
        0, 100, NUM_LO_OPEN | NUM_HI_OPEN | NUM_PERCENT, NULL, NULL};
    double d;
    unsigned long long seed = 1;
    int c;

    if (cli_signals_install() < 0)
        return EXIT_RUN_FAILED;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_cmd.shortopts, cli_opts_cmd.longopts, NULL)) !=
           -1) {
        switch (c) {
        case 'c':
            if (!*optarg)
                return error("--cmd: empty command"), EXIT_USAGE;
            if (ncmds == MAX_CMDS)
                return error("--cmd: at most %d commands", MAX_CMDS), EXIT_USAGE;
            cmds[ncmds++] = optarg;
            break;
        case 'n':
            if (run_request_runs(optarg, &ro) < 0)
                return EXIT_USAGE;
            break;
        case OPT_MAX_RUNS:
            if (num_option("--max-runs", optarg, &max_range, &d) < 0)
                return EXIT_USAGE;
            max_runs = (unsigned)d;
            break;
        case OPT_MIN_EFFECT:
            if (num_option("--min-effect", optarg, &effect_range, &ro.min_effect) < 0)
                return EXIT_USAGE;
            break;
        case OPT_NEGLIGIBLE: {
            static const struct num_range negligible_range = {0, 3600, 0, NULL, NULL};
            if (num_option("--negligible", optarg, &negligible_range, &ro.negligible_s) < 0)
                return EXIT_USAGE;
            break;
        }
        case OPT_PRECISION:
            if (num_option("--precision", optarg, &precision_range, &ro.precision) < 0)
                return EXIT_USAGE;
            break;
        case OPT_PREPARE: ro.prepare = optarg; break;
        case 'l': out.set.label = optarg; break;
        case 'D': out.set.db = optarg; break;
        case OPT_META:
            if (meta_add_arg(out.meta, &out.nmeta, optarg, "--meta") < 0)
                return EXIT_USAGE;
            break;
        case OPT_NO_SAVE: out.set.save = false; break;
        case 'j': out.set.json = optarg; break;
        case 'f': {
            int f = report_format_find(optarg);
            if (f < 0)
                return error("--format: unknown format '%s' (table, seeds)", optarg), EXIT_USAGE;
            out.format = (enum report_format)f;
            break;
        }
        case 'S':
            if (num_parse_u64(optarg, &seed) < 0)
                return error("--seed: '%s' is not a whole number", optarg), EXIT_USAGE;
            break;
        case OPT_BISECT_GOOD: bisect.good = optarg; break;
        case OPT_BISECT_BAD: bisect.bad = optarg; break;
        case OPT_BISECT_PHASE: bisect.phase = optarg; break;
        case OPT_BISECT_METRIC:
            if (cmp_metric_find(optarg) < 0)
                return error("--bisect-metric: unknown metric '%s' (wall, user, sys, cpu, ...)",
                             optarg),
                       EXIT_USAGE;
            bisect.metric = optarg;
            break;
        case OPT_BISECT_CONF:
            if (strcmp(optarg, "90") && strcmp(optarg, "95") && strcmp(optarg, "99"))
                return error("--bisect-confidence: '%s' is not 90, 95 or 99", optarg),
                       EXIT_USAGE;
            bisect.confidence = atoi(optarg) / 100.0;
            break;
        case OPT_BISECT_EXIT: bisect.exit_status = true; break;
        case OPT_NO_INTERLEAVE: ro.no_interleave = true; break;
        case 'v': out.wide = true; break;
        case 'h': cmd_usage(stdout); return EXIT_OK;
        default: return cli_bad_option("cmd", c, argv);
        }
    }
    static char tail_cmd[4096];
    if (optind < argc && run_cmd_program_check(argv[optind]) < 0)
        return EXIT_RUN_FAILED;
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
    return cmd_cmd_commands(&ro, &out, &bisect, cmds, ncmds, max_runs, seed);
}

int cmd_cmd(int argc, char **argv)
{
    /* --bisect-exit: as bisect verdict exits (an error is 128, never a verdict) */
    return run_bisect_exit(argc, argv, cmd_cmd_run(argc, argv));
}
