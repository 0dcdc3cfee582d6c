/* fsmap.h — the free space of a file system as a list of free extents (Linux's GETFSMAP
 * ioctl, ext4 and xfs; root only), for the free-space fragmentation measure
 * (measure/freefrag.h). The POSIX fallback knows no free-space map.
 */
#ifndef FSBENCH_OS_FSMAP_H
#define FSBENCH_OS_FSMAP_H

#include <stdint.h>

/* Calls fn once per free extent (bytes) of the file system holding fd, adjacent free
 * records merged, in device order. 0, or -errno: -EOPNOTSUPP / -ENOTTY where the file
 * system (or the platform) has no GETFSMAP, -EPERM without the privilege it needs. */
int os_free_extents(int fd, void (*fn)(void *arg, uint64_t len), void *arg);

#endif
