/* phase_cmd.c — any command as a phase (seed 002 times `make buildworld` with a lock checker
 * on and off). The command runs through /bin/sh -c with fsbench's standard input closed and
 * its standard output passed through; its standard error is passed through too and its tail
 * kept, so a failing command fails the run with its exit status and the last lines it wrote.
 * The runner's snapshots include waited-for children, so wall, user and sys, context switches,
 * faults and block I/O are the command's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/sig.h"
#include "os/pipe.h"
#include "phase/phase.h"

#define TAIL_MAX 400

/* Keeps the last TAIL_MAX bytes seen in tail (a ring flattened at the end). */
struct tail {
    char buf[TAIL_MAX];
    size_t len;
};

static void tail_add(struct tail *t, const char *p, size_t n)
{
    if (n >= TAIL_MAX) {
        memcpy(t->buf, p + n - TAIL_MAX, TAIL_MAX);
        t->len = TAIL_MAX;
        return;
    }
    if (t->len + n > TAIL_MAX) {
        size_t drop = t->len + n - TAIL_MAX;
        memmove(t->buf, t->buf + drop, t->len - drop);
        t->len -= drop;
    }
    memcpy(t->buf + t->len, p, n);
    t->len += n;
}

/* The last non-empty line of the tail, for a one-line message. */
static const char *last_line(struct tail *t)
{
    size_t n = t->len;
    while (n && (t->buf[n - 1] == '\n' || t->buf[n - 1] == '\r'))
        n--;
    t->buf[n < TAIL_MAX ? n : TAIL_MAX - 1] = '\0';
    char *nl = strrchr(t->buf, '\n');
    return nl ? nl + 1 : t->buf;
}

int phase_run_command(const char *command, char *why, size_t len)
{
    int pfd[2];
    if (os_pipe_cloexec(pfd) < 0) {
        snprintf(why, len, "cannot make a pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, len, "cannot fork: %s", strerror(errno));
        close(pfd[0]);
        close(pfd[1]);
        return -1;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(pfd[1], 2);
        sig_child_reset(); /* SIGPIPE's default again: fsbench ignores it */
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    close(pfd[1]);
    struct tail t = {.len = 0};
    char buf[4096];
    bool told = false;
    for (;;) {
        ssize_t n = read(pfd[0], buf, sizeof buf);
        /* a signal asked fsbench to stop: the command is asked too (a terminal's ^C
         * reaches it anyway; kill or timeout reach fsbench alone) */
        if (n < 0 && errno == EINTR && phase_interrupt && !told) {
            kill(pid, SIGTERM);
            told = true;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        /* Pass stderr through, keep its tail. */
        if (write(2, buf, (size_t)n) < 0) {
            /* stderr closed: keep reading so the child does not block */
        }
        tail_add(&t, buf, (size_t)n);
    }
    close(pfd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(why, len, "cannot wait for the command: %s", strerror(errno));
            return -1;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    const char *line = last_line(&t);
    /* a command that holds quotes already (cmd's "-- ARGS" quotes what needs it) is shown
     * as it is, others in quotes: never ''doubled'' */
    const char *q = strchr(command, '\'') ? "" : "'";
    char sig[32];
    if (WIFSIGNALED(status))
        snprintf(why, len, "%s%s%s was killed by %s%s%s", q, command, q,
                 sig_name(WTERMSIG(status), sig, sizeof sig), *line ? ": " : "", line);
    else
        snprintf(why, len, "%s%s%s exited with status %d%s%s", q, command, q,
                 WEXITSTATUS(status), *line ? ": " : "", line);
    return -1;
}

int phase_cmd(struct phase_ctx *ctx)
{
    if (!ctx->command || !*ctx->command) {
        ctx->res->status = PHASE_FAILED;
        snprintf(ctx->res->note, sizeof ctx->res->note, "no command given (--cmd)");
        return -1;
    }
    char why[RES_NOTE_MAX];
    if (phase_run_command(ctx->command, why, sizeof why) < 0) {
        ctx->res->status = PHASE_FAILED;
        snprintf(ctx->res->note, sizeof ctx->res->note, "%s", why);
        return -1;
    }
    return 0;
}
