/* posix_kmsg.c — kmsg.h without a readable kernel log: the kernel's reason is never known. */
#include "os/kmsg.h"

int os_kmsg_open(void)
{
    return -1;
}

int os_kmsg_find(int h, const char *dev, const char *fstype, char *buf, size_t len)
{
    (void)h, (void)dev, (void)fstype, (void)buf, (void)len;
    return -1;
}

void os_kmsg_close(int h)
{
    (void)h;
}
