/* engine_null.c — the null engine: every operation succeeds at once without a system call.
 *
 * It measures the harness itself: tree generation, phase logic and the per-operation
 * accounting (two clock reads and a histogram update, exactly as the posix engine pays).
 * Its rate is the ceiling of what fsbench can drive. Directories read as empty, so walking
 * phases see nothing; creating phases count every file and byte they would have written.
 */
#include "engine/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

/* Fake directory fds: never passed to the kernel, only back to this engine. */
#define NULL_FD_BASE 1000000

static inline int count(struct eng_worker *w, enum op_kind kind, uint64_t bytes)
{
    uint64_t t0 = meas_op_clock();
    opstats_record(w->st, kind, t0, meas_op_clock(), bytes);
    return 0;
}

static int nl_opendir(struct eng_worker *w, int dirfd, const char *name)
{
    count(w, OP_OPEN, 0);
    return NULL_FD_BASE;
}

static int nl_close(struct eng_worker *w, int fd)
{
    return count(w, OP_CLOSE, 0);
}

static int nl_mkdir(struct eng_worker *w, int dirfd, const char *name, mode_t mode)
{
    return count(w, OP_MKDIR, 0);
}

static int nl_create_file(struct eng_worker *w, int dirfd, const char *name, mode_t mode,
                          const void *data, size_t len, uint64_t size, unsigned flags)
{
    count(w, OP_CREATE, 0);
    if (len == 0 && size > 0)
        return -EINVAL;
    while (size > 0) {
        uint64_t n = size < len ? size : len;
        count(w, OP_WRITE, n);
        size -= n;
    }
    if (flags & ENG_CREATE_FSYNC)
        count(w, OP_FSYNC, 0);
    return count(w, OP_CLOSE, 0);
}

static int nl_read_file(struct eng_worker *w, int dirfd, const char *name, void *buf,
                        size_t buflen, uint64_t *bytes)
{
    *bytes = 0;
    count(w, OP_OPEN, 0);
    count(w, OP_READ, 0);
    return count(w, OP_CLOSE, 0);
}

static int nl_stat(struct eng_worker *w, int dirfd, const char *name, struct stat *st)
{
    memset(st, 0, sizeof *st);
    st->st_mode = S_IFREG | 0644;
    return count(w, OP_STAT, 0);
}

static int nl_getdents(struct eng_worker *w, int dirfd, void *buf, size_t len)
{
    return count(w, OP_READDIR, 0);
}

static int nl_unlink(struct eng_worker *w, int dirfd, const char *name, int flags)
{
    return count(w, (flags & AT_REMOVEDIR) ? OP_RMDIR : OP_UNLINK, 0);
}

static int nl_rename(struct eng_worker *w, int odir, const char *oname, int ndir,
                     const char *nname)
{
    return count(w, OP_RENAME, 0);
}

static int nl_symlink(struct eng_worker *w, const char *target, int dirfd, const char *name)
{
    return count(w, OP_SYMLINK, 0);
}

static int nl_readlink(struct eng_worker *w, int dirfd, const char *name, char *buf, size_t len)
{
    count(w, OP_READLINK, 0);
    return -EINVAL;
}

static int nl_link(struct eng_worker *w, int odir, const char *oname, int ndir, const char *nname)
{
    return count(w, OP_LINK, 0);
}

static int nl_copy_file(struct eng_worker *w, int sdirfd, const char *sname, int ddirfd,
                        const char *dname, mode_t mode, const struct timespec times[2],
                        void *buf, size_t buflen, uint64_t *bytes)
{
    *bytes = 0;
    count(w, OP_OPEN, 0);
    count(w, OP_CREATE, 0);
    count(w, OP_COPY, 0);
    count(w, OP_CLOSE, 0);
    return count(w, OP_CLOSE, 0);
}

static int nl_set_times(struct eng_worker *w, int dirfd, const char *name,
                        const struct timespec times[2])
{
    return count(w, OP_SETATTR, 0);
}

static int nl_fsync(struct eng_worker *w, int fd)
{
    return count(w, OP_FSYNC, 0);
}

static int nl_syncfs(struct eng_worker *w, int fd)
{
    return count(w, OP_SYNCFS, 0);
}

static int nl_open(struct eng_worker *w, int dirfd, const char *name, int flags, mode_t mode)
{
    count(w, (flags & O_CREAT) ? OP_CREATE : OP_OPEN, 0);
    return NULL_FD_BASE;
}

static long nl_write(struct eng_worker *w, int fd, const void *buf, size_t len)
{
    count(w, OP_WRITE, len);
    return (long)len;
}

static long nl_pwrite(struct eng_worker *w, int fd, const void *buf, size_t len, uint64_t off)
{
    count(w, OP_WRITE, len);
    return (long)len;
}

static long nl_read(struct eng_worker *w, int fd, void *buf, size_t len)
{
    count(w, OP_READ, 0);
    return 0;
}

static int nl_ftruncate(struct eng_worker *w, int fd, uint64_t len)
{
    return count(w, OP_SETATTR, 0);
}

static int nl_fsetattr(struct eng_worker *w, int fd, mode_t mode, const struct timespec times[2])
{
    return count(w, OP_SETATTR, 0);
}

static int nl_futimens(struct eng_worker *w, int fd, const struct timespec times[2])
{
    return count(w, OP_SETATTR, 0);
}

static int nl_fchown(struct eng_worker *w, int fd, uid_t uid, gid_t gid)
{
    return count(w, OP_SETATTR, 0);
}

static int nl_fchmod(struct eng_worker *w, int fd, mode_t mode)
{
    return count(w, OP_SETATTR, 0);
}

static int nl_lchown(struct eng_worker *w, int dirfd, const char *name, uid_t uid, gid_t gid)
{
    return count(w, OP_SETATTR, 0);
}

static int nl_drain(struct eng_worker *w)
{
    return 0;
}

const struct engine engine_null = {
    .name = "null",
    .desc = "does nothing: measures the harness itself (its rate is fsbench's ceiling)",
    .caps = 0,
    .opendir = nl_opendir,
    .close = nl_close,
    .mkdir = nl_mkdir,
    .create_file = nl_create_file,
    .read_file = nl_read_file,
    .stat = nl_stat,
    .getdents = nl_getdents,
    .unlink = nl_unlink,
    .rename = nl_rename,
    .symlink = nl_symlink,
    .readlink = nl_readlink,
    .link = nl_link,
    .copy_file = nl_copy_file,
    .set_times = nl_set_times,
    .fsync = nl_fsync,
    .syncfs = nl_syncfs,
    .open = nl_open,
    .write = nl_write,
    .pwrite = nl_pwrite,
    .read = nl_read,
    .ftruncate = nl_ftruncate,
    .fsetattr = nl_fsetattr,
    .futimens = nl_futimens,
    .fchown = nl_fchown,
    .fchmod = nl_fchmod,
    .lchown = nl_lchown,
    .drain = nl_drain,
};
