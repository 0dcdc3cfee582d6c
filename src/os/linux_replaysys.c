/* linux_replaysys.c — a replay's Linux-only calls (replaysys.h). */
#include "os/replaysys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

int os_open_flags(unsigned want)
{
    int f = 0;
    if (want & OS_OPEN_DIRECT)
        f |= O_DIRECT;
    if (want & OS_OPEN_NOATIME)
        f |= O_NOATIME;
    if (want & OS_OPEN_PATH)
        f |= O_PATH;
    if (want & OS_OPEN_TMPFILE)
        f |= O_TMPFILE;
    return f;
}

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif

/* Set once fchmodat2 said ENOSYS (before Linux 6.6). */
static atomic_int no_fchmodat2;

int os_fchmodat_nofollow(int dirfd, const char *name, mode_t mode)
{
    if (!atomic_load_explicit(&no_fchmodat2, memory_order_relaxed)) {
        long r = syscall(SYS_fchmodat2, (long)dirfd, name, (long)mode,
                         (long)AT_SYMLINK_NOFOLLOW);
        if (r == 0 || errno != ENOSYS)
            return (int)r;
        atomic_store_explicit(&no_fchmodat2, 1, memory_order_relaxed);
    }
    return fchmodat(dirfd, name, mode, AT_SYMLINK_NOFOLLOW);
}

long os_copy_range(int in, int64_t *inoff, int out, int64_t *outoff, size_t len, void *buf,
                   size_t buflen)
{
    loff_t a = inoff ? (loff_t)*inoff : 0, b = outoff ? (loff_t)*outoff : 0;
    ssize_t r = copy_file_range(in, inoff ? &a : NULL, out, outoff ? &b : NULL, len, 0);
    if (r >= 0 || (errno != EXDEV && errno != EINVAL && errno != EOPNOTSUPP && errno != ENOSYS)) {
        if (r >= 0 && inoff)
            *inoff = a;
        if (r >= 0 && outoff)
            *outoff = b;
        return r;
    }
    /* where the kernel will not copy: read and write, as cp does then */
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
    int m = 0;
    if (mode & OS_FALLOC_KEEP_SIZE)
        m |= FALLOC_FL_KEEP_SIZE;
    if (mode & OS_FALLOC_PUNCH_HOLE)
        m |= FALLOC_FL_PUNCH_HOLE;
    if (mode & OS_FALLOC_ZERO_RANGE)
        m |= FALLOC_FL_ZERO_RANGE;
    return fallocate(fd, m, (off_t)off, (off_t)len);
}

int os_sync_range(int fd, int64_t off, int64_t len, unsigned flags)
{
    unsigned f = 0;
    if (flags & 1)
        f |= SYNC_FILE_RANGE_WAIT_BEFORE;
    if (flags & 2)
        f |= SYNC_FILE_RANGE_WRITE;
    if (flags & 4)
        f |= SYNC_FILE_RANGE_WAIT_AFTER;
    return sync_file_range(fd, (off_t)off, (off_t)len, f);
}

int os_fstatfs_any(int fd)
{
    struct statfs s;
    return fstatfs(fd, &s);
}

int os_renameat_flags(int olddirfd, const char *oldname, int newdirfd, const char *newname,
                      unsigned flags)
{
    if (!flags)
        return renameat(olddirfd, oldname, newdirfd, newname);
    unsigned f = 0;
    if (flags & 1)
        f |= RENAME_NOREPLACE;
    if (flags & 2)
        f |= RENAME_EXCHANGE;
    if (flags & 4)
        f |= RENAME_WHITEOUT;
    return renameat2(olddirfd, oldname, newdirfd, newname, f);
}

int os_seek_whence(unsigned which)
{
    static const int w[] = {SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE};
    return which < sizeof w / sizeof w[0] ? w[which] : -1;
}

void *os_map_populated(int fd, uint64_t off, size_t len)
{
    void *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, (off_t)off);
    return m == MAP_FAILED ? NULL : m;
}

int os_unmap(void *addr, size_t len)
{
    return munmap(addr, len);
}
