/* sizing.h — choosing a tree's scale from a size: `--size 10G` (about that many bytes of
 * file content) and `--size auto` (from this machine's RAM, whether the scenario can drop
 * caches, and the free space of the target).
 *
 * Precision of sizing_scale_for_bytes(): the returned scale gives a tree whose bytes are
 * within 2% of the target when the tree has at most TREE_ESTIMATE_EXACT files (it is
 * measured: streamed, nothing written), and within 2% plus the estimate's 95% interval
 * above that (estimated from samples of the tree itself: under 1% for the built-in
 * profiles). Trees smaller than one file's worth stay at one file.
 */
#ifndef FSBENCH_SIZING_H
#define FSBENCH_SIZING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "phase/phase.h"
#include "tree/tree.h"

#define SIZING_MODEST_MIN (256ull << 20)    /* the smallest "modest" tree */
#define SIZING_BLOCK 4096                   /* block size assumed for the on-disk estimate */

/* Scale of base (prof and seed; its scale is ignored) at which the tree holds about
 * `bytes` bytes of file content. 0, or -1 after error(). */
int sizing_scale_for_bytes(const struct tree_spec *base, uint64_t bytes, double *scale);

/* Bytes of content and an estimate of the space the tree takes on disk (every file and
 * directory rounded up to SIZING_BLOCK) at base's scale. 0 or -1. */
int sizing_measure(const struct tree_spec *base, uint64_t *bytes, uint64_t *disk);

/* The --size auto rule (see sizing.c and the README): picks the tree size from ram,
 * whether caches can be dropped (can_drop: root; has_dropcaches: the scenario drops them
 * or remounts), whether cold-read phases run (cold_phases), capped so the tree's on-disk
 * estimate fits free_bytes (0: unknown, no cap) less a margin. Writes the scale and a
 * one-line reasoning into why. Pure: no system calls. 0, or -1 after error(). */
int sizing_auto(const struct tree_spec *base, bool can_drop, bool has_dropcaches,
                bool cold_phases, uint64_t ram, uint64_t free_bytes, double *scale, char *why,
                size_t len);

/* What the phases say: has_dropcaches (dropcaches, umount or remount), cold_phases (walk,
 * statwalk, read, copy) and how many trees are on the target at once (2 with copy). */
void sizing_phases(const struct phase_def *const *phases, size_t n, bool *has_dropcaches,
                   bool *cold_phases, unsigned *copies);
/* Whether one of the phases lays the tree down (extract, createsync, fsyncstorm): only then
 * does the tree take space on the target (age makes its own files, compilebench its own
 * trees, replay the trace's state). */
bool sizing_writes_tree(const struct phase_def *const *phases, size_t n);

/* What the age phase may take of the file system it ages (phase_age.c's stopping rules):
 * it writes until written_x times the file system's size (age-written, or the safety limit
 * when that is 0), until the file system is `fullness` full (0: no such limit, it fills
 * the file system until ENOSPC), whichever comes first. */
struct sizing_age {
    uint64_t fs_bytes, avail_bytes; /* the file system's size and free space now */
    double written_x;               /* the written limit in file-system sizes */
    bool safety;                    /* written_x is the safety limit (age-written 0) */
    uint64_t written;               /* most bytes written: written_x x fs_bytes */
    double fullness;                /* stops when this full; 0: fills it (ENOSPC) */
    uint64_t peak;                  /* most bytes of its free space taken at once */
};

/* Fills *a for params p (NULL: the defaults) and a file system of fs_bytes with avail_bytes
 * free. Pure. */
void sizing_age(const struct phase_params *p, uint64_t fs_bytes, uint64_t avail_bytes,
                struct sizing_age *a);
/* The same for the file system holding dir (statvfs): 0, or -1 with errno. */
int sizing_age_at(const struct phase_params *p, const char *dir, struct sizing_age *a);
/* One line for a: "writes up to 1008.0 GiB (4x its 252.0 GiB) and fills it to 80% full
 * (up to 81.6 GiB of its 120.0 GiB free)", into buf. Returns buf. */
const char *sizing_age_text(const struct sizing_age *a, char *buf, size_t len);

/* Aging by replay (--age-replay, phase_age_replay.c's stops): the trace writes rep_written
 * bytes a repetition (its info block's bytes written, checked against its calls when it
 * runs) after laying rep_state bytes of initial state; it is replayed until the first of
 * --age-replay-times (default 1 without --age-profile), --age-written x the fs (for steps,
 * until_x > 0: the last step's multiple), the safety limit, WL_AGE_REPLAY_MOST; a
 * repetition writing nothing stops it after one. A profile may stop it sooner (converge),
 * as may the fullness: both said, not counted. */
struct sizing_replay {
    uint64_t rep_written, rep_state;
    unsigned reps;          /* most repetitions */
    char basis[96];         /* what sets reps: "--age-replay-times 3", "--age-written 4x" */
    uint64_t written;       /* reps x rep_written: the replays' own writes */
    uint64_t laid;          /* reps x (rep_written + rep_state): all it writes */
    bool may_converge;      /* with a profile outside steps: convergence may stop it sooner */
};
void sizing_age_replay(const struct phase_params *p, double until_x, uint64_t fs_bytes,
                       uint64_t rep_written, uint64_t rep_state, struct sizing_replay *r);
/* "replays git.fsbt up to 24 times (--age-written 4x); a repetition writes 41.1 MiB (the
 * trace's bytes written) and lays 7.8 MiB of initial state first: up to 986.4 MiB in all
 * (3.85x its 256.0 MiB), 1.1 GiB with the initial states", into buf. Returns buf. */
const char *sizing_age_replay_text(const struct sizing_replay *r, const char *trace,
                                   uint64_t fs_bytes, char *buf, size_t len);

/* RAM the page cache can use: physical memory, or the cgroup v2 memory.max if lower. */
uint64_t sizing_ram(void);

/* `--size ARG` for `fsbench run` (and `tree stats`/`tree make`): ARG is a size ("10G",
 * "500M", as --image) or "auto". Sets spec->scale (spec->prof must be a profile). For auto:
 * phases (may be NULL) decide the rule; the free space is image_bytes if non-zero, else
 * that of dir (NULL: $TMPDIR or /tmp); the reasoning is printed on stderr as one line
 * "fsbench: --size auto: ...". Returns 0, or EXIT_USAGE / EXIT_RUN_FAILED after error(). */
int sizing_apply(const char *arg, struct tree_spec *spec, const struct phase_def *const *phases,
                 size_t nphases, const char *dir, uint64_t image_bytes);

#endif
