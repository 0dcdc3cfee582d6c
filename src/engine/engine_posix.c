/* engine_posix.c — the posix engine: each operation is the plain system call, relative to a
 * directory fd (openat, mkdirat, fstatat, os_getdents, unlinkat, renameat, ...), counted and
 * timed around the call itself. Data moves through the caller's buffer; copies use
 * copy_file_range and fall back to read/write where the file system or the system refuses
 * it. The system calls come from os/ (rawsys.h, dirent.h); directories are opened beneath
 * their parent with no symlink followed and no mount point crossed (beneath.h).
 */
#include "engine/engine.h"
#include "os/beneath.h"
#include "os/dirent.h"
#include "os/rawsys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* Ends a call started at t0: counts it (with `bytes` moved when it succeeded) and turns
 * r < 0 into -errno. It reads errno before anything else can change it. */
static inline long done(struct eng_worker *w, enum op_kind kind, uint64_t t0, long r,
                        uint64_t bytes)
{
    long e = r < 0 ? -(long)errno : 0;
    opstats_record(w->st, kind, t0, meas_op_clock(), r > 0 ? bytes : 0);
    return r < 0 ? e : r;
}

/* Like done(), for calls made back to back on one file (create, write, close): the end of
 * one is the start of the next, read from one clock reading, which saves a clock read per
 * call. The few instructions between two calls count into the second. *t is updated. */
static inline long chained(struct eng_worker *w, enum op_kind kind, uint64_t *t, long r,
                           uint64_t bytes)
{
    long e = r < 0 ? -(long)errno : 0;
    uint64_t now = meas_op_clock();
    opstats_record(w->st, kind, *t, now, r > 0 ? bytes : 0);
    *t = now;
    return r < 0 ? e : r;
}

static int px_opendir(struct eng_worker *w, int dirfd, const char *name)
{
    uint64_t t0 = meas_op_clock();
    long r = name[0] == '.' && name[1] == '.' && !name[2]
                 ? raw_openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
                 : os_open_beneath(dirfd, name, O_RDONLY | O_DIRECTORY, 0);
    return (int)done(w, OP_OPEN, t0, r, 0);
}

static int px_close(struct eng_worker *w, int fd)
{
    uint64_t t0 = meas_op_clock();
    long r = raw_close(fd);
    return (int)done(w, OP_CLOSE, t0, r, 0);
}

static int px_mkdir(struct eng_worker *w, int dirfd, const char *name, mode_t mode)
{
    uint64_t t0 = meas_op_clock();
    long r = mkdirat(dirfd, name, mode);
    return (int)done(w, OP_MKDIR, t0, r, 0);
}

/* Writes size bytes of data (len bytes repeated) to fd, the first write starting at *t
 * (chained()). 0 or -errno. */
static int write_pattern(struct eng_worker *w, int fd, const void *data, size_t len,
                         uint64_t size, uint64_t *t)
{
    while (size > 0) {
        size_t n = size < len ? (size_t)size : len;
        long r = raw_write(fd, data, n);
        r = chained(w, OP_WRITE, t, r, (uint64_t)r);
        if (r < 0)
            return (int)r;
        if (r == 0)
            return -EIO;
        size -= (uint64_t)r;
    }
    return 0;
}

static int px_create_file(struct eng_worker *w, int dirfd, const char *name, mode_t mode,
                          const void *data, size_t len, uint64_t size, unsigned flags)
{
    int oflags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW;
    if (flags & ENG_CREATE_EXCL)
        oflags |= O_EXCL;
    uint64_t t = meas_op_clock();
    long fd = raw_openat(dirfd, name, oflags, mode);
    fd = chained(w, OP_CREATE, &t, fd, 0);
    if (fd < 0)
        return (int)fd;
    int rc = write_pattern(w, (int)fd, data, len, size, &t);
    if (rc == 0 && (flags & ENG_CREATE_FSYNC)) {
        long r = raw_fsync((int)fd);
        rc = (int)chained(w, OP_FSYNC, &t, r, 0);
    }
    long r = raw_close((int)fd);
    int rc2 = (int)chained(w, OP_CLOSE, &t, r, 0);
    return rc ? rc : rc2;
}

static int px_read_file(struct eng_worker *w, int dirfd, const char *name, void *buf,
                        size_t buflen, uint64_t *bytes)
{
    *bytes = 0;
    uint64_t t = meas_op_clock();
    long fd = raw_openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0);
    fd = chained(w, OP_OPEN, &t, fd, 0);
    if (fd < 0)
        return (int)fd;
    int rc = 0;
    for (;;) {
        long r = raw_read((int)fd, buf, buflen);
        r = chained(w, OP_READ, &t, r, (uint64_t)r);
        if (r <= 0) {
            rc = (int)r;
            break;
        }
        *bytes += (uint64_t)r;
    }
    long r = raw_close((int)fd);
    int rc2 = (int)chained(w, OP_CLOSE, &t, r, 0);
    return rc ? rc : rc2;
}

