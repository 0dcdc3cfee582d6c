/* posix_mount.c — mount.h with plain POSIX: there is no portable mount call, so nothing is
 * mounted (ENOSYS) and every option word goes to the file system's data. */
#include "os/mount.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int os_mount_parse_opts(const char *opts, unsigned long *flags, char *data, size_t len)
{
    *flags = 0;
    if (len)
        data[0] = '\0';
    if (!opts || !strcmp(opts, "defaults"))
        return 0;
    if (strlen(opts) >= len)
        return -1;
    snprintf(data, len, "%s", opts);
    return 0;
}

int os_mount(const char *device, const char *dir, const char *fstype, unsigned long flags,
             const char *data)
{
    (void)device, (void)dir, (void)fstype, (void)flags, (void)data;
    errno = ENOSYS;
    return -1;
}

int os_umount(const char *dir, bool lazy)
{
    (void)dir, (void)lazy;
    errno = ENOSYS;
    return -1;
}

bool os_fs_supported(const char *fstype, char *why, size_t len)
{
    snprintf(why, len, "mounting %s needs Linux: this build has no mount call", fstype);
    return false;
}
