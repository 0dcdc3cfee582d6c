/* record_calib.c — record_calib.h: each kind of call timed in batches, in thread CPU time,
 * on files of a directory of its own; the quickest of CALIB_ROUNDS rounds per kind.
 */
#include "run/record_calib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/record_dir.h"

/* Files per batch, rounds, the bytes of a large read or write, fsyncs per round. */
#define CALIB_FILES 256
#define CALIB_ROUNDS 5
#define CALIB_BIG (16 * 1024)
#define CALIB_SMALL 64
#define CALIB_FSYNCS 8

static uint64_t cpu_ns(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) < 0)
        return 0;
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

struct batch {
    int dfd;
    int fd[CALIB_FILES];
    char name[CALIB_FILES][16], moved[CALIB_FILES][16], dir[CALIB_FILES][16];
    char buf[CALIB_BIG];
};

/* Per-call times of one round into t[] (ns; the read and write per byte in rb, wb, ns per
 * MiB). 0, or -1 with errno. */
static int one_round(struct batch *b, double t[CAL_CLASSES], double *rb, double *wb)
{
    const int n = CALIB_FILES;
    uint64_t t0, t1;
    int rc = 0;
#define TIMED(cls, count, stmt)                                                                \
    do {                                                                                       \
        t0 = cpu_ns();                                                                         \
        for (int i = 0; i < (count); i++)                                                      \
            if ((stmt) < 0)                                                                    \
                rc = -1;                                                                       \
        t1 = cpu_ns();                                                                         \
        t[cls] = (double)(t1 - t0) / (count);                                                  \
    } while (0)
    TIMED(CAL_CREATE, n, b->fd[i] = openat(b->dfd, b->name[i], O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644));
    if (rc < 0)
        return -1;
    double small, big;
    TIMED(CAL_WRITE, n, write(b->fd[i], b->buf, CALIB_SMALL));
    small = t[CAL_WRITE];
    TIMED(CAL_WRITE, n, write(b->fd[i], b->buf, CALIB_BIG));
    big = t[CAL_WRITE];
    double per = big > small ? (big - small) / (CALIB_BIG - CALIB_SMALL) : 0;
    *wb = per * 1024 * 1024;
    t[CAL_WRITE] = small - per * CALIB_SMALL > 0 ? small - per * CALIB_SMALL : small;
    TIMED(CAL_FSYNC, CALIB_FSYNCS, fsync(b->fd[i]));
    TIMED(CAL_CLOSE, n, close(b->fd[i]));
    TIMED(CAL_OPEN, n, b->fd[i] = openat(b->dfd, b->name[i], O_RDONLY | O_CLOEXEC));
    if (rc < 0)
        return -1;
    TIMED(CAL_READ, n, pread(b->fd[i], b->buf, CALIB_SMALL, 0));
    small = t[CAL_READ];
    TIMED(CAL_READ, n, pread(b->fd[i], b->buf, CALIB_BIG, 0));
    big = t[CAL_READ];
    per = big > small ? (big - small) / (CALIB_BIG - CALIB_SMALL) : 0;
    *rb = per * 1024 * 1024;
    t[CAL_READ] = small - per * CALIB_SMALL > 0 ? small - per * CALIB_SMALL : small;
    struct stat st;
    TIMED(CAL_FSTAT, n, fstat(b->fd[i], &st));
    for (int i = 0; i < n; i++)
        close(b->fd[i]);
    TIMED(CAL_STAT, n, fstatat(b->dfd, b->name[i], &st, AT_SYMLINK_NOFOLLOW));
    TIMED(CAL_SETATTR, n, fchmodat(b->dfd, b->name[i], 0600, 0));
    /* a listing of the directory's CALIB_FILES entries: one getdents64 with them, one
     * empty (a 32 KiB buffer holds them) */
    int d = openat(b->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dp = d >= 0 ? fdopendir(d) : NULL;
    if (!dp) {
        if (d >= 0)
            close(d);
        return -1;
    }
    t0 = cpu_ns();
    for (int r = 0; r < 8; r++) {
        rewinddir(dp);
        while (readdir(dp))
            ;
    }
    t1 = cpu_ns();
    closedir(dp);
    t[CAL_GETDENTS] = (double)(t1 - t0) / (8 * 2);
    TIMED(CAL_RENAME, n, renameat(b->dfd, b->name[i], b->dfd, b->moved[i]));
    TIMED(CAL_MKDIR, n, mkdirat(b->dfd, b->dir[i], 0755));
    TIMED(CAL_UNLINK, n, unlinkat(b->dfd, b->moved[i], 0));
    TIMED(CAL_RMDIR, n, unlinkat(b->dfd, b->dir[i], AT_REMOVEDIR));
#undef TIMED
    return rc;
}

int record_calib_measure(const char *near, struct trace_calib *k, char *why, size_t len)
{
    memset(k, 0, sizeof *k);
    struct record_dir rd;
    if (record_dir_make(&rd, near, ".fsbench-calib") < 0) {
        snprintf(why, len, "no directory for it could be made (%s)", strerror(errno));
        return -1;
    }
    struct batch *b = calloc(1, sizeof *b);
    int rc = -1;
    const char *dir = rd.path;
    if (b && (b->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
        for (int i = 0; i < CALIB_FILES; i++) {
            snprintf(b->name[i], sizeof b->name[i], "c%d", i);
            snprintf(b->moved[i], sizeof b->moved[i], "r%d", i);
            snprintf(b->dir[i], sizeof b->dir[i], "d%d", i);
        }
        memset(b->buf, 'x', sizeof b->buf);
        double best[CAL_CLASSES], rb = 0, wb = 0;
        rc = 0;
        for (int r = 0; r < CALIB_ROUNDS && rc == 0; r++) {
            double t[CAL_CLASSES] = {0}, r1 = 0, w1 = 0;
            rc = one_round(b, t, &r1, &w1);
            for (int c = 0; c < CAL_CLASSES; c++)
                best[c] = r == 0 || t[c] < best[c] ? t[c] : best[c];
            rb = r == 0 || r1 < rb ? r1 : rb;
            wb = r == 0 || w1 < wb ? w1 : wb;
        }
        if (rc < 0)
            snprintf(why, len, "a call on %s failed (%s)", dir, strerror(errno));
        for (int c = 0; rc == 0 && c < CAL_CLASSES; c++)
            k->call_ns[c] = (uint64_t)(best[c] + 0.5);
        k->read_ns_per_mib = (uint64_t)(rb + 0.5);
        k->write_ns_per_mib = (uint64_t)(wb + 0.5);
        /* whatever a failed round left */
        for (int i = 0; i < CALIB_FILES; i++) {
            unlinkat(b->dfd, b->name[i], 0);
            unlinkat(b->dfd, b->moved[i], 0);
            unlinkat(b->dfd, b->dir[i], AT_REMOVEDIR);
        }
        close(b->dfd);
    } else {
        snprintf(why, len, "its directory could not be opened (%s)", strerror(errno));
    }
    free(b);
    if (record_dir_remove(&rd) < 0 && rc == 0) {
        snprintf(why, len, "its directory %s could not be removed", dir);
        rc = -1;
    }
    return rc;
}
