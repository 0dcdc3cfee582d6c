/* linux_blockdev.c — blockdev.h on Linux: sysfs (/sys/dev/block/M:m, its uevent's DEVNAME
 * and its stat file, which linux_blockstat.c reads). */
#include "os/blockdev.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
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

int os_blockdev_size(const char *path, uint64_t *bytes)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    struct stat st;
    uint64_t b = 0;
    int rc = fstat(fd, &st) < 0 ? -1 : !S_ISBLK(st.st_mode) ? (errno = ENOTBLK, -1)
                                                            : ioctl(fd, BLKGETSIZE64, &b);
    int e = errno;
    close(fd);
    if (rc < 0) {
        errno = e;
        return -1;
    }
    *bytes = b;
    return 0;
}
