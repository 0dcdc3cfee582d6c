/* cputime.h — the CPU time of the calling thread alone, user and system apart, so that a
 * phase's threads can be summed without the process's other threads (the time-line sampler,
 * a previous phase's helpers).
 */
#ifndef FSBENCH_OS_CPUTIME_H
#define FSBENCH_OS_CPUTIME_H

#include <sys/resource.h>

/* Fills *ru with the calling thread's resource usage: 0. Where the system cannot say
 * (the POSIX fallback: POSIX has no per-thread user/system split), *ru is zeroed and -1
 * returned with errno ENOSYS; callers then use whole-process figures. */
int os_thread_rusage(struct rusage *ru);

#endif
