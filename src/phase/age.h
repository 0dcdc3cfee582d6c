/* age.h — aging a file system to a profile (tree/ageprof.h): the engine behind the `age`
 * phase when a profile is given (--age-profile), and the entry point other phases call to
 * age an already-aged tree further.
 *
 * ENTRY POINT FOR CONTINUED AGING: age_profile_run(ctx, profile, budget, out). Every call
 * first rescans what exists below tree/age (directories "d<hex>", files "f<hex>", their
 * sizes, depths and mtimes; anything else there is left alone and not counted), so a call
 * after an earlier one (in this process or another, on the same file system) CONTINUES the
 * aging from the state on disk: the aging clock restarts at the newest mtime found, names
 * continue above the largest found. The budget says when this call stops, whichever comes
 * first:
 *   - written_bytes > 0: after writing that many more bytes (this call's own);
 *   - converge > 0: when every bucket of every distribution is within converge (a share,
 *     0.01 = 1 %) of the profile and the live files' blocks (their sizes rounded up to
 *     whole blocks) are within 2 % of the profile's utilization of the file system;
 *   - fullness in (0, 1): when the file system (statvfs) is that full;
 *   - ctx->params->age_free_share > 0: when that share of the free space is in extents
 *     under age_free_below (age_free_target.c);
 *   - always: ENOSPC, and WL_AGE_SAFETY x the file system's size written.
 * The same seed (ctx->seed), profile, file system size and starting tree give the same
 * operations and the same outcome. out->why says which stop happened.
 *
 * Each operation is drawn from the profile's mix (create, delete, append, truncate, rename,
 * overwrite in place), with deletes turned into creates while the live files' blocks are
 * below the utilization target and creates into deletes above it. Which file an operation takes is
 * steered towards the profile: of a few files drawn at random, the one in the buckets with
 * most excess over the profile; new sizes, depths and target buckets go where the profile
 * has a deficit. Data is real (a deterministic pattern), and every write sets the file's
 * mtime to the aging clock, which advances profile->turnover_s / (live files) per
 * operation, so ages are deterministic and a later rescan reads them back.
 *
 * Free space: the free-extent histogram (measure/freefrag.h) is taken before aging and
 * after it (after a syncfs, so delayed allocation is resolved), into out->free_before and
 * out->free_after.
 */
#ifndef FSBENCH_AGE_H
#define FSBENCH_AGE_H

#include <stddef.h>
#include <stdint.h>

#include "measure/freefrag.h"
#include "phase/phase.h"
#include "tree/ageprof.h"

struct age_budget {
    double written_bytes; /* stop after writing this many bytes (0: no limit) */
    double converge;      /* stop when within this share per bucket (0: never) */
    double fullness;      /* stop when the fs is this full (outside (0, 1): never) */
    bool progress;        /* print progress lines on stderr while aging */
};

/* The free-space target (--age-free-target, age_free_target.c): share and below from
 * ctx->params (share 0: none); last is the share measured last (-1: not yet). */
struct age_free_check {
    double share, last;
    uint64_t below;
    double every, next_at; /* bytes written between measures; when the next is due */
};
struct age_outcome {
    const char *why;  /* "converged", "written target reached", ... (static text) */
    uint64_t ops;     /* operations this call made */
    uint64_t written; /* bytes this call wrote */
    uint64_t live_files, live_bytes, dirs;
    double fs_size, fs_full;  /* bytes; share of the fs in use at the end (statvfs) */
    struct ageprof_hist hist; /* the live files' distributions at the end */
    struct ageprof_distance dist;
    double converged_at_s; /* seconds into the call when it converged, or -1 */
    struct freefrag free_before, free_after;
    struct age_free_check free_check; /* the free-space target and its last measure */
};

/* Ages ctx's tree/age by profile p until budget says stop (see above). 0, or -1 after
 * phase_fail. out is filled in both cases as far as it got. */
/* Opens tree/age below the workspace, making tree/ and it where they are missing: its
 * descriptor, or -1 after phase_fail() (the phase's note says what failed). Both ways of
 * aging (the churn of phase_age.c, a profile's here) start there. */
int age_root_open(struct phase_ctx *ctx);

int age_profile_run(struct phase_ctx *ctx, const struct ageprof *p, const struct age_budget *b,
                    struct age_outcome *out);

/* The outcome of the last completed age_profile_run of this process (0), or -1 if none. */
int age_last_outcome(struct age_outcome *out);

/* Starts the check; with a target, measures once: where the free space cannot be measured
 * the phase fails with a note saying why (-1). 0 otherwise. */
int age_free_begin(struct phase_ctx *ctx, struct age_free_check *c, double fs_size);
/* With written bytes written so far: 1 when a measure now finds the target met, 0 when not
 * (or not due), -1 after phase_fail (drain or syncfs failed). */
int age_free_reached(struct phase_ctx *ctx, struct age_free_check *c, double written);
/* "31% of free space in extents under 1.0 MiB (target 30%)". Returns buf. */
char *age_free_text(const struct age_free_check *c, char *buf, size_t len);

/* The phase's own figures (age_figures.c): a free-space measure's; the buckets of p with
 * h's shares now (and p's as targets where targets); and profile aging's whole object from
 * its outcome o, with stop as the stop ("failed" where the run failed). */
void age_free_figures(struct age_free_figures *d, const struct freefrag *f);
void age_bucket_figures(struct age_replay_result *a, const struct ageprof *p, bool targets,
                        const struct ageprof_hist *h);
void age_profile_figures(struct age_replay_result *a, const struct ageprof *p,
                         const struct age_outcome *o, const char *stop);

/* Lines "  sizes  4K  target 25.0%  now 24.6%  -0.4" for every bucket, into f. */
void age_print_buckets(FILE *f, const struct ageprof *p, const struct age_outcome *o);

#endif
