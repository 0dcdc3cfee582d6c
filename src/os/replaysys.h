/* replaysys.h — the system calls a replayed trace makes that POSIX does not have, or has
 * in another form: the Linux-only open flags, chmod of a name that must not follow a
 * symlink, copy offload, fallocate, sync_file_range, statfs of a descriptor, renameat2's
 * flags, lseek's SEEK_DATA and SEEK_HOLE, a map with its pages faulted in.
 *
 * Linux: the calls themselves. POSIX-only build: the nearest POSIX call (posix_fallocate,
 * fdatasync, fstatvfs, read and write for a copy), or ENOTSUP / EINVAL where there is none,
 * which a replay then reports as a call whose result differs from the recorded one. Every
 * function returns what the system call would: a value >= 0, or -1 with errno set.
 */
#ifndef FSBENCH_OS_REPLAYSYS_H
#define FSBENCH_OS_REPLAYSYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Open flags beyond POSIX's. */
enum {
    OS_OPEN_DIRECT = 1u << 0,
    OS_OPEN_NOATIME = 1u << 1,
    OS_OPEN_PATH = 1u << 2,
    OS_OPEN_TMPFILE = 1u << 3,
};
/* The open(2) bits for the OS_OPEN_* flags in want, or -1 with errno EINVAL when the system
 * has one of them not. */
int os_open_flags(unsigned want);

/* fchmodat(dirfd, name, mode) that never follows a symlink named name: EOPNOTSUPP for
 * one (Linux: fchmodat2 with AT_SYMLINK_NOFOLLOW, else glibc's equivalent). */
int os_fchmodat_nofollow(int dirfd, const char *name, mode_t mode);

/* copy_file_range(in, inoff, out, outoff, len, 0); an offset pointer may be NULL (the
 * descriptor's own offset is used and moved). Falls back to read and write through buf
 * (buflen bytes) where the kernel refuses the copy between these files. */
long os_copy_range(int in, int64_t *inoff, int out, int64_t *outoff, size_t len, void *buf,
                   size_t buflen);

/* fallocate(fd, mode, off, len); mode from these bits. */
enum { OS_FALLOC_KEEP_SIZE = 1, OS_FALLOC_PUNCH_HOLE = 2, OS_FALLOC_ZERO_RANGE = 4 };
int os_fallocate(int fd, unsigned mode, int64_t off, int64_t len);

/* sync_file_range(fd, off, len, flags) with Linux's flag values (1 wait before, 2 write,
 * 4 wait after); POSIX: fdatasync. */
int os_sync_range(int fd, int64_t off, int64_t len, unsigned flags);

/* statfs of the file system holding fd (the figures are not kept). */
int os_fstatfs_any(int fd);

/* renameat, or renameat2 with flags (1 NOREPLACE, 2 EXCHANGE, 4 WHITEOUT). */
int os_renameat_flags(int olddirfd, const char *oldname, int newdirfd, const char *newname,
                      unsigned flags);

/* lseek's whence for 0 SEEK_SET, 1 SEEK_CUR, 2 SEEK_END, 3 SEEK_DATA, 4 SEEK_HOLE; -1 when
 * the system has no such whence. */
int os_seek_whence(unsigned which);

/* A read-only private map of len bytes of fd from off (a multiple of the page size), its
 * pages faulted in by the kernel as a program's touches would fault them (Linux:
 * MAP_POPULATE, which stops at the file's end where a touch would raise SIGBUS; the
 * POSIX-only build reads one byte of each page, len being within the file's size). The
 * address, or NULL with errno set. Undone by os_unmap. */
void *os_map_populated(int fd, uint64_t off, size_t len);
int os_unmap(void *addr, size_t len);

#endif
