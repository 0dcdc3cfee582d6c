/* posix_selfexe.c — selfexe.h where POSIX has no way to name the running program. */
#include "os/selfexe.h"

#include <errno.h>

int os_self_exe(char *buf, size_t len)
{
    (void)buf, (void)len;
    errno = ENOSYS;
    return -1;
}
