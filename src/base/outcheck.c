/* outcheck.c — the check of standard output at a command's end (see outcheck.h). */
#include "base/outcheck.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"

static bool outcheck_said;

/* Whether standard output is a pipe whose reader ended: for a write that failed earlier,
 * whose errno is gone (the stream keeps only its error flag). */
static bool outcheck_reader_gone(void)
{
    struct pollfd p = {.fd = fileno(stdout), .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

int outcheck_stdout_err(int seen, const char *kept)
{
    errno = 0;
    int flushed = fflush(stdout);
    int e = errno ? errno : seen;
    if (flushed == 0 && !ferror(stdout) && !seen)
        return 0;
    if (outcheck_said)
        return -1;
    outcheck_said = true;
    if (!e && outcheck_reader_gone())
        e = EPIPE;
    const char *sep = kept && *kept ? ": " : "";
    if (e == EPIPE)
        return error("standard output was closed before the end (the reader of the pipe "
                     "ended)%s%s",
                     sep, kept ? kept : "");
    if (e)
        return error("cannot write to standard output: %s%s%s", strerror(e), sep,
                     kept ? kept : "");
    return error("a write to standard output failed%s%s", sep, kept ? kept : "");
}

int outcheck_stdout(const char *kept)
{
    return outcheck_stdout_err(0, kept);
}
