/* engine.c — the registry of engines (see engine.h); the settings they share are in
 * engine_settings.c. */
#include "engine/engine.h"

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
