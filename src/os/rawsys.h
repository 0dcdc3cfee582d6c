/* rawsys.h — the engines' system calls that glibc makes cancellation points (openat, read,
 * write, pread, pwrite, copy_file_range, close, fsync), made through syscall(2) instead.
 *
 * Once a process has a second thread (every fsbench run has the time-line sampler), each
 * glibc wrapper of a cancellation point enables and then disables asynchronous cancellation
 * around the call: two atomic read-modify-writes and ~45 instructions a call, measured with
 * callgrind. fsbench never cancels a thread, so that work buys nothing; at four such calls a
 * small file, dropping it took the read phase of a small tree from 4.03 M user instructions
 * to 3.54 M (callgrind; the bare program needs 0.87 M). The calls behave as the
 * wrappers do otherwise: -1 with errno set on failure. Every argument is passed as a long,
 * as syscall(2) reads them, which also assumes a 64-bit ABI: a 32-bit one would split the
 * offsets of pread and pwrite over two registers.
 *
 * Also here, as the engines make them: copy offload (raw_copy_file_range) and the sync of
 * one file system (raw_syncfs). With FSBENCH_OS_POSIX_ONLY every call is the plain POSIX
 * function, copy offload fails with ENOSYS (the engines then copy with read and write), and
 * raw_syncfs is sync(): every file system, which is what POSIX offers.
 */
#ifndef FSBENCH_RAWSYS_H
#define FSBENCH_RAWSYS_H

#include <sys/types.h>
#include <unistd.h>

#ifdef FSBENCH_OS_POSIX_ONLY
#include <errno.h>
#include <fcntl.h>

#include "os/dirent.h"

static inline long raw_openat(int dirfd, const char *name, int flags, mode_t mode)
{
    return openat(dirfd, name, flags, mode);
}

static inline long raw_read(int fd, void *buf, size_t len)
{
    return read(fd, buf, len);
}

static inline long raw_write(int fd, const void *buf, size_t len)
{
    return write(fd, buf, len);
}

static inline long raw_pread(int fd, void *buf, size_t len, off_t off)
{
    return pread(fd, buf, len, off);
}

static inline long raw_pwrite(int fd, const void *buf, size_t len, off_t off)
{
    return pwrite(fd, buf, len, off);
}

/* Whether raw_copy_file_range() can copy at all (else it always fails with ENOSYS). */
#define RAW_COPY_OFFLOAD 0

static inline long raw_copy_file_range(int in, int out, size_t len)
{
    (void)in, (void)out, (void)len;
    errno = ENOSYS;
    return -1;
}

static inline long raw_close(int fd)
{
    os_dirent_release(fd); /* the readdir stream kept for a directory fd, if any */
    return close(fd);
}

static inline long raw_fsync(int fd)
{
    return fsync(fd);
}

static inline long raw_syncfs(int fd)
{
    if (fcntl(fd, F_GETFD) < 0) /* EBADF, as syncfs would say */
        return -1;
    sync();
    return 0;
}

#else /* Linux */
#include <sys/syscall.h>

_Static_assert(sizeof(long) == 8 && sizeof(off_t) == 8,
               "rawsys.h passes file offsets in one register (a 64-bit ABI)");

static inline long raw_openat(int dirfd, const char *name, int flags, mode_t mode)
{
    return syscall(SYS_openat, (long)dirfd, name, (long)flags, (long)mode);
}

static inline long raw_read(int fd, void *buf, size_t len)
{
    return syscall(SYS_read, (long)fd, buf, len);
}

static inline long raw_write(int fd, const void *buf, size_t len)
{
    return syscall(SYS_write, (long)fd, buf, len);
}

static inline long raw_pread(int fd, void *buf, size_t len, off_t off)
{
    return syscall(SYS_pread64, (long)fd, buf, len, (long)off);
}

static inline long raw_pwrite(int fd, const void *buf, size_t len, off_t off)
{
    return syscall(SYS_pwrite64, (long)fd, buf, len, (long)off);
}

#define RAW_COPY_OFFLOAD 1

static inline long raw_copy_file_range(int in, int out, size_t len)
{
    return syscall(SYS_copy_file_range, (long)in, NULL, (long)out, NULL, len, 0L);
}

static inline long raw_close(int fd)
{
    return syscall(SYS_close, (long)fd);
}

static inline long raw_fsync(int fd)
{
    return syscall(SYS_fsync, (long)fd);
}

static inline long raw_syncfs(int fd)
{
    return syncfs(fd);
}

#endif /* FSBENCH_OS_POSIX_ONLY */

#endif
