/* run_tree.h — what `fsbench tree make` and `fsbench tree capture` do once their arguments
 * are read (cli/cmd_tree.c): a tree written untimed into a new or empty directory, on N
 * threads as the extract phase would; a real tree's shape (tree/shape*.c) and aging profile
 * (tree/ageprof.c) recorded in files.
 */
#ifndef FSBENCH_RUN_TREE_H
#define FSBENCH_RUN_TREE_H

#include "tree/tree.h"

/* tree make -j: at most this many threads, each with an I/O buffer (run_tree.c). */
#define TREE_MAKE_MAX_THREADS 64

/* Writes spec's tree (spec->prof NULL: the archive profile names, "tar:FILE") into dir,
 * which must be new or empty, on nthreads threads (1..TREE_MAKE_MAX_THREADS), and says
 * what it wrote; a tree that fails is taken out of dir again. The process exit status. */
int run_tree_make(struct tree_spec *spec, const char *profile, const char *dir,
                  unsigned nthreads);

/* Records the tree under dir: its shape in outpath and/or its aging profile in agepath
 * (NULL: not that one; "-": stdout), each said in a line. The process exit status. */
int run_tree_capture(const char *dir, const char *outpath, const char *agepath);

#endif
