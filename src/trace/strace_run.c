/* strace_run.c — strace as `fsbench record` runs it (strace_run.h): a private FIFO, the
 * command under strace, the lines read with poll() so that a strace that never starts is
 * noticed, and a calibration of the tracer's own cost.
 */
#include "trace/strace_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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
#include "base/sig.h"
#include "os/pipe.h"
#include "trace/strace_parse.h"
#include "trace/trace_record.h"

/* Every call a trace may hold, and those the recorder follows processes and descriptors
 * by. '?': strace skips a name this architecture does not have. */
#define TRACED                                                                                 \
    "trace=?open,?openat,?openat2,?creat,?close,?close_range,?read,?readv,?pread64,?preadv,"   \
    "?preadv2,?write,?writev,?pwrite64,?pwritev,?pwritev2,?lseek,?getdents,?getdents64,"       \
    "?fsync,?fdatasync,?sync_file_range,?fallocate,?ftruncate,?truncate,?dup,?dup2,?dup3,"     \
    "?fcntl,?fcntl64,?fstat,?newfstatat,?fstatat64,?stat,?lstat,?statx,?access,?faccessat,"    \
    "?faccessat2,?statfs,?fstatfs,?mkdir,?mkdirat,?rmdir,?unlink,?unlinkat,?rename,?renameat," \
    "?renameat2,?link,?linkat,?symlink,?symlinkat,?readlink,?readlinkat,?chmod,?fchmod,"       \
    "?fchmodat,?chown,?fchown,?lchown,?fchownat,?utime,?utimes,?futimesat,?utimensat,?sync,"  \
    "?syncfs,?copy_file_range,?sendfile,?chdir,?fchdir,?clone,?clone3,?fork,?vfork,?execve,"   \
    "?execveat,?mmap,?socketpair,?wait4,?waitid,?waitpid,?select,?_newselect,?pselect6,?poll," \
    "?ppoll,?epoll_wait,?epoll_pwait,?epoll_pwait2,?nanosleep,?clock_nanosleep,?pause"

const char *const strace_run_options[] = {
    "-D", "-f", "-q", "--seccomp-bpf", "--absolute-timestamps=format:unix,precision:ns",
    "--syscall-times=ns", "-y", "-xx", "-s", "0", "-e", "signal=none",
    /* socketpair's two descriptors in full (-s 0 would show "[...]"): which socket's
     * bytes another reads */
    "-e", "abbrev=!socketpair", NULL,
};

#define MAX_ARGS 4096
/* The FIFO's buffer where it can be grown (about a second of strace's lines), and the wait
 * between two reads that found it nearly empty. */
#define FIFO_BYTES (4ul << 20)
#define BATCH_WAIT_NS 5000000L

static struct strace_run *running; /* for SIGTERM */

static void pass_term(int sig)
{
    if (running && running->pid > 0)
        kill(running->pid, sig);
}

/* argv for strace: its options, the call filter, -o out, --, the command. */
static int build_argv(const char **v, size_t max, const char *filter, const char *out,
                      char *const cmd[])
{
    size_t n = 0;
    v[n++] = "strace";
    for (size_t i = 0; strace_run_options[i]; i++)
        v[n++] = strace_run_options[i];
    v[n++] = "-e";
    v[n++] = filter;
    v[n++] = "-o";
    v[n++] = out;
    v[n++] = "--";
    for (size_t i = 0; cmd[i]; i++) {
        if (n + 1 >= max)
            return -1;
        v[n++] = cmd[i];
    }
    v[n] = NULL;
    return 0;
}

/* Forks and execs v (execvp); the child's stdio is ours, or /dev/null when quiet. */
static pid_t spawn(const char *const *v, int quiet)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sig_child_reset(); /* SIGPIPE's default again, nothing blocked */
    if (quiet) {
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) {
            dup2(nul, 0);
            dup2(nul, 1);
            dup2(nul, 2);
        }
    }
    execvp(v[0], (char *const *)v);
    _exit(127);
}

static int private_dir(char *dir, size_t len)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, len, "%s/fsbench-record.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir))
        return error_errno("record: cannot make a directory in %s", t && *t ? t : "/tmp");
    return 0;
}

