/* posix_loop.c — loop.h with plain POSIX: no loop devices (the BSDs have md(4) and vnd(4),
 * which a port would add here). */
#include "os/loop.h"

#include <errno.h>

#include "base/err.h"

int os_loop_attach(const char *image, char *device, size_t len)
{
    if (len)
        device[0] = '\0';
    return error("cannot attach %s to a block device: this build has no loop devices "
                 "(managed images need Linux)", image);
}

int os_loop_detach(const char *device, dev_t image_dev, ino_t image_ino)
{
    (void)device, (void)image_dev, (void)image_ino;
    return 0;
}

int os_loop_detach_quiet(const char *device, dev_t image_dev, ino_t image_ino)
{
    (void)device, (void)image_dev, (void)image_ino;
    return 0;
}

int os_loop_each(int (*fn)(const char *device, const char *backing, dev_t dev, ino_t ino,
                           void *arg),
                 void *arg)
{
    (void)fn, (void)arg;
    errno = ENOSYS;
    return -1;
}
