/* prog.c — finding and running a system tool with its output captured (prog.h). */
#include "base/prog.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/sig.h"

/* An executable regular file at path: 0, or -1 with why. */
static int executable(const char *path, char *why, size_t len)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        snprintf(why, len, "%s", strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0) {
        snprintf(why, len, "not an executable file");
        return -1;
    }
    return 0;
}

int prog_find(const char *prog, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "%s:/usr/sbin:/sbin", path ? path : "/usr/bin:/bin");
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        if ((size_t)snprintf(out, len, "%s/%s", d, prog) >= len)
            continue;
        char why[128];
        if (executable(out, why, sizeof why) == 0)
            return 0;
    }
    return -1;
}

int prog_runnable(const char *prog, char *why, size_t len)
{
    if (strchr(prog, '/'))
        return executable(prog, why, len);
    /* execvp's search: $PATH, or its default where unset; an empty entry is "." */
    const char *path = getenv("PATH");
    char dirs[4096], at[4096], w[128];
    snprintf(dirs, sizeof dirs, "%s", path ? path : "/bin:/usr/bin");
    for (char *d = dirs, *next; d; d = next) {
        next = strchr(d, ':');
        if (next)
            *next++ = '\0';
        if ((size_t)snprintf(at, sizeof at, "%s/%s", *d ? d : ".", prog) < sizeof at &&
            executable(at, w, sizeof w) == 0)
            return 0;
    }
    snprintf(why, len, "not found in $PATH");
    return -1;
}

/* A pipe whose both ends are closed on exec. */
static int prog_pipe(int fds[2])
{
    if (pipe(fds) < 0)
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

/* The last non-empty line of a stream read in pieces: cur is the line being read. */
struct prog_lines {
    char cur[256], last[256];
    size_t at;
};

static void prog_lines_feed(struct prog_lines *l, const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            if (l->at)
                memcpy(l->last, l->cur, l->at + 1);
            l->at = 0;
        } else if (l->at + 1 < sizeof l->cur) {
            l->cur[l->at++] = buf[i];
            l->cur[l->at] = 0;
        }
    }
}

int prog_capture(const char *path, char *const argv[], size_t max, char **out, char *why,
                 size_t len)
{
    *out = NULL;
    why[0] = 0;
    char *buf = malloc(max + 1);
    if (!buf) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    int o[2], e[2], x[2]; /* its stdout, its stderr, its exec errno */
    if (prog_pipe(o) < 0) {
        free(buf);
        return snprintf(why, len, "pipe: %s", strerror(errno)), -1;
    }
    if (prog_pipe(e) < 0) {
        int err = errno;
        close(o[0]), close(o[1]), free(buf);
        return snprintf(why, len, "pipe: %s", strerror(err)), -1;
    }
    if (prog_pipe(x) < 0) {
        int err = errno;
        close(o[0]), close(o[1]), close(e[0]), close(e[1]), free(buf);
        return snprintf(why, len, "pipe: %s", strerror(err)), -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(o[0]), close(o[1]), close(e[0]), close(e[1]), close(x[0]), close(x[1]);
        free(buf);
        return snprintf(why, len, "fork: %s", strerror(err)), -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null >= 0)
            dup2(null, 0);
        dup2(o[1], 1);
        dup2(e[1], 2);
        sig_child_reset();
        if (chdir("/") == 0)
            execv(path, argv);
        int err = errno;
        ssize_t w = write(x[1], &err, sizeof err);
        (void)w;
        _exit(127);
    }
    close(o[1]), close(e[1]), close(x[1]);
    size_t n = 0;
    char tmp[4096];
    struct prog_lines errs = {.at = 0};
    struct pollfd p[2] = {{.fd = o[0], .events = POLLIN}, {.fd = e[0], .events = POLLIN}};
    int open_fds = 2;
    while (open_fds) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (p[i].fd < 0 || !p[i].revents)
                continue;
            ssize_t r = read(p[i].fd, tmp, sizeof tmp);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                close(p[i].fd);
                p[i].fd = -1;
                open_fds--;
                continue;
            }
            if (i == 0) {
                size_t keep = (size_t)r <= max - n ? (size_t)r : max - n;
                memcpy(buf + n, tmp, keep);
                n += keep;
            } else {
                prog_lines_feed(&errs, tmp, (size_t)r);
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (p[i].fd >= 0)
            close(p[i].fd);
    buf[n] = 0;
    prog_lines_feed(&errs, "\n", 1);
    int exec_errno = 0;
    ssize_t r;
    do
        r = read(x[0], &exec_errno, sizeof exec_errno);
    while (r < 0 && errno == EINTR);
    close(x[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            free(buf);
            return snprintf(why, len, "wait: %s", strerror(errno)), -1;
        }
    if (r == (ssize_t)sizeof exec_errno) {
        free(buf);
        return snprintf(why, len, "cannot run: %s", strerror(exec_errno)), -1;
    }
    if (WIFSIGNALED(status)) {
        free(buf);
        return snprintf(why, len, "killed by signal %d", WTERMSIG(status)), -1;
    }
    if (WEXITSTATUS(status)) {
        free(buf);
        return snprintf(why, len, "exit %d: %s", WEXITSTATUS(status),
                        errs.last[0] ? errs.last : "no message"), -1;
    }
    *out = buf;
    return 0;
}

/* The child's side of prog_run_quiet and prog_run_output: fsbench's signals back to their
 * defaults, standard input and error on /dev/null, standard output on out_fd (or /dev/null
 * when it is -1), then argv[0] run (searched in $PATH when search is set). Never returns. */
static void run_child(char *const argv[], int search, int out_fd)
{
    sig_child_reset();
    int nul = open("/dev/null", O_RDWR);
    if (nul >= 0) {
        dup2(nul, 0);
        dup2(out_fd >= 0 ? out_fd : nul, 1);
        dup2(nul, 2);
    }
    if (search)
        execvp(argv[0], argv);
    else
        execv(argv[0], argv);
    _exit(127);
}

/* Waits for pid: its status as a shell gives it, or -1; its resource use into ru. */
static int wait_status(pid_t pid, struct rusage *ru)
{
    int st;
    struct rusage own;
    while (wait4(pid, &st, 0, ru ? ru : &own) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int prog_run_quiet(char *const argv[], int search, struct rusage *ru)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        run_child(argv, search, -1);
    return wait_status(pid, ru);
}

int prog_run_output(char *const argv[], char *out, size_t len)
{
    int p[2];
    out[0] = '\0';
    if (pipe(p) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        run_child(argv, 0, p[1]);
    }
    close(p[1]);
    size_t used = 0;
    for (;;) {
        char buf[512];
        ssize_t n = read(p[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        size_t k = (size_t)n < len - 1 - used ? (size_t)n : len - 1 - used;
        memcpy(out + used, buf, k);
        used += k;
    }
    out[used] = '\0';
    close(p[0]);
    return wait_status(pid, NULL);
}
