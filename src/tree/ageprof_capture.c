/* ageprof_capture.c — an aging profile from a real directory tree (`fsbench tree capture
 * DIR --age-profile FILE`): the files' sizes, their depths and their ages from their mtimes
 * (relative to the time of the capture), the utilization of the file system holding DIR;
 * the operation mix and the clock's start are the small-file profile's (a snapshot does
 * not show the operations that made it).
 *
 * The walk (ageprof_walk, also what aging by replay counts its trees with) opens each
 * directory from its parent's fd with O_NOFOLLOW | O_DIRECTORY, follows no symlink, does
 * not cross mount points (st_dev), and skips directories it cannot open. Memory grows with
 * the depth only.
 */
#include "tree/ageprof.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/outfile.h"
#include "os/dirent.h"

#define DAY 86400ull
#define CAPTURE_DEPTH_MAX 64

static const uint64_t size_lo[] = {0,      1,      512,     2048,    8192,     32768,
                                   131072, 524288, 2097152, 8388608, 33554432, 134217728};
static const uint64_t age_lo[] = {0, DAY, 7 * DAY, 30 * DAY, 90 * DAY, 365 * DAY, 3 * 365 * DAY};

struct capture {
    time_t now;
    uint64_t size[AGEPROF_BUCKETS], age[AGEPROF_BUCKETS], depth[AGEPROF_BUCKETS];
    uint64_t files;
    struct ageprof shape; /* the buckets (shares unused) */
};

static int walk(int dfd, dev_t dev, unsigned depth, ageprof_file_fn fn, void *arg)
{
    char buf[16384];
    for (;;) {
        long got = os_getdents(dfd, buf, sizeof buf);
        if (got < 0)
            return -1;
        if (got == 0)
            return 0;
        for (long off = 0; off < got;) {
            const struct os_dirent *e = os_dirent_at(buf, (size_t)off);
            off += e->d_reclen;
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            struct stat st;
            if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_dev != dev)
                continue;
            if (S_ISREG(st.st_mode)) {
                fn(arg, &st, depth);
            } else if (S_ISDIR(st.st_mode) && depth < CAPTURE_DEPTH_MAX) {
                int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub < 0)
                    continue;
                walk(sub, dev, depth + 1, fn, arg);
                os_dirent_release(sub);
                close(sub);
            }
        }
    }
}

int ageprof_walk(int dirfd, ageprof_file_fn fn, void *arg)
{
    struct stat st;
    if (fstat(dirfd, &st) < 0 || lseek(dirfd, 0, SEEK_SET) < 0) /* from its start */
        return -1;
    int rc = walk(dirfd, st.st_dev, 1, fn, arg);
    int e = errno;
    os_dirent_release(dirfd);
    errno = e;
    return rc;
}

void ageprof_capture_buckets(struct ageprof *out)
{
    memset(out, 0, sizeof *out);
    out->dist[AGEPROF_SIZE].n = sizeof size_lo / sizeof size_lo[0];
    memcpy(out->dist[AGEPROF_SIZE].lo, size_lo, sizeof size_lo);
    out->dist[AGEPROF_AGE].n = sizeof age_lo / sizeof age_lo[0];
    memcpy(out->dist[AGEPROF_AGE].lo, age_lo, sizeof age_lo);
    out->dist[AGEPROF_DEPTH].n = AGEPROF_BUCKETS;
    for (unsigned b = 0; b < AGEPROF_BUCKETS; b++)
        out->dist[AGEPROF_DEPTH].lo[b] = b + 1;
}

static void count_file(void *arg, const struct stat *st, unsigned depth)
{
    struct capture *c = arg;
    c->files++;
    c->size[ageprof_bucket(&c->shape.dist[AGEPROF_SIZE], (uint64_t)st->st_size)]++;
    uint64_t age = st->st_mtime < c->now ? (uint64_t)(c->now - st->st_mtime) : 0;
    c->age[ageprof_bucket(&c->shape.dist[AGEPROF_AGE], age)]++;
    c->depth[ageprof_bucket(&c->shape.dist[AGEPROF_DEPTH], depth)]++;
}

/* Shares from counts, trailing empty buckets dropped (one kept at least). */
static void fill(struct ageprof_dist *out, const struct ageprof_dist *shape, const uint64_t *n,
                 uint64_t files)
{
    unsigned last = 0;
    for (unsigned b = 0; b < shape->n; b++)
        if (n[b])
            last = b;
    out->n = last + 1;
    for (unsigned b = 0; b < out->n; b++) {
        out->lo[b] = shape->lo[b];
        out->share[b] = (double)n[b] / (double)files;
    }
}

int ageprof_capture(const char *dir, const char *name, struct ageprof *out)
{
    struct capture *c = calloc(1, sizeof *c);
    if (!c)
        return error("out of memory");
    c->now = time(NULL);
    ageprof_capture_buckets(&c->shape);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat st;
    struct statvfs sv;
    if (fd < 0 || fstat(fd, &st) < 0 || fstatvfs(fd, &sv) < 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        free(c);
        return error("capture: %s: %s", dir, strerror(e));
    }
    int rc = ageprof_walk(fd, count_file, c);
    int e = errno;
    close(fd);
    if (rc < 0) {
        free(c);
        return error("capture: %s: %s", dir, strerror(e));
    }
    if (!c->files) {
        free(c);
        return error("capture: %s holds no regular files: no profile to make", dir);
    }
    *out = *ageprof_builtin("smallfiles");
    snprintf(out->name, sizeof out->name, "%.63s", name);
    snprintf(out->source, sizeof out->source,
             "fsbench tree capture of %.200s: %llu files (sizes, depths; ages from mtimes)", dir,
             (unsigned long long)c->files);
    fill(&out->dist[AGEPROF_SIZE], &c->shape.dist[AGEPROF_SIZE], c->size, c->files);
    fill(&out->dist[AGEPROF_AGE], &c->shape.dist[AGEPROF_AGE], c->age, c->files);
    fill(&out->dist[AGEPROF_DEPTH], &c->shape.dist[AGEPROF_DEPTH], c->depth, c->files);
    double used = sv.f_blocks ? 1.0 - (double)sv.f_bavail / (double)sv.f_blocks : 0.5;
    out->utilization = used < 0.05 ? 0.05 : used > 0.9 ? 0.9 : used;
    free(c);
    return 0;
}

int ageprof_write_file(const struct ageprof *p, const char *path)
{
    struct outfile of;
    if (outfile_open(&of, path, "age profile") < 0)
        return -1;
    if (ageprof_write(p, of.f) < 0) {
        outfile_discard(&of);
        return error("age profile: cannot write %s", path);
    }
    return outfile_commit(&of);
}
