/* err.c — error and warning messages on stderr, one line each (see err.h). */
#include "err.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int quiet;

void err_set_quiet(int q)
{
    quiet = q;
}

static void vreport(const char *prefix, int errnum, const char *fmt, va_list ap)
{
    if (quiet)
        return;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
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
