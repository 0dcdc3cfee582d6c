/* spool.c — runs kept beside the store while another process holds it locked (see
 * spool.h).
 *
 * Invariants: a spool file is written whole or not at all (outfile: temporary + rename),
 * and removed only after its run is committed to the store; a run is therefore stored
 * once, even when two processes flush the same spool (the second finds the file gone, or
 * finds the run's index already in its set and drops the file).
 *
 * The spool is trusted only as far as it is the user's own: the directory is opened once
 * with O_NOFOLLOW | O_DIRECTORY, its owner must be the effective user and no one else may
 * write it; every read, write, rename and unlink is then made relative to that descriptor
 * (never again by path, so it cannot be swapped underneath). A spool file is opened with
 * O_NOFOLLOW and must be a regular file of the user's, of at most INFILE_JSON_MAX bytes,
 * with one link: anything else found there is refused, named in a warning, and left alone.
 */
#include "results/spool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/infile.h"
#include "results/resjson.h"

const char *spool_dir(const char *db, char *buf, size_t len)
{
    snprintf(buf, len, "%s.spool", db);
    return buf;
}

/* Opens db's spool directory (made first, mode 0700, when create): its descriptor; -2 when
 * there is none (no message); -1 after error() when it is not the user's own (a symbolic
 * link, not a directory, owned by another user, writable by group or others). */
static int open_dir(const char *db, bool create, char *dir, size_t len)
{
    spool_dir(db, dir, len);
    if (create && mkdir(dir, 0700) < 0 && errno != EEXIST)
        return error_errno("cannot make the spool %s", dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && !create)
        return -2;
    if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
        return error("the spool %s is not a directory (a symbolic link or a file): refused; "
                     "remove it",
                     dir);
    if (fd < 0)
        return error_errno("cannot open the spool %s", dir);
    struct stat st;
    if (fstat(fd, &st) < 0) {
        close(fd);
        return error_errno("cannot open the spool %s", dir);
    }
    if (st.st_uid != geteuid() || (st.st_mode & 022)) {
        close(fd);
        return error("the spool %s belongs to uid %u with mode %04o, not to this user alone "
                     "(uid %u, not writable by others): refused; remove it",
                     dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777),
                     (unsigned)geteuid());
    }
    return fd;
}

/* Writes text into name below dfd by a temporary and a rename: 0, or -1 after error(). */
static int write_at(int dfd, const char *dir, const char *name, const char *text)
{
    char tmp[128];
    static unsigned seq;
    snprintf(tmp, sizeof tmp, ".%s.%ld.%u", name, (long)getpid(), seq++);
    int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return error_errno("cannot write %s/%s", dir, tmp);
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    int e = done < len ? (errno ? errno : EIO) : 0;
    if (!e && fsync(fd) < 0)
        e = errno;
    if (close(fd) < 0 && !e)
        e = errno;
    if (!e && renameat(dfd, tmp, dfd, name) < 0)
        e = errno;
    if (e) {
        unlinkat(dfd, tmp, 0);
        errno = e;
        return error_errno("cannot write %s/%s", dir, name);
    }
    return 0;
}

int spool_put(const char *db, int64_t set_id, const struct run_set *rs,
              const struct run_result *run)
{
    char dir[4200], name[96];
    int dfd = open_dir(db, true, dir, sizeof dir);
    if (dfd < 0)
        return error("run %u of '%s' cannot be kept in the spool", run->index + 1, rs->label);
    snprintf(name, sizeof name, "set%" PRId64 "-run%u.json", set_id, run->index);
    /* the set's description with this one run: a view, nothing copied but the struct */
    struct run_set *view = malloc(sizeof *view);
    int rc = -1;
    if (!view) {
        close(dfd);
        return error("out of memory");
    }
    memcpy(view, rs, sizeof *view);
    view->runs = (struct run_result *)run;
    view->nruns = 1;
    json_t *j = resjson_from_run_set(view);
    free(view);
    char *text = j ? json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) : NULL;
    json_decref(j);
    if (!text)
        error("run %u of '%s': cannot make its JSON", run->index + 1, rs->label);
    else
        rc = write_at(dfd, dir, name, text);
    free(text);
    close(dfd);
    return rc;
}

/* set<ID>-run<N>.json: 0 with the id, or -1. */
static int parse_name(const char *name, int64_t *id, unsigned *idx)
{
    int used = 0;
    if (sscanf(name, "set%" SCNd64 "-run%u.json%n", id, idx, &used) != 2 || name[used] ||
        *id <= 0)
        return -1;
    return 0;
}

/* Reads the spooled run name below dfd into rs: 0; 1 when it is not a file fsbench kept
 * there (said in a warning naming it, left alone); -1 after error(). */
