/* run_store.c — the store opened to write, its spool emptied first (see run_store.h). */
#include "run/run_store.h"

#include "base/err.h"
#include "results/spool.h"

/* How long emptying an earlier spool waits for a lock: a moment, not the full wait. */
#define CLI_SPOOL_WAIT_MS 1000

struct store *run_store_open_write(const char *path)
{
    struct store *s = store_open(path);
    if (!s)
        return NULL;
    unsigned added = 0, left = 0;
    char dir[4200];
    store_set_lock_wait(s, CLI_SPOOL_WAIT_MS);
    int rc = spool_flush(s, path, &added, &left);
    store_set_lock_wait(s, store_lock_wait_ms());
    if (added)
        inform("%u run%s that waited in %s while the store was locked %s joined %s set%s", added,
               added == 1 ? "" : "s", spool_dir(path, dir, sizeof dir),
               added == 1 ? "has" : "have", added == 1 ? "its" : "their",
               added == 1 ? "" : "s");
    if (rc == STORE_BUSY && left)
        inform("%u run%s still wait%s in %s: the store is locked by another process", left,
               left == 1 ? "" : "s", left == 1 ? "s" : "", spool_dir(path, dir, sizeof dir));
    return s;
}
