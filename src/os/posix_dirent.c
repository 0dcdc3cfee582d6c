/* posix_dirent.c — os_getdents with plain POSIX calls: fdopendir on a dup of the caller's
 * directory fd, readdir, and the records packed into the caller's buffer in struct
 * os_dirent's layout.
 *
 * The stream for a directory fd is kept per thread between calls (a small table, keyed by
 * the fd and the directory's device and inode, so a reused fd number is not mistaken for an
 * old stream) and closed when readdir reports the end or the caller releases the fd before
 * closing it (os_dirent_release). A stream nobody released is evicted when the table is
 * full (the oldest goes), so at most OS_DIRENT_STREAMS extra fds per thread stay open. An entry that does not
 * fit into the rest of the buffer waits for the next call; a buffer too small for a single
 * entry fails with EINVAL, as Linux's getdents64 does.
 */
#include "os/dirent.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OS_DIRENT_STREAMS 64

struct stream {
    DIR *dir;
    int fd;
    dev_t dev;
    ino_t ino;
    unsigned long age;
    struct dirent *pending; /* read but not yet copied: did not fit */
};

static _Thread_local struct stream streams[OS_DIRENT_STREAMS];
static _Thread_local unsigned long clock_now;
static _Thread_local unsigned nstreams; /* open streams: release is free while 0 */

static void stream_end(struct stream *s)
{
    if (s->dir) {
        closedir(s->dir);
        nstreams--;
    }
    memset(s, 0, sizeof *s);
}

/* The stream of dirfd: found by fd number alone (callers release an fd before closing it,
 * so a number is not reused under a live stream), or a new one, checked by device and
 * inode against a stale entry of the same number that nobody released. */
static struct stream *stream_for(int dirfd)
{
    struct stream *free_slot = NULL, *oldest = &streams[0], *same_fd = NULL;
    for (size_t i = 0; i < OS_DIRENT_STREAMS && (nstreams || !free_slot); i++) {
        struct stream *s = &streams[i];
        if (!s->dir) {
            if (!free_slot)
                free_slot = s;
            continue;
        }
        if (s->fd == dirfd) {
            same_fd = s;
            break;
        }
        if (s->age < oldest->age)
            oldest = s;
    }
    if (same_fd && same_fd->age == clock_now)
        return same_fd; /* the same walker calling again at once: no question */
    struct stat st;
    if (fstat(dirfd, &st) < 0)
        return NULL;
    if (same_fd && same_fd->dev == st.st_dev && same_fd->ino == st.st_ino)
        return same_fd;
    if (same_fd) {
        stream_end(same_fd); /* a stale stream of a closed fd that reused this number */
        free_slot = same_fd;
    }
    struct stream *s = free_slot ? free_slot : oldest;
    stream_end(s);
    int fd = dup(dirfd);
    if (fd < 0)
        return NULL;
    s->dir = fdopendir(fd);
    if (!s->dir) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    nstreams++;
    s->fd = dirfd;
    s->dev = st.st_dev;
    s->ino = st.st_ino;
    return s;
}

/* Copies e into buf at *used when it fits: true, else false. */
static bool pack(char *buf, size_t len, size_t *used, const struct dirent *e)
{
    size_t nl = strlen(e->d_name);
    size_t rec = (offsetof(struct os_dirent, d_name) + nl + 1 + 7) & ~(size_t)7;
    if (*used + rec > len)
        return false;
    struct os_dirent *d = (struct os_dirent *)(buf + *used);
    d->d_ino = (uint64_t)e->d_ino;
    d->d_off = 0;
    d->d_reclen = (unsigned short)rec;
#if defined(_DIRENT_HAVE_D_TYPE) || defined(__FreeBSD__) || defined(__NetBSD__) || \
    defined(__OpenBSD__) || defined(__DragonFly__) || defined(__APPLE__)
    d->d_type = e->d_type;
#else
    d->d_type = DT_UNKNOWN;
#endif
    memcpy(d->d_name, e->d_name, nl + 1);
    *used += rec;
    return true;
}

long os_getdents(int dirfd, void *buf, size_t len)
{
    struct stream *s = stream_for(dirfd);
    if (!s)
        return -1;
    s->age = ++clock_now;
    size_t used = 0;
    if (s->pending) {
        if (!pack(buf, len, &used, s->pending)) {
            errno = EINVAL; /* the buffer cannot hold even one entry */
            return -1;
        }
        s->pending = NULL;
    }
    for (;;) {
        errno = 0;
        struct dirent *e = readdir(s->dir);
        if (!e) {
            int err = errno;
            if (used)
                return (long)used; /* the end (or the error) comes with the next call */
            stream_end(s);
            if (err) {
                errno = err;
                return -1;
            }
            return 0;
        }
        if (!pack(buf, len, &used, e)) {
            /* readdir's entry stays valid until the next readdir on this stream. */
            s->pending = e;
            if (!used) { /* the buffer cannot hold even one entry, as getdents64 says */
                errno = EINVAL;
                return -1;
            }
            return (long)used;
        }
    }
}

void os_dirent_release(int dirfd)
{
    if (!nstreams)
        return;
    for (size_t i = 0; i < OS_DIRENT_STREAMS; i++)
        if (streams[i].dir && streams[i].fd == dirfd)
            stream_end(&streams[i]);
}
