/* work_expect.c — each phase's operations from the tree's counts (see work_expect.h). The
 * formulas count what each phase asks of the engine, per directory (D1: the directories
 * with the tree's root), file (F), symlink (S), read call and write call:
 *   extract     mkdir, open and close of every directory; create, write calls and close of
 *               every file; symlink of every symlink
 *   walk        open, close and two getdents (entries, then the end) of every directory
 *   statwalk    walk, and an lstat of every entry
 *   read        two getdents of every directory; open and close of every directory and
 *               file; the read calls
 *   copy        nine calls a directory (stat, open twice, getdents twice, mkdir, close
 *               twice, times) and a file (stat, open twice, copy_file_range twice, close
 *               twice, mode and times), four a symlink; without copy_file_range (the
 *               POSIX-only build) a file's data takes a refused call, the reads and as many
 *               writes less one
 *   delete      a tree's walk with an lstat of its root, and unlink or rmdir of every entry,
 *               for each tree on the target (the copy is one)
 *   createsync  extract, and an fsync of every file
 *   fsyncstorm  statwalk, and per file: two opens, the reads, as many writes less the
 *               one that finds the end, fsync, two closes and a rename (and an fsync of
 *               the directory with fsync-dir)
 * An archive's extract also opens directories for its chunks of files: about 5.7 calls a
 * directory and 2 a file (measured, from the index on any -j; streamed on one thread an
 * archive in tar -c's order costs about the same). With tar's calls (phase/tarcalls.h,
 * the default) every extract also sets each entry's times and, as root, its owner and
 * mode: 2 calls a directory and a symlink, 3 a file as root; 1 each otherwise (a symlink's
 * times, a file's and a directory's; a synthetic tree's directories as root also skip the
 * chmod only when their mode is 0700, which no profile has).
 */
#include "run/work_expect.h"

#include <string.h>
#include <unistd.h>

#include "phase/tarcalls.h"

#include "tree/tree_estimate.h"

/* A file's share of the copy of its data: copy_file_range of up to 1 GiB, then the call
 * that finds the end (files of fsbench's trees are far below 1 GiB). */
#define COPY_CALLS_PER_FILE 2
/* compilebench's random operations, each on one tree: their mean, in a tree's extract
 * (create, patch, compile, clean, read, stat, delete of a tree, drawn with equal weights;
 * measured over seeds 1-5, 30 operations each). */
#define CB_RANDOM_PER_EXTRACT 0.72
/* cb_initial's own calls besides its trees (the directories it makes, the summary). */
#define CB_INITIAL_EXTRA 7
/* cb_initial's reference trees, in a tree's extract: the native unpatched and patched
 * trees (one each) and the native patched compiled one (the tree and its objects, which the
 * built-in model sizes at about 0.58 of the tree's entries). */
#define CB_NATIVES_PER_EXTRACT 3.58

int work_tree_count(const struct tree_spec *t, const struct tarsrc *tar, size_t buflen,
                    struct work_tree *w)
{
    memset(w, 0, sizeof *w);
    if (!buflen)
        return -1;
    if (tar) {
        struct tarent_totals tt;
        if (tarsrc_measure((struct tarsrc *)tar, &tt) < 0)
            return -1;
        w->archive = true;
        w->files = tt.files + tt.hardlinks;
        w->dirs = tt.dirs;
        w->symlinks = tt.symlinks;
        w->chunks = tt.files + tt.bytes / buflen;
        w->writes = w->chunks;
        w->reads = w->files + w->chunks;
        return 0;
    }
    if (!t || !t->prof)
        return -1;
    /* the on-disk estimate in blocks of a call's size is the calls: every file rounded up
     * to whole calls, and one block for each directory (the root included) */
    struct tree_estimate big, small;
    if (tree_estimate(t, TREE_DATA_LEN, &big) < 0 || tree_estimate(t, buflen, &small) < 0)
        return -1;
    w->files = big.files;
    w->dirs = big.dirs;
    w->symlinks = big.symlinks;
    w->writes = (big.disk - (big.dirs + 1) * (uint64_t)TREE_DATA_LEN) / TREE_DATA_LEN;
    w->reads = (small.disk - (small.dirs + 1) * (uint64_t)buflen) / buflen + w->files;
    w->chunks = w->reads - w->files;
    return 0;
}

