/* run_store.h — opening the results store to write (run, cmd, import, forget): runs that
 * waited in its spool while another process held it locked (results/spool.h) join their
 * sets first, said in one line.
 */
#ifndef FSBENCH_RUN_STORE_H
#define FSBENCH_RUN_STORE_H

#include "results/store.h"

/* store_open(path), then the spool emptied as far as the lock allows (a short wait: a
 * store still locked is no reason to stop). NULL after error(). */
struct store *run_store_open_write(const char *path);

#endif
