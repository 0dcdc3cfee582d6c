/* linux_util.h — helpers the Linux implementations of os/ share: one line of a /proc or
 * /sys file, and a short sleep for the retries the kernel asks for (EBUSY, a device node
 * devtmpfs has not made yet). Only linux_*.c include it.
 */
#ifndef FSBENCH_OS_LINUX_UTIL_H
#define FSBENCH_OS_LINUX_UTIL_H

#include <stddef.h>

/* Reads the first line of a small file into buf without its newline. 0 or -1 (errno). */
int lx_read_line(const char *path, char *buf, size_t len);
/* Sleeps ms milliseconds, resuming after signals. */
void lx_sleep_ms(long ms);

#endif
