/* phase_registry.h — the registry of phases: every phase by name, in the order `fsbench
 * list` shows them. */
#ifndef FSBENCH_PHASE_REGISTRY_H
#define FSBENCH_PHASE_REGISTRY_H

#include "phase/phase.h"


/* The table, ending with {NULL}. */
extern const struct phase_def phase_table[];
/* The phase named name, or NULL. */
const struct phase_def *phase_find(const char *name);
/* The untimed preparation of phase ph, for the phases that have one (replay lays down its
 * trace's initial state), run before its clocks start: 0 (also when it has none), or -1
 * with ctx->res's status and note set. */
int phase_setup(const struct phase_def *ph, struct phase_ctx *ctx);

#endif
