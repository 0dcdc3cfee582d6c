/* posix_blockdev.c — blockdev.h with plain POSIX: no portable way to find the block device
 * behind a file system, so no device is ever valid and device I/O is reported as n/a. */
#include "os/blockdev.h"

#include <errno.h>
#include <string.h>

bool os_dev_is_block(dev_t dev)
{
    (void)dev;
    return false;
}

void os_blockdev_of(dev_t rdev, struct os_blockdev *bd)
{
    (void)rdev;
    memset(bd, 0, sizeof *bd);
}

int os_blockdev_size(const char *path, uint64_t *bytes)
{
    (void)path, (void)bytes;
    errno = ENOSYS;
    return -1;
}
