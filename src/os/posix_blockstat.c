/* posix_blockstat.c — blockstat.h with plain POSIX: no block-device counters to read (and
 * posix_blockdev.c never names a device), so every call says ENOSYS. */
#include "os/blockstat.h"

#include <errno.h>

int os_blockstat_open(const char *stat_path)
{
    (void)stat_path;
    return -ENOSYS;
}

int os_blockstat_read(int fd, struct os_blockstat *out)
{
    (void)fd, (void)out;
    return -ENOSYS;
}

void os_blockstat_close(int fd)
{
    (void)fd;
}
