/* beneath_stat.c — os_stat_beneath (beneath.h): lstat below a directory, its directory
 * resolved by this system's os_open_beneath (openat2 on Linux, the walk elsewhere).
 */
#include "os/beneath.h"

int os_stat_beneath(int dirfd, const char *path, struct stat *st)
{
    return os_stat_beneath_by(dirfd, path, st, os_open_beneath);
}
