/* beneath.h — opening a path below a directory fd with no symlink followed at any component
 * and no mount point crossed: what keeps every phase inside its run directory, whatever
 * renames and symlinks race it (fsbench runs as root in directories others can write).
 *
 * A path here is relative: names joined by '/' ("a/b/c"; "." is the directory itself). It is
 * resolved below dirfd, and refused with:
 *   ELOOP        some component is a symlink (the last one too: O_NOFOLLOW is always added,
 *                and where the kernel says ENOTDIR for a final symlink opened with
 *                O_DIRECTORY, the name is looked at again to say ELOOP);
 *   ENOTDIR      a component before the last is not a directory (or the last, with
 *                O_DIRECTORY);
 *   EXDEV        a component is a mount point: another file system, or (on Linux) a bind
 *                mount of the same one; and an absolute path or any ".." component;
 *   ENAMETOOLONG the path is PATH_MAX bytes or longer (callers open long paths in pieces).
 * Linux: openat2(2) with RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV, and RESOLVE_BENEATH for a
 * path of several names (a single name cannot escape, and BENEATH costs the kernel a final
 * ancestry check): one system call, whatever the depth. Where the kernel has no openat2
 * (ENOSYS: before 5.6, or a filter that hides it; remembered for the process) and in the
 * POSIX-only build: the walk, each component opened with O_NOFOLLOW | O_DIRECTORY from the
 * fd of the one before, and its device compared with dirfd's (fstat), so the walk costs an
 * fstat of dirfd and one of each component on top of the opens.
 *
 * Every function returns what the system call would: an fd (0) or -1 with errno set.
 */
#ifndef FSBENCH_OS_BENEATH_H
#define FSBENCH_OS_BENEATH_H

#include <sys/stat.h>
#include <sys/types.h>

/* What a path is, for os_open_beneath and engines that build their own openat2 (io_uring). */
enum { OS_BENEATH_NAME = 1, OS_BENEATH_PATH = 2 };
/* OS_BENEATH_NAME (one name, "." included), OS_BENEATH_PATH (several), or -errno: -EXDEV for
 * an absolute path or a ".." component, -ENOENT for "", -ENAMETOOLONG from PATH_MAX on. */
int os_beneath_kind(const char *path);

/* openat(dirfd, path, flags | O_NOFOLLOW | O_CLOEXEC, mode) resolved as the file comment
 * says. flags: open(2) flags; O_CREAT creates the last component only. */
int os_open_beneath(int dirfd, const char *path, int flags, mode_t mode);
/* The same by the component-by-component walk, always (the fallback; the tests run it on
 * Linux too). */
int os_open_beneath_walk(int dirfd, const char *path, int flags, mode_t mode);

/* The errno an open of path below dirfd with flags should report for the error e: ELOOP
 * instead of ENOTDIR when the last component is a symlink (looked at again, beneath dirfd);
 * e otherwise. For engines that open by other means (io_uring). */
int os_beneath_errno(int dirfd, const char *path, int flags, int e);

/* lstat of path below dirfd: its directory resolved by os_open_beneath, then fstatat with
 * AT_SYMLINK_NOFOLLOW of the last name (EXDEV when that is a mount point). 0 or -1. */
int os_stat_beneath(int dirfd, const char *path, struct stat *st);
/* The same with its directory resolved by open_dir (os_open_beneath or the walk). */
int os_stat_beneath_by(int dirfd, const char *path, struct stat *st,
                       int (*open_dir)(int dirfd, const char *path, int flags, mode_t mode));

#endif
