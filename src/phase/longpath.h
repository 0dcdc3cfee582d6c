/* longpath.h — *at calls on workspace paths longer than PATH_MAX (a deep archive).
 *
 * The kernel refuses a path of PATH_MAX bytes or more (ENAMETOOLONG) however deep the
 * tree may go. longpath_at() splits such a path: it opens the directories of its leading
 * part in pieces shorter than LONGPATH_CHUNK, one openat per piece through the engine, and
 * gives the fd of the last one with the rest of the path. A path that fits costs nothing:
 * the caller's directory and the path itself come back. Nothing is followed that a plain
 * *at call on the whole path would not follow.
 *
 * A cache (struct longpath, one per thread, optional) keeps the last leading directory
 * open: consecutive long paths below it (an archive lists a directory's entries together,
 * parents before children) then cost one short walk each instead of opening every piece
 * again, so a chain of N directories is made in O(N) work, not O(N^2). The cache holds one
 * fd of the engine's until longpath_release; nothing may rename or remove the directories
 * of its prefix meanwhile (extract never does).
 */
#ifndef FSBENCH_LONGPATH_H
#define FSBENCH_LONGPATH_H

#include <stddef.h>

#include "engine/engine.h"

/* Longest path handed to one *at call. */
#define LONGPATH_CHUNK 3072

struct longpath {
    int dirfd;          /* the directory the cached prefix is relative to */
    int fd;             /* the prefix's directory, or -1: empty cache */
    char *prefix;
    size_t plen;
};

/* An empty cache. */
#define LONGPATH_INIT {.dirfd = -1, .fd = -1}

/* *fd and *rest for an *at call meaning (dirfd, path): dirfd and path when path is shorter
 * than LONGPATH_CHUNK, else a directory's fd (release with longpath_done) and the tail.
 * lp: a cache, or NULL. 0 or -errno. */
int longpath_at(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                const char *path, int *fd, const char **rest);
/* Closes fd if longpath_at opened it for this call (not dirfd, not the cache's). */
void longpath_done(const struct engine *e, struct eng_worker *w, const struct longpath *lp,
                   int dirfd, int fd);
/* Closes the cache's fd and frees its prefix; the cache is empty again. */
void longpath_release(const struct engine *e, struct eng_worker *w, struct longpath *lp);

/* opendir, mkdir and link of (dirfd, path) for any path length: as the engine's own. */
int longpath_opendir(const struct engine *e, struct eng_worker *w, struct longpath *lp,
                     int dirfd, const char *path);
int longpath_mkdir(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                   const char *path, mode_t mode);
int longpath_link(const struct engine *e, struct eng_worker *w, struct longpath *lp, int dirfd,
                  const char *target, int newdirfd, const char *newname);

#endif
