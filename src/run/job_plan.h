/* job_plan.h — what a run would do, for `fsbench run --dry-run`: computed from the runner's
 * options without touching anything. The tree's totals cost no more than a fraction of a
 * second whatever its size: exact for a tree of up to TREE_ESTIMATE_EXACT files (streamed,
 * never written), estimated with stated 95% intervals above (tree_estimate.h).
 */
#ifndef FSBENCH_JOB_PLAN_H
#define FSBENCH_JOB_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "run/runner.h"
#include "run/sizing.h"
#include "tree/tree_estimate.h"

struct job_plan {
    bool tree_known; /* a profile (not an archive): the counts below are known ... */
    bool estimated;  /* ... but estimated (a big tree: tree_estimate.h), within est */
    struct tree_estimate est; /* the estimate, with its half-widths */
    uint64_t files, dirs, symlinks, bytes;
    uint64_t disk;       /* the tree on disk, every file and directory in blocks */
    unsigned copies;     /* trees on the target at once (2 with copy) */
    bool tree_written;   /* a phase lays the tree down (sizing_writes_tree): else it takes
                            no space and is not in need */
    uint64_t need;       /* free space the runs need */
    uint64_t free_bytes; /* free where they go (0: unknown) */
    char where[4096];    /* that place */
    /* compilebench on a data set (--cb-dataset): its trees, sized from the listings (the
     * initial trees, each as large as the largest listing); 0 otherwise */
    uint64_t cb_need;
    uint64_t fs_size;    /* the file system the runs write into: the image's size (0: unknown) */
    /* an age phase: what it writes and takes of the file system it ages */
    bool ages;
    bool age_known;          /* the file system's size is known (age is filled) */
    bool age_host;           /* that file system is the one holding --dir, not fsbench's */
    struct sizing_age age;
    /* aging by replay (--age-replay): sized by the trace's own bytes written, not by
     * age.written (age.written and age.peak are then the replay's) */
    bool replays;            /* --age-replay given */
    bool replay_known;       /* the trace's info block was read (replay is filled) */
    struct sizing_replay replay;
    char replay_why[256];    /* not known: why ("t.fsbt: not a trace file ...") */
    bool need_by_replay;     /* need is what the replays lay down */
    bool needs_root;     /* fails without root */
    bool wants_root;     /* runs without, but phases are skipped (dropcaches) */
    char root_why[256];
};

/* Fills *p from o; tree_arg is the --tree value (an archive's size is its file's). 0 or
 * -1 after error(). */
int job_plan_compute(const struct runner_opts *o, const char *tree_arg, struct job_plan *p);

#endif
