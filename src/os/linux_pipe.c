/* linux_pipe.c — pipe.h on Linux: pipe2(O_CLOEXEC), one step; F_SETPIPE_SZ. */
#include "os/pipe.h"

#include <fcntl.h>
#include <unistd.h>

int os_pipe_cloexec(int fds[2])
{
    return pipe2(fds, O_CLOEXEC);
}

int os_pipe_grow(int fd, unsigned long bytes)
{
    return fcntl(fd, F_SETPIPE_SZ, (int)bytes) < 0 ? -1 : 0;
}
