/* linux_blockdev.c — blockdev.h on Linux: sysfs (/sys/dev/block/M:m, its uevent's DEVNAME
 * and its stat file, which linux_blockstat.c reads). */
#include "os/blockdev.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

bool os_dev_is_block(dev_t dev)
{
    return major(dev) != 0;
}

void os_blockdev_of(dev_t rdev, struct os_blockdev *bd)
{
    char dir[64], path[128], buf[PATH_MAX];
    struct stat st;
    memset(bd, 0, sizeof *bd);
    snprintf(dir, sizeof dir, "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
    snprintf(bd->stat_path, sizeof bd->stat_path, "%s/stat", dir);
    if (stat(bd->stat_path, &st) < 0) {
        bd->stat_path[0] = '\0';
        return;
    }
    bd->valid = true;

    snprintf(path, sizeof path, "%s/uevent", dir);
    FILE *f = fopen(path, "re");
    if (f) {
        while (fgets(buf, sizeof buf, f)) {
            if (strncmp(buf, "DEVNAME=", 8) == 0) {
                buf[strcspn(buf, "\n")] = '\0';
                snprintf(bd->name, sizeof bd->name, "%s", buf + 8);
                break;
            }
        }
        fclose(f);
    }
    if (!bd->name[0]) {
        ssize_t n = readlink(dir, buf, sizeof buf - 1);
        if (n > 0) {
            buf[n] = '\0';
            char *slash = strrchr(buf, '/');
            snprintf(bd->name, sizeof bd->name, "%s", slash ? slash + 1 : buf);
        }
    }
}
