/* engine.c — the registry of engines and the settings they share (see engine.h). */
#include "engine/engine.h"

#include <stdatomic.h>
#include <string.h>

const struct engine *const engine_table[] = {
    &engine_posix,
#ifndef FSBENCH_OS_POSIX_ONLY
    &engine_uring,
#endif
    &engine_null,
    NULL,
};

const struct engine *engine_find(const char *name)
{
    for (size_t i = 0; engine_table[i]; i++)
        if (strcmp(engine_table[i]->name, name) == 0)
            return engine_table[i];
    return NULL;
}

static atomic_uint eng_qd = ENG_DEFAULT_QUEUE_DEPTH;

void eng_set_queue_depth(unsigned qd)
{
    atomic_store(&eng_qd, qd < 1 ? 1 : qd > ENG_MAX_QUEUE_DEPTH ? ENG_MAX_QUEUE_DEPTH : qd);
}

unsigned eng_queue_depth(void)
{
    return atomic_load(&eng_qd);
}