static int read_at(int dfd, const char *dir, const char *name, struct run_set *rs)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 && errno == ENOENT)
        return 1; /* flushed by another fsbench meanwhile */
    if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        st.st_nlink != 1 || (size_t)st.st_size > INFILE_JSON_MAX) {
        bool isreg = fd >= 0 && S_ISREG(st.st_mode);
        warning("%s/%s is not a run kept by fsbench (%s): refused and left alone", dir, name,
                fd < 0                       ? "a symbolic link or unreadable"
                : !isreg                     ? "not a regular file"
                : st.st_uid != geteuid()     ? "owned by another user"
                : st.st_nlink != 1           ? "a hard link"
                                             : "too large");
        if (fd >= 0)
            close(fd);
        return 1;
    }
    size_t len = (size_t)st.st_size, done = 0;
    char *text = malloc(len + 1);
    if (!text) {
        close(fd);
        return error("out of memory");
    }
    while (done < len) {
        ssize_t r = read(fd, text + done, len - done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        done += (size_t)r;
    }
    close(fd);
    json_error_t je;
    json_t *j = json_loadb(text, done, 0, &je);
    free(text);
    int rc = !j || resjson_to_run_set(j, rs) < 0 ? 1 : 0;
    json_decref(j);
    if (rc)
        warning("%s/%s is not a run kept by fsbench: left alone", dir, name);
    return rc;
}

/* Adds the spooled run name (below dfd) to set id. 1 added (or already there), 0 dropped
 * or left alone, STORE_BUSY, -1. */
static int flush_one(struct store *s, int dfd, const char *dir, const char *name, int64_t id,
                     unsigned idx)
{
    struct run_set *rs = calloc(1, sizeof *rs);
    if (!rs)
        return error("out of memory");
    int rc = read_at(dfd, dir, name, rs);
    if (rc != 0) {
        rc = rc < 0 ? -1 : 0;
        goto out;
    }
    if (rs->nruns != 1 || rs->runs[0].index != idx) {
        warning("%s/%s is not a run kept by fsbench: left alone", dir, name);
        rc = 0;
        goto out;
    }
    int has = store_has_set(s, id, rs->label, rs->created);
    if (has < 0) {
        rc = -1;
        goto out;
    }
    if (!has) {
        warning("run %u of '%s' waited in %s/%s, but its run set is no longer stored "
                "(forgotten): dropped",
                idx + 1, rs->label, dir, name);
        unlinkat(dfd, name, 0);
        rc = 0;
        goto out;
    }
    rc = store_add_run_once(s, id, &rs->runs[0]);
    if (rc == 0 || rc == 1) { /* added now, or by an earlier flush killed before unlink */
        unlinkat(dfd, name, 0);
        rc = 1;
    }
out:
    run_set_free(rs);
    free(rs);
    return rc;
}

unsigned spool_count(const char *db)
{
    char dir[4200], why[512];
    err_capture_begin(why, sizeof why); /* a spool that is not the user's counts none */
    int dfd = open_dir(db, false, dir, sizeof dir);
    err_capture_end();
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return 0;
    }
    unsigned n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        int64_t id;
        unsigned idx;
        n += parse_name(de->d_name, &id, &idx) == 0;
    }
    closedir(d);
    return n;
}

int spool_flush(struct store *s, const char *db, unsigned *added, unsigned *left)
{
    unsigned a = 0, l = 0;
    char dir[4200];
    int rc = 0;
    int dfd = open_dir(db, false, dir, sizeof dir);
    if (dfd == -1)
        warning("the runs in %s.spool are not read", db);
    int lfd = dfd >= 0 ? dup(dfd) : -1; /* readdir's own: dfd stays for the calls at */
    DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
    if (lfd >= 0 && !d)
        close(lfd);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d))) {
            int64_t id;
            unsigned idx;
            if (parse_name(de->d_name, &id, &idx) < 0)
                continue;
            if (rc == STORE_BUSY) { /* no use trying the rest now */
                l++;
                continue;
            }
            int r = flush_one(s, dfd, dir, de->d_name, id, idx);
            if (r == 1)
                a++;
            else if (r == STORE_BUSY)
                rc = STORE_BUSY, l++;
            else if (r < 0)
                rc = rc == STORE_BUSY ? rc : -1, l++;
        }
        closedir(d);
        /* only when empty (anything else in it stays); by name, as rmdir is: at worst it
         * removes an empty directory that took the spool's place */
        if (l == 0)
            rmdir(dir);
    }
    if (dfd >= 0)
        close(dfd);
    if (added)
        *added = a;
    if (left)
        *left = l;
    return rc;
}
