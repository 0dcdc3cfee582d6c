/* target.h — a file system fsbench manages itself: a sparse image file on a loop device, or a
 * real block device named with an explicit confirmation, mkfs'ed and mounted on a private
 * mount point, and always released.
 *
 * Safety: mkfs runs only on an image this module created, or on the device the user named
 * with destroy_data set, and never on a device that is mounted, holds a mounted partition,
 * backs a loop device, or carries a file-system/RAID/LVM signature (libblkid) unless force.
 * target_destroy() unmounts, detaches and removes whatever was set up, in reverse order, and
 * is safe on a partly set-up target and after a signal.
 */
#ifndef FSBENCH_TARGET_H
#define FSBENCH_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct target_spec {
    uint64_t image_bytes;       /* > 0: make a sparse image of this size */
    const char *image_dir;      /* where the image and mount point go (NULL: $TMPDIR or /tmp) */
    const char *device;         /* or: a real block device */
    bool destroy_data;          /* required with device */
    bool force;                 /* allow a device carrying a signature */
    const char *fstype;         /* "ext4", "xfs", "btrfs", ... */
    const char *mkfs_opts;      /* extra mkfs options, split on blanks (may be NULL); only
                                   what fsopts.h allows for the file system is passed on */
};

struct target;

/* Creates the image and attaches it to a free loop device, or checks the device.
 * NULL after error() naming what was wrong. Needs root. */
struct target *target_create(const struct target_spec *spec);
/* Releases what killed runs left of targets (leftover.h) where spec's images go, in a line
 * each, as target_create() does first (a caller that hides target_create()'s messages, the
 * pre-flight, calls it before). Root only: without root, nothing. */
void target_release_leftovers(const struct target_spec *spec);
/* Chooses the file system the next target_mkfs() makes (a matrix has several). 0 or -1. */
int target_set_fs(struct target *t, const char *fstype);
/* mkfs.<fstype> with the options (refused, naming the word, unless fsopts_check_mkfs()
 * allows them); a missing mkfs names its Debian package. 0 or -1. */
int target_mkfs(struct target *t);
/* Mounts on the private mount point with mount_opts ("defaults" or NULL: none), refused
 * unless fsopts_check_mount() allows them.
 * Options mount(2) takes as flags (ro, sync, noatime, nodiratime, relatime, dirsync, ...) are
 * turned into flags; the rest is passed as data. 0 or -1 after error(). */
int target_mount(struct target *t, const char *mount_opts);
/* Unmounts (the time this takes is the umount phase). 0 or -1 after error(). */
int target_umount(struct target *t);
bool target_is_mounted(const struct target *t);
const char *target_mount_point(const struct target *t);
const char *target_device(const struct target *t);   /* "/dev/loop3" */
/* Keeps the image past target_destroy() (--keep-image): moves it out of the target's own
 * directory to DIR/fsbench-NAME.img beside it (DIR: where the image went; -2, -3 ... added
 * when taken; never replacing a file), where neither target_destroy() nor a later fsbench's
 * leftover release removes it. The mount and the loop device are still released by
 * target_destroy(). On a device target nothing moves: the device is the place. The place
 * goes to path (len bytes). 0, or -1 after error() (the image is then removed as usual). */
int target_keep(struct target *t, const char *name, char *path, size_t len);
/* Releases everything; NULL is fine. Returns 0, or -1 if something could not be released
 * (after error() naming it). */
int target_destroy(struct target *t);
/* Destroys every live target (they are kept in a small static registry), for a fatal path or
 * the cleanup after a signal. 0, or -1 if something could not be released. */
int target_destroy_all(void);
/* What target_destroy_all() does, for a fault's handler (sig_at_fatal): async-signal-safe,
 * so no message, no allocation, no formatting (umount2, ioctl, unlink, rmdir, close,
 * nanosleep); what cannot be released is left for the next fsbench (leftover.h). */
void target_release_on_fault(void);

/* The smallest image mkfs.<fstype> makes a file system on with its default options (ext2-4:
 * 128 KiB, btrfs: 109 MiB, xfs: 300 MiB, as e2fsprogs 1.47, btrfs-progs 6 and xfsprogs 6
 * have them); 0 for a file system whose smallest is not known here. */
uint64_t target_min_image(const char *fstype);

/* Checks a block device for use (no mkfs): 0 if it may be used, -1 after error(). */
int target_check_device(const char *dev, bool force);

/* Checks that mkfs.<fstype> is installed (else names the Debian package to install) and that
 * the running kernel can mount fstype (when that can be known). 0 or -1 after error(). */
int target_check_fstype(const char *fstype);

/* Splits mount options as mount(8) does: flag words (ro, rw, sync, async, dirsync, noatime,
 * atime, nodiratime, relatime, strictatime, lazytime, nodev, nosuid, noexec, mand, ...) set or
 * clear MS_* bits in *flags; "defaults" and empty words do nothing; every other word is joined
 * with ',' into data (len bytes, "" if none). opts NULL is "defaults". 0, or -1 if data does
 * not fit (no message). */
int target_parse_mount_opts(const char *opts, unsigned long *flags, char *data, size_t len);

/* Parses "4G", "256M", "1048576" (binary units K, M, G, T; optional trailing B/iB).
 * 0 or -1 (no message). */
int target_parse_size(const char *s, uint64_t *out);

#endif
