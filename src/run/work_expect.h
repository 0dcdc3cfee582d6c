/* work_expect.h — how many operations each phase of a run will make, known before it runs,
 * so that the progress line can show a percentage and a time left from the first run on.
 *
 * The counts come from the tree, not from running it: a synthetic tree's files, directories
 * and symlinks, and the read and write calls its file sizes take (tree_estimate.h: exact up
 * to a million files, estimated from samples above, in a fraction of a second), or an
 * archive's index; compilebench's from its plan (-i, -r). Each phase's formula follows the
 * operations it makes (its calls through the engine, as counted in ops_total), which do not
 * depend on -j; they are exact for the tree phases of a synthetic tree (walk, statwalk,
 * read, copy, delete, createsync, fsyncstorm, extract), close for an archive's extract and
 * read (its index gives the files' bytes in total, not each file's calls), and a mean for
 * compilebench's random operations. A phase whose work is not counted in operations (sync,
 * dropcaches, the mount cycle, cmd, age, layout) has none: 0.
 * tests/unit/test_work_expect.c holds the formulas to the phases' real counts.
 */
#ifndef FSBENCH_WORK_EXPECT_H
#define FSBENCH_WORK_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "phase/phase.h"
#include "tree/tarsrc.h"
#include "tree/tree.h"

/* What the formulas need of the tree. */
struct work_tree {
    uint64_t files, dirs, symlinks; /* dirs without the tree's own root */
    uint64_t writes; /* extract's write calls: a file's size in TREE_DATA_LEN chunks */
    uint64_t reads;  /* read calls of every file through a buflen buffer, the
                      * read that finds the end included */
    uint64_t chunks; /* an archive's data in buflen chunks */
    bool archive;
    /* copy copies a file in one call (the engine's ENG_CAP_COPY_OFFLOAD), else by reads and
     * writes */
    bool copy_offload;
};

/* The tree's counts for a synthetic tree (t->prof set) or an archive (tar), read through
 * a buffer of buflen bytes. 0, or -1 when they cannot be known (no message). */
int work_tree_count(const struct tree_spec *t, const struct tarsrc *tar, size_t buflen,
                    struct work_tree *w);

/* The operations of each of the n phases (in run order, so that delete knows whether copy
 * made a second tree) into ops[n]; 0 where a phase's work is not known in operations. */
void work_expect(const struct phase_def *const *phases, size_t n, const struct work_tree *w,
                 const struct phase_params *pp, uint64_t *ops);

#endif
