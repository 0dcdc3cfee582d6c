/* run_target.h — the managed target of a run (--image, --device, --fs, --mount-opts,
 * --mkfs-opts): the options as a request collects them, and the configuration matrix made
 * from them after the checks that come before anything is touched (run_target.c).
 */
#ifndef FSBENCH_RUN_TARGET_H
#define FSBENCH_RUN_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "run/runner.h"
#include "target/target.h"

/* The managed target's options, as the request collects them. */
#define MAX_MOUNT_OPTS 16
#define MAX_FS 8
struct target_args {
    struct target_spec spec;
    const char *image;
    const char *fs_list;
    char fs_acc[256];   /* --fs given more than once: the lists joined with ',' */
    char mkfs_acc[512]; /* --mkfs-opts given more than once: joined with ' ' */
    const char *mount_opts[MAX_MOUNT_OPTS];
    size_t nmount;
    char fs_buf[256];
    const char *fs[MAX_FS];
    size_t nfs;
};

/* Builds the configuration matrix (file systems x mount option sets) into ro and checks the
 * target options, the image's size and the device's consent (with dry_run a device without
 * consent is shown, not refused). 0, or an exit status after error(). */
int run_target_setup(struct target_args *ta, struct runner_opts *ro, bool dry_run);

#endif
