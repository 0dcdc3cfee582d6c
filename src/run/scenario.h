/* scenario.h — built-in scenarios: named, ordered lists of phases. */
#ifndef FSBENCH_SCENARIO_H
#define FSBENCH_SCENARIO_H

#include <stddef.h>

#include "phase/phase.h"

#define SCENARIO_MAX_PHASES 32

struct scenario {
    const char *name;
    const char *desc;
    const char *phases;     /* comma-separated phase names, in order */
};

/* The registry, ending with {NULL}. */
extern const struct scenario scenario_table[];
const struct scenario *scenario_find(const char *name);

/* Resolves a comma-separated list of phase names into out[] (at most max).
 * Returns the count, or -1 after error() naming the unknown phase. */
int scenario_resolve(const char *list, const struct phase_def **out, size_t max);

#endif
