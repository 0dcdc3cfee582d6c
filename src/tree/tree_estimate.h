/* tree_estimate.h — a synthetic tree's totals without streaming it, for plans (--dry-run)
 * and sizing: a plan must not cost the run.
 *
 * A tree of at most TREE_ESTIMATE_EXACT files is streamed once and every figure is exact.
 * A bigger one is estimated in bounded time, from the same pure functions tree_next() uses
 * (tree_internal.h), so the estimate is of that very tree:
 *  - files: exact (the file count is the spec's);
 *  - bytes, symlinks and the files' part of the on-disk estimate: from a systematic sample of
 *    TREE_ESTIMATE_SAMPLES file ordinals (a file's size and symlink depend on its ordinal
 *    alone), the large files of a profile that has them added up exactly;
 *  - directories: the top levels of the directory structure are walked exactly (budgets
 *    only, no names) until a level holds many subtrees; TREE_ESTIMATE_SUBTREES of those are
 *    drawn in proportion to their files and walked whole, and the directories per file of
 *    the drawn ones scale to the rest.
 * Each estimate comes with its 95% half-width, from the samples' own spread; the same spec
 * gives the same estimate (the sample positions come from the seed). Cost: about a second
 * at most on a slow machine whatever the size (the tree's 2^40 files included), where
 * streaming costs about 150 ns a file.
 */
#ifndef FSBENCH_TREE_ESTIMATE_H
#define FSBENCH_TREE_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>

#include "tree/tree.h"

#define TREE_ESTIMATE_EXACT (1u << 20)    /* files up to which the tree is streamed */
#define TREE_ESTIMATE_SAMPLES (1u << 20)  /* file ordinals sampled above it */
#define TREE_ESTIMATE_SUBTREES 2048       /* subtrees walked for the directory count */

struct tree_estimate {
    bool exact;                          /* streamed: every figure exact, the half-widths 0 */
    uint64_t files;                      /* always exact */
    uint64_t dirs, symlinks, bytes, disk; /* disk: every file and directory, the root
                                            included, rounded up to block */
    double dirs_hw, symlinks_hw, bytes_hw, disk_hw; /* 95% half-widths, in the same units */
    uint64_t file_samples, subtree_samples;         /* what an estimate read */
};

/* Fills *e for spec (block > 0). 0, or -1 after error() (the spec tree_open() refuses). */
int tree_estimate(const struct tree_spec *spec, uint64_t block, struct tree_estimate *e);

#endif
