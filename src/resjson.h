/* resjson.h — run sets to and from JSON (jansson), the format of --json, export and import.
 *
 * The JSON carries "schema_version"; readers accept every version up to
 * RESULTS_SCHEMA_VERSION and refuse newer ones with a clear message. The schema is
 * documented in the README ("JSON output").
 */
#ifndef FSBENCH_RESJSON_H
#define FSBENCH_RESJSON_H

#include <jansson.h>

#include "results.h"

/* New reference, or NULL after error(). */
json_t *resjson_from_run_set(const struct run_set *rs);
/* Fills *rs (zeroed by the caller) from j: 0, or -1 after error() naming what was wrong. */
int resjson_to_run_set(const json_t *j, struct run_set *rs);

/* Whole files; path "-" is stdout for writing. 0 or -1 after error(). */
int resjson_write_file(const struct run_set *rs, const char *path);
int resjson_read_file(const char *path, struct run_set *rs);

#endif