static int px_stat(struct eng_worker *w, int dirfd, const char *name, struct stat *st)
{
    uint64_t t0 = meas_op_clock();
    long r = fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW);
    return (int)done(w, OP_STAT, t0, r, 0);
}

static int px_getdents(struct eng_worker *w, int dirfd, void *buf, size_t len)
{
    uint64_t t0 = meas_op_clock();
    long r = os_getdents(dirfd, buf, len);
    return (int)done(w, OP_READDIR, t0, r, 0);
}

static int px_unlink(struct eng_worker *w, int dirfd, const char *name, int flags)
{
    uint64_t t0 = meas_op_clock();
    long r = unlinkat(dirfd, name, flags);
    return (int)done(w, (flags & AT_REMOVEDIR) ? OP_RMDIR : OP_UNLINK, t0, r, 0);
}

static int px_rename(struct eng_worker *w, int odir, const char *oname, int ndir,
                     const char *nname)
{
    uint64_t t0 = meas_op_clock();
    long r = renameat(odir, oname, ndir, nname);
    return (int)done(w, OP_RENAME, t0, r, 0);
}

static int px_symlink(struct eng_worker *w, const char *target, int dirfd, const char *name)
{
    uint64_t t0 = meas_op_clock();
    long r = symlinkat(target, dirfd, name);
    return (int)done(w, OP_SYMLINK, t0, r, 0);
}

static int px_readlink(struct eng_worker *w, int dirfd, const char *name, char *buf, size_t len)
{
    if (len < 2)
        return -EINVAL;
    uint64_t t0 = meas_op_clock();
    long r = readlinkat(dirfd, name, buf, len);
    r = done(w, OP_READLINK, t0, r, 0);
    if (r < 0)
        return (int)r;
    if ((size_t)r >= len)
        return -ENAMETOOLONG;
    buf[r] = '\0';
    return (int)r;
}

static int px_link(struct eng_worker *w, int odir, const char *oname, int ndir, const char *nname)
{
    uint64_t t0 = meas_op_clock();
    long r = linkat(odir, oname, ndir, nname, 0);
    return (int)done(w, OP_LINK, t0, r, 0);
}

/* Copies in -> out: copy_file_range while the file system takes it, else read/write. */
static int copy_data(struct eng_worker *w, int in, int out, void *buf, size_t buflen,
                     uint64_t *bytes)
{
    int use_cfr = 1;
    for (;;) {
        uint64_t t0 = meas_op_clock();
        long r;
        if (use_cfr) {
            r = raw_copy_file_range(in, out, 1u << 30);
            r = done(w, OP_COPY, t0, r, (uint64_t)r);
            if (r == -EXDEV || r == -ENOSYS || r == -EOPNOTSUPP || r == -EINVAL) {
                use_cfr = 0;
                continue;
            }
            if (r <= 0)
                return (int)r;
            *bytes += (uint64_t)r;
            continue;
        }
        r = raw_read(in, buf, buflen);
        r = done(w, OP_READ, t0, r, (uint64_t)r);
        if (r <= 0)
            return (int)r;
        uint64_t tw = meas_op_clock();
        int rc = write_pattern(w, out, buf, (size_t)r, (uint64_t)r, &tw);
        if (rc)
            return rc;
        *bytes += (uint64_t)r;
    }
}

