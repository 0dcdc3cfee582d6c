/* target_internal.h — what target.c and target_check.c share and nothing else includes:
 * not part of the target API (that is target.h).
 */
#ifndef FSBENCH_TARGET_INTERNAL_H
#define FSBENCH_TARGET_INTERNAL_H

#include <stddef.h>

/* Reads the first line of a small file (sysfs, /proc) into buf without its newline.
 * 0, or -1 with errno set. */
int target_read_line(const char *path, char *buf, size_t len);

#endif
