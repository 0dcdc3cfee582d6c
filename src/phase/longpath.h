/* longpath.h — *at calls on workspace paths longer than PATH_MAX (a deep archive).
 *
 * The kernel refuses a path of PATH_MAX bytes or more (ENAMETOOLONG) however deep the
 * tree may go. longpath_at() splits such a path: it opens the directories of its leading
 * part in pieces shorter than LONGPATH_CHUNK, one openat per piece through the engine, and
 * gives the fd of the last one with the rest of the path. A path that fits costs nothing:
 * the caller's directory and the path itself come back. Nothing is followed that a plain
 * *at call on the whole path would not follow.
 */
#ifndef FSBENCH_LONGPATH_H
#define FSBENCH_LONGPATH_H

#include "engine/engine.h"

/* Longest path handed to one *at call. */
#define LONGPATH_CHUNK 3072

/* *fd and *rest for an *at call meaning (dirfd, path): dirfd and path when path is shorter
 * than LONGPATH_CHUNK, else an fd opened here (release with longpath_done) and the tail.
 * 0 or -errno. */
int longpath_at(const struct engine *e, struct eng_worker *w, int dirfd, const char *path,
                int *fd, const char **rest);
/* Closes fd if longpath_at opened it (fd != dirfd). */
void longpath_done(const struct engine *e, struct eng_worker *w, int dirfd, int fd);

/* opendir, mkdir and link of (dirfd, path) for any path length: as the engine's own. */
int longpath_opendir(const struct engine *e, struct eng_worker *w, int dirfd, const char *path);
int longpath_mkdir(const struct engine *e, struct eng_worker *w, int dirfd, const char *path,
                   mode_t mode);
int longpath_link(const struct engine *e, struct eng_worker *w, int dirfd, const char *target,
                  int newdirfd, const char *newname);

#endif
