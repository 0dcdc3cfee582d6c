/* record_dir.h — the directory record measures in after the traced run (the calls' price
 * table, record_calib.h; an untraced replay, record_mirror.h): on the recorded directory's
 * own file system, so that an fsync is priced as the program paid for it. In near's parent
 * when that is on near's file system and writable; else, near being the root of its file
 * system (a tmpfs mounted for the recording), in near itself, near's times put back when
 * it is removed; else under $TMPDIR.
 */
#ifndef FSBENCH_RECORD_DIR_H
#define FSBENCH_RECORD_DIR_H

#include <limits.h>
#include <stdbool.h>
#include <time.h>

struct record_dir {
    char path[PATH_MAX];   /* the directory made */
    char near[PATH_MAX];   /* where it was made inside near: near, its times to put back */
    struct timespec times[2];
    bool inside;
    bool removed;
};

/* Makes a new empty directory NAME.XXXXXX (NAME: a hidden name) near near (NULL: under
 * $TMPDIR) into d->path. 0, or -1 with errno. */
int record_dir_make(struct record_dir *d, const char *near, const char *name);

/* Removes the (empty) directory d made and, made inside near, puts near's access and
 * modification times back. 0, or -1 with errno (it could not be removed). */
int record_dir_remove(struct record_dir *d);

#endif