static int px_copy_file(struct eng_worker *w, int sdirfd, const char *sname, int ddirfd,
                        const char *dname, mode_t mode, const struct timespec times[2],
                        void *buf, size_t buflen, uint64_t *bytes)
{
    *bytes = 0;
    uint64_t t0 = meas_op_clock();
    long in = raw_openat(sdirfd, sname, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0);
    in = done(w, OP_OPEN, t0, in, 0);
    if (in < 0)
        return (int)in;
    t0 = meas_op_clock();
    long out = raw_openat(ddirfd, dname, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    out = done(w, OP_CREATE, t0, out, 0);
    if (out < 0) {
        px_close(w, (int)in);
        return (int)out;
    }
    int rc = copy_data(w, (int)in, (int)out, buf, buflen, bytes);
    /* cp -a keeps the mode exactly (the umask may have cut it) and the times. */
    if (rc == 0) {
        t0 = meas_op_clock();
        long r = fchmod((int)out, mode);
        rc = (int)done(w, OP_SETATTR, t0, r, 0);
    }
    if (rc == 0 && times) {
        t0 = meas_op_clock();
        long r = futimens((int)out, times);
        rc = (int)done(w, OP_SETATTR, t0, r, 0);
    }
    int rc2 = px_close(w, (int)out);
    px_close(w, (int)in);
    return rc ? rc : rc2;
}

static int px_set_times(struct eng_worker *w, int dirfd, const char *name,
                        const struct timespec times[2])
{
    uint64_t t0 = meas_op_clock();
    long r = utimensat(dirfd, name, times, AT_SYMLINK_NOFOLLOW);
    return (int)done(w, OP_SETATTR, t0, r, 0);
}

static int px_fsync(struct eng_worker *w, int fd)
{
    uint64_t t0 = meas_op_clock();
    long r = raw_fsync(fd);
    return (int)done(w, OP_FSYNC, t0, r, 0);
}

static int px_syncfs(struct eng_worker *w, int fd)
{
    uint64_t t0 = meas_op_clock();
    long r = raw_syncfs(fd);
    return (int)done(w, OP_SYNCFS, t0, r, 0);
}

static int px_open(struct eng_worker *w, int dirfd, const char *name, int flags, mode_t mode)
{
    uint64_t t0 = meas_op_clock();
    long r = raw_openat(dirfd, name, flags | O_CLOEXEC, mode);
    return (int)done(w, (flags & O_CREAT) ? OP_CREATE : OP_OPEN, t0, r, 0);
}

static long px_write(struct eng_worker *w, int fd, const void *buf, size_t len)
{
    uint64_t t0 = meas_op_clock();
    long r = raw_write(fd, buf, len);
    return done(w, OP_WRITE, t0, r, (uint64_t)r);
}

static long px_pwrite(struct eng_worker *w, int fd, const void *buf, size_t len, uint64_t off)
{
    uint64_t t0 = meas_op_clock();
    long r = raw_pwrite(fd, buf, len, (off_t)off);
    return done(w, OP_WRITE, t0, r, (uint64_t)r);
}

static long px_read(struct eng_worker *w, int fd, void *buf, size_t len)
{
    uint64_t t0 = meas_op_clock();
    long r = raw_read(fd, buf, len);
    return done(w, OP_READ, t0, r, (uint64_t)r);
}

static int px_ftruncate(struct eng_worker *w, int fd, uint64_t len)
{
    uint64_t t0 = meas_op_clock();
    long r = ftruncate(fd, (off_t)len);
    return (int)done(w, OP_SETATTR, t0, r, 0);
}

static int px_fsetattr(struct eng_worker *w, int fd, mode_t mode, const struct timespec times[2])
{
    if (mode != (mode_t)-1) {
        uint64_t t0 = meas_op_clock();
        long r = fchmod(fd, mode);
        r = done(w, OP_SETATTR, t0, r, 0);
        if (r < 0)
            return (int)r;
    }
    if (times) {
        uint64_t t0 = meas_op_clock();
        long r = futimens(fd, times);
        return (int)done(w, OP_SETATTR, t0, r, 0);
    }
    return 0;
}

static int px_futimens(struct eng_worker *w, int fd, const struct timespec times[2])
{
    uint64_t t0 = meas_op_clock();
    long r = futimens(fd, times);
    return (int)done(w, OP_SETATTR, t0, r, 0);
}

static int px_fchown(struct eng_worker *w, int fd, uid_t uid, gid_t gid)
{
    uint64_t t0 = meas_op_clock();
    long r = fchown(fd, uid, gid);
    return (int)done(w, OP_SETATTR, t0, r, 0);
}

static int px_fchmod(struct eng_worker *w, int fd, mode_t mode)
{
    uint64_t t0 = meas_op_clock();
    long r = fchmod(fd, mode);
    return (int)done(w, OP_SETATTR, t0, r, 0);
}

static int px_lchown(struct eng_worker *w, int dirfd, const char *name, uid_t uid, gid_t gid)
{
    uint64_t t0 = meas_op_clock();
    long r = fchownat(dirfd, name, uid, gid, AT_SYMLINK_NOFOLLOW);
    return (int)done(w, OP_SETATTR, t0, r, 0);
}

static int px_drain(struct eng_worker *w)
{
    return 0;
}

const struct engine engine_posix = {
    .name = "posix",
    .desc = "plain system calls relative to directory fds, one at a time",
    .caps = ENG_CAP_REAL | (RAW_COPY_OFFLOAD ? ENG_CAP_COPY_OFFLOAD : 0),
    .opendir = px_opendir,
    .close = px_close,
    .mkdir = px_mkdir,
    .create_file = px_create_file,
    .read_file = px_read_file,
    .stat = px_stat,
    .getdents = px_getdents,
    .unlink = px_unlink,
    .rename = px_rename,
    .symlink = px_symlink,
    .readlink = px_readlink,
    .link = px_link,
    .copy_file = px_copy_file,
    .set_times = px_set_times,
    .fsync = px_fsync,
    .syncfs = px_syncfs,
    .open = px_open,
    .write = px_write,
    .pwrite = px_pwrite,
    .read = px_read,
    .ftruncate = px_ftruncate,
    .fsetattr = px_fsetattr,
    .futimens = px_futimens,
    .fchown = px_fchown,
    .fchmod = px_fchmod,
    .lchown = px_lchown,
    .drain = px_drain,
};
