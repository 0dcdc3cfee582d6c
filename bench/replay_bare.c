/* replay_bare.c — bench/replay's baseline: the calls of bench/replay_work.h's workload made
 * directly, the plainest way (paths relative to the directory's descriptor, as a program
 * makes them with AT_FDCWD). The calls are laid out in memory a block at a time before the
 * clock runs, so the timed loop holds the system calls and nothing else.
 *
 *   replay_bare DIR N     prints "<calls> <seconds> <user_s> <sys_s>"
 *
 * The CPU times are the timed loop's too (getrusage around each block), so that a busy
 * machine's comparison can be made on CPU time as well as on the wall clock.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "replay_work.h"

static double tv(struct timeval t)
{
    return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: replay_bare DIR N\n");
        return 2;
    }
    int root = open(argv[1], O_RDONLY | O_DIRECTORY);
    if (root < 0) {
        perror(argv[1]);
        return 1;
    }
    uint64_t n = rw_total(strtoull(argv[2], NULL, 10));
    static char buf[RW_SIZE], data[RW_SIZE];
    memset(data, 'x', sizeof data);
    int fd = -1;
    long bad = 0;
    struct stat st;
    enum { BLOCK = 65536 };
    static struct rw_call block[BLOCK];
    double secs = 0, user = 0, sys = 0;
    struct rusage ra, rb;
    for (uint64_t b0 = 0; b0 < n; b0 += BLOCK) {
        uint64_t m = n - b0 < BLOCK ? n - b0 : BLOCK;
        for (uint64_t i = 0; i < m; i++)
            rw_call(b0 + i, &block[i]);
        getrusage(RUSAGE_SELF, &ra);
        double t0 = now();
        for (uint64_t i = 0; i < m; i++) {
            const struct rw_call *c = &block[i];
            long r = 0;
            switch (c->op) {
            case RW_MKDIR:
                r = mkdirat(root, c->path, 0755);
                break;
            case RW_CREATE:
                r = fd = openat(root, c->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
                break;
            case RW_WRITE:
                r = write(fd, data, RW_SIZE);
                break;
            case RW_CLOSE:
                r = close(fd);
                break;
            case RW_STAT:
                r = fstatat(root, c->path, &st, AT_SYMLINK_NOFOLLOW);
                break;
            case RW_OPEN:
                r = fd = openat(root, c->path, O_RDONLY);
                break;
            case RW_READ:
            case RW_READ_END:
                r = read(fd, buf, RW_SIZE);
                break;
            case RW_UNLINK:
                r = unlinkat(root, c->path, 0);
                break;
            case RW_RMDIR:
                r = unlinkat(root, c->path, AT_REMOVEDIR);
                break;
            }
            bad += r < 0;
        }
        secs += now() - t0;
        getrusage(RUSAGE_SELF, &rb);
        user += tv(rb.ru_utime) - tv(ra.ru_utime);
        sys += tv(rb.ru_stime) - tv(ra.ru_stime);
    }
    printf("%llu %.6f %.6f %.6f\n", (unsigned long long)n, secs, user, sys);
    if (bad) {
        fprintf(stderr, "replay_bare: %ld calls failed\n", bad);
        return 1;
    }
    return 0;
}
