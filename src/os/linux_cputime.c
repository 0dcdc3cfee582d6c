/* linux_cputime.c — a thread's CPU time on Linux: getrusage(RUSAGE_THREAD). */
#include "os/cputime.h"

#include <string.h>

int os_thread_rusage(struct rusage *ru)
{
    if (getrusage(RUSAGE_THREAD, ru) == 0)
        return 0;
    memset(ru, 0, sizeof *ru);
    return -1;
}
