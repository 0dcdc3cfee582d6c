/* rawsys.h — the engines' system calls that glibc makes cancellation points (openat, read,
 * write, pread, pwrite, copy_file_range, close, fsync), made through syscall(2) instead.
 *
 * Once a process has a second thread (every fsbench run has the time-line sampler), each
 * glibc wrapper of a cancellation point enables and then disables asynchronous cancellation
 * around the call: two atomic read-modify-writes and ~45 instructions a call, measured with
 * callgrind. fsbench never cancels a thread, so that work buys nothing; at four such calls a
 * small file, dropping it was ~1% of a read phase on tmpfs. The calls behave as the
 * wrappers do otherwise: -1 with errno set on failure.
 */
#ifndef FSBENCH_RAWSYS_H
#define FSBENCH_RAWSYS_H

#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static inline long raw_openat(int dirfd, const char *name, int flags, mode_t mode)
{
    return syscall(SYS_openat, dirfd, name, flags, mode);
}

static inline long raw_read(int fd, void *buf, size_t len)
{
    return syscall(SYS_read, fd, buf, len);
}

static inline long raw_write(int fd, const void *buf, size_t len)
{
    return syscall(SYS_write, fd, buf, len);
}

static inline long raw_pread(int fd, void *buf, size_t len, off_t off)
{
    return syscall(SYS_pread64, fd, buf, len, off);
}

static inline long raw_pwrite(int fd, const void *buf, size_t len, off_t off)
{
    return syscall(SYS_pwrite64, fd, buf, len, off);
}

static inline long raw_copy_file_range(int in, int out, size_t len)
{
    return syscall(SYS_copy_file_range, in, NULL, out, NULL, len, 0u);
}

static inline long raw_close(int fd)
{
    return syscall(SYS_close, fd);
}

static inline long raw_fsync(int fd)
{
    return syscall(SYS_fsync, fd);
}

#endif
