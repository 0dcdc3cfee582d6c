/* linux_blockstat.c — block-device counters from sysfs (see blockstat.h).
 *
 * The stat file holds (Documentation/block/stat.rst) read I/Os, read merges, read
 * sectors, read ticks, write I/Os, write merges, write sectors, write ticks, in_flight,
 * io_ticks, time_in_queue, then discard and flush fields on newer kernels.
 */
#include "os/blockstat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int os_blockstat_open(const char *stat_path)
{
    int fd = open(stat_path, O_RDONLY | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int os_blockstat_read(int fd, struct os_blockstat *out)
{
    char buf[512];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n < 0)
        return -errno;
    buf[n] = '\0';
    uint64_t f[10];
    char *p = buf, *end;
    for (unsigned i = 0; i < 10; i++) {
        f[i] = strtoull(p, &end, 10);
        if (end == p)
            return -EINVAL;
        p = end;
    }
    out->rd_ios = f[0];
    out->rd_sectors = f[2];
    out->wr_ios = f[4];
    out->wr_sectors = f[6];
    out->in_flight = f[8];
    out->io_ticks_ms = f[9];
    return 0;
}

void os_blockstat_close(int fd)
{
    if (fd >= 0)
        close(fd);
}
