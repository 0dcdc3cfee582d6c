/* outfile.c — writing an output file by a temporary and a rename (see outfile.h). */
#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/outcheck.h"

#define PFX(o) (o)->what ? (o)->what : "", (o)->what ? ": " : ""

static void release(struct outfile *o)
{
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    o->f = NULL;
}

static mode_t current_umask(void)
{
    mode_t m = umask(022);
    umask(m);
    return m;
}

/* The directory part of path ("." when none) and its base name, into dir and base. */
static void split(const char *path, char *dir, size_t dlen, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, dlen, ".");
        *base = path;
    } else if (slash == path) {
        snprintf(dir, dlen, "/");
        *base = slash + 1;
    } else {
        snprintf(dir, dlen, "%.*s", (int)(slash - path), path);
        *base = slash + 1;
    }
}

static bool force_replace;

void outfile_set_force(bool force)
{
    force_replace = force;
}

/* Whether the regular file at path begins with SQLite's header. */
static bool is_sqlite(const char *path)
{
    static const char magic[16] = "SQLite format 3";
    char head[16];
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return false;
    struct stat st;
    bool yes = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
               read(fd, head, sizeof head) == (ssize_t)sizeof head &&
               !memcmp(head, magic, sizeof magic);
    close(fd);
    return yes;
}

/* Why the existing regular file at path holds results (into why), or NULL. */
static const char *holds_results(const char *path, char *why, size_t len)
{
    static const char *const side[] = {"-wal", "-shm", "-journal", NULL};
    if (is_sqlite(path))
        return snprintf(why, len, "a SQLite database (a results store?)"), why;
    size_t n = strlen(path);
    for (size_t i = 0; side[i]; i++) {
        size_t m = strlen(side[i]);
        char db[PATH_MAX];
        if (n > m && n - m < sizeof db && !strcmp(path + n - m, side[i])) {
            snprintf(db, sizeof db, "%.*s", (int)(n - m), path);
            if (is_sqlite(db))
                return snprintf(why, len, "the %s file of the SQLite database %s", side[i] + 1,
                                db),
                       why;
        }
    }
    char dir[PATH_MAX];
    const char *base;
    split(path, dir, sizeof dir, &base);
    size_t dl = strlen(dir);
    if (dl > 6 && !strcmp(dir + dl - 6, ".spool"))
        return snprintf(why, len, "in the spool %s, where runs wait for their results store",
                        dir),
               why;
    return NULL;
}

int outfile_check_dir(const char *path, const char *what)
{
    const char *p = what ? what : "", *sep = what ? ": " : "";
    if (!strcmp(path, "-"))
        return 0;
    if (!*path)
        return error("%s%sno file named", p, sep);
    char dir[PATH_MAX];
    const char *base;
    split(path, dir, sizeof dir, &base);
    struct stat st;
    if (stat(dir, &st) < 0)
        return error_errno("%s%scannot write %s: its directory %s", p, sep, path, dir);
    if (!S_ISDIR(st.st_mode))
        return error("%s%scannot write %s: %s is not a directory", p, sep, path, dir);
    if (access(dir, W_OK | X_OK) < 0)
        return error_errno("%s%scannot write %s: its directory %s", p, sep, path, dir);
    if (!*base)
        return error("%s%s%s: is a directory", p, sep, path);
    return 0;
}

int outfile_check(const char *path, const char *what)
{
    const char *p = what ? what : "", *sep = what ? ": " : "";
    if (!strcmp(path, "-"))
        return 0;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return error("%s%s%s: is a directory", p, sep, path);
        char why[PATH_MAX + 128];
        if (S_ISREG(st.st_mode) && !force_replace && holds_results(path, why, sizeof why))
            return error("%s%s%s is %s: refusing to replace it (every run it holds would be "
                         "lost); give --force to replace it",
                         p, sep, path, why);
        if (!S_ISREG(st.st_mode))
            return 0; /* a device, FIFO or terminal: written in place */
    }
    return outfile_check_dir(path, what);
}

