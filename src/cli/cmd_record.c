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
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/text.h"
#include "cli/cli.h"
#include "trace/strace_run.h"
#include "trace/trace_prescan.h"
#include "trace/trace_record.h"
#include "trace/trace_write.h"

/* Entries below DIR the scan takes at most (about 40 bytes each). */
#define PRESCAN_MAX ((uint64_t)50 * 1000 * 1000)
/* The longest strace line kept (longer ones are counted as unreadable). */
#define LINE_MAX_LEN ((size_t)1 << 20)

static void record_usage(FILE *out)
{
    fprintf(out,
            "usage: fsbench record -o FILE [--root DIR] -- CMD [ARGS...]\n"
            "  -o, --output FILE  the trace to write (replay it with fsbench run --replay FILE)\n"
            "  --root DIR         record the calls below DIR (default: the current directory);\n"
            "                     calls outside it are left out and counted\n"
            "Runs CMD (all its processes and threads) under strace. Not seen: I/O through\n"
            "memory maps; calls on descriptors opened before CMD started are left out.\n");
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

/* Reads strace's lines into the recorder until the end. 0 or -1. */
static int pump(struct strace_run *sr, struct trace_recorder *rec)
{
    size_t cap = 65536, len = 0;
    char *line = malloc(cap), chunk[65536];
    bool skipping = false;
    if (!line)
        return error("out of memory");
    int rc = 0;
    for (;;) {
        long n = strace_run_read(sr, chunk, sizeof chunk);
        if (n < 0) {
            rc = -1;
            break;
        }
        if (n == 0)
            break;
        for (long i = 0; i < n && rc == 0;) {
            char *nl = memchr(chunk + i, '\n', (size_t)(n - i));
            size_t k = nl ? (size_t)(nl - (chunk + i)) : (size_t)(n - i);
            if (!skipping && len + k + 1 > cap) {
                size_t ncap = cap;
                while (ncap < len + k + 1)
                    ncap *= 2;
                char *b = ncap <= LINE_MAX_LEN ? realloc(line, ncap) : NULL;
                if (b) {
                    line = b;
                    cap = ncap;
                } else {
                    skipping = true; /* too long: counted as unreadable below */
                }
            }
            if (!skipping) {
                memcpy(line + len, chunk + i, k);
                len += k;
            }
            i += (long)k;
            if (nl) {
                i++;
                rc = trace_rec_line(rec, skipping ? "?" : line, skipping ? 1 : len);
                len = 0;
                skipping = false;
            }
        }
        if (rc)
            break;
    }
    if (rc == 0 && len)
        rc = trace_rec_line(rec, line, len);
    free(line);
    return rc;
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
static void summary(const char *out, const struct trace_info *in, uint64_t skipped)
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
    inform("record: limits: I/O through memory maps is not seen; calls on descriptors opened "
           "before the start are left out");
}

int cmd_record(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"root", required_argument, NULL, 'r'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL, *root_arg = ".";
    int c;
    optind = 1;
    opterr = 0;
    /* '+': stop at the command, whose options are its own */
    while ((c = getopt_long(argc, argv, "+:ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'r': root_arg = optarg; break;
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
    /* 2. what tracing costs here */
    uint64_t gap = 0, p10 = 0, dur = 0;
    strace_run_calibrate(&gap, &p10, &dur);
    char version[256];
    strace_run_version(version, sizeof version);
    /* 3. the command */
    struct trace_writer *w = trace_writer_open(out);
    struct trace_rec_opts ro = {.root = root, .cwd = cwd, .pre = pre, .emit = emit, .arg = w,
                                .calib_gap_ns = gap, .calib_p10_ns = p10, .calib_dur_ns = dur};
    struct trace_recorder *rec = w ? trace_rec_new(&ro) : NULL;
    struct strace_run sr;
    if (!rec || strace_run_start(&sr, argv + optind) < 0) {
        trace_rec_free(rec);
        trace_writer_discard(w);
        trace_prescan_free(pre);
        return EXIT_RUN_FAILED;
    }
    int rc = pump(&sr, rec);
    if (rc < 0 && sr.pid > 0)
        kill(sr.pid, SIGTERM); /* stop tracing: nothing more is read */
    int status = strace_run_wait(&sr);
    struct trace_info info = {0};
    if (rc == 0 && status >= 0 && status <= 128) {
        /* what tracing costs, once more: the average of before and after the command */
        uint64_t g2, p2, d2;
        if (strace_run_calibrate(&g2, &p2, &d2) == 0) {
            if (gap && p10)
                g2 = (gap + g2) / 2, p2 = (p10 + p2) / 2, d2 = (dur + d2) / 2;
            trace_rec_set_calibration(rec, g2, p2, d2);
        }
        rc = trace_rec_finish(rec, &info);
    }
    trace_rec_free(rec);
    if (rc < 0 || status < 0 || status > 128) {
        if (rc == 0 && status > 128)
            error("record: %s was killed by signal %d; no trace written",
                  text_shown(argv[optind]), status - 128);
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
    if (rc == 0)
        rc = trace_writer_info(w, &info);
    if (rc == 0)
        rc = trace_prescan_used(pre, put_entry, w, NULL, NULL);
    if (rc == 0)
        rc = trace_writer_commit(w);
    else
        trace_writer_discard(w);
    trace_prescan_free(pre);
    if (rc == 0)
        summary(out, &info, skipped);
    trace_info_free(&info);
    if (rc < 0)
        return EXIT_RUN_FAILED;
    if (status != 0)
        return error("record: %s exited with status %d; the trace of what it did is in %s",
                     text_shown(argv[optind]), status, text_shown(out)),
               EXIT_RUN_FAILED;
    return EXIT_OK;
}
