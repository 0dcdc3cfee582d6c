/* cmd_record.c — `fsbench record -o FILE [--root DIR] -- CMD [ARGS...]`: runs CMD, every
 * process and thread of it, under strace and writes fsbench's trace of every file-system
 * call below DIR (default: the current directory): the calls with thread, start, duration
 * and result, paths relative to DIR, and the initial state (what of DIR the program used
 * existed before it started). Calls outside DIR are left out and counted. The recording's
 * limits are said in its last lines, every time.
 *
 * Order: DIR is scanned first (before the command can change it), the tracer's own cost
 * is measured (cat of a few hundred small files, traced alike), then the command runs;
 * its lines stream through the recorder into the trace file, which is renamed into place
 * only when whole, after the tracer's cost is measured once more (the two averaged).
 *
 * With --untraced-run DIR is copied aside before the traced run and, once the trace is
 * written, put back for the untraced runs (the program 3-5 times, up to 9 on a busy
 * machine, each run followed by an untraced replay of the trace: run/record_untraced.h),
 * then left as the traced run left it. The think time in all is the program's CPU time
 * untraced less its replay's at the same moment (run/record_think.h): under the tracer a
 * program's CPU time grows with every stop. Not the default: CMD then runs more than once,
 * and whatever it does outside DIR (a network, a log, another directory) happens again.
 *
 * This file parses and orders the steps; the steps are in run/record_* and trace/, the
 * summary in report/report_record.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/prog.h"
#include "base/sig.h"
#include "base/text.h"
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "report/report_record.h"
#include "run/record_snapshot.h"
#include "run/record_think.h"
#include "run/record_untraced.h"
#include "trace/strace_run.h"
#include "trace/trace_prescan.h"
#include "trace/trace_read.h"
#include "trace/trace_record.h"
#include "trace/trace_write.h"

/* Entries below DIR the scan takes at most (about 40 bytes each). */
#define PRESCAN_MAX ((uint64_t)50 * 1000 * 1000)
/* The priority record runs at, with strace and the command (where it may). */
#define RECORD_NICE (-10)
static void record_usage(FILE *out)
{
    fprintf(out,
            "usage: fsbench record -o FILE [--root DIR] [--untraced-run] -- CMD [ARGS...]\n"
            "  -o, --output FILE  the trace to write (replay it with fsbench run --replay FILE)\n"
            "  --root DIR         record the calls below DIR (default: the current directory);\n"
            "                     calls outside it are left out and counted\n"
            "  --untraced-run     run CMD untraced too (DIR put back as it was before each\n"
            "                     run and as the traced run left it after them; CMD 3 times,\n"
            "                     a short one up to 5, up to 9 beside other programs' load,\n"
            "                     each run followed by an untraced replay): its think time\n"
            "                     from its own CPU time, which the tracer does not inflate,\n"
            "                     less the replay's at the same moment; CMD then runs more\n"
            "                     than once, so what it does outside DIR happens again\n"
            "Runs CMD (all its processes and threads) under strace. Maps of files are\n"
            "recorded, not the pages touched through them (a replay faults in each mapped range\n"
            "once); calls on descriptors opened before CMD started are left out.\n");
}

static int emit(void *arg, const struct trace_call *c)
{
    return trace_writer_call(arg, c);
}

static int put_entry(void *arg, const struct trace_entry *e)
{
    return trace_writer_entry(arg, e);
}

/* argv as one shell-quoted line. */
static char *quoted(char *const argv[])
{
    size_t cap = 1;
    for (size_t i = 0; argv[i]; i++)
        cap += strlen(argv[i]) * 4 + 3;
    char *s = malloc(cap), *o = s;
    if (!s)
        return NULL;
    for (size_t i = 0; argv[i]; i++) {
        const char *a = argv[i];
        bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789-_./=:,+@%") == strlen(a);
        if (i)
            *o++ = ' ';
        if (plain) {
            o += sprintf(o, "%s", a);
            continue;
        }
        *o++ = '\'';
        for (; *a; a++) {
            if (*a == '\'')
                o += sprintf(o, "'\\''");
            else
                *o++ = *a;
        }
        *o++ = '\'';
    }
    *o = '\0';
    return s;
}

/* Writes the info block and the initial state after the calls and renames the trace into
 * place (rc < 0: discards it). 0 or -1. */
static int finish(struct trace_writer *w, const struct trace_info *info,
                  struct trace_prescan *pre, int rc)
{
    if (rc == 0)
        rc = trace_writer_info(w, info);
    if (rc == 0)
        rc = trace_prescan_used(pre, put_entry, w, NULL, NULL);
    if (rc == 0)
        return trace_writer_commit(w);
    trace_writer_discard(w);
    return -1;
}

/* The trace at out again with info's think-time model: its calls section copied as it is,
 * the info block and the initial state written anew. 0 or -1 (the first trace stays). */
