/* mounts.h — which mounted file system holds a path: its type, mount point, options and
 * source, for the descriptions stored with results and for finding the block device behind
 * a target.
 */
#ifndef FSBENCH_OS_MOUNTS_H
#define FSBENCH_OS_MOUNTS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct os_mount {
    unsigned major, minor; /* the file system's device number */
    char mount_point[PATH_MAX];
    char mount_opts[1024]; /* per-mount options, then super options, deduplicated */
    char fstype[64];
    char source[PATH_MAX];
};

/* Finds the mount holding the real (resolved) path `path`. With want_dev, a mount whose
 * device number is dev is preferred; a path with no such mount (a btrfs subvolume has its
 * own st_dev) takes the longest prefix of all. 0 when found, 1 when none, -1 with errno set
 * when the mount table cannot be read (ENOSYS: the POSIX fallback has none). */
int os_mount_find(const char *path, bool want_dev, dev_t dev, struct os_mount *out);

/* Calls fn for every mount in the mount table, in its order, until fn returns non-zero
 * (which is returned). 0, or -1 with errno when the table cannot be read (ENOSYS: the POSIX
 * fallback has none). */
int os_mounts_each(int (*fn)(const struct os_mount *m, void *arg), void *arg);
/* The path of what open fd refers to (/proc/self/fd/N on Linux), into buf: 0, or -1 with
 * errno (ENOSYS in the POSIX fallback; callers then name it otherwise). */
int os_fd_path(int fd, char *buf, size_t len);

#endif
