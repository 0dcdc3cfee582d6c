/* err.c — error and warning messages on stderr, one line each (see err.h). A message may
 * quote what came from outside (a job file's value, a label, an archive's entry name): its
 * control characters are escaped here (base/text.h), so every message stays one line and
 * sends a terminal nothing but text. */
#include "base/err.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"

static int quiet;
static char *capture_buf;
static size_t capture_len;

/* Captures nest: an inner begin/end pair (a phase folding a message into its own line)
 * restores the outer capture (an MPI rank that keeps every message for rank 0). */
#define CAPTURE_DEPTH 8
static struct {
    char *buf;
    size_t len;
} capture_saved[CAPTURE_DEPTH];
static unsigned capture_depth;

void err_capture_begin(char *buf, size_t len)
{
    if (capture_depth < CAPTURE_DEPTH) {
        capture_saved[capture_depth].buf = capture_buf;
        capture_saved[capture_depth].len = capture_len;
    }
    capture_depth++;
    capture_buf = buf;
    capture_len = len;
    if (buf && len)
        buf[0] = '\0';
}

void err_capture_end(void)
{
    if (capture_depth == 0)
        return;
    capture_depth--;
    if (capture_depth < CAPTURE_DEPTH) {
        capture_buf = capture_saved[capture_depth].buf;
        capture_len = capture_saved[capture_depth].len;
    } else {
        capture_buf = NULL;
        capture_len = 0;
    }
}

void err_set_quiet(int q)
{
    quiet = q;
}

static void vreport(const char *prefix, int errnum, const char *fmt, va_list ap)
{
    char raw[1024], msg[2048];
    vsnprintf(raw, sizeof raw, fmt, ap);
    text_escape(msg, sizeof msg, raw);
    if (capture_buf) {
        if (errnum)
            snprintf(capture_buf, capture_len, "%s%s: %s", prefix, msg, strerror(errnum));
        else
            snprintf(capture_buf, capture_len, "%s%s", prefix, msg);
        return;
    }
    if (quiet)
        return;
    if (errnum)
        fprintf(stderr, "fsbench: %s%s: %s\n", prefix, msg, strerror(errnum));
    else
        fprintf(stderr, "fsbench: %s%s\n", prefix, msg);
}

int error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("", 0, fmt, ap);
    va_end(ap);
    return -1;
}

int error_errno(const char *fmt, ...)
{
    int e = errno;
    va_list ap;
    va_start(ap, fmt);
    vreport("", e, fmt, ap);
    va_end(ap);
    errno = e;
    return -1;
}

int error_num(int errnum, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("", errnum < 0 ? -errnum : errnum, fmt, ap);
    va_end(ap);
    return -1;
}

void warning(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("warning: ", 0, fmt, ap);
    va_end(ap);
}

void inform(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("", 0, fmt, ap);
    va_end(ap);
}