/* strace_run_start with the call filter given; quiet: the command's output to /dev/null. */
static int start(struct strace_run *s, char *const argv[], const char *filter, int quiet)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    s->pid = -1;
    if (private_dir(s->dir, sizeof s->dir) < 0)
        return -1;
    snprintf(s->fifo, sizeof s->fifo, "%s/strace", s->dir);
    if (mkfifo(s->fifo, 0600) < 0) {
        error_errno("record: cannot make a FIFO in %s", s->dir);
        rmdir(s->dir);
        return -1;
    }
    /* opened first without blocking: strace's open for writing then succeeds at once */
    s->fd = open(s->fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    s->grown = s->fd >= 0 && os_pipe_grow(s->fd, FIFO_BYTES) == 0;
    const char *v[MAX_ARGS];
    if (s->fd < 0 || build_argv(v, MAX_ARGS, filter, s->fifo, argv) < 0) {
        int e = errno;
        if (s->fd >= 0)
            close(s->fd);
        unlink(s->fifo);
        rmdir(s->dir);
        return s->fd < 0 ? error_num(e, "record: cannot open %s", s->fifo)
                         : error("record: the command has too many arguments");
    }
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    running = s;
    struct sigaction sa = {.sa_handler = pass_term};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    s->pid = spawn(v, quiet);
    if (s->pid < 0) {
        error_errno("record: cannot start strace");
        strace_run_wait(s);
        return -1;
    }
    return 0;
}

int strace_run_start(struct strace_run *s, char *const argv[])
{
    return start(s, argv, TRACED, 0);
}

int strace_run_start_quiet(struct strace_run *s, char *const argv[])
{
    return start(s, argv, TRACED, 1);
}

long strace_run_read(struct strace_run *s, char *buf, size_t len)
{
    if (s->batch) {
        /* the last read found little: let strace's lines gather for a while, so that the
         * reader wakes once per batch and not once per line, taking less of the
         * processors from the command and strace (the FIFO holds far more) */
        struct timespec ts = {0, BATCH_WAIT_NS};
        nanosleep(&ts, NULL);
        s->batch = 0;
    }
    for (;;) {
        struct pollfd p = {.fd = s->fd, .events = POLLIN};
        int n = poll(&p, 1, 200);
        if (n < 0 && errno != EINTR)
            return error_errno("record: reading strace's output");
        if (n > 0 && (p.revents & (POLLIN | POLLHUP))) {
            ssize_t k = read(s->fd, buf, len);
            if (k > 0) {
                s->connected = 1;
                s->batch = s->grown && (size_t)k < len / 2;
                return (long)k;
            }
            if (k == 0 && (s->connected || (p.revents & POLLHUP)))
                return 0;
            if (k < 0 && errno != EAGAIN && errno != EINTR)
                return error_errno("record: reading strace's output");
            if (!(p.revents & POLLIN) && !s->connected) {
                s->connected = 1; /* POLLHUP: it came and went */
                continue;
            }
        }
        if (!s->connected) {
            /* strace that never opened the FIFO: it could not start */
            int st;
            pid_t w = waitpid(s->pid, &st, WNOHANG);
            if (w == s->pid) {
                s->pid = -1;
                if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
                    return error("record needs strace (Debian package strace): it cannot be "
                                 "run here");
                return error("record: strace ended before it started the command (exit "
                             "status %d)", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
            }
        }
    }
}

int strace_run_wait(struct strace_run *s)
{
    int status = 0, rc = 0;
    if (s->pid > 0) {
        /* strace runs with -D: the process started is the command itself (strace traces
         * it from a grandchild), so its exit status and CPU times are the command's own,
         * with those of the children it waited for */
        struct rusage ru;
        while (wait4(s->pid, &status, 0, &ru) < 0)
            if (errno != EINTR) {
                rc = error_errno("record: waiting for strace");
                break;
            }
        if (rc == 0) {
            rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            s->user_ns =
                (uint64_t)ru.ru_utime.tv_sec * 1000000000u + (uint64_t)ru.ru_utime.tv_usec * 1000u;
            s->sys_ns =
                (uint64_t)ru.ru_stime.tv_sec * 1000000000u + (uint64_t)ru.ru_stime.tv_usec * 1000u;
        }
    }
    s->pid = -1;
    running = NULL;
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    if (s->fifo[0])
        unlink(s->fifo);
    if (s->dir[0])
        rmdir(s->dir);
    return rc;
}

void strace_run_version(char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *p = popen("strace -V 2>/dev/null", "r");
    if (!p)
        return;
    if (fgets(buf, (int)len, p))
        buf[strcspn(buf, "\n")] = '\0';
    else
        buf[0] = '\0';
    pclose(p);
}

/* The longest strace line kept (longer ones are counted as unreadable). */
#define LINE_MAX_LEN ((size_t)1 << 20)

int strace_run_pump(struct strace_run *sr, struct trace_recorder *rec)
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

/* ---- calibration ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int wait_quiet(pid_t pid)
{
    int st;
    if (pid < 0)
        return -1;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int no_emit(void *arg, const struct trace_call *c)
{
    (void)arg, (void)c;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

#define CAL_FILES 500
#define CAL_LINES 8000

/* Makes CAL_FILES one-byte files in dir and argv "cat" and their paths (into names, which
 * holds them). 0 or -1. */
static int cal_files(const char *dir, char **argv, char *names, size_t len)
{
    size_t at = 0;
    argv[0] = "cat";
    for (int i = 0; i < CAL_FILES; i++) {
        char *p = names + at;
        int n = snprintf(p, len - at, "%s/f%03d", dir, i);
        if (n < 0 || (size_t)n >= len - at)
            return -1;
        int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0 || write(fd, "x", 1) != 1 || close(fd) < 0)
            return -1;
        argv[i + 1] = p;
        at += (size_t)n + 1;
    }
    argv[CAL_FILES + 1] = NULL;
    return 0;
}

