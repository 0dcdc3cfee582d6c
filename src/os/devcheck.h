/* devcheck.h — whether a real block device may be mkfs'ed: not mounted (nor a partition of
 * it), not swap, not held by device-mapper, LVM or RAID, not backing a loop device, granted
 * an exclusive open, with a medium, and carrying no file-system, RAID, LVM, encryption or
 * partition-table signature unless force. Only reads; never changes the device.
 */
#ifndef FSBENCH_OS_DEVCHECK_H
#define FSBENCH_OS_DEVCHECK_H

#include <stdbool.h>

/* 0 when dev may be used; -1 after error() naming the device, what is in use and how to
 * release it. Only the signature check yields to force. The POSIX fallback refuses every
 * device: it cannot check them. */
int os_device_check(const char *dev, bool force);

#endif
