/* sysinfo.c — descriptions stored with results: the machine (kernel, CPU, RAM, writeback
 * settings), the file system holding a target path, and the block device whose counters
 * measure.c reads around each phase. Declarations are in measure.h; what the system is
 * asked comes from os/ (machine.h, mounts.h, blockdev.h). Where the system cannot say (the
 * POSIX build has no mount table), the file system is "unknown" and there is no device.
 */
#include "measure/measure.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/err.h"
#include "os/machine.h"
#include "os/mounts.h"

/* Copies src into dst[size], truncating; always NUL-terminated. */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size) n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

int meas_dev_for_node(const char *node, struct os_blockdev *dev)
{
    struct stat st;
    memset(dev, 0, sizeof *dev);
    if (stat(node, &st) < 0) return error_errno("%s", node);
    if (!S_ISBLK(st.st_mode)) return error("%s: not a block device", node);
    os_blockdev_of(st.st_rdev, dev);
    return 0;
}

int meas_dev_for_path(const char *path, struct os_blockdev *dev)
{
    struct stat st;
    memset(dev, 0, sizeof *dev);
    if (stat(path, &st) < 0) return error_errno("%s", path);
    if (os_dev_is_block(st.st_dev)) {
        os_blockdev_of(st.st_dev, dev);
        if (dev->valid) return 0;
    }
    /* Anonymous device (tmpfs, btrfs, overlay, NFS): the mount source may be a block
     * device node (btrfs), or not (tmpfs, overlay): then there is nothing to measure. */
    char *real = realpath(path, NULL);
    if (!real) return error_errno("%s", path);
    struct os_mount *m = malloc(sizeof *m);
    if (!m) {
        free(real);
        return error("out of memory");
    }
    int rc = os_mount_find(real, true, st.st_dev, m);
    if (rc < 0)
        rc = errno == ENOSYS ? 1 : error_errno("cannot read the mount table");
    struct stat src;
    if (rc == 0 && m->source[0] == '/' && stat(m->source, &src) == 0 && S_ISBLK(src.st_mode))
        os_blockdev_of(src.st_rdev, dev);
    free(m);
    free(real);
    return rc < 0 ? -1 : 0;
}

/* ---- descriptions ---- */

int meas_target_probe(const char *path, struct target_info *t)
{
    memset(t, 0, sizeof *t);
    char *real = realpath(path, NULL);
    if (!real) return error_errno("%s", path);
    copy_str(t->path, sizeof t->path, real);

    struct stat st;
    struct os_mount *m = malloc(sizeof *m);
    if (!m) {
        free(real);
        return error("out of memory");
    }
    bool have_st = stat(real, &st) == 0;
    int rc = os_mount_find(real, have_st, have_st ? st.st_dev : 0, m);
    if (rc == 0) {
        copy_str(t->fstype, sizeof t->fstype, m->fstype);
        copy_str(t->mount_point, sizeof t->mount_point, m->mount_point);
        copy_str(t->mount_opts, sizeof t->mount_opts, m->mount_opts);
        copy_str(t->device, sizeof t->device, m->source);
    } else if (rc < 0 && errno == ENOSYS) {
        copy_str(t->fstype, sizeof t->fstype, "unknown");
        rc = 0;
    } else if (rc < 0) {
        rc = error_errno("%s: cannot read the mount table", real);
    } else {
        rc = error("%s: no mount found in the mount table", real);
    }
    free(m);

    struct os_blockdev dev;
    if (rc == 0 && meas_dev_for_path(real, &dev) == 0 && dev.valid)
        copy_str(t->blockdev, sizeof t->blockdev, dev.name);
    free(real);
    return rc;
}

void meas_machine_probe(struct machine_info *m)
{
    memset(m, 0, sizeof *m);
    if (gethostname(m->hostname, sizeof m->hostname) < 0)
        copy_str(m->hostname, sizeof m->hostname, "unknown");
    m->hostname[sizeof m->hostname - 1] = '\0';
    struct utsname u;
    if (uname(&u) == 0) {
        copy_str(m->kernel, sizeof m->kernel, u.release);
        copy_str(m->kernel_version, sizeof m->kernel_version, u.version);
        copy_str(m->arch, sizeof m->arch, u.machine);
    }
    if (os_cpu_model(m->cpu, sizeof m->cpu) < 0)
        copy_str(m->cpu, sizeof m->cpu, "unknown");
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    m->ncpu = n > 0 ? (int)n : 1;
    m->ram_bytes = os_ram_bytes();

    m->dirty_ratio = os_vm_setting("dirty_ratio");
    m->dirty_background_ratio = os_vm_setting("dirty_background_ratio");
    m->dirty_bytes = os_vm_setting("dirty_bytes");
    m->dirty_background_bytes = os_vm_setting("dirty_background_bytes");
    m->dirty_expire_centisecs = os_vm_setting("dirty_expire_centisecs");
    m->dirty_writeback_centisecs = os_vm_setting("dirty_writeback_centisecs");
    m->vfs_cache_pressure = os_vm_setting("vfs_cache_pressure");
}
