/* posix_pipe.c — os_pipe_cloexec with POSIX.1-2008: pipe(), then FD_CLOEXEC on each end
 * (two steps: a fork by another thread in between would inherit the ends; fsbench forks
 * only from the thread that makes the pipe); a pipe's buffer cannot be grown. */
#include "os/pipe.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int os_pipe_cloexec(int fds[2])
{
    if (pipe(fds) < 0)
        return -1;
    for (int i = 0; i < 2; i++)
        if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) < 0) {
            int e = errno;
            close(fds[0]);
            close(fds[1]);
            errno = e;
            return -1;
        }
    return 0;
}

int os_pipe_grow(int fd, unsigned long bytes)
{
    (void)fd, (void)bytes;
    errno = ENOSYS;
    return -1;
}
