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
 * With --untraced-run the command runs once untraced before all that (DIR copied aside
 * first and put back after, record_snapshot.h; its standard streams on /dev/null), and the
 * think time in all is its CPU time there less an untraced replay's of the same calls:
 * under the tracer a program's CPU time grows with every stop, far more than a traced
 * replay's of the same calls shows. Not the default: CMD then runs twice, and whatever it
 * does outside DIR (a network, a log, another directory) happens twice.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/prog.h"
#include "base/sig.h"
#include "base/text.h"
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "run/record_mirror.h"
#include "run/record_snapshot.h"
#include "trace/strace_run.h"
#include "trace/trace_prescan.h"
#include "trace/trace_read.h"
#include "trace/trace_record.h"
#include "trace/trace_think.h"
#include "trace/trace_write.h"
#include "os/taskcpu.h"

/* Entries below DIR the scan takes at most (about 40 bytes each). */
#define PRESCAN_MAX ((uint64_t)50 * 1000 * 1000)
/* The priority record runs at, with strace and the command (where it may). */
#define RECORD_NICE (-10)
/* Calls of the trace replayed under strace to measure the tracer (the first ones). */
#define MIRROR_CALLS ((uint64_t)100000)
/* --untraced-run: each task of the untraced run as the kernel reported it at its exit
 * (every task of the machine that ended meanwhile; NULL with why when not known). */
struct plain_tasks {
    struct os_task_cpu *t;
    size_t n;
    int32_t self;
    char why[256];
};

/* Calls replayed untraced (--untraced-run) to measure the replay's own CPU time. */
#define PLAIN_CALLS ((uint64_t)2000000)

