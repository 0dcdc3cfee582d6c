/* linux_devcheck.c — the safety checks a real block device passes before fsbench will mkfs
 * it (os_device_check(), see devcheck.h), on Linux: it is a block device with a medium; neither it nor
 * any of its partitions is mounted, swap, held by device-mapper/LVM/RAID or backing a loop
 * device; the kernel grants an exclusive open; and libblkid finds no file-system, RAID, LVM,
 * encryption or partition-table signature on it unless force.
 *
 * Invariants: the checks only read (sysfs, /proc, an O_RDONLY|O_EXCL open, a blkid probe)
 * and never change the device; every refusal goes through error() naming the device, what
 * is in use and, where one exists, how to release it. Only the signature check yields to
 * force.
 */
#include "os/devcheck.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h> /* BLKGETSIZE64 */
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "base/err.h"
#include "os/linux_util.h"

/* "M:m" in a sysfs dev file -> dev_t. 0 or -1. */
static int devcheck_read_devnum(const char *path, dev_t *out)
{
    char buf[32];
    unsigned ma, mi;
    if (lx_read_line(path, buf, sizeof buf) < 0 || sscanf(buf, "%u:%u", &ma, &mi) != 2)
        return -1;
    *out = makedev(ma, mi);
    return 0;
}

#define DEVCHECK_MAX_PARTS 64

/* The device and its partitions: what must not be in use. */
struct devcheck_devset {
    size_t n;
    dev_t dev[DEVCHECK_MAX_PARTS + 1];
    char name[DEVCHECK_MAX_PARTS + 1][64]; /* sysfs name: "sda", "sda1" */
};

static bool devcheck_devset_has(const struct devcheck_devset *s, dev_t d, size_t *at)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->dev[i] == d) {
            if (at)
                *at = i;
            return true;
        }
    return false;
}

/* Fills s with the device and its partitions from /sys/dev/block/M:m. */
static void devcheck_devset_fill(struct devcheck_devset *s, dev_t rdev)
{
    char sys[128], path[PATH_MAX], real[PATH_MAX];
    snprintf(sys, sizeof sys, "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
    s->n = 1;
    s->dev[0] = rdev;
    snprintf(s->name[0], sizeof s->name[0], "%u:%u", major(rdev), minor(rdev));
    if (realpath(sys, real)) {
        const char *base = strrchr(real, '/');
        snprintf(s->name[0], sizeof s->name[0], "%s", base ? base + 1 : real);
    }
    DIR *d = opendir(sys);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) && s->n <= DEVCHECK_MAX_PARTS) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/partition", sys, e->d_name);
        if (access(path, F_OK) < 0)
            continue;
        snprintf(path, sizeof path, "%s/%s/dev", sys, e->d_name);
        if (devcheck_read_devnum(path, &s->dev[s->n]) < 0)
            continue;
        snprintf(s->name[s->n], sizeof s->name[s->n], "%s", e->d_name);
        s->n++;
    }
    closedir(d);
}

/* The part of a refusal that names what is in use: "it" or "its partition /dev/sda1". */
static const char *devcheck_which(const struct devcheck_devset *s, size_t i, char *buf, size_t len)
{
    if (i == 0)
        return "it";
    snprintf(buf, len, "its partition /dev/%s", s->name[i]);
    return buf;
}

/* Decodes mountinfo's octal escapes (\040 for a blank) in place. */
static void devcheck_unescape(char *s)
{
    char *o = s;
    for (; *s; s++) {
        if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
            s[3] >= '0' && s[3] <= '7') {
            *o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
            s += 3;
        } else {
            *o++ = *s;
        }
    }
    *o = '\0';
}

/* Refuses if the device or a partition is mounted here: by M:m or by mount source (btrfs
 * reports an anonymous M:m). 0 or -1 after error(). */
static int devcheck_check_mounted(const char *dev, const struct devcheck_devset *s)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return error_errno("cannot check whether %s is mounted: /proc/self/mountinfo", dev);
    char *line = NULL, which[96];
    size_t cap = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, f) > 0) {
        unsigned ma, mi;
        char mp[PATH_MAX], src[PATH_MAX];
        char *sep = strstr(line, " - ");
        if (!sep || sscanf(line, "%*s %*s %u:%u %*s %4095s", &ma, &mi, mp) != 3)
            continue;
        size_t at;
        bool hit = devcheck_devset_has(s, makedev(ma, mi), &at);
        if (!hit && sscanf(sep + 3, "%*s %4095s", src) == 1 && src[0] == '/') {
            struct stat st;
            devcheck_unescape(src);
            hit =
                stat(src, &st) == 0 && S_ISBLK(st.st_mode) && devcheck_devset_has(s, st.st_rdev, &at);
        }
        if (hit) {
            devcheck_unescape(mp);
            rc = error("refusing to use %s: %s is mounted on %s (no flag overrides this: "
                       "unmount it first)",
                       dev, devcheck_which(s, at, which, sizeof which), mp);
        }
    }
    free(line);
    fclose(f);
    return rc;
}

