/* posix_beneath.c — os_open_beneath where POSIX has no openat2: the walk (beneath.c). */
#include "os/beneath.h"

int os_open_beneath(int dirfd, const char *path, int flags, mode_t mode)
{
    return os_open_beneath_walk(dirfd, path, flags, mode);
}
