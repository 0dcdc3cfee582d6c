/* linux_beneath.c — os_open_beneath by openat2(2) (Linux 5.6), falling back to the walk
 * (beneath.c) for the rest of the process when the kernel says ENOSYS. See beneath.h. */
#include "os/beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Set once openat2 said ENOSYS: every later call walks. */
static atomic_int no_openat2;

int os_open_beneath(int dirfd, const char *path, int flags, mode_t mode)
{
    int kind = os_beneath_kind(path);
    if (kind < 0) {
        errno = -kind;
        return -1;
    }
    if (!atomic_load_explicit(&no_openat2, memory_order_relaxed)) {
        struct open_how how = {
            .flags = (uint64_t)(unsigned)(flags | O_NOFOLLOW | O_CLOEXEC),
            .mode = (flags & O_CREAT) ? (uint64_t)mode : 0,
            .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV |
                       (kind == OS_BENEATH_PATH ? RESOLVE_BENEATH : 0),
        };
        /* EAGAIN: a rename raced a scoped lookup; the kernel asks for a retry. */
        for (int tries = 0;; tries++) {
            long fd = syscall(SYS_openat2, (long)dirfd, path, &how, sizeof how);
            if (fd >= 0)
                return (int)fd;
            if (errno == EAGAIN && tries < 16)
                continue;
            if (errno == ENOTDIR) {
                errno = os_beneath_errno(dirfd, path, flags, ENOTDIR);
                return -1;
            }
            if (errno != ENOSYS)
                return -1;
            break;
        }
        atomic_store_explicit(&no_openat2, 1, memory_order_relaxed);
    }
    return os_open_beneath_walk(dirfd, path, flags, mode);
}
