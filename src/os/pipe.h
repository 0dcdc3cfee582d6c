/* pipe.h — a pipe whose ends are closed on exec, made in one step where the system can, so a
 * command another thread starts at the same moment never inherits it; and a pipe's buffer
 * made larger (record's FIFO from strace, read in batches). */
#ifndef FSBENCH_OS_PIPE_H
#define FSBENCH_OS_PIPE_H

/* 0, or -1 with errno. */
int os_pipe_cloexec(int fds[2]);
/* Makes the buffer of the pipe or FIFO fd hold at least bytes (at most what the system
 * allows a process). 0, or -1 with errno (ENOSYS where the system has no such call). */
int os_pipe_grow(int fd, unsigned long bytes);

#endif