static int rewrite(const char *out, const struct trace_info *info, struct trace_prescan *pre)
{
    struct trace_file *t = trace_open(out);
    if (!t)
        return -1;
    uint64_t off, len;
    trace_file_calls_section(t, &off, &len);
    struct trace_writer *w = trace_writer_open_copy(out, trace_file_fd(t), off, len);
    int rc = w ? finish(w, info, pre, 0) : -1;
    trace_close(t);
    return rc;
}

/* The signal that stopped record's untraced runs (base/sig.h), or 0. */
static volatile atomic_int record_stop;

/* --untraced-run, once the trace is written: what the traced run left in root copied
 * aside, root put back as it was before (the copy *before), the program run untraced,
 * each run paired with an untraced replay of the trace at out (record_untraced.h), and
 * root left as the traced run left it. 0, or -1 after error() (a copy that could not be
 * put back is kept and named). */
static int untraced_runs(const char *root, char *const argv[], struct record_snapshot *before,
                         const char *out, uint64_t ncalls, struct record_untraced *u)
{
    char why[512];
    struct record_snapshot after;
    if (record_snapshot_take(&after, root, why, sizeof why) < 0) {
        record_snapshot_drop(before);
        return error("record: --untraced-run: what the traced run left in %s cannot be "
                     "copied aside: %s", text_shown(root), why);
    }
    if (record_snapshot_restore(before, why, sizeof why) < 0) {
        error("record: --untraced-run: %s could not be put back as it was before the program "
              "(%s); what it held then is kept in %s, what the traced run left in %s",
              text_shown(root), why, text_shown(before->path), text_shown(after.path));
        return -1;
    }
    struct record_think_pair tp = {.out = out, .root = root, .ncalls = ncalls};
    struct record_untraced_pair pair = {.replay = record_think_pair_replay, .arg = &tp};
    /* from here a signal ends the runs and leaves root as the traced run left it */
    int rc = sig_install(&record_stop);
    if (rc == 0)
        rc = record_untraced_run(root, argv, u, &pair);
    if (record_snapshot_restore(&after, why, sizeof why) < 0)
        return error("record: --untraced-run: %s could not be put back as the traced run left "
                     "it (%s); that is kept in %s", text_shown(root), why,
                     text_shown(after.path));
    int sig = sig_stop_requested();
    if (rc == 0 && sig)
        return error("record: --untraced-run: stopped by signal %d after %u untraced run%s; %s "
                     "is as the traced run left it, and the trace at %s keeps the tracer's "
                     "estimate of the think time", sig, u->runs, u->runs == 1 ? "" : "s",
                     text_shown(root), text_shown(out));
    return rc;
}

