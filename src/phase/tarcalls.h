/* tarcalls.h — which calls an extract makes on each entry: GNU tar -x's (the default) or
 * the file system's create path alone (--extract-calls create).
 *
 * Measured with strace -f of GNU tar 1.34 `tar -xf` (man page, EXTRACT CALLS):
 *  - as root (tar keeps owners and exact modes): a file is created with its mode's owner
 *    bits only (mode & 0700), its data written, then futimens, fchown to the archived
 *    owner, fchmod to the archived mode (when that differs from the created one), close;
 *    a directory is made 0700 and, once the archive has left it (its contents are done),
 *    gets utimensat, fchownat and chmod (when its mode is not 0700); a symlink gets
 *    utimensat and lchown (AT_SYMLINK_NOFOLLOW).
 *  - as another user: the archived mode less the umask at creation (a directory with
 *    u+rwx added, taken back by a chmod at its fix-up), times only: futimens of a file,
 *    utimensat of a symlink and of a directory after its contents; no owner, no chmod.
 *  - create: open + write + close, mkdir (mode | 0700), symlink; no owner, mode or time
 *    call at all (modes as the umask leaves them).
 * fsbench makes each of these calls on an fd it holds (a directory's through its open fd)
 * where tar names the path: the same metadata update, one lookup fewer.
 */
#ifndef FSBENCH_PHASE_TARCALLS_H
#define FSBENCH_PHASE_TARCALLS_H

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "engine/engine.h"

/* --extract-calls: phase_params.extract_calls. */
enum extract_calls {
    EXTRACT_CALLS_TAR = 0, /* the default */
    EXTRACT_CALLS_CREATE = 1,
};

/* "tar", "create"; NULL for another value. */
const char *tarcalls_name(unsigned calls);
/* The value for a name: 0 and *calls set, or -1. */
int tarcalls_parse(const char *name, unsigned *calls);

/* The mtime a synthetic tree's entries get in tar's calls (it has none of its own):
 * 2001-09-03 00:00:00 UTC, seed 000's day; atime is left alone, as tar leaves it. */
#define TARCALLS_SYNTH_MTIME 999475200

struct tarcalls {
    bool tar;     /* tar's calls; else create only */
    bool owner;   /* as root: owners restored, modes exact */
    mode_t umask; /* the process's */
};

/* For calls (enum extract_calls), as this process's user (root: owners kept) and umask. */
void tarcalls_init(struct tarcalls *tc, unsigned calls);

/* The mode a file of archived permissions perm is created with. */
mode_t tarcalls_file_mode(const struct tarcalls *tc, mode_t perm);
/* The mode a listed directory is made with. */
mode_t tarcalls_dir_mode(const struct tarcalls *tc, mode_t perm);

/* After a file's data, on its open fd: futimens (times non-NULL), fchown (as root),
 * fchmod when the created mode is not the final one. Nothing for create. 0 or -errno; *op
 * names the call that failed. */
int tarcalls_fix_file(const struct tarcalls *tc, const struct engine *e, struct eng_worker *w,
                      int fd, mode_t perm, const struct timespec *times, uid_t uid, gid_t gid,
                      const char **op);
/* The mode mkdir(tarcalls_dir_mode) leaves (the umask applied), and the one tar sets. */
mode_t tarcalls_dir_made(const struct tarcalls *tc, mode_t perm);
mode_t tarcalls_dir_want(const struct tarcalls *tc, mode_t perm);
/* A listed directory, after its contents, on its open fd: as tarcalls_fix_file; have is
 * its mode now (tarcalls_dir_made, or what an earlier fix-up set): no chmod when it is
 * tarcalls_dir_want(perm) already. */
int tarcalls_fix_dir(const struct tarcalls *tc, const struct engine *e, struct eng_worker *w,
                     int fd, mode_t perm, mode_t have, const struct timespec *times, uid_t uid,
                     gid_t gid, const char **op);
/* A symlink just made: utimensat (times non-NULL) and lchown (as root), by name in dirfd. */
int tarcalls_fix_symlink(const struct tarcalls *tc, const struct engine *e,
                         struct eng_worker *w, int dirfd, const char *name,
                         const struct timespec *times, uid_t uid, gid_t gid, const char **op);

/* The extract's root when the archive lists it ("./"): as tar, a stat of it, then its
 * times, owner and (when it differs) mode; the owner keeps u+rwx so whoever made the tree
 * can always remove it. */
int tarcalls_fix_root(const struct tarcalls *tc, const struct engine *e, struct eng_worker *w,
                      int fd, mode_t perm, const struct timespec *times, uid_t uid, gid_t gid,
                      const char **op);

#endif
