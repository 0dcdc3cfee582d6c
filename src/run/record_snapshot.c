/* record_snapshot.c — record_snapshot.h: a tree copied name by name between two directory
 * descriptors (no symlink followed, no mount point crossed), and emptied the same way.
 */
#include "run/record_snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "os/beneath.h"
#include "phase/phase.h"

#define COPY_BUF ((size_t)1 << 20)

/* why, as fmt says: -1. */
__attribute__((format(printf, 3, 4))) static int say(char *why, size_t len, const char *fmt,
                                                     ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* A file with more than one link, first copied at rel (relative to the copy's top). */
struct link_seen {
    dev_t dev;
    ino_t ino;
    char *rel;
};

struct copier {
    int src_top, dst_top;
    dev_t dev; /* the source's file system */
    char *buf;
    struct link_seen *links;
    size_t nlinks, cap;
    uint64_t entries, bytes;
    char *why;
    size_t len;
};

static int fail(struct copier *c, const char *what, const char *rel, int e)
{
    snprintf(c->why, c->len, "%s %s: %s", what, rel[0] ? rel : ".", strerror(e));
    return -1;
}

/* Mode, owner and times of fd (or of name below dirfd when fd < 0: a symlink) as st says. */
static int set_meta(int fd, int dirfd, const char *name, const struct stat *st)
{
    struct timespec ts[2] = {st->st_atim, st->st_mtim};
    if (fd >= 0) {
        if (fchown(fd, st->st_uid, st->st_gid) < 0 && errno != EPERM)
            return -1;
        if (fchmod(fd, st->st_mode & 07777) < 0)
            return -1;
        return futimens(fd, ts);
    }
    if (fchownat(dirfd, name, st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW) < 0 &&
        errno != EPERM)
        return -1;
    if (!S_ISLNK(st->st_mode) && fchmodat(dirfd, name, st->st_mode & 07777, 0) < 0)
        return -1;
    return utimensat(dirfd, name, ts, AT_SYMLINK_NOFOLLOW);
}

static int copy_data(struct copier *c, int in, int out, const char *rel)
{
    for (;;) {
        ssize_t n = read(in, c->buf, COPY_BUF);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fail(c, "reading", rel, errno);
        if (n == 0)
            return 0;
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(out, c->buf + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0)
                return fail(c, "writing", rel, errno);
            off += w;
        }
        c->bytes += (uint64_t)n;
    }
}

/* A hard link to a file already copied: 1 when linked, 0 when first seen (remembered), -1. */
static int link_again(struct copier *c, const struct stat *st, int dfd, const char *name,
                      const char *rel)
{
    for (size_t i = 0; i < c->nlinks; i++) {
        if (c->links[i].dev != st->st_dev || c->links[i].ino != st->st_ino)
            continue;
        const char *first = c->links[i].rel, *slash = strrchr(first, '/');
        int from = c->dst_top;
        char dir[PATH_MAX];
        if (slash) {
            snprintf(dir, sizeof dir, "%.*s", (int)(slash - first), first);
            from = os_open_beneath(c->dst_top, dir, O_RDONLY | O_DIRECTORY, 0);
            if (from < 0)
                return fail(c, "opening", dir, errno);
        }
        int rc = linkat(from, slash ? slash + 1 : first, dfd, name, 0);
        int e = errno;
        if (from != c->dst_top)
            close(from);
        return rc < 0 ? fail(c, "linking", rel, e) : 1;
    }
    if (c->nlinks == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        struct link_seen *l = realloc(c->links, cap * sizeof *l);
        if (!l)
            return fail(c, "remembering", rel, ENOMEM);
        c->links = l;
        c->cap = cap;
    }
    char *r = strdup(rel);
    if (!r)
        return fail(c, "remembering", rel, ENOMEM);
    c->links[c->nlinks++] = (struct link_seen){st->st_dev, st->st_ino, r};
    return 0;
}

static int copy_dir(struct copier *c, int sfd, int dfd, char *rel, size_t rlen);

/* One entry name of directory sfd copied into dfd; rel is its path (for messages, links). */
static int copy_entry(struct copier *c, int sfd, int dfd, const char *name, char *rel,
                      size_t rlen)
{
    struct stat st;
    if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return fail(c, "looking at", rel, errno);
    if (st.st_dev != c->dev)
        return say(c->why, c->len, "%s is on another file system (a mount point)", rel);
    c->entries++;
    if (S_ISDIR(st.st_mode)) {
        if (mkdirat(dfd, name, 0700) < 0)
            return fail(c, "making", rel, errno);
        int s2 = openat(sfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int d2 = s2 < 0 ? -1 : openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int rc = s2 < 0 || d2 < 0 ? fail(c, "opening", rel, errno) : copy_dir(c, s2, d2, rel, rlen);
        if (rc == 0 && set_meta(d2, -1, NULL, &st) < 0)
            rc = fail(c, "setting the mode and times of", rel, errno);
        if (s2 >= 0)
            close(s2);
        if (d2 >= 0)
            close(d2);
        return rc;
    }
    if (S_ISREG(st.st_mode) && st.st_nlink > 1) {
        int l = link_again(c, &st, dfd, name, rel);
        if (l != 0)
            return l < 0 ? -1 : 0;
    }
    if (S_ISREG(st.st_mode)) {
        int in = openat(sfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (in < 0)
            return fail(c, "opening", rel, errno);
        struct stat again;
        int out = -1, rc = 0;
        if (fstat(in, &again) < 0 || again.st_ino != st.st_ino || again.st_dev != st.st_dev)
            rc = say(c->why, c->len, "%s changed while it was copied", rel);
        if (rc == 0) {
            out = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            if (out < 0)
                rc = fail(c, "making", rel, errno);
        }
        if (rc == 0)
            rc = copy_data(c, in, out, rel);
        if (rc == 0 && set_meta(out, -1, NULL, &st) < 0)
            rc = fail(c, "setting the mode and times of", rel, errno);
        close(in);
        if (out >= 0 && close(out) < 0 && rc == 0)
            rc = fail(c, "writing", rel, errno);
        return rc;
    }
    if (S_ISLNK(st.st_mode)) {
        char target[PATH_MAX];
        ssize_t n = readlinkat(sfd, name, target, sizeof target - 1);
        if (n < 0)
            return fail(c, "reading the link", rel, errno);
        target[n] = '\0';
        if (symlinkat(target, dfd, name) < 0)
            return fail(c, "making", rel, errno);
    } else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
        if (mknodat(dfd, name, st.st_mode & (S_IFMT | 0600), st.st_rdev) < 0)
            return fail(c, "making", rel, errno);
    } else {
        return say(c->why, c->len, "%s is a socket (it cannot be copied)", rel);
    }
    if (set_meta(-1, dfd, name, &st) < 0)
        return fail(c, "setting the mode and times of", rel, errno);
    return 0;
}

/* Every entry of directory sfd into dfd (rel: sfd's path, rlen its length). */
static int copy_dir(struct copier *c, int sfd, int dfd, char *rel, size_t rlen)
{
    int fd = dup(sfd);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (!d) {
        if (fd >= 0)
            close(fd);
        return fail(c, "reading", rel, errno);
    }
    int rc = 0;
    struct dirent *e;
    errno = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        size_t n = strlen(e->d_name);
        if (rlen + n + 2 >= PATH_MAX) {
            rc = fail(c, "copying", rel, ENAMETOOLONG);
            break;
        }
        size_t k = rlen;
        if (k)
            rel[k++] = '/';
        memcpy(rel + k, e->d_name, n + 1);
        rc = copy_entry(c, sfd, dfd, e->d_name, rel, k + n);
        rel[rlen] = '\0';
        errno = 0;
    }
    if (rc == 0 && errno)
        rc = fail(c, "reading", rel, errno);
    closedir(d);
    return rc;
}

static int copy_tree(int sfd, int dfd, dev_t dev, uint64_t *entries, uint64_t *bytes, char *why,
                     size_t len)
{
    struct copier c = {.src_top = sfd, .dst_top = dfd, .dev = dev, .why = why, .len = len};
    c.buf = malloc(COPY_BUF);
    if (!c.buf)
        return say(why, len, "out of memory");
    char rel[PATH_MAX] = "";
    int rc = copy_dir(&c, sfd, dfd, rel, 0);
    for (size_t i = 0; i < c.nlinks; i++)
        free(c.links[i].rel);
    free(c.links);
    free(c.buf);
    if (entries)
        *entries = c.entries;
    if (bytes)
        *bytes = c.bytes;
    return rc;
}

/* Removes everything below directory dfd (named at in messages) the way the delete phase
 * does: by names below each directory's descriptor, never following a symlink nor
 * crossing a mount point. 0, or -1 with why. */
static int empty_dir(int dfd, const char *at, char *why, size_t len)
{
    struct opstats *st = calloc(1, sizeof *st);
    if (!st)
        return say(why, len, "out of memory");
    struct eng_worker w = {.st = st};
    struct phase_result res = {0};
    struct phase_ctx ctx = {.eng = &engine_posix, .w = &w, .ws_fd = dfd, .res = &res};
    int rc = phase_delete_below(&ctx, dfd, at);
    free(st);
    return rc < 0 ? say(why, len, "%s", res.note) : 0;
}

/* The directory the copy goes in: root's parent when on root's file system and writable. */
static int make_copy_dir(struct record_snapshot *s, const char *root)
{
    const char *slash = strrchr(root, '/');
    struct stat pst;
    if (slash && slash != root) {
        snprintf(s->path, sizeof s->path, "%.*s", (int)(slash - root), root);
        if (stat(s->path, &pst) == 0 && pst.st_dev == s->root_st.st_dev &&
            access(s->path, W_OK) == 0) {
            size_t n = strlen(s->path);
            snprintf(s->path + n, sizeof s->path - n, "/.fsbench-record.XXXXXX");
            if (mkdtemp(s->path))
                return 0;
        }
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(s->path, sizeof s->path, "%s/fsbench-record.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(s->path) ? 0 : -1;
}

/* The copy's directory and everything in it removed (best effort). */
static void remove_copy(struct record_snapshot *s)
{
    int fd = open(s->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        char why[256];
        (void)empty_dir(fd, s->path, why, sizeof why);
        close(fd);
    }
    rmdir(s->path);
}

int record_snapshot_take(struct record_snapshot *s, const char *root, char *why, size_t len)
{
    memset(s, 0, sizeof *s);
    s->rootfd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (s->rootfd < 0 || fstat(s->rootfd, &s->root_st) < 0) {
        snprintf(why, len, "%s: %s", root, strerror(errno));
        if (s->rootfd >= 0)
            close(s->rootfd);
        s->rootfd = -1;
        return -1;
    }
    if (!strcmp(root, "/")) {
        snprintf(why, len, "the directory is / (it cannot be copied aside)");
        close(s->rootfd);
        s->rootfd = -1;
        return -1;
    }
    if (make_copy_dir(s, root) < 0) {
        snprintf(why, len, "no directory for its copy: %s", strerror(errno));
        close(s->rootfd);
        s->rootfd = -1;
        return -1;
    }
    int dfd = open(s->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int rc = dfd < 0 ? (say(why, len, "%s: %s", s->path, strerror(errno)))
                     : copy_tree(s->rootfd, dfd, s->root_st.st_dev, &s->entries, &s->bytes,
                                 why, len);
    if (dfd >= 0)
        close(dfd);
    if (rc < 0)
        record_snapshot_drop(s);
    return rc;
}

int record_snapshot_restore(struct record_snapshot *s, char *why, size_t len)
{
    int sfd = open(s->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat sst;
    if (sfd < 0 || fstat(sfd, &sst) < 0) {
        snprintf(why, len, "%s: %s", s->path, strerror(errno));
        if (sfd >= 0)
            close(sfd);
        return -1;
    }
    struct stat now;
    int rc = 0;
    if (fstat(s->rootfd, &now) < 0 || now.st_ino != s->root_st.st_ino)
        rc = say(why, len, "the directory itself was replaced");
    if (rc == 0)
        rc = empty_dir(s->rootfd, ".", why, len);
    if (rc == 0)
        rc = copy_tree(sfd, s->rootfd, sst.st_dev, NULL, NULL, why, len);
    if (rc == 0 && set_meta(s->rootfd, -1, NULL, &s->root_st) < 0)
        rc = say(why, len, "setting its mode and times: %s", strerror(errno));
    close(sfd);
    if (rc == 0)
        record_snapshot_drop(s);
    return rc;
}

void record_snapshot_drop(struct record_snapshot *s)
{
    if (s->path[0])
        remove_copy(s);
    s->path[0] = '\0';
    if (s->rootfd >= 0)
        close(s->rootfd);
    s->rootfd = -1;
}