static void record_usage(FILE *out)
{
    fprintf(out,
            "usage: fsbench record -o FILE [--root DIR] [--untraced-run] -- CMD [ARGS...]\n"
            "  -o, --output FILE  the trace to write (replay it with fsbench run --replay FILE)\n"
            "  --root DIR         record the calls below DIR (default: the current directory);\n"
            "                     calls outside it are left out and counted\n"
            "  --untraced-run     run CMD once untraced first (DIR copied aside and put back\n"
            "                     after it): its think time from its own CPU time, which the\n"
            "                     tracer does not inflate; CMD then runs twice, so what it\n"
            "                     does outside DIR happens twice\n"
            "Runs CMD (all its processes and threads) under strace. Maps of files are\n"
            "recorded, not the pages touched through them (a replay reads each mapped range\n"
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

static void human(char *buf, size_t len, uint64_t b)
{
    if (b < 1024)
        snprintf(buf, len, "%llu bytes", (unsigned long long)b);
    else if (b < ((uint64_t)1 << 20))
        snprintf(buf, len, "%.1f KiB", (double)b / 1024);
    else if (b < ((uint64_t)1 << 30))
        snprintf(buf, len, "%.1f MiB", (double)b / (1 << 20));
    else
        snprintf(buf, len, "%.2f GiB", (double)b / (1 << 30));
}

/* The summary and the limits, on stderr (the command's own output is on stdout). */
static void summary(const char *out, const struct trace_info *in, uint64_t skipped,
                    uint64_t think_ns, const char *why, int plain)
{
    char a[32], b[32], c[32], d[32], e[32];
    inform("record: %s calls of %u thread%s in %.3f s below %s written to %s",
           trace_count_str(in->ncalls, a, sizeof a), in->nthreads, in->nthreads == 1 ? "" : "s",
           (double)in->duration_ns / 1e9, text_shown(in->root), text_shown(out));
    inform("record: left out: %s calls outside %s, %s on descriptors opened before the start, "
           "%s unreadable",
           trace_count_str(in->left_outside, b, sizeof b), text_shown(in->root),
           trace_count_str(in->left_prestart, c, sizeof c),
           trace_count_str(in->left_other, d, sizeof d));
    human(e, sizeof e, in->state_bytes);
    inform("record: initial state: %s entr%s (%s of files)%s",
           trace_count_str(in->nstate, a, sizeof a), in->nstate == 1 ? "y" : "ies", e,
           skipped ? " (entries on other file systems, devices and fifos not scanned)" : "");
    if (plain == 2)
        inform("record: the program's own time between calls: %.3f s (its CPU time run "
               "untraced, %.3f s in %.3f s, less that of an untraced replay of %s of its calls, "
               "%.3f s, for all of them; traced it used %.3f s)",
               (double)think_ns / 1e9, (double)in->plain_cpu_ns / 1e9,
               (double)in->plain_wall_ns / 1e9,
               trace_count_str(in->plain_replay_calls, a, sizeof a),
               (double)in->plain_replay_cpu_ns / 1e9, (double)in->cpu_ns / 1e9);
    else if (plain == 1)
        inform("record: the program's own time between calls: %.3f s (its CPU time run "
               "untraced, %.3f s in %.3f s: %s)",
               (double)think_ns / 1e9, (double)in->plain_cpu_ns / 1e9,
               (double)in->plain_wall_ns / 1e9, why[0] ? why : "no replay measured");
    else if (in->mirror_gap_ns && in->cpu_ns)
        inform("record: the program's own time between calls: %.3f s (its CPU time, %.3f s, "
               "less that of a traced replay of %s of its calls, %.3f s, for all of them; "
               "traced, the program's CPU time may be far above its own: --untraced-run "
               "measures it untraced)",
               (double)think_ns / 1e9, (double)in->cpu_ns / 1e9,
               trace_count_str(in->mirror_calls, a, sizeof a), (double)in->mirror_cpu_ns / 1e9);
    else if (in->cpu_ns)
        inform("record: the program's own time between calls: %.3f s (its CPU time in user "
               "mode: %s)",
               (double)think_ns / 1e9, why[0] ? why : "not measured by a replay");
    /* (--untraced-run is recommended in the traced estimate's line above) */
    else
        inform("record: the program's own time between calls: %.3f s (the gaps less the "
               "tracer's part of each, %.1f us)",
               (double)think_ns / 1e9, (double)in->tracer_gap_ns / 1e3);
    inform("record: limits: of I/O through memory maps only the maps are seen (%s map%s; a "
           "replay reads each mapped range once); calls on descriptors opened before the "
           "start are left out",
           trace_count_str(in->count[TK_MMAP], a, sizeof a), in->count[TK_MMAP] == 1 ? "" : "s");
}

/* --untraced-run: how the think time was given to the processes (or why it was not). */
static void summary_procs(const struct trace_info *in, const char *why)
{
    if (why) {
        inform("record: think time per process: not known (%s): one scale for all threads",
               why);
        return;
    }
    inform("record: think time per process (its CPU time run untraced less an untraced "
           "replay's for its calls; over its threads' gaps, the rest on its own thread "
           "over its life, beside the others):");
    for (uint32_t i = 0; i < in->nprocs; i++) {
        const struct trace_proc *p = &in->procs[i];
        if (i == 12 && in->nprocs > 13) {
            inform("record:   ... and %u more processes", in->nprocs - 12);
            break;
        }
        inform("record:   t%u %s: CPU %.3f s, think %.3f s (%.3f s beside the others)",
               p->leader, p->comm[0] ? text_shown(p->comm) : "?", (double)p->cpu_ns / 1e9,
               (double)p->think_ns / 1e9, (double)p->tail_ns / 1e9);
    }
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

/* The tracer's gap measured by replaying the trace at out under strace (record_mirror.h),
 * and the think-time model again with it, into info. 0, or -1 with why (the trace keeps
 * its calibration's model). */
static int measure_tracer(const char *out, const struct trace_recorder *rec,
                          struct trace_info *info, char *why, size_t len)
{
    struct record_mirror m;
    if (record_mirror(out, MIRROR_CALLS, &m, why, len) < 0)
        return -1;
    /* the replay's mean gap is the tracer's part of a gap at the replay's moment; it is
     * carried to the recording's moment by the quick calls' durations measured in both */
    double gap = (double)m.short_total_ns / (double)m.short_gaps, o = gap;
    uint64_t qn, qt;
    trace_rec_quick(rec, &qn, &qt);
    if (qn >= 100 && m.quick >= 100) {
        double here = (double)qt / (double)qn, there = (double)m.quick_total_ns / (double)m.quick;
        o = gap - there + here;
        info->quick_ns = (uint64_t)here;
        info->mirror_quick_ns = (uint64_t)there;
    }
    trace_rec_rethink(rec, o > 0 ? (uint64_t)o : 0, info);
    /* the think times add up to the program's CPU time less the traced replay's for the
     * same calls (the replay spends that again; the tracer's share is in both alike) */
    info->mirror_cpu_ns = m.user_ns + m.sys_ns;
    if (info->cpu_ns && m.calls) {
        double again = (double)(m.user_ns + m.sys_ns) * (double)info->ncalls / (double)m.calls;
        double left = (double)info->cpu_ns - again;
        trace_rec_think_cpu(rec, left > 0 ? (uint64_t)left : 0, info);
    }
    info->mirror_gap_ns = (uint64_t)gap;
    info->mirror_calls = m.calls;
    return 0;
}

/* --untraced-run: the think total from the untraced run's CPU time (info->plain_cpu_ns)
 * less an untraced replay's of the same calls (measured here, in a workspace beside root),
 * spread over the gaps by the model as before. 1 when an untraced replay was measured, 0
 * when not (the total is then the untraced CPU time in all, why says why). */
static int plain_think(const char *out, const char *root, const struct trace_recorder *rec,
                       struct trace_info *info, char *why, size_t len)
{
    uint64_t cpu = 0;
    double again = 0;
    int measured = record_mirror_plain(out, PLAIN_CALLS, root, &cpu, why, len) == 0;
    if (measured && info->ncalls) {
        info->plain_replay_cpu_ns = cpu;
        info->plain_replay_calls = info->ncalls < PLAIN_CALLS ? info->ncalls : PLAIN_CALLS;
        again = (double)cpu * (double)info->ncalls / (double)info->plain_replay_calls;
    }
    double left = (double)info->plain_cpu_ns - again;
    trace_rec_think_cpu(rec, left > 0 ? (uint64_t)left : 0, info);
    return measured;
}

/* --untraced-run: the think time per process (trace_think.h) from the untraced run's tasks,
 * in place of one scale for all. 0, or -1 with why (the one scale stays). */
static int per_process(const char *out, const struct trace_recorder *rec,
                       const struct plain_tasks *tasks, struct trace_info *info, char *why,
                       size_t len)
{
    if (!tasks->t) {
        snprintf(why, len, "%s", tasks->why);
        return -1;
    }
    uint32_t nth = info->nthreads;
    struct think_thread *th = calloc(nth ? nth : 1, sizeof *th);
    uint64_t *room = calloc(nth ? nth : 1, sizeof *room);
    uint64_t *span = calloc(nth ? nth : 1, sizeof *span);
    struct think_task *tk = calloc(tasks->n ? tasks->n : 1, sizeof *tk);
    struct trace_file *t = th && room && span && tk ? trace_open(out) : NULL;
    int rc = -1;
    if (!t) {
        snprintf(why, len, "the trace could not be read again");
    } else if (trace_think_rooms(t, info, room, span, why, len) == 0) {
        for (uint32_t i = 0; i < nth; i++) {
            trace_rec_proc(rec, i, &th[i].leader, &th[i].comm, &th[i].calls);
            th[i].room_ns = room[i];
            th[i].span_ns = span[i];
        }
        for (size_t i = 0; i < tasks->n; i++) {
            tk[i] = (struct think_task){.pid = tasks->t[i].pid, .tgid = tasks->t[i].tgid,
                                        .ppid = tasks->t[i].ppid, .cpu_ns = tasks->t[i].cpu_ns};
            memcpy(tk[i].comm, tasks->t[i].comm, sizeof tk[i].comm);
        }
        double again = info->plain_replay_calls
                           ? (double)info->plain_replay_cpu_ns * (double)info->ncalls /
                                 (double)info->plain_replay_calls
                           : 0;
        rc = trace_think_per_process(info, th, tk, tasks->n, tasks->self, info->plain_cpu_ns,
                                     (uint64_t)again, why, len);
    }
    if (t)
        trace_close(t);
    free(th);
    free(room);
    free(span);
    free(tk);
    return rc;
}

/* --untraced-run: CMD run once untraced, its standard streams on /dev/null, from the
 * directory record runs in: its CPU time (with the children it waited for) and wall time
 * into info, each of its processes' into tasks. Its exit status as the shell gives it, or
 * -1. */
static int run_plain(char *const argv[], struct trace_info *info, struct plain_tasks *tasks)
{
    struct timespec t0, t1;
    struct os_taskcpu *l = os_taskcpu_start(tasks->why, sizeof tasks->why);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct rusage ru;
    int st = prog_run_quiet(argv, 1, &ru);
    int e = errno;
    if (l)
        tasks->t = os_taskcpu_stop(l, &tasks->n, tasks->why, sizeof tasks->why);
    tasks->self = os_taskcpu_self();
    errno = e;
    if (st < 0)
        return error_errno("record: --untraced-run: running %s", text_shown(argv[0]));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    info->plain_wall_ns = (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL +
                                     (t1.tv_nsec - t0.tv_nsec));
    info->plain_cpu_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
                         (uint64_t)ru.ru_utime.tv_usec * 1000u +
                         (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
                         (uint64_t)ru.ru_stime.tv_usec * 1000u;
    return st;
}

/* --untraced-run: DIR copied aside, CMD run untraced, DIR put back. 0, or -1 after error(). */
static int untraced_run(const char *root, char *const argv[], struct trace_info *plain,
                        struct plain_tasks *tasks)
{
    struct record_snapshot snap;
    char why[512];
    if (record_snapshot_take(&snap, root, why, sizeof why) < 0)
        return error("record: --untraced-run: %s cannot be copied aside: %s", text_shown(root),
                     why);
    int st = run_plain(argv, plain, tasks);
    if (record_snapshot_restore(&snap, why, sizeof why) < 0)
        return error("record: --untraced-run: %s could not be put back as it was (%s); what it "
                     "held before is kept in %s", text_shown(root), why, text_shown(snap.path));
    if (st == 127)
        return error("record: --untraced-run: %s could not be run", text_shown(argv[0]));
    if (st > 128)
        return error("record: --untraced-run: %s was killed by signal %d when run untraced",
                     text_shown(argv[0]), st - 128);
    if (st > 0)
        inform("record: --untraced-run: %s exited with status %d when run untraced",
               text_shown(argv[0]), st);
    return st < 0 ? -1 : 0;
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
    char root[PATH_MAX], cwd[PATH_MAX];
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
    /* 1b. --untraced-run: the program once untraced, DIR put back after it */
    struct trace_info plain_info = {0};
    struct plain_tasks tasks = {0};
    if (plain && untraced_run(root, argv + optind, &plain_info, &tasks) < 0) {
        free(tasks.t);
        trace_prescan_free(pre);
        return EXIT_RUN_FAILED;
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
    char why[512] = "";
    bool again = rc == 0 && measure_tracer(out, rec, &info, why, sizeof why) == 0;
    int plain_measured = 0;
    char proc_why[512] = "";
    bool per_failed = false;
    if (rc == 0 && plain) {
        info.plain_cpu_ns = plain_info.plain_cpu_ns;
        info.plain_wall_ns = plain_info.plain_wall_ns;
        why[0] = '\0';
        plain_measured = plain_think(out, root, rec, &info, why, sizeof why);
        again = true;
        if (per_process(out, rec, &tasks, &info, proc_why, sizeof proc_why) < 0)
            per_failed = true;
    }
    free(tasks.t);
    if (again)
        rc = rewrite(out, &info, pre);
    uint64_t ngaps, total;
    trace_rec_gaps(rec, 0, &ngaps, &total);
    uint64_t off = info.tracer_gap_ns * ngaps;
    uint64_t think = plain || info.cpu_ns ? info.think_ns : total > off ? total - off : 0;
    trace_rec_free(rec);
    trace_prescan_free(pre);
    if (rc == 0) {
        summary(out, &info, skipped, think, why, plain ? 1 + plain_measured : 0);
        if (plain)
            summary_procs(&info, per_failed ? proc_why : NULL);
    }
    trace_info_free(&info);
    if (rc < 0)
        return EXIT_RUN_FAILED;
    if (status != 0)
        return error("record: %s exited with status %d; the trace of what it did is in %s",
                     text_shown(argv[optind]), status, text_shown(out)),
               EXIT_RUN_FAILED;
    return EXIT_OK;
}
