/* longpath.h — acting on a path below a directory fd by name, never by path: the parent is
 * resolved beneath the directory with no symlink followed, and the call (mkdir, link,
 * open, ...) gets the parent's fd and the last name. Paths may be longer than PATH_MAX
 * (a deep archive).
 *
 * Why: an *at call given "a/b/c" follows a symlink at a or b, so a directory of the tree
 * swapped for a symlink while the phase runs would have the call act outside the tree.
 * The engine's opendir resolves a path of several names beneath its directory (openat2
 * RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV on Linux, an O_NOFOLLOW walk
 * elsewhere: engine.h, os/beneath.h), so everything here opens directories through it;
 * paths of PATH_MAX bytes or more are opened in pieces shorter than LONGPATH_CHUNK.
 *
 * A cursor (struct longpath, one per thread, optional) keeps the directories of the last
 * path it resolved open, deepest first, at most LONGPATH_WINDOW of them: the next path
 * below any of them costs one open per new name (an archive lists a directory's entries
 * together, parents before children), and a path that is one of them costs nothing. So a
 * chain of N directories is made in O(N) opens, not O(N^2) bytes of lookups. The fds a
 * cursor gives stay valid until the next call on the cursor, or longpath_release.
 * Without a cursor (NULL) the directory is opened for the call, in one system call when
 * the path fits, and released by longpath_done.
 */
#ifndef FSBENCH_LONGPATH_H
#define FSBENCH_LONGPATH_H

#include <stddef.h>

#include "engine/engine.h"

/* Longest path handed to one opendir. */
#define LONGPATH_CHUNK 3072
/* Most directories a cursor keeps open. */
#define LONGPATH_WINDOW 8

struct longpath_level {
    size_t end;         /* this level's path is path[0..end) */
    int fd;             /* -1: closed by the window */
};

struct longpath {
    int dirfd;          /* the directory the levels are below; -1: empty */
    char *path;         /* the deepest level's path */
    size_t pcap;
    struct longpath_level *lv;
    size_t n, lcap;
    size_t first_open;  /* levels first_open..n-1 are open */
};

/* An empty cursor. */
#define LONGPATH_INIT {.dirfd = -1}

/* The fd of directory path[0..len) below dirfd (len 0: dirfd itself): kept in lp (valid
 * until the next call on lp), or with lp NULL opened for the caller (longpath_done).
 * fd or -errno (-ELOOP, -ENOTDIR, -EXDEV when the tree is not what it should be). */
int longpath_dir(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                 const char *path, size_t len);
/* *fd: the directory of path's last name (dirfd itself for a single name), *base: that
 * name. 0 or -errno. Release *fd with longpath_done. */
int longpath_parent(const struct engine *e, struct eng_worker *w, struct longpath *lp,
                    int dirfd, const char *path, int *fd, const char **base);
/* Closes fd if it was opened for one call (lp NULL, and not dirfd). */
void longpath_done(const struct engine *e, struct eng_worker *w, const struct longpath *lp,
                   int dirfd, int fd);
/* Closes every fd of the cursor and frees it; it is empty again. */
void longpath_release(const struct engine *e, struct eng_worker *w, struct longpath *lp);

/* A new fd of directory path below dirfd, the caller's to close (any path length). */
int longpath_opendir(const struct engine *e, struct eng_worker *w, int dirfd, const char *path);
/* mkdir and link of paths below dirfd, by the last name in the parent's fd (lp: the cursor
 * for path and newname; a hard link's target is resolved on its own). 0 or -errno. */
int longpath_mkdir(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                   const char *path, mode_t mode);
int longpath_link(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                  const char *target, int newdirfd, const char *newname);

#endif
