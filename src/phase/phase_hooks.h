/* phase_hooks.h — optional hooks the runner calls around a run set, each round and each
 * phase, so that one fsbench process can be one rank of many (src/mpi/ implements them).
 * Without hooks (NULL) the runner behaves as one process.
 *
 * Contract: every hook is called on every rank at the same point of the same run, so an
 * implementation may make collective calls in any of them (every rank reaches it, also
 * when a local step failed: the local status is passed in, never skipped).
 */
#ifndef FSBENCH_PHASE_HOOKS_H
#define FSBENCH_PHASE_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/results.h"
#include "phase/phase.h"

struct phase_hooks {
    void *arg;
    /* After setup, with the local result rc (0 or -1) and the set's description: may
     * complete the description (rank 0: the whole data set, rs->ranks). 0 when every
     * rank is ready, -1 (after one error line on rank 0) when any is not. */
    int (*set_ready)(void *arg, struct run_set *rs, int rc);
    /* The configuration order of a round, computed by the runner: replaced by rank 0's. */
    void (*round_order)(void *arg, size_t *order, size_t n);
    /* A decision every rank must share (--runs auto: stop now?): rank 0's wins. */
    bool (*decide)(void *arg, bool local);
    /* Before a phase: may redirect ctx (another rank's tree, a share of a shared tree,
     * cache drops left to another rank of the node); then waits for every rank. */
    void (*phase_start)(void *arg, const struct phase_def *ph, struct phase_ctx *ctx);
    /* Right after the phase's work, before its measurement is closed (local only). */
    void (*phase_stop)(void *arg, struct phase_ctx *ctx);
    /* After the phase's figures are filled, with the local result rc: makes ctx->res the
     * aggregate over ranks on rank 0. 0 to go on; -1 when any rank failed (ctx->res's
     * status and note say which on rank 0; on the others the stop is quiet). */
    int (*phase_end)(void *arg, struct phase_ctx *ctx, int rc);
};

#endif
