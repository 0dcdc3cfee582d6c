/* kmsg.h — the kernel's own words for a failure: the messages it logged since a point,
 * read from its log (where the system lets a process read it), so that a refused mount can
 * say why ("EXT4-fs (loop0): can't mount with data=, fs mounted w/o journal") instead of
 * "Invalid argument, see dmesg".
 */
#ifndef FSBENCH_OS_KMSG_H
#define FSBENCH_OS_KMSG_H

#include <stddef.h>

/* Opens the kernel log at its end: a handle (>= 0), or -1 where it cannot be read (not
 * root with dmesg_restrict, no /dev/kmsg, the POSIX build). */
int os_kmsg_open(void);
/* The kernel's message since os_kmsg_open() about device dev (its name, "loop0") or file
 * system fstype, into buf (one line, no newline): the last of them at warning level or
 * worse, else the last. 0, or -1 when there is none (or h is -1). */
int os_kmsg_find(int h, const char *dev, const char *fstype, char *buf, size_t len);
/* Closes h (-1 is ignored). */
void os_kmsg_close(int h);

#endif