/* tar's calls on each entry (times; owner and mode as root), 0 for create only */
static uint64_t tar_attr_ops(const struct work_tree *w, const struct phase_params *pp)
{
    if (pp && pp->extract_calls == EXTRACT_CALLS_CREATE)
        return 0;
    bool root = geteuid() == 0;
    return (root ? 3 : 1) * (w->files + w->dirs) + (root ? 2 : 1) * w->symlinks;
}

static uint64_t extract_ops(const struct work_tree *w, const struct phase_params *pp)
{
    uint64_t d1 = w->dirs + 1;
    if (w->archive)
        return 2 * w->files + w->chunks + w->symlinks + (uint64_t)(5.7 * (double)d1) +
               tar_attr_ops(w, pp);
    return 3 * d1 + 2 * w->files + w->writes + w->symlinks + tar_attr_ops(w, pp);
}

static uint64_t statwalk_ops(const struct work_tree *w)
{
    return 4 * (w->dirs + 1) + w->files + w->dirs + w->symlinks;
}

void work_expect(const struct phase_def *const *phases, size_t n, const struct work_tree *w,
                 const struct phase_params *pp, uint64_t *ops)
{
    uint64_t d1 = w->dirs + 1, f = w->files, s = w->symlinks;
    /* compilebench makes its trees with the create calls alone */
    static const struct phase_params lean = {.extract_calls = EXTRACT_CALLS_CREATE};
    unsigned trees = 0; /* trees of the tree's shape on the target: the tree and its copy */
    bool other = false; /* compilebench's trees are there: delete's count is not known */
    for (size_t i = 0; i < n; i++) {
        const char *name = phases[i]->name;
        uint64_t o = 0;
        if (!strcmp(name, "extract")) {
            o = extract_ops(w, pp);
            trees = 1;
        } else if (!strcmp(name, "createsync")) {
            o = extract_ops(w, &lean) + f; /* fs_mark's calls: create only */
            trees = 1;
        } else if (!strcmp(name, "cb_initial")) {
            o = (uint64_t)(((pp ? pp->cb_initial : 0) + CB_NATIVES_PER_EXTRACT) * (double)extract_ops(w, &lean)) +
                CB_INITIAL_EXTRA;
            other = true;
        } else if (!strcmp(name, "cb_random")) {
            o = (uint64_t)((pp ? pp->cb_runs : 0) * CB_RANDOM_PER_EXTRACT * (double)extract_ops(w, &lean));
            other = true;
        } else if (!strcmp(name, "delete")) {
            o = other ? 0 : trees * (5 * d1 + f + s + 1);
            trees = 0;
            other = false;
        } else if (!trees) {
            o = 0; /* the phases below work on the tree: none is there */
        } else if (!strcmp(name, "walk")) {
            o = 4 * d1;
        } else if (!strcmp(name, "statwalk")) {
            o = statwalk_ops(w);
        } else if (!strcmp(name, "read")) {
            o = 2 * d1 + 2 * (f + d1) + w->reads;
        } else if (!strcmp(name, "copy")) {
            /* the data: copy_file_range and the call that finds the end; or a failed
             * copy_file_range, then the reads and as many writes less the last read */
            o = 9 * d1 + 7 * f + 4 * s +
                (w->copy_offload ? COPY_CALLS_PER_FILE * f : 2 * w->reads);
            trees = 2;
        } else if (!strcmp(name, "fsyncstorm")) {
            o = statwalk_ops(w) + 5 * f + 2 * w->reads + (pp && pp->fsync_dir ? f : 0);
        }
        ops[i] = o;
    }
}
