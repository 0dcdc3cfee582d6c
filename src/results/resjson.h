/* resjson.h — run sets to and from JSON (jansson), the format of --json, export and import.
 *
 * The JSON carries "schema_version"; readers accept every version up to
 * RESULTS_SCHEMA_VERSION and refuse newer ones with a clear message. The schema is
 * documented in docs/json-schema.md (for the README's "JSON output").
 */
#ifndef FSBENCH_RESJSON_H
#define FSBENCH_RESJSON_H

#include <jansson.h>

#include "measure/results.h"

/* New reference, or NULL after error(). */
json_t *resjson_from_run_set(const struct run_set *rs);
/* Fills *rs (zeroed by the caller) from j: 0, or -1 after error() naming what was wrong. */
int resjson_to_run_set(const json_t *j, struct run_set *rs);

/* Whole files; path "-" is stdout for writing (and stdin for reading). 0 or -1 after
 * error(); messages of resjson_read_file start with the path. On failure the run set is
 * left empty (anything read so far is freed). */
int resjson_write_file(const struct run_set *rs, const char *path);
int resjson_read_file(const char *path, struct run_set *rs);

/* ---- pieces, for the store (one codec for files and database) ----
 * Each from_ returns a new reference or NULL after error(). Each to_ fills a struct
 * (zeroed by the caller) from an object: members that are absent keep their zero value
 * (-1 for unreadable machine settings); a member of the wrong type is an error naming it
 * as `where`.member ("runs[2].phases[0].wall_s: expected a number"). `where` may be "". */
json_t *resjson_from_phase(const struct phase_result *pr);
/* 0, or -1 after error(); on failure nothing stays allocated in *pr. */
int resjson_to_phase(const json_t *j, struct phase_result *pr, const char *where);
json_t *resjson_from_machine(const struct machine_info *m);
int resjson_to_machine(const json_t *j, struct machine_info *m, const char *where);
json_t *resjson_from_target(const struct target_info *t);
int resjson_to_target(const json_t *j, struct target_info *t, const char *where);
json_t *resjson_from_tree(const struct tree_info *t);
int resjson_to_tree(const json_t *j, struct tree_info *t, const char *where);
/* A run set's "ranks" object (runs on several MPI ranks; only when rs->ranks.count). */
json_t *resjson_from_ranks(const struct ranks_info *ri);
int resjson_to_ranks(const json_t *j, struct ranks_info *ri, const char *where);

/* A run set's "stopping" object (a set that stopped by looking: only when
 * rs->stop.method[0]). */
json_t *resjson_from_stop(const struct stop_rule *st);
int resjson_to_stop(const json_t *j, struct stop_rule *st, const char *where);

/* Derived figures as written to JSON and CSV: operations per second and MB/s
 * (MB = 10^6 bytes, read + written) over the phase's wall time; NAN when the wall time
 * is not positive. */
double resjson_ops_per_s(const struct phase_result *pr);
double resjson_mb_per_s(const struct phase_result *pr);

#endif
