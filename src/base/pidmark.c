/* pidmark.c — the pid a marker file names (see pidmark.h). */
#include "base/pidmark.h"

#include <stdio.h>
#include <unistd.h>

long pidmark_read(int fd, const char *prefix)
{
    char buf[64], fmt[64];
    if (snprintf(fmt, sizeof fmt, "%s%%ld", prefix) >= (int)sizeof fmt)
        return 0;
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    long pid = 0;
    if (n > 0) {
        buf[n] = '\0';
        if (sscanf(buf, fmt, &pid) != 1)
            pid = 0;
    }
    return pid;
}
