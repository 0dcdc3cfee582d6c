/* mount.h — mounting and unmounting a file system, the option words the system takes as
 * flags, and whether the running kernel can mount a type at all. Needs root. The POSIX
 * fallback mounts nothing (ENOSYS): managed targets (--image, --device) need Linux.
 */
#ifndef FSBENCH_OS_MOUNT_H
#define FSBENCH_OS_MOUNT_H

#include <stdbool.h>
#include <stddef.h>

/* Splits mount options as mount(8) does: flag words (ro, rw, sync, async, dirsync, noatime,
 * relatime, lazytime, nodev, nosuid, noexec, ...; "defaults" is none) into *flags, the rest
 * comma-joined into data (len bytes) for the file system. NULL opts: no flags, empty data.
 * 0, or -1 when data does not fit. The POSIX fallback knows no flag words. */
int os_mount_parse_opts(const char *opts, unsigned long *flags, char *data, size_t len);
/* Mounts device on dir as fstype with flags and data (may be NULL): 0, or -1 with errno. */
int os_mount(const char *device, const char *dir, const char *fstype, unsigned long flags,
             const char *data);
/* Unmounts dir without following a symlink; lazy detaches a busy mount (MNT_DETACH). 0, or
 * -1 with errno (EINVAL: not a mount point; EBUSY: in use). */
int os_umount(const char *dir, bool lazy);
/* Whether the running kernel can mount fstype: true, or false with the reason in why. */
bool os_fs_supported(const char *fstype, char *why, size_t len);

#endif
