/* engine_settings.c — the settings every engine shares (see engine.h): the queue depth of
 * the asynchronous engines, set once from the command line and read by each worker.
 */
#include "engine/engine.h"

#include <stdatomic.h>

static atomic_uint eng_qd = ENG_DEFAULT_QUEUE_DEPTH;

void eng_set_queue_depth(unsigned qd)
{
    atomic_store(&eng_qd, qd < 1 ? 1 : qd > ENG_MAX_QUEUE_DEPTH ? ENG_MAX_QUEUE_DEPTH : qd);
}

unsigned eng_queue_depth(void)
{
    return atomic_load(&eng_qd);
}
