/* posix_mounts.c — os_mount_find with plain POSIX: there is no portable mount table
 * (statvfs tells no file-system type) and no path of an open fd, so the answer is "unknown"
 * (ENOSYS). */
#include "os/mounts.h"

#include <errno.h>

int os_mount_find(const char *path, bool want_dev, dev_t dev, struct os_mount *out)
{
    (void)path, (void)want_dev, (void)dev, (void)out;
    errno = ENOSYS;
    return -1;
}

int os_mounts_each(int (*fn)(const struct os_mount *m, void *arg), void *arg)
{
    (void)fn, (void)arg;
    errno = ENOSYS;
    return -1;
}

int os_fd_path(int fd, char *buf, size_t len)
{
    (void)fd, (void)buf, (void)len;
    errno = ENOSYS;
    return -1;
}
