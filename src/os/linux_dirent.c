/* linux_dirent.c — os_getdents on Linux: the getdents64 system call, whose records are
 * struct os_dirent as they are (see dirent.h). */
#include "os/dirent.h"

#include <sys/syscall.h>
#include <unistd.h>

long os_getdents(int dirfd, void *buf, size_t len)
{
    return syscall(SYS_getdents64, (long)dirfd, buf, len);
}

void os_dirent_release(int dirfd)
{
    (void)dirfd; /* getdents64 keeps nothing but the fd's own offset */
}
