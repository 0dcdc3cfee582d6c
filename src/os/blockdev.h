/* blockdev.h — the block device behind a file system: its name and where its counters are
 * read (blockstat.h reads them, around every phase and at every time-line sample). Where
 * there is no block device (tmpfs, NFS) or the system cannot say (the POSIX fallback),
 * valid is false and the report prints n/a.
 */
#ifndef FSBENCH_OS_BLOCKDEV_H
#define FSBENCH_OS_BLOCKDEV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct os_blockdev {
    bool valid;
    char name[64];       /* the kernel's name, e.g. "loop0", "vda" */
    char stat_path[128]; /* where its counters are read (/sys/dev/block/M:m/stat) */
};


/* True when device number dev can be a block device (not an anonymous device: tmpfs,
 * btrfs, overlay and NFS have those). */
bool os_dev_is_block(dev_t dev);
/* Fills *bd for block device number rdev if the system knows it; bd->valid false
 * otherwise. */
void os_blockdev_of(dev_t rdev, struct os_blockdev *bd);
/* The size in bytes of the block device at path (opened read-only, nothing written): 0, or
 * -1 with errno (the POSIX fallback: ENOSYS). */
int os_blockdev_size(const char *path, uint64_t *bytes);

#endif