/* Refuses if the device or a partition is swap, held by device-mapper/RAID, or backs a loop
 * device. 0 or -1 after error(). */
static int devcheck_check_users(const char *dev, const struct devcheck_devset *s)
{
    char path[PATH_MAX], buf[PATH_MAX], which[96];
    FILE *f = fopen("/proc/swaps", "re");
    if (f) {
        while (fgets(buf, sizeof buf, f)) {
            struct stat st;
            buf[strcspn(buf, " \t\n")] = '\0';
            size_t at;
            if (buf[0] == '/' && stat(buf, &st) == 0 && S_ISBLK(st.st_mode) &&
                devcheck_devset_has(s, st.st_rdev, &at)) {
                fclose(f);
                return error("refusing to use %s: %s is in use as swap (no flag overrides "
                             "this: swapoff it first)",
                             dev, devcheck_which(s, at, which, sizeof which));
            }
        }
        fclose(f);
    }
    for (size_t i = 0; i < s->n; i++) {
        snprintf(path, sizeof path, "/sys/dev/block/%u:%u/holders", major(s->dev[i]),
                 minor(s->dev[i]));
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (e->d_name[0] != '.') {
                snprintf(buf, sizeof buf, "%s", e->d_name);
                closedir(d);
                return error("refusing to use %s: %s is held by %s (device-mapper, LVM or RAID; "
                             "no flag overrides this)",
                             dev, devcheck_which(s, i, which, sizeof which), buf);
            }
        if (d)
            closedir(d);
    }
    DIR *d = opendir("/sys/block");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, "loop", 4))
            continue;
        snprintf(path, sizeof path, "/sys/block/%s/loop/backing_file", e->d_name);
        if (lx_read_line(path, buf, sizeof buf) < 0)
            continue;
        struct stat st;
        size_t at;
        if (stat(buf, &st) == 0 && S_ISBLK(st.st_mode) && devcheck_devset_has(s, st.st_rdev, &at)) {
            char loop[64];
            snprintf(loop, sizeof loop, "%s", e->d_name);
            closedir(d);
            return error("refusing to use %s: %s backs the loop device /dev/%s (no flag "
                         "overrides this: losetup -d /dev/%s first)",
                         dev, devcheck_which(s, at, which, sizeof which), loop, loop);
        }
    }
    if (d)
        closedir(d);
    return 0;
}

/* Refuses a file-system, RAID, LVM, encryption or partition-table signature unless force. */
static int devcheck_check_signature(const char *dev, bool force)
{
    blkid_probe pr = blkid_new_probe_from_filename(dev);
    if (!pr)
        return error_errno("cannot probe %s for signatures (libblkid)", dev);
    blkid_probe_enable_superblocks(pr, 1);
    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
    blkid_probe_enable_partitions(pr, 1);
    int r = blkid_do_safeprobe(pr);
    int rc = 0;
    if (r == -2 && !force) {
        rc = error("refusing to use %s without --force: it carries several conflicting "
                   "signatures (see wipefs %s)",
                   dev, dev);
    } else if (r < 0 && r != -2) {
        rc = error("cannot probe %s for signatures (libblkid failed)", dev);
    } else if (r == 0 && !force) {
        const char *type = NULL, *usage = NULL, *kind = "a file-system";
        if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
            kind = "a partition-table";
        } else {
            blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
            blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
            if (type && !strncmp(type, "LVM", 3))
                kind = "an LVM";
            else if (usage && !strcmp(usage, "raid"))
                kind = "a RAID";
            else if (usage && !strcmp(usage, "crypto"))
                kind = "an encryption";
            else if (usage && strcmp(usage, "filesystem"))
                kind = "a";
        }
        rc = error("refusing to use %s without --force: it carries %s signature (TYPE=%s)", dev,
                   kind, type ? type : "unknown");
    }
    blkid_free_probe(pr);
    return rc;
}

int os_device_check(const char *dev, bool force)
{
    struct stat st;
    if (!dev || !*dev)
        return error("no device named");
    if (stat(dev, &st) < 0)
        return error_errno("cannot use %s", dev);
    if (!S_ISBLK(st.st_mode))
        return error("refusing to use %s: it is not a block device", dev);
    struct devcheck_devset s;
    devcheck_devset_fill(&s, st.st_rdev);
    if (devcheck_check_mounted(dev, &s) < 0 || devcheck_check_users(dev, &s) < 0)
        return -1;
    /* The kernel's own view: an exclusive open fails while it is mounted (also in another
     * mount namespace), swap, or claimed by device-mapper or RAID. */
    int fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
    if (fd < 0 && errno == EBUSY)
        return error("refusing to use %s: it is in use (mounted elsewhere, swap, RAID or "
                     "device-mapper; no flag overrides this)",
                     dev);
    if (fd < 0)
        return error_errno("cannot open %s", dev);
    uint64_t bytes = 0;
    int r = ioctl(fd, BLKGETSIZE64, &bytes);
    close(fd);
    if (r == 0 && bytes == 0)
        return error("refusing to use %s: it has no medium (size 0)", dev);
    return devcheck_check_signature(dev, force);
}
