/* tarcalls.c — the calls an extract makes on each entry: tar -x's or create only (see
 * tarcalls.h for what GNU tar was measured to do and why each call is here).
 */
#include "phase/tarcalls.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const calls_names[] = {"tar", "create"};

const char *tarcalls_name(unsigned calls)
{
    return calls < sizeof calls_names / sizeof calls_names[0] ? calls_names[calls] : NULL;
}

int tarcalls_parse(const char *name, unsigned *calls)
{
    for (unsigned i = 0; i < sizeof calls_names / sizeof calls_names[0]; i++) {
        if (!strcmp(name, calls_names[i])) {
            *calls = i;
            return 0;
        }
    }
    return -1;
}

void tarcalls_init(struct tarcalls *tc, unsigned calls)
{
    bool root = geteuid() == 0;
    tc->tar = calls != EXTRACT_CALLS_CREATE;
    tc->owner = tc->tar && root;
    mode_t m = umask(077);
    umask(m);
    tc->umask = m;
}

mode_t tarcalls_file_mode(const struct tarcalls *tc, mode_t perm)
{
    if (tc->owner)
        return perm & 0700; /* tar as root: owner bits until fchown and fchmod */
    return perm & (tc->tar ? 0777 : 07777);
}

mode_t tarcalls_dir_mode(const struct tarcalls *tc, mode_t perm)
{
    if (tc->owner)
        return 0700;
    return (perm & 0777) | 0700;
}

mode_t tarcalls_dir_made(const struct tarcalls *tc, mode_t perm)
{
    return tc->owner ? tarcalls_dir_mode(tc, perm) : tarcalls_dir_mode(tc, perm) & ~tc->umask;
}

mode_t tarcalls_dir_want(const struct tarcalls *tc, mode_t perm)
{
    return tc->owner ? (perm & 07777) : (perm & 0777 & ~tc->umask);
}

/* times, owner, then mode (when want is not have, the mode there now), as tar orders them. */
static int fix_fd(const struct tarcalls *tc, const struct engine *e, struct eng_worker *w,
                  int fd, mode_t want, mode_t have, const struct timespec *times, uid_t uid,
                  gid_t gid, const char **op)
{
    if (!tc->tar)
        return 0;
    int rc;
    if (times && (rc = e->futimens(w, fd, times)) < 0) {
        *op = "utimens";
        return rc;
    }
    if (tc->owner && (rc = e->fchown(w, fd, uid, gid)) < 0) {
        *op = "chown";
        return rc;
    }
    if (want != have && (rc = e->fchmod(w, fd, want)) < 0) {
        *op = "chmod";
        return rc;
    }
    return 0;
}

int tarcalls_fix_file(const struct tarcalls *tc, const struct engine *e, struct eng_worker *w,
                      int fd, mode_t perm, const struct timespec *times, uid_t uid, gid_t gid,
                      const char **op)
{
    /* as another user tar keeps what the umask left (it has no -p then) */
    /* the kernel applied the umask at creation (tar as root runs with umask 0, and a
     * umask never takes the owner's bits that root's creations keep) */
    mode_t created = tarcalls_file_mode(tc, perm);
    mode_t have = tc->owner ? created : created & ~tc->umask;
    mode_t want = tc->owner ? (perm & 07777) : have;
    return fix_fd(tc, e, w, fd, want, have, times, uid, gid, op);
}

int tarcalls_fix_dir(const struct tarcalls *tc, const struct engine *e, struct eng_worker *w,
                     int fd, mode_t perm, mode_t have, const struct timespec *times, uid_t uid,
                     gid_t gid, const char **op)
{
    return fix_fd(tc, e, w, fd, tarcalls_dir_want(tc, perm), have, times, uid, gid, op);
}

int tarcalls_fix_symlink(const struct tarcalls *tc, const struct engine *e,
                         struct eng_worker *w, int dirfd, const char *name,
                         const struct timespec *times, uid_t uid, gid_t gid, const char **op)
{
    if (!tc->tar)
        return 0;
    int rc;
    if (times && (rc = e->set_times(w, dirfd, name, times)) < 0) {
        *op = "utimens";
        return rc;
    }
    if (tc->owner && (rc = e->lchown(w, dirfd, name, uid, gid)) < 0) {
        *op = "chown";
        return rc;
    }
    return 0;
}

int tarcalls_fix_root(const struct tarcalls *tc, const struct engine *e, struct eng_worker *w,
                      int fd, mode_t perm, const struct timespec *times, uid_t uid, gid_t gid,
                      const char **op)
{
    if (!tc->tar)
        return 0;
    struct stat st;
    int rc = e->stat(w, fd, ".", &st);
    if (rc < 0) {
        *op = "stat";
        return rc;
    }
    mode_t want = tarcalls_dir_want(tc, perm) | 0700;
    return fix_fd(tc, e, w, fd, want, st.st_mode & 07777, times, uid, gid, op);
}
