/* posix_cputime.c — a thread's CPU time with plain POSIX: not available split into user and
 * system time (CLOCK_THREAD_CPUTIME_ID gives only their sum), so callers fall back to
 * whole-process figures. */
#include "os/cputime.h"

#include <errno.h>
#include <string.h>

int os_thread_rusage(struct rusage *ru)
{
    memset(ru, 0, sizeof *ru);
    errno = ENOSYS;
    return -1;
}
