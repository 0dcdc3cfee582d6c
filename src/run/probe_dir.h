/* probe_dir.h — the directory of its own a writing probe of --age-steps works in: after the
 * age phase of a step, the probe's phases (extract of a fresh tree, then sync, dropcaches,
 * read ...) see "probe/" of the workspace as their workspace, so extract makes probe/tree
 * and the reads measure that fresh tree, written on the aged file system; after the run it
 * is removed, so the next step ages on from what aging alone left (tree/age).
 */
#ifndef FSBENCH_RUN_PROBE_DIR_H
#define FSBENCH_RUN_PROBE_DIR_H

#include <stdbool.h>

#include "phase/phase.h"

#define PROBE_DIR "probe"

/* Opens ws_fd's probe/ (no symlink followed) as a real directory fd for a probe phase,
 * making it first when make is set (removing what an earlier, failed run left there, by
 * ctx's engine). The fd, or -1 after phase_fail in ctx. */
int probe_dir_open(struct phase_ctx *ctx, int ws_fd, bool make);

/* Removes probe/ below ws_fd with everything in it (untimed, after the run), by ctx's
 * engine; nothing when it is not there. 0, or -1 after error() naming what is left. */
int probe_dir_remove(struct phase_ctx *ctx, int ws_fd);

#endif
