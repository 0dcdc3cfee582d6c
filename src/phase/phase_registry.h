/* phase_registry.h — the registry of phases: every phase by name, in the order `fsbench
 * list` shows them. */
#ifndef FSBENCH_PHASE_REGISTRY_H
#define FSBENCH_PHASE_REGISTRY_H

#include "phase/phase.h"


/* The table, ending with {NULL}. */
extern const struct phase_def phase_table[];
/* The phase named name, or NULL. */
const struct phase_def *phase_find(const char *name);

#endif
