/* workspace.h — the directory a run works in, and the promise to leave nothing behind.
 *
 * The workspace is the user's --dir (which must exist, be writable and be empty) or a new
 * directory under $TMPDIR (else /tmp). fsbench marks it with a marker file and only ever
 * removes "tree" and "copy" below a marked workspace, and the workspace itself only when it
 * made it. The marker holds the run's pid and is locked (os/lockfile.h) while the run
 * lives: a second run given the same directory is told "DIR is in use by fsbench pid N" and
 * touches nothing, while a workspace left by a killed run (the marker unlocked; only the
 * marker, "tree" and "copy" in it) is cleaned and reused.
 */
#ifndef FSBENCH_WORKSPACE_H
#define FSBENCH_WORKSPACE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define WS_MARKER ".fsbench-workspace"

struct workspace {
    char path[PATH_MAX];
    int fd;
    int lock_fd;        /* the marker, locked while this run lives (ws_open), or -1 */
    bool made_dir;      /* we created the directory: remove it at the end */
    bool marked;        /* our marker is in it */
};

/* Makes a new directory $TMPDIR/fsbench.XXXXXX (else under /tmp) into path. 0 or -1 after
 * error(). */
int ws_make_temp_dir(char *path, size_t len);
/* Opens (dir != NULL) or creates the workspace, marks it and locks the marker; cleans what
 * a killed run left. 0, or -1 after error() with nothing held (ws_close is then a no-op). */
int ws_open(struct workspace *ws, const char *dir);
/* The leftovers of killed runs in a directory: `fsbench cleanup`. dir is a --dir (kept), or
 * with remove_dir a temporary workspace fsbench made (removed once empty). Says what it
 * did, or would do with dry_run, in one line; a live run's workspace is left alone. 1 when
 * something was (or would be) cleaned, 0 when there was nothing to clean, -1 after
 * error(). */
int ws_clean_leftover(const char *dir, bool remove_dir, bool dry_run);
/* Opens the workspace "fsbench" at the root of a file system fsbench manages (an image or
 * a device it mkfs'ed): created if missing and marked, nothing else checked. 0 or -1. */
int ws_open_managed(struct workspace *ws, const char *mount_point);
/* Joins a workspace another process opened with ws_open (shared placement on several MPI
 * ranks): opens dir only; ws_clear never clears it and ws_close only closes the fd. 0 or -1
 * after error(). */
int ws_join(struct workspace *ws, const char *dir);
/* Closes the workspace's fd without clearing it: its file system is about to be unmounted. */
void ws_release(struct workspace *ws);
/* Removes "tree" and "copy" (untimed). 0, or -1 after error(). */
int ws_clear(struct workspace *ws);
/* Clears, unmarks, removes the directory if we made it, closes. 0 or -1 after error(). */
int ws_close(struct workspace *ws);
/* Closes the workspace leaving its tree in place (--keep-image): unmarks it (a later run
 * must not take it for a killed run's leftover and clean it) and keeps the directory, made
 * or not. The tree's path goes to path (len bytes). 0 or -1 after error(). */
int ws_keep(struct workspace *ws, char *path, size_t len);

#endif
