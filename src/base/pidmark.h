/* pidmark.h — the pid a marker file names ("fsbench pid 123" in a workspace's marker,
 * "pid 123 ..." in a target's owner record): read from the start of an open file.
 */
#ifndef FSBENCH_PIDMARK_H
#define FSBENCH_PIDMARK_H

/* The pid that follows `prefix` (white space in it matches any, as in scanf) at the start
 * of the file open at fd, or 0 when it does not say one. prefix holds no '%'. */
long pidmark_read(int fd, const char *prefix);

#endif
