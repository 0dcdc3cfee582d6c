/* term.h — what fsbench asks of a terminal: its width, for the live progress line. */
#ifndef FSBENCH_OS_TERM_H
#define FSBENCH_OS_TERM_H

/* Columns of the terminal on fd: > 0, or -errno (not a terminal, or it has no size). */
int os_term_width(int fd);

#endif
