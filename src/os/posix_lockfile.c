/* posix_lockfile.c — lockfile.h with plain POSIX: a whole-file fcntl(2) write lock. */
#include "os/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

const bool os_lock_readonly = false;

int os_lock_try(int fd)
{
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    while (fcntl(fd, F_SETLK, &fl) < 0) {
        if (errno == EACCES || errno == EAGAIN)
            return 1;
        if (errno != EINTR)
            return -1;
    }
    return 0;
}
