/* meta.h — a run set's KEY=VALUE notes (fsbench run --meta commit=abc123): checking one as
 * given on the command line or read from an import, adding it to a set, finding it, and
 * its JSON (an object of strings, "meta" in a run set's JSON and in the store).
 *
 * Also the set's work records (struct run_work: threads, mkfs options, the replayed trace's
 * identity, extract's calls and their version), which the store keeps in the same column
 * under the key "_work" (an array; no --meta key can start with '_') and a run set's JSON
 * as "work".
 */
#ifndef FSBENCH_META_H
#define FSBENCH_META_H

#include <jansson.h>

#include "measure/results.h"

/* Checks key and value: a key of 1 to RES_META_KEY_MAX-1 letters, digits, '.', '_' or '-'
 * that starts with a letter or digit; a value under RES_META_VALUE_MAX bytes with no control
 * character, line break or byte that is not UTF-8. 0, or -1 with the reason in why. */
int meta_check(const char *key, const char *value, char *why, size_t len);
/* Adds "KEY=VALUE" (arg) to meta[0..*n) (RES_META_MAX places); a key given again with
 * another value is refused, the same value again is fine. 0, or -1 after error() naming opt
 * ("--meta"). */
int meta_add_arg(struct run_meta *meta, unsigned *n, const char *arg, const char *opt);
/* The value of key in meta[0..n), or NULL. */
const char *meta_find(const struct run_meta *meta, unsigned n, const char *key);
/* {"key": "value", ...}; NULL after error(). */
json_t *meta_to_json(const struct run_set *rs);
/* Reads an object of strings (NULL or null: none) into rs->meta, every pair checked. 0, or
 * -1 after error() naming where. */
int meta_from_json(const json_t *o, struct run_set *rs, const char *where);

/* The work records as an array of objects; NULL after error(). */
json_t *meta_work_to_json(const struct run_set *rs);
/* Reads such an array (NULL or null: none) into rs->work, every member checked. 0, or -1
 * after error() naming where. */
int meta_work_from_json(const json_t *a, struct run_set *rs, const char *where);
/* What the store keeps: meta_to_json() with the work records under "_work" (when any);
 * meta_from_json() reads both back. NULL after error(). */
json_t *meta_store_json(const struct run_set *rs);

#endif
