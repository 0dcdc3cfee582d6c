/* posix_replaysys.c — a replay's calls where POSIX has no Linux-only ones (replaysys.h):
 * the nearest POSIX call, or ENOTSUP / EINVAL. */
#include "os/replaysys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

int os_open_flags(unsigned want)
{
    if (want) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

int os_fchmodat_nofollow(int dirfd, const char *name, mode_t mode)
{
    return fchmodat(dirfd, name, mode, AT_SYMLINK_NOFOLLOW);
}

long os_copy_range(int in, int64_t *inoff, int out, int64_t *outoff, size_t len, void *buf,
                   size_t buflen)
{
    size_t n = len < buflen ? len : buflen;
    ssize_t k = inoff ? pread(in, buf, n, (off_t)*inoff) : read(in, buf, n);
    if (k <= 0)
        return k;
    ssize_t w = outoff ? pwrite(out, buf, (size_t)k, (off_t)*outoff) : write(out, buf, (size_t)k);
    if (w > 0 && inoff)
        *inoff += w;
    if (w > 0 && outoff)
        *outoff += w;
    return w;
}

int os_fallocate(int fd, unsigned mode, int64_t off, int64_t len)
{
    if (mode) {
        errno = ENOTSUP;
        return -1;
    }
    int e = posix_fallocate(fd, (off_t)off, (off_t)len);
    if (e) {
        errno = e;
        return -1;
    }
    return 0;
}

int os_sync_range(int fd, int64_t off, int64_t len, unsigned flags)
{
    (void)off, (void)len;
    return flags & 2 ? fdatasync(fd) : 0;
}

int os_fstatfs_any(int fd)
{
    struct statvfs s;
    return fstatvfs(fd, &s);
}

int os_renameat_flags(int olddirfd, const char *oldname, int newdirfd, const char *newname,
                      unsigned flags)
{
    if (flags) {
        errno = EINVAL;
        return -1;
    }
    return renameat(olddirfd, oldname, newdirfd, newname);
}

int os_seek_whence(unsigned which)
{
#if defined(SEEK_DATA) && defined(SEEK_HOLE)
    static const int w[] = {SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE};
#else
    static const int w[] = {SEEK_SET, SEEK_CUR, SEEK_END};
#endif
    return which < sizeof w / sizeof w[0] ? w[which] : -1;
}

void *os_map_populated(int fd, uint64_t off, size_t len)
{
    void *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, (off_t)off);
    if (m == MAP_FAILED)
        return NULL;
    long page = sysconf(_SC_PAGESIZE);
    volatile const unsigned char *b = m;
    unsigned sum = 0;
    for (size_t i = 0; i < len; i += page > 0 ? (size_t)page : 4096)
        sum += b[i];
    (void)sum;
    return m;
}

int os_unmap(void *addr, size_t len)
{
    return munmap(addr, len);
}