static void cal_clean(const char *dir)
{
    char p[4200];
    for (int i = 0; i < CAL_FILES; i++) {
        snprintf(p, sizeof p, "%s/f%03d", dir, i);
        unlink(p);
    }
    rmdir(dir);
}

int strace_run_calibrate(uint64_t *gap_ns, uint64_t *p10_ns, uint64_t *dur_ns)
{
    *gap_ns = *p10_ns = *dur_ns = 0;
    /* cat of many small files: open, fstat, read, write, close back to back, the calls of
     * most file-system programs; traced the way a recording is (the same options, through
     * the FIFO, each line parsed and followed by a recorder), so that what is measured
     * includes the reader's share of the machine */
    char dir[4096], *names = malloc((size_t)CAL_FILES * 4200);
    char **argv = malloc((CAL_FILES + 2) * sizeof *argv);
    uint64_t *gaps = malloc(CAL_LINES * sizeof *gaps), *durs = malloc(CAL_LINES * sizeof *durs);
    struct trace_rec_opts ro = {.root = "/nonexistent/fsbench-calibration", .cwd = "/",
                                .emit = no_emit};
    struct trace_recorder *rec = trace_rec_new(&ro);
    struct strace_run sr;
    int rc = -1, made = 0;
    err_set_quiet(1);
    if (!names || !argv || !gaps || !durs || !rec || private_dir(dir, sizeof dir) < 0)
        goto done;
    made = 1;
    if (cal_files(dir, argv, names, (size_t)CAL_FILES * 4200) < 0 ||
        start(&sr, argv, TRACED, 1) < 0)
        goto done;
    size_t ng = 0, nd = 0, seen = 0, len = 0;
    uint64_t prev_end = 0;
    char chunk[65536], line[4096];
    long n;
    while ((n = strace_run_read(&sr, chunk, sizeof chunk)) > 0) {
        for (long i = 0; i < n; i++) {
            if (chunk[i] != '\n') {
                if (len < sizeof line)
                    line[len++] = chunk[i];
                continue;
            }
            struct strace_line l;
            strace_parse_line(line, len, &l);
            trace_rec_line(rec, line, len);
            len = 0;
            if (l.kind != SL_CALL || !l.dur_ns)
                continue;
            /* past cat's start-up (the dynamic loader's calls) */
            if (++seen > 50) {
                if (prev_end && l.ts_ns > prev_end && ng < CAL_LINES)
                    gaps[ng++] = l.ts_ns - prev_end;
                if (nd < CAL_LINES)
                    durs[nd++] = l.dur_ns;
            }
            prev_end = l.ts_ns + l.dur_ns;
        }
    }
    if (strace_run_wait(&sr) != 0 || n < 0 || ng < 100 || nd < 100)
        goto done;
    /* the same without strace, for the calls' own time */
    double t0 = now_s();
    if (wait_quiet(spawn((const char *const *)argv, 1)) < 0)
        goto done;
    double plain_ns = (now_s() - t0) * 1e9 / (double)(seen + 50);
    /* means, not medians: what is taken off is a sum over many calls; the slowest 1 %
     * (a preemption of the tracer) are left out */
    qsort(gaps, ng, sizeof *gaps, cmp_u64);
    qsort(durs, nd, sizeof *durs, cmp_u64);
    double g = 0, d = 0;
    for (size_t i = 0; i < ng - ng / 100; i++)
        g += (double)gaps[i];
    for (size_t i = 0; i < nd - nd / 100; i++)
        d += (double)durs[i];
    g /= (double)(ng - ng / 100);
    d /= (double)(nd - nd / 100);
    *gap_ns = (uint64_t)g;
    *p10_ns = gaps[ng / 10];
    *dur_ns = d > plain_ns ? (uint64_t)(d - plain_ns) : 0;
    rc = 0;
done:
    err_set_quiet(0);
    if (made)
        cal_clean(dir);
    trace_rec_free(rec);
    free(names);
    free(argv);
    free(gaps);
    free(durs);
    return rc;
}
