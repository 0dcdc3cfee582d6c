/* selfexe.h — the path of the running program, so that it can run itself as a helper
 * (record measures the tracer by tracing fsbench replaying the trace it just made).
 */
#ifndef FSBENCH_OS_SELFEXE_H
#define FSBENCH_OS_SELFEXE_H

#include <stddef.h>

/* The absolute path of this process's executable into buf: 0, or -1 where the system
 * cannot say (the POSIX-only build: ENOSYS). */
int os_self_exe(char *buf, size_t len);

#endif
