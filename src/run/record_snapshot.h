/* record_snapshot.h — record --untraced-run's copy of the recorded directory: taken before
 * the program's untraced run and put back after it, so that the traced run starts from the
 * same state (the same names, contents, modes, owners and times).
 *
 * Every entry is reached one name at a time from its directory's descriptor, never through
 * a symlink (O_NOFOLLOW, AT_SYMLINK_NOFOLLOW) and never across a mount point (a directory
 * holding another file system is refused, not copied). Symlinks are copied as symlinks,
 * hard links as links, fifos and devices as such; sockets are refused. Not kept: extended
 * attributes and ACLs, holes (a sparse file comes back whole), inode numbers and ctimes.
 */
#ifndef FSBENCH_RECORD_SNAPSHOT_H
#define FSBENCH_RECORD_SNAPSHOT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct record_snapshot {
    char path[PATH_MAX]; /* the copy's directory */
    int rootfd;          /* the directory copied (-1: none) */
    struct stat root_st; /* its own mode, owner and times */
    uint64_t entries;    /* entries copied */
    uint64_t bytes;      /* bytes of files copied */
};

/* Copies everything below root (absolute) into a new directory beside it: in its parent
 * when that is on root's file system and writable, else under $TMPDIR (or /tmp). 0, or -1
 * with why (one clause; nothing left behind). */
int record_snapshot_take(struct record_snapshot *s, const char *root, char *why, size_t len);
/* Empties root, copies the snapshot back into it, sets root's own mode, owner and times as
 * they were, and removes the copy. 0, or -1 with why (the copy is then kept at s->path). */
int record_snapshot_restore(struct record_snapshot *s, char *why, size_t len);
/* Removes the copy without restoring (and closes root). */
void record_snapshot_drop(struct record_snapshot *s);

#endif
