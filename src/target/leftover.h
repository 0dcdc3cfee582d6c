/* leftover.h — what a killed fsbench left of a managed target, found and released.
 *
 * A target lives in a directory DIR/fsbench-target.XXXXXX (target.h) holding the image, the
 * mount point "mnt" and the owner file, which its fsbench keeps locked while it lives. After
 * kill -9 (or a crash, or a power cut) the lock is gone: the next fsbench that makes a target,
 * or `fsbench cleanup`, finds such a directory and undoes what it holds: unmounts "mnt",
 * detaches every loop device backed by "image", removes the image, the mount point, the
 * owner file and the directory, and says so in one line.
 *
 * Where it looks: the image directories given, and wherever the mount table or a loop
 * device names a target directory (so a target made with another --image-dir is found while
 * it is still mounted or attached). What it trusts: nothing written in the directory; a
 * directory is taken only if it is a real directory named like a target's, owned by this
 * user with mode 0700 (only fsbench's mkdtemp makes those), and its owner file exists and its
 * lock can be taken. A directory without an owner file (an older fsbench, or one starting)
 * is left alone and reported.
 */
#ifndef FSBENCH_LEFTOVER_H
#define FSBENCH_LEFTOVER_H

#include <stdbool.h>
#include <stddef.h>

/* The directories targets live in: IMAGE_DIR/fsbench-target.XXXXXX (mkdtemp), holding
 * "image", the mount point "mnt" and TARGET_OWNER: the file that names the owner (pid, image,
 * loop device, mount point) and that its fsbench keeps locked while it lives. */
#define TARGET_DIR_PREFIX "fsbench-target."
#define TARGET_OWNER "owner"

struct leftover_counts {
    unsigned released;  /* leftovers released (with dry_run: found, to release) */
    unsigned live;      /* targets of a running fsbench, left alone */
    unsigned unowned;   /* target directories without an owner file, left alone */
};

/* Looks in the image directories dirs[0..ndirs) (NULL entries skipped) and in the mount
 * table and loop devices, and releases every leftover (dry_run: says what it would release).
 * One line per leftover or directory left alone through inform(); quiet (before a run):
 * leftovers only, and one that cannot be released is a warning() line, not an error().
 * 0, or -1 when one could not be released (the others still were). */
int leftover_release(const char *const *dirs, size_t ndirs, bool dry_run, bool quiet,
                     struct leftover_counts *counts);

#endif
