/* linux_pipe.c — os_pipe_cloexec on Linux: pipe2(O_CLOEXEC), one step. */
#include "os/pipe.h"

#include <fcntl.h>
#include <unistd.h>

int os_pipe_cloexec(int fds[2])
{
    return pipe2(fds, O_CLOEXEC);
}
