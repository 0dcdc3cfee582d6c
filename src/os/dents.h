/* dents.h — reading the rest of a directory into memory at once (os_getdents records), for
 * the walkers that close a directory while they are deep below it (tree capture, layout)
 * and must still list what is left of it when they come back.
 */
#ifndef FSBENCH_OS_DENTS_H
#define FSBENCH_OS_DENTS_H

#include <stddef.h>

/* A new malloc'd buffer in *out holding the `have` bytes of records at `rest` followed by
 * every record directory fd still returns (reads of `chunk` bytes); *len its length.
 * 0 or -errno (nothing allocated then). */
int os_dents_drain(int fd, const char *rest, size_t have, size_t chunk, char **out, size_t *len);

#endif
