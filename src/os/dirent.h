/* dirent.h — reading a directory in batches of records into a caller's buffer, the way the
 * walking phases need it: one call fills a buffer with many entries, and a walker can keep a
 * buffer per depth while it descends.
 *
 * Records have one layout on every system (Linux's getdents64 layout, which the Linux build
 * gets from the kernel as it is): walk a filled buffer with os_dirent_at(buf, off) and
 * off += rec->d_reclen. d_type is DT_REG, DT_DIR, DT_LNK, ... or DT_UNKNOWN where the system
 * or the file system does not say (callers then stat). "." and ".." are included.
 */
#ifndef FSBENCH_OS_DIRENT_H
#define FSBENCH_OS_DIRENT_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>

#ifndef DT_UNKNOWN
#define DT_UNKNOWN 0
#define DT_FIFO 1
#define DT_CHR 2
#define DT_DIR 4
#define DT_BLK 6
#define DT_REG 8
#define DT_LNK 10
#define DT_SOCK 12
#endif

struct os_dirent {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen; /* bytes from this record to the next */
    unsigned char d_type;
    char d_name[];
};

/* Fills buf (len bytes, at least 512) with the next records of the open directory dirfd.
 * Returns the bytes filled, 0 at the end, or -1 with errno set, like the system call.
 * Linux: getdents64. POSIX fallback: a readdir stream on a duplicate of dirfd, kept per
 * thread (up to OS_DIRENT_STREAMS at once) until it reports the end or the fd is released
 * (os_dirent_release; raw_close does it): an open directory costs two fds there. */
long os_getdents(int dirfd, void *buf, size_t len);

/* Forgets what os_getdents keeps for dirfd, before the caller closes it (the POSIX
 * fallback's stream and its duplicate fd; nothing on Linux). Any fd may be passed. */
void os_dirent_release(int dirfd);

/* The record at byte off of a buffer os_getdents filled. */
static inline const struct os_dirent *os_dirent_at(const void *buf, size_t off)
{
    return (const struct os_dirent *)((const char *)buf + off);
}

#endif
