/* run_store_ops.h — what the store commands (runs, show, export, import, forget; their
 * options are read in cli/cmd_store.c) do with the results store: the database path (--db,
 * else the default), the store opened read-only, to change or made, a label checked and
 * loaded, a set's CSV or job file written, a JSON file imported and a label forgotten.
 * cmd is the command's name, which every message starts with ("<cmd>: <what was wrong>").
 * The functions that return an exit status return base/err.h's EXIT_*.
 */
#ifndef FSBENCH_RUN_STORE_OPS_H
#define FSBENCH_RUN_STORE_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/results.h"
#include "results/store.h"

/* The database path: --db (db), else the default. 0 or -1 after error(). */
int run_store_db_path(const char *cmd, const char *db, char *buf, size_t len);

enum run_store_open { RUN_STORE_READ, RUN_STORE_CHANGE, RUN_STORE_CREATE };

/* Opens the store: read-only (RUN_STORE_READ), to change an existing one (RUN_STORE_CHANGE:
 * forget) or made as needed (RUN_STORE_CREATE: import). Unless created, a missing file gives
 * NULL with *missing set and no message. */
struct store *run_store_open_as(const char *cmd, const char *db, enum run_store_open how,
                                bool *missing);

/* The store path --db names or the default (NULL), for store_check_output(). */
const char *run_store_db_or_default(const char *db);

/* Runs that a locked store could not take yet are not listed: one line says that they
 * exist, if any wait in the spool of the store at db (NULL: the default). */
void run_store_say_waiting(const char *cmd, const char *db);

/* A label given on the command line: not empty, shorter than RES_NAME_MAX. EXIT_OK or
 * EXIT_USAGE after error(). */
int run_store_check_label(const char *cmd, const char *label);
/* A label to keep (import): run_store_check_label's rules and a name others can type and
 * print; from (NULL: none) is the file it came from. */
int run_store_check_new_label(const char *cmd, const char *label, const char *from);

/* Loads a label for show/export: EXIT_OK with *rs filled, or the exit status. */
int run_store_load_label(const char *cmd, const char *db, const char *label,
                         struct run_set *rs);

/* export --csv to out ("-": stdout) through outfile: 0 or -1 after error(). */
int run_store_export_csv(const struct run_set *rs, const char *out);
/* export --job: the job file the set ran, as it was stored: rerunning it runs the same
 * experiment (the same text, so the same hash). The process exit status. */
int run_store_export_job(const struct run_set *rs, const char *out);

/* import FILE [--label NEW] into the store at db: the set of file stored under label (NULL:
 * its own, which must then be a name run_store_check_new_label accepts); a label in use is
 * refused. Says what it imported. The process exit status. */
int run_store_import(const char *db, const char *file, const char *label);

/* forget LABEL: every set labelled label deleted, and how many said. The exit status. */
int run_store_forget(const char *db, const char *label);

#endif
