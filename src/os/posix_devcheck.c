/* posix_devcheck.c — devcheck.h with plain POSIX: there is no portable way to learn whether a
 * device is mounted, swap or claimed, so no device passes (fsbench never mkfs'es what it
 * cannot check). */
#include "os/devcheck.h"

#include "base/err.h"

int os_device_check(const char *dev, bool force)
{
    (void)force;
    return error("refusing to use %s: this build cannot check whether a device is in use "
                 "(--device needs Linux)", dev ? dev : "");
}
