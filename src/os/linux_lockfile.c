/* linux_lockfile.c — lockfile.h on Linux: flock(2). */
#include "os/lockfile.h"

#include <errno.h>
#include <sys/file.h>

const bool os_lock_readonly = true;

int os_lock_try(int fd)
{
    while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        if (errno == EWOULDBLOCK)
            return 1;
        if (errno != EINTR)
            return -1;
    }
    return 0;
}
