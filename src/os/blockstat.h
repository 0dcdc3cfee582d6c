/* blockstat.h — the counters of one block device, read from its sysfs stat file
 * (/sys/block/NAME/stat, or /sys/dev/block/MAJ:MIN/stat: the same file), for the time
 * line's per-sample device activity.
 *
 * The file is opened once (os_blockstat_open) and re-read with pread at every sample, so
 * a sample costs one system call and a parse of ~100 bytes: it runs on the sampler thread,
 * never in the timed work.
 */
#ifndef FSBENCH_OS_BLOCKSTAT_H
#define FSBENCH_OS_BLOCKSTAT_H

#include <stdint.h>

struct os_blockstat {
    uint64_t rd_ios, rd_sectors;  /* completed reads, 512-byte sectors read */
    uint64_t wr_ios, wr_sectors;  /* completed writes, sectors written */
    uint64_t in_flight;           /* requests issued and not yet completed (now) */
    uint64_t io_ticks_ms;         /* time the device had a request in flight */
};

/* Opens the stat file at stat_path: a descriptor (>= 0), or -errno. */
int os_blockstat_open(const char *stat_path);
/* Reads the counters through fd: 0, or -errno (-EINVAL when the file has too few
 * fields). */
int os_blockstat_read(int fd, struct os_blockstat *out);
/* Closes what os_blockstat_open returned (a negative fd is ignored). */
void os_blockstat_close(int fd);

#endif
