/* linux_selfexe.c — selfexe.h on Linux: /proc/self/exe. */
#include "os/selfexe.h"

#include <errno.h>
#include <unistd.h>

int os_self_exe(char *buf, size_t len)
{
    if (len < 2)
        return errno = ENAMETOOLONG, -1;
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        return n < 0 ? -1 : (errno = ENAMETOOLONG, -1);
    buf[n] = '\0';
    return 0;
}
