/* pipe.h — a pipe whose ends are closed on exec, made in one step where the system can, so a
 * command another thread starts at the same moment never inherits it. */
#ifndef FSBENCH_OS_PIPE_H
#define FSBENCH_OS_PIPE_H

/* 0, or -1 with errno. */
int os_pipe_cloexec(int fds[2]);

#endif
