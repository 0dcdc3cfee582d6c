/* ageprof_capture.c — an aging profile from a real directory tree (`fsbench tree capture
 * DIR --age-profile FILE`): the files' sizes, their depths and their ages from their mtimes
 * (relative to the time of the capture), the utilization of the file system holding DIR;
 * the operation mix and the clock's start are the small-file profile's (a snapshot does
 * not show the operations that made it).
 *
 * The walk opens each directory from its parent's fd with O_NOFOLLOW | O_DIRECTORY,
 * follows no symlink, does not cross mount points (st_dev), and skips directories it
 * cannot open. Memory grows with the depth only.
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
    dev_t dev;
    time_t now;
    uint64_t size[AGEPROF_BUCKETS], age[AGEPROF_BUCKETS], depth[AGEPROF_BUCKETS];
    uint64_t files;
    struct ageprof_dist sized, aged, depthd;
};

static int walk(struct capture *c, int dfd, unsigned depth)
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
            if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_dev != c->dev)
                continue;
            if (S_ISREG(st.st_mode)) {
                c->files++;
                c->size[ageprof_bucket(&c->sized, (uint64_t)st.st_size)]++;
                uint64_t age = st.st_mtime < c->now ? (uint64_t)(c->now - st.st_mtime) : 0;
                c->age[ageprof_bucket(&c->aged, age)]++;
                c->depth[ageprof_bucket(&c->depthd, depth)]++;
            } else if (S_ISDIR(st.st_mode) && depth < CAPTURE_DEPTH_MAX) {
                int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub < 0)
                    continue;
                walk(c, sub, depth + 1);
                os_dirent_release(sub);
                close(sub);
            }
        }
    }
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
    c->sized.n = sizeof size_lo / sizeof size_lo[0];
    memcpy(c->sized.lo, size_lo, sizeof size_lo);
    c->aged.n = sizeof age_lo / sizeof age_lo[0];
    memcpy(c->aged.lo, age_lo, sizeof age_lo);
    c->depthd.n = AGEPROF_BUCKETS;
    for (unsigned b = 0; b < AGEPROF_BUCKETS; b++)
        c->depthd.lo[b] = b + 1;
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
    c->dev = st.st_dev;
    int rc = walk(c, fd, 1);
    int e = errno;
    os_dirent_release(fd);
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
    fill(&out->dist[AGEPROF_SIZE], &c->sized, c->size, c->files);
    fill(&out->dist[AGEPROF_AGE], &c->aged, c->age, c->files);
    fill(&out->dist[AGEPROF_DEPTH], &c->depthd, c->depth, c->files);
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
