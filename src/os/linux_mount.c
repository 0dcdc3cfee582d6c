/* linux_mount.c — mount.h on Linux: mount(2), umount2(2), the MS_* flag words, and
 * /proc/filesystems plus modules.alias for what the kernel can mount. */
#include "os/mount.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "os/linux_util.h"

/* The option words mount(2) takes as flags: set or clear. */
static const struct {
    const char *name;
    unsigned long set, clear;
} mount_flags[] = {
    {"ro", MS_RDONLY, 0},
    {"rw", 0, MS_RDONLY},
    {"sync", MS_SYNCHRONOUS, 0},
    {"async", 0, MS_SYNCHRONOUS},
    {"dirsync", MS_DIRSYNC, 0},
    {"noatime", MS_NOATIME, 0},
    {"atime", 0, MS_NOATIME},
    {"nodiratime", MS_NODIRATIME, 0},
    {"diratime", 0, MS_NODIRATIME},
    {"relatime", MS_RELATIME, 0},
    {"norelatime", 0, MS_RELATIME},
    {"strictatime", MS_STRICTATIME, 0},
    {"nostrictatime", 0, MS_STRICTATIME},
    {"lazytime", MS_LAZYTIME, 0},
    {"nolazytime", 0, MS_LAZYTIME},
    {"nodev", MS_NODEV, 0},
    {"dev", 0, MS_NODEV},
    {"nosuid", MS_NOSUID, 0},
    {"suid", 0, MS_NOSUID},
    {"noexec", MS_NOEXEC, 0},
    {"exec", 0, MS_NOEXEC},
    {"mand", MS_MANDLOCK, 0},
    {"nomand", 0, MS_MANDLOCK},
    {"iversion", MS_I_VERSION, 0},
    {"noiversion", 0, MS_I_VERSION},
    {"silent", MS_SILENT, 0},
    {"loud", 0, MS_SILENT},
    {"defaults", 0, 0},
    {NULL, 0, 0},
};

int os_mount_parse_opts(const char *opts, unsigned long *flags, char *data, size_t len)
{
    *flags = 0;
    if (len)
        data[0] = '\0';
    if (!opts)
        return 0;
    size_t used = 0;
    for (const char *p = opts; *p;) {
        size_t n = strcspn(p, ",");
        size_t i;
        for (i = 0; mount_flags[i].name; i++)
            if (strlen(mount_flags[i].name) == n && !strncmp(p, mount_flags[i].name, n))
                break;
        if (mount_flags[i].name) {
            *flags = (*flags & ~mount_flags[i].clear) | mount_flags[i].set;
        } else if (n) {
            if (used + (used > 0) + n + 1 > len)
                return -1;
            if (used)
                data[used++] = ',';
            memcpy(data + used, p, n);
            used += n;
            data[used] = '\0';
        }
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

int os_mount(const char *device, const char *dir, const char *fstype, unsigned long flags,
             const char *data)
{
    return mount(device, dir, fstype, flags, data);
}

int os_umount(const char *dir, bool lazy)
{
    return umount2(dir, UMOUNT_NOFOLLOW | (lazy ? MNT_DETACH : 0));
}

/* The kernel knows fs when it is in /proc/filesystems or loadable (modules.alias has an
 * fs-<name>). Without modules.alias we cannot know, and say yes. */
bool os_fs_supported(const char *fs, char *why, size_t len)
{
    FILE *f = fopen("/proc/filesystems", "re");
    char line[256];
    if (f) {
        while (fgets(line, sizeof line, f)) {
            char *name = strrchr(line, '\t');
            name = name ? name + 1 : line;
            name[strcspn(name, "\n")] = '\0';
            if (!strcmp(name, fs)) {
                fclose(f);
                return true;
            }
        }
        fclose(f);
    }
    char rel[128], path[PATH_MAX];
    if (lx_read_line("/proc/sys/kernel/osrelease", rel, sizeof rel) < 0)
        return true;
    snprintf(path, sizeof path, "/lib/modules/%s/modules.alias", rel);
    f = fopen(path, "re");
    if (!f)
        return true;
    char want[64];
    int wn = snprintf(want, sizeof want, "alias fs-%s ", fs);
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = !strncmp(line, want, (size_t)wn);
    fclose(f);
    if (!found)
        snprintf(why, len,
                 "the running kernel (%s) does not support the file system %s: it is "
                 "not in /proc/filesystems and there is no module for it",
                 rel, fs);
    return found;
}
