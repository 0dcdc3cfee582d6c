/* cmd_trace.c — `fsbench trace stats FILE [--json]`: what a trace made by `fsbench record`
 * holds (its calls per kind and as the operation kinds a replay reports, bytes, threads,
 * duration, what was left out, the initial state). The whole trace is read, so this is
 * also the check of a trace someone sent. Also `trace dump` and `trace replay`. This file
 * parses; report/trace_print.c prints the stats and the dump, run/run_trace_replay.c
 * replays.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "phase/replay.h"
#include "report/trace_print.h"
#include "run/run_trace_replay.h"
#include "trace/trace_read.h"
#include "trace/trace_stats.h"

static void trace_usage(FILE *out)
{
    fprintf(out, "usage: fsbench trace stats FILE [--json]\n"
                 "       fsbench trace dump FILE\n"
                 "       fsbench trace replay FILE DIR [--timing afap|original] [-j N]\n"
                 "                                     [--part state|calls] [--limit N] [--sparse]\n"
                 "                                     [--keep-setid]\n"
                 "  stats: a trace made by fsbench record: its calls by kind, bytes, threads,\n"
                 "  duration, what was left out and its initial state\n"
                 "  dump: its initial state and every record, one a line\n"
                 "  replay: replays it once into DIR/tree (DIR empty or new) and leaves the\n"
                 "  result there, as the replay phase would make it, untimed\n"
                 "  --json            stats: as JSON\n"
                 "  --timing T        replay: afap (as fast as possible, default) or original\n"
                 "                    (the recorded gaps between calls)\n"
                 "  -j, --threads N   replay: at most N threads (default: one per recorded thread)\n"
                 "  --part P          replay: state lays down the initial state only, calls\n"
                 "                    makes the calls only (on what --part state laid down)\n"
                 "  --limit N         replay: the first N calls only\n"
                 "  --sparse          replay: the initial state's files sparse (their sizes,\n"
                 "                    no data written)\n"
                 "  --keep-setid      replay: keep setuid/setgid bits (default: dropped from\n"
                 "                    every mode, and said)\n");
}

/* trace's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_trace = {
    "trace", ":hj:",
    (const struct option[]){
        {"json", no_argument, NULL, 'J'},
        {"timing", required_argument, NULL, 'T'},
        {"threads", required_argument, NULL, 'j'},
        {"part", required_argument, NULL, 'P'},
        {"limit", required_argument, NULL, 'L'},
        {"sparse", no_argument, NULL, 'S'},
        {"keep-setid", no_argument, NULL, 'K'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_trace(int argc, char **argv)
{
    static const struct num_range range_threads = {1, REPLAY_THREADS_MAX, NUM_WHOLE, NULL, NULL};
    bool json = false, sparse = false, keep_setid = false;
    unsigned timing = REPLAY_AFAP, threads = 0;
    int part = RUN_TRACE_PART_ALL;
    unsigned long long limit = 0;
    double d;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_trace.shortopts, cli_opts_trace.longopts, NULL)) !=
           -1) {
        switch (c) {
        case 'J': json = true; break;
        case 'T':
            if (!strcmp(optarg, "afap") || !strcmp(optarg, "original"))
                timing = optarg[0] == 'a' ? REPLAY_AFAP : REPLAY_ORIGINAL;
            else
                return error("trace: --timing: '%s' is neither afap nor original", optarg),
                       EXIT_USAGE;
            break;
        case 'j':
            if (num_option("--threads", optarg, &range_threads, &d) < 0)
                return EXIT_USAGE;
            threads = (unsigned)d;
            break;
        case 'P':
            if (!strcmp(optarg, "state") || !strcmp(optarg, "calls"))
                part = optarg[0] == 's' ? RUN_TRACE_PART_STATE : RUN_TRACE_PART_CALLS;
            else
                return error("trace: --part: '%s' is neither state nor calls", optarg),
                       EXIT_USAGE;
            break;
        case 'L':
            if (num_parse_u64(optarg, &limit) < 0)
                return error("trace: --limit: '%s' is not a whole number", optarg), EXIT_USAGE;
            break;
        case 'S': sparse = true; break;
        case 'K': keep_setid = true; break;
        case 'h': trace_usage(stdout); return EXIT_OK;
        default: return cli_bad_option("trace", c, argv);
        }
    }
    const char *verb = optind < argc ? argv[optind] : "";
    if (strcmp(verb, "stats") && strcmp(verb, "dump") && strcmp(verb, "replay")) {
        trace_usage(stderr);
        return EXIT_USAGE;
    }
    if (argc - optind != (strcmp(verb, "replay") ? 2 : 3))
        return error("trace %s: %s, please", verb,
                     strcmp(verb, "replay") ? "one trace file" : "a trace file and a directory"),
               EXIT_USAGE;
    const char *path = argv[optind + 1];
    struct trace_file *t = trace_open(path);
    if (!t)
        return EXIT_RUN_FAILED;
    if (!strcmp(verb, "replay")) {
        int r = trace_check(t) < 0 ? -1
                                   : run_trace_replay(t, argv[optind + 2], timing, threads,
                                                      part, limit, sparse, keep_setid);
        trace_close(t);
        return r < 0 ? EXIT_RUN_FAILED : EXIT_OK;
    }
    if (!strcmp(argv[optind], "dump")) {
        int dr = trace_print_dump(t);
        trace_close(t);
        return dr < 0 ? EXIT_RUN_FAILED : EXIT_OK;
    }
    struct trace_stats s;
    int rc = trace_stats_compute(t, &s);
    if (rc == 0) {
        if (json)
            rc = trace_print_json(trace_file_info(t), &s);
        else
            trace_print_text(path, trace_file_info(t), &s);
    }
    trace_close(t);
    return rc < 0 ? EXIT_RUN_FAILED : EXIT_OK;
}
