/* posix_taskcpu.c — no per-task CPU times at exit with plain POSIX: the callers keep the
 * whole program's (its rusage). */
#include "os/taskcpu.h"

#include <stdio.h>

struct os_taskcpu *os_taskcpu_start(char *why, size_t len)
{
    snprintf(why, len, "this build has no per-process CPU times (taskstats)");
    return NULL;
}

struct os_task_cpu *os_taskcpu_stop(struct os_taskcpu *l, size_t *n, char *why, size_t len)
{
    (void)l;
    *n = 0;
    snprintf(why, len, "this build has no per-process CPU times (taskstats)");
    return NULL;
}

int32_t os_taskcpu_self(void)
{
    return -1;
}
