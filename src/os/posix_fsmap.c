/* posix_fsmap.c — fsmap.h with plain POSIX: no free-space map anywhere. */
#include "os/fsmap.h"

#include <errno.h>

int os_free_extents(int fd, void (*fn)(void *arg, uint64_t len), void *arg)
{
    (void)fd, (void)fn, (void)arg;
    return -EOPNOTSUPP;
}