int outfile_open(struct outfile *o, const char *path, const char *what)
{
    memset(o, 0, sizeof *o);
    o->what = what;
    if (!strcmp(path, "-")) {
        o->to_stdout = true;
        o->f = stdout;
        return 0;
    }
    if (outfile_check(path, what) < 0)
        return -1;
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        /* a device, FIFO or terminal: written in place, never replaced */
        if (S_ISDIR(st.st_mode))
            return error("%s%s%s: is a directory", PFX(o), path);
        o->path = strdup(path);
        o->f = o->path ? fopen(path, "w") : NULL;
        if (!o->f) {
            int rc = error_errno("%s%scannot write %s", PFX(o), path);
            release(o);
            return rc;
        }
        return 0;
    }
    /* a symlink is followed only when it is the caller's own: one planted by someone else
     * (in /tmp) must not turn the rename into a write where its target lives, past the
     * kernel's protected_symlinks; replacing the link itself is what is left */
    char real[PATH_MAX];
    struct stat lst;
    bool own_link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && lst.st_uid == geteuid();
    const char *target = exists && own_link && realpath(path, real) ? real : path;
    o->mode = exists ? (int)(st.st_mode & 07777) : (int)(0666 & ~current_umask());
    char dir[PATH_MAX];
    const char *base;
    split(target, dir, sizeof dir, &base);
    size_t tlen = strlen(dir) + strlen(base) + 16;
    o->path = strdup(target);
    o->tmp = malloc(tlen);
    if (!o->path || !o->tmp) {
        release(o);
        return error("out of memory");
    }
    snprintf(o->tmp, tlen, "%s/.%s.XXXXXX", dir, base);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int rc = error_errno("%s%scannot write %s", PFX(o), path);
        release(o);
        return rc;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int rc = error_errno("%s%scannot write %s", PFX(o), path);
        close(fd);
        unlink(o->tmp);
        release(o);
        return rc;
    }
    return 0;
}

int outfile_commit(struct outfile *o)
{
    const char *shown = o->to_stdout ? "standard output" : o->path;
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int e = bad ? (errno ? errno : EIO) : 0;
    if (o->to_stdout) {
        o->f = NULL;
        /* standard output's failure is said once, as every command's is (outcheck.h) */
        if (bad)
            return outcheck_stdout_err(e, NULL) < 0 ? -1 : error("%s%s%s: write failed", PFX(o), shown);
        return 0;
    }
    if (!bad && o->tmp && (fchmod(fileno(o->f), (mode_t)o->mode) < 0 || fsync(fileno(o->f)) < 0))
        bad = 1, e = errno;
    if (fclose(o->f) != 0 && !bad)
        bad = 1, e = errno;
    o->f = NULL;
    if (!bad && o->tmp && rename(o->tmp, o->path) < 0)
        bad = 1, e = errno;
    if (bad) {
        if (o->tmp)
            unlink(o->tmp);
        errno = e;
        int rc = error_errno("%s%s%s: write failed", PFX(o), shown);
        release(o);
        return rc;
    }
    release(o);
    return 0;
}

void outfile_discard(struct outfile *o)
{
    if (o->f && !o->to_stdout)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    if (o->to_stdout)
        o->f = NULL;
    release(o);
}

/* path with its directory resolved (the file itself need not exist), into buf. */
static bool resolve(const char *path, char *buf, size_t len)
{
    char dir[PATH_MAX], rdir[PATH_MAX];
    const char *base;
    if (realpath(path, buf))
        return true;
    split(path, dir, sizeof dir, &base);
    if (!realpath(dir, rdir))
        return false;
    int n = snprintf(buf, len, "%s/%s", strcmp(rdir, "/") ? rdir : "", base);
    return n > 0 && (size_t)n < len;
}

bool outfile_same(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char ra[PATH_MAX], rb[PATH_MAX];
    return resolve(a, ra, sizeof ra) && resolve(b, rb, sizeof rb) && !strcmp(ra, rb);
}
