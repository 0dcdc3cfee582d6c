/* phase_scan.h — the directory-walk loop the tree phases share (walk, statwalk and read in
 * phase_walk.c, copy, delete): read the deepest level of a dirscan stack entry by entry,
 * leave a level when it is read to its end, stop at the level it started on, check for an
 * interrupt and skip another rank's entries; what each phase does with an entry, and on
 * leaving a level, is its visitor's.
 *
 * The loop is the hot path of every tree phase, so it is inline and forced so: each phase
 * passes its own static visitor functions, which the compiler then calls directly (inlined
 * into the loop as before) instead of through a pointer.
 */
#ifndef FSBENCH_PHASE_SCAN_H
#define FSBENCH_PHASE_SCAN_H

#include <stddef.h>

#include "engine/dirscan.h"
#include "phase/phase.h"

/* An entry `ent` of the deepest level `level` of s (the walk started at level `base`): 0 to
 * go on, -1 to stop (after phase_fail). It may enter a subdirectory (dirscan_enter). */
typedef int (*phase_scan_entry_fn)(struct phase_ctx *ctx, struct dirscan_stack *s,
                                   size_t base, size_t level, const struct dirscan_ent *ent,
                                   void *arg);
/* The deepest level (below base) was read to its end: leave it (dirscan_leave and what the
 * phase does then). 0, or -1 (after phase_fail). */
typedef int (*phase_scan_leave_fn)(struct phase_ctx *ctx, struct dirscan_stack *s, void *arg);

/* Visits the directory at the deepest level of s and everything below it, on the stack s
 * (no recursion: any depth). Levels above the start are left to the caller (dirscan_unwind).
 * 0, or -1 after phase_fail (or an interrupt). */
static inline __attribute__((always_inline)) int
phase_scan(struct phase_ctx *ctx, struct dirscan_stack *s, phase_scan_entry_fn entry,
           phase_scan_leave_fn leave, void *arg)
{
    const struct engine *e = ctx->eng;
    struct eng_worker *w = ctx->w;
    const size_t base = s->n - 1;
    struct dirscan_ent ent;

    for (;;) {
        size_t level = s->n - 1;
        int r = dirscan_next(e, w, &s->lv[level], &ent);
        if (r < 0)
            return phase_fail_scan(ctx, s, "readdir", NULL, r);
        if (r == 0) {
            if (level == base)
                return 0;
            if (leave(ctx, s, arg) < 0)
                return -1;
            continue;
        }
        if (phase_check_interrupt(ctx))
            return -1;
        if (phase_skips_entry(ctx, dirscan_name(&s->lv[level]), level, ent.name))
            continue; /* another rank's share of a shared tree */
        if (entry(ctx, s, base, level, &ent, arg) < 0)
            return -1;
    }
}

#endif
