/* fsopts.h — which mkfs and mount options fsbench passes on: an allow-list per file system,
 * each option with the shape of its value.
 *
 * mkfs and mount options are data, never orders: no word may name a path or a device, and no
 * word may reach mkfs as an operand (mkfs.btrfs takes several devices, mkfs.ext4 and
 * mkfs.f2fs a size after the device, and each would take a stray word for one). So every mkfs
 * word is an option on the file system's list (exactly as its mkfs parses it), or the value of
 * the option before it in the shape the list gives; every mount word is one of the generic
 * flags (ro, noatime, ...) or a data option on the file system's list. Options that name a
 * file or another device (mkfs.xfs -l logdev=, mkfs.ext4 -d, -J device=, -z; mount logdev=,
 * journal_path=, device=, source=, loop=) are refused with the reason, as is anything not on
 * a list. The lists cover ext2, ext3, ext4, xfs, btrfs, f2fs, vfat, msdos and exfat (the
 * file systems target.c knows); another type gets no mkfs options and the generic mount flags
 * only. Pure: no system calls.
 */
#ifndef FSBENCH_FSOPTS_H
#define FSBENCH_FSOPTS_H

#include <stddef.h>

/* What mkfs options are split on: one word per argument of mkfs. */
#define FSOPTS_BLANKS " \t\n"

/* Checks mkfs options for mkfs.<fstype> (words split on FSOPTS_BLANKS; NULL or blank: none).
 * 0, or -1 with one line in why naming the refused word, the file system and the reason
 * ("'/dev/sdb' is refused for btrfs: it names a path or device ..."). */
int fsopts_check_mkfs(const char *fstype, const char *opts, char *why, size_t len);

/* Checks a mount option set for fstype (comma separated, as mount -o takes it; NULL,
 * "defaults" or empty words: none). 0, or -1 with one line in why as above. */
int fsopts_check_mount(const char *fstype, const char *opts, char *why, size_t len);

/* The mkfs options fsbench allows for fstype, blank separated ("-b -C -D ..."), into buf;
 * "" for a type it knows none of. Returns buf. */
const char *fsopts_mkfs_names(const char *fstype, char *buf, size_t len);

/* The data mount options (keys) fsbench allows for fstype, blank separated; "" for a type it
 * knows none of. Returns buf. */
const char *fsopts_mount_names(const char *fstype, char *buf, size_t len);

/* The generic mount flag words every file system takes (ro, rw, noatime, ...), NULL-ended. */
extern const char *const fsopts_mount_flags[];

#endif
