/* spool.h — finished runs the results store could not take when they finished, kept until
 * it can.
 *
 * A run is added to the store when it finishes. When another process holds the database
 * locked for longer than the lock wait (store.h), the run goes into the spool instead: one
 * JSON file per run in the directory DB.spool/ beside the database (mode 0700), named after
 * the run set's id and the run's index, holding the set's description and the run. The run
 * set goes on. The spool is emptied into the store before the next run, at the end of the
 * set, and by any later fsbench that opens the store to write (run, cmd, import, forget):
 * a spooled run joins its set as if it had been added when it finished. Nothing is ever
 * reported saved that is not in the store.
 */
#ifndef FSBENCH_SPOOL_H
#define FSBENCH_SPOOL_H

#include <stdint.h>

#include "measure/results.h"
#include "results/store.h"

/* Keeps run (of set rs, stored as set_id in the database at db) in db's spool. 0, or -1
 * after error(). */
int spool_put(const char *db, int64_t set_id, const struct run_set *rs,
              const struct run_result *run);

/* Adds every spooled run of the database at db (open in s) to its set, removing its file.
 * A run whose set is no longer in the store (forgotten) is dropped with a warning; a file
 * that is not a spooled run is left alone with a warning. *added and *left (may be NULL)
 * count what joined the store and what still waits. 0 when nothing waits any more;
 * STORE_BUSY when the store stayed locked (the rest waits); -1 after error(). */
int spool_flush(struct store *s, const char *db, unsigned *added, unsigned *left);

/* How many runs wait in db's spool (0 when there is none). */
unsigned spool_count(const char *db);

/* "DB.spool" for the database path db, into buf. */
const char *spool_dir(const char *db, char *buf, size_t len);

#endif
