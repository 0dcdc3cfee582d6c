/* cmd_trace.c — `fsbench trace stats FILE [--json]`: what a trace made by `fsbench record`
 * holds (its calls per kind and as the operation kinds a replay reports, bytes, threads,
 * duration, what was left out, the initial state). The whole trace is read, so this is
 * also the check of a trace someone sent.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/text.h"
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "engine/engine.h"
#include "measure/measure.h"
#include "phase/replay.h"
#include "report/trace_print.h"
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

/* `trace replay FILE DIR`: the replay phase run once outside the runner, its result left. */
enum { PART_ALL, PART_STATE, PART_CALLS };

static int replay_into(struct trace_file *t, const char *dir, unsigned timing, unsigned threads,
                       int part, uint64_t limit, bool sparse, bool keep_setid)
{
    if (mkdir(dir, 0755) < 0 && errno != EEXIST)
        return error_errno("trace replay: cannot create %s", text_shown(dir));
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return error_errno("trace replay: cannot open %s", text_shown(dir));
    struct stat st;
    if (part != PART_CALLS && fstatat(fd, PHASE_TREE_DIR, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        close(fd);
        return error("trace replay: %s/%s exists: give a directory without it",
                     text_shown(dir), PHASE_TREE_DIR);
    }
    unsigned n = replay_threads_wanted(trace_file_info(t), threads);
    struct opstats *ops = calloc(n, sizeof *ops);
    struct eng_worker *w = calloc(n, sizeof *w);
    int rc = -1;
    if (!ops || !w) {
        error("out of memory");
        goto out;
    }
    for (unsigned i = 0; i < n; i++)
        w[i].st = &ops[i];
    struct phase_params params = {.replay = t, .replay_timing = timing, .replay_threads = n,
                                  .replay_limit = limit, .replay_sparse = sparse,
                                  .replay_keep_setid = keep_setid};
    struct phase_result res = {0};
    struct phase_ctx ctx = {.eng = &engine_posix, .w = &w[0], .ws_fd = fd, .res = &res,
                            .params = &params, .workers = w, .nworkers = n};
    snprintf(res.name, sizeof res.name, "replay");
    if (part != PART_CALLS && phase_replay_setup(&ctx) < 0) {
        error("trace replay: %s", res.note);
        goto out;
    }
    if (part == PART_STATE) {
        rc = 0;
        goto out;
    }
    uint64_t t0 = meas_now_ns();
    rc = phase_replay(&ctx);
    double secs = (double)(meas_now_ns() - t0) / 1e9;
    if (rc < 0)
        error("trace replay: %s", res.note);
    else
        printf("replayed into %s/%s in %.3f s (the replay threads' CPU time %.3f s): %s\n",
               text_shown(dir), PHASE_TREE_DIR, secs, ctx.helper_user_s + ctx.helper_sys_s,
               text_shown(res.note));
out:
    free(ops);
    free(w);
    close(fd);
    return rc;
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
    static const struct cli_range range_threads = {1, REPLAY_THREADS_MAX, CLI_WHOLE, NULL, NULL};
    bool json = false, sparse = false, keep_setid = false;
    unsigned timing = REPLAY_AFAP, threads = 0;
    int part = PART_ALL;
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
            if (cli_option_number("--threads", optarg, &range_threads, &d) < 0)
                return EXIT_USAGE;
            threads = (unsigned)d;
            break;
        case 'P':
            if (!strcmp(optarg, "state") || !strcmp(optarg, "calls"))
                part = optarg[0] == 's' ? PART_STATE : PART_CALLS;
            else
                return error("trace: --part: '%s' is neither state nor calls", optarg),
                       EXIT_USAGE;
            break;
        case 'L':
            if (cli_parse_u64(optarg, &limit) < 0)
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
                                   : replay_into(t, argv[optind + 2], timing, threads, part,
                                                 limit, sparse, keep_setid);
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