/* record's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_record = {
    "record", "+:ho:",
    (const struct option[]){
        {"output", required_argument, NULL, 'o'},
        {"root", required_argument, NULL, 'r'},
        {"untraced-run", no_argument, NULL, 'U'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_record(int argc, char **argv)
{
    const char *out = NULL, *root_arg = ".";
    bool plain = false;
    int c;
    optind = 1;
    opterr = 0;
    /* '+': stop at the command, whose options are its own */
    while ((c = getopt_long(argc, argv, cli_opts_record.shortopts, cli_opts_record.longopts,
                            NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'r': root_arg = optarg; break;
        case 'U': plain = true; break;
        case 'h': record_usage(stdout); return EXIT_OK;
        default: return cli_bad_option("record", c, argv);
        }
    }
    if (!out)
        return error("record: no output file (-o FILE)"), EXIT_USAGE;
    if (optind >= argc)
        return error("record: no command to record (fsbench record -o FILE -- CMD ...)"),
               EXIT_USAGE;
    char root[PATH_MAX], cwd[PATH_MAX], nowhy[128];
    /* a command that cannot be run: said here, before a trace of nothing is written */
    if (prog_runnable(argv[optind], nowhy, sizeof nowhy) < 0)
        return error("record: %s cannot be run: %s", text_shown(argv[optind]), nowhy),
               EXIT_USAGE;
    if (!realpath(root_arg, root))
        return error_errno("record: --root %s", text_shown(root_arg)), EXIT_USAGE;
    if (!getcwd(cwd, sizeof cwd))
        return error_errno("record: the current directory"), EXIT_RUN_FAILED;
    int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (rootfd < 0)
        return error_errno("record: --root %s", text_shown(root)), EXIT_USAGE;
    /* 1. what DIR holds, before the command can change it */
    uint64_t skipped = 0;
    struct trace_prescan *pre = trace_prescan_dir(rootfd, PRESCAN_MAX, &skipped);
    close(rootfd);
    if (!pre)
        return EXIT_RUN_FAILED;
    /* the command, strace and the replay that measures strace at a raised priority where
     * fsbench may: other programs' turns on the processors stay out of the gaps */
    if (setpriority(PRIO_PROCESS, 0, RECORD_NICE) < 0)
        errno = 0; /* not allowed: the gaps then carry more of the machine's load */
    /* 1b. --untraced-run: DIR as it is, for the untraced runs after the traced one */
    struct record_untraced unt = {0};
    struct record_snapshot before = {.rootfd = -1};
    char why[512] = "";
    if (plain && record_snapshot_take(&before, root, why, sizeof why) < 0) {
        trace_prescan_free(pre);
        return error("record: --untraced-run: %s cannot be copied aside: %s", text_shown(root),
                     why),
               EXIT_RUN_FAILED;
    }
    char version[256];
    strace_run_version(version, sizeof version);
    /* 2. the command */
    struct trace_writer *w = trace_writer_open(out);
    struct trace_rec_opts ro = {.root = root, .cwd = cwd, .pre = pre, .emit = emit, .arg = w};
    struct trace_recorder *rec = w ? trace_rec_new(&ro) : NULL;
    struct strace_run sr;
    if (!rec || strace_run_start(&sr, argv + optind) < 0) {
        trace_rec_free(rec);
        trace_writer_discard(w);
        trace_prescan_free(pre);
        record_snapshot_drop(&before);
        return EXIT_RUN_FAILED;
    }
    int rc = strace_run_pump(&sr, rec);
    if (rc < 0 && sr.pid > 0)
        kill(sr.pid, SIGTERM); /* stop tracing: nothing more is read */
    int status = strace_run_wait(&sr);
    struct trace_info info = {0};
    if (rc == 0 && status >= 0 && status <= 128) {
        /* 3. what tracing costs here, for the think times: a calibration first (the
         * fallback), then a replay of the trace traced the same way (below) */
        uint64_t gap, p10, dur;
        if (strace_run_calibrate(&gap, &p10, &dur) == 0)
            trace_rec_set_calibration(rec, gap, p10, dur);
        rc = trace_rec_finish(rec, &info);
        /* until the traced replay below says better: its CPU time in user mode */
        info.cpu_ns = sr.user_ns + sr.sys_ns;
        if (info.cpu_ns)
            trace_rec_think_cpu(rec, sr.user_ns, &info);
    }
    if (rc < 0 || status < 0 || status > 128) {
        if (rc == 0 && status > 128)
            error("record: %s was killed by signal %d; no trace written",
                  text_shown(argv[optind]), status - 128);
        trace_rec_free(rec);
        trace_writer_discard(w);
        trace_prescan_free(pre);
        record_snapshot_drop(&before);
        return EXIT_RUN_FAILED;
    }
    info.command = quoted(argv + optind);
    info.root = strdup(root);
    info.tracer = strdup(version);
    trace_prescan_used(pre, NULL, NULL, &info.nstate, &info.state_bytes);
    if (!info.command || !info.root || !info.tracer) {
        error("out of memory");
        rc = -1;
    }
    rc = finish(w, &info, pre, rc);
    bool again = rc == 0 && record_think_tracer(out, rec, &info, why, sizeof why) == 0;
    int plain_measured = 0, per_failed = 0;
    bool unrun = false;
    char proc_why[512] = "";
    if (rc == 0 && plain) {
        /* when these fail the trace keeps the tracer's estimate, and record fails */
        if (untraced_runs(root, argv + optind, &before, out, info.ncalls, &unt) < 0) {
            unrun = true;
            plain = false;
        } else {
            why[0] = '\0';
            plain_measured = record_think_untraced(out, root, rec, &unt, &info, why,
                                                   sizeof why, &per_failed, proc_why,
                                                   sizeof proc_why);
            again = true;
        }
    } else {
        record_snapshot_drop(&before);
    }
    record_untraced_free(&unt);
    if (again)
        rc = rewrite(out, &info, pre);
    uint64_t ngaps, total;
    trace_rec_gaps(rec, 0, &ngaps, &total);
    uint64_t off = info.tracer_gap_ns * ngaps;
    uint64_t think = plain || info.cpu_ns ? info.think_ns : total > off ? total - off : 0;
    trace_rec_free(rec);
    trace_prescan_free(pre);
    if (rc == 0) {
        report_record_summary(out, &info, skipped, think, why,
                              !plain ? 0 : !plain_measured ? 1 : unt.pairs ? 3 : 2);
        if (plain) {
            report_record_procs(&info, per_failed ? proc_why : NULL);
            report_record_busy(&unt);
        }
    }
    trace_info_free(&info);
    if (rc < 0 || unrun)
        return EXIT_RUN_FAILED;
    if (status != 0)
        return error("record: %s exited with status %d; the trace of what it did is in %s",
                     text_shown(argv[optind]), status, text_shown(out)),
               EXIT_RUN_FAILED;
    return EXIT_OK;
}
