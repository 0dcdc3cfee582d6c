/* linux_loop.c — loop.h on Linux: /dev/loop-control's LOOP_CTL_GET_FREE, LOOP_CONFIGURE
 * (LOOP_SET_FD + LOOP_SET_STATUS64 before Linux 5.8), LOOP_GET_STATUS64 and LOOP_CLR_FD. */
#include "os/loop.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/err.h"
#include "os/linux_util.h"

/* The kernel's lo_device (new_encode_dev) as a dev_t. */
static dev_t loop_backing_dev(uint64_t lo_device)
{
    unsigned ma = (unsigned)((lo_device & 0xfff00) >> 8);
    unsigned mi = (unsigned)((lo_device & 0xff) | ((lo_device >> 12) & 0xfff00));
    return makedev(ma, mi);
}

int os_loop_attach(const char *image, char *device, size_t len)
{
    int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (ctl < 0)
        return error_errno("cannot open /dev/loop-control (is the loop module loaded?)");
    int img = open(image, O_RDWR | O_CLOEXEC);
    if (img < 0) {
        close(ctl);
        return error_errno("cannot open %s", image);
    }
    struct loop_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.fd = (unsigned)img;
    snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s", image);
    bool configure = true, raced = false;
    int rc = -1;
    for (int attempt = 0; attempt < 50 && rc < 0; attempt++) {
        raced = false;
        int nr = ioctl(ctl, LOOP_CTL_GET_FREE);
        if (nr < 0) {
            error_errno("no free loop device (LOOP_CTL_GET_FREE)");
            break;
        }
        snprintf(device, len, "/dev/loop%d", nr);
        int fd = -1;
        for (int i = 0; i < 20 && fd < 0; i++) {
            fd = open(device, O_RDWR | O_CLOEXEC);
            if (fd < 0 && errno == ENOENT)
                lx_sleep_ms(10); /* devtmpfs may be a moment late */
            else if (fd < 0)
                break;
        }
        if (fd < 0) {
            error_errno("cannot open %s", device);
            break;
        }
        int r = -1;
        if (configure) {
            r = ioctl(fd, LOOP_CONFIGURE, &cfg);
            if (r < 0 && (errno == EINVAL || errno == ENOTTY))
                configure = false; /* before Linux 5.8 */
        }
        if (!configure) {
            r = ioctl(fd, LOOP_SET_FD, img);
            if (r == 0 && ioctl(fd, LOOP_SET_STATUS64, &cfg.info) < 0) {
                int e = errno;
                ioctl(fd, LOOP_CLR_FD, 0);
                close(fd);
                error_num(e, "cannot set up %s for %s (LOOP_SET_STATUS64)", device, image);
                break;
            }
        }
        int e = errno;
        close(fd);
        if (r == 0) {
            rc = 0;
        } else if (e == EBUSY) {
            raced = true; /* another process took it first: ask again */
            lx_sleep_ms(5);
        } else {
            error_num(e, "cannot attach %s to %s", image, device);
            break;
        }
    }
    if (raced)
        error("cannot attach %s: every free loop device was taken by others", image);
    close(img);
    close(ctl);
    if (rc < 0)
        device[0] = '\0';
    return rc;
}

/* What loop_detach failed at. */
enum { DETACH_OPEN = 1, DETACH_QUERY, DETACH_CLEAR };

/* os_loop_detach's work, with no message and only async-signal-safe calls: 0, or the errno
 * of the step that failed (*step which). */
static int loop_detach(const char *device, dev_t image_dev, ino_t image_ino, int *step)
{
    int fd = open(device, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return *step = DETACH_OPEN, errno;
    struct loop_info64 info;
    if (ioctl(fd, LOOP_GET_STATUS64, &info) < 0) {
        int e = errno;
        close(fd);
        if (e == ENXIO) /* not attached any more */
            return 0;
        return *step = DETACH_QUERY, e;
    }
    /* lo_device is the kernel's encoding (new_encode_dev), not necessarily glibc's dev_t */
    if (loop_backing_dev(info.lo_device) != image_dev || info.lo_inode != image_ino) {
        close(fd);
        return 0; /* someone else's now: leave it alone */
    }
    int r = -1, e = 0;
    for (int i = 0; i < 50; i++) {
        r = ioctl(fd, LOOP_CLR_FD, 0);
        e = errno;
        if (r == 0 || e != EBUSY)
            break;
        lx_sleep_ms(100);
    }
    close(fd);
    if (r < 0 && e != ENXIO)
        return *step = DETACH_CLEAR, e;
    return 0;
}

int os_loop_detach(const char *device, dev_t image_dev, ino_t image_ino)
{
    int step = 0, e = loop_detach(device, image_dev, image_ino, &step);
    if (!e)
        return 0;
    if (step == DETACH_OPEN)
        return error_num(e, "cannot open %s to detach it", device);
    if (step == DETACH_QUERY)
        return error_num(e, "cannot query %s", device);
    return error_num(e, "cannot detach %s (LOOP_CLR_FD)", device);
}

int os_loop_detach_quiet(const char *device, dev_t image_dev, ino_t image_ino)
{
    int step = 0, e = loop_detach(device, image_dev, image_ino, &step);
    if (!e)
        return 0;
    errno = e;
    return -1;
}

int os_loop_each(int (*fn)(const char *device, const char *backing, dev_t dev, ino_t ino,
                           void *arg),
                 void *arg)
{
    DIR *d = opendir("/sys/block");
    if (!d)
        return -1;
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d))) {
        unsigned nr;
        int used = 0;
        if (sscanf(de->d_name, "loop%u%n", &nr, &used) != 1 || de->d_name[used])
            continue;
        char path[PATH_MAX], backing[PATH_MAX] = "", device[64];
        /* the full path (lo_file_name holds only its first 63 bytes) */
        snprintf(path, sizeof path, "/sys/block/%s/loop/backing_file", de->d_name);
        FILE *f = fopen(path, "re");
        if (!f)
            continue; /* not attached */
        if (!fgets(backing, sizeof backing, f))
            backing[0] = '\0';
        fclose(f);
        backing[strcspn(backing, "\n")] = '\0';
        snprintf(device, sizeof device, "/dev/%s", de->d_name);
        int fd = open(device, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        struct loop_info64 info;
        int r = ioctl(fd, LOOP_GET_STATUS64, &info);
        close(fd);
        if (r < 0)
            continue; /* detached meanwhile */
        rc = fn(device, backing, loop_backing_dev(info.lo_device), (ino_t)info.lo_inode, arg);
    }
    closedir(d);
    return rc;
}
