/* resjson_internal.h — what resjson.c (run sets, descriptions, files), resjson_phase.c
 * (phases and runs), resjson_ranks.c, resjson_stop.c and resjson_value.c (the helpers below)
 * share and nothing else includes; the codec's API is resjson.h.
 *
 * Writers: each resjson_put() returns 1 on failure so a builder can accumulate `bad |= ...`
 * and finish with resjson_done(). Readers: each resjson_get_*() leaves *out alone when the
 * member is absent and returns -1 after error() (through resjson_fail()) naming the member's
 * path when it has the wrong type.
 */
#ifndef FSBENCH_RESJSON_INTERNAL_H
#define FSBENCH_RESJSON_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/results.h"

/* Where a reader is: the file (or NULL) and the path of the containing object. */
struct resjson_rctx {
    const char *file;
    const char *where;
};

#define RESJSON_PATH_MAX 256

/* ---- writing ---- */
/* A JSON string from a fixed buffer; bytes that are not valid UTF-8 become '?'. */
json_t *resjson_str(const char *s, size_t size);
/* An integer, or a decimal string above INT64_MAX. */
json_t *resjson_u64(uint64_t v);
/* A real, or null when not finite. */
json_t *resjson_real(double v);
/* Sets o[key] = v (stealing v; a NULL v fails); 1 on failure, else 0. */
int resjson_put(json_t *o, const char *key, json_t *v);
/* o, or NULL after error() (and o released) when bad. */
json_t *resjson_done(json_t *o, int bad);
#define RESJSON_PUT_STR(o, key, field) resjson_put(o, key, resjson_str(field, sizeof(field)))

/* ---- reading ---- */
/* error() naming the file and c's path with key appended; returns -1. */
int resjson_fail(const struct resjson_rctx *c, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Path of a child object ("runs[2]", "runs[2].phases"), for nested readers. */
void resjson_child_path(char *buf, size_t len, const struct resjson_rctx *c, const char *key);
/* Reads o's member `key`, an array of objects, into a new calloc'd array of elem_size-byte
 * elements (*out, *n): each(sub, object, element) fills one, sub naming it ("key[i]") for
 * messages. Absent, null or empty: *out NULL, *n 0. 0, or -1 after an error naming the
 * place (a partly filled array stays in *out for the caller to free). */
int resjson_read_objects(const struct resjson_rctx *c, const json_t *o, const char *key,
                         size_t elem_size, void **out, size_t *n,
                         int (*each)(const struct resjson_rctx *sub, const json_t *e, void *elem));
/* v as an unsigned 64-bit integer: a non-negative integer or a decimal string. */
int resjson_u64_value(const struct resjson_rctx *c, const char *key, const json_t *v,
                      uint64_t *out);
int resjson_get_u64(const struct resjson_rctx *c, const json_t *o, const char *key,
                    uint64_t *out);
int resjson_get_uint(const struct resjson_rctx *c, const json_t *o, const char *key,
                     unsigned *out);
/* A signed integer; null reads as null_value. */
int resjson_get_long(const struct resjson_rctx *c, const json_t *o, const char *key, long *out,
                     long null_value);
/* A number; null reads as NAN. */
int resjson_get_double(const struct resjson_rctx *c, const json_t *o, const char *key,
                       double *out);
/* A duration in seconds: null reads as NAN (not measured); otherwise finite and 0 or from
 * 1 ns (the clock's resolution) to 1e9 s. A negative, denormal or huge time is no
 * measurement: it would make ratios infinite and tables unreadable. */
int resjson_get_seconds(const struct resjson_rctx *c, const json_t *o, const char *key,
                        double *out);
/* A number that is finite and from 0 to max (null reads as NAN): timestamps, offsets,
 * nanosecond means. */
int resjson_get_nonneg(const struct resjson_rctx *c, const json_t *o, const char *key,
                       double *out, double max);
/* v checked as resjson_get_nonneg checks a member. */
int resjson_nonneg_value(const struct resjson_rctx *c, const char *key, const json_t *v,
                         double *out, double max);
/* A name (a configuration, a phase): a string that fits and holds no control character
 * or bidirectional-text control (it is printed in tables and matched by others). */
int resjson_get_name(const struct resjson_rctx *c, const json_t *o, const char *key, char *buf,
                     size_t size);
#define RESJSON_GET_NAME(c, o, key, field) resjson_get_name(c, o, key, field, sizeof(field))
int resjson_get_bool(const struct resjson_rctx *c, const json_t *o, const char *key, bool *out);
/* A string that fits buf (size bytes with its NUL) and holds no NUL. */
int resjson_get_str(const struct resjson_rctx *c, const json_t *o, const char *key, char *buf,
                    size_t size);
#define RESJSON_GET_STR(c, o, key, field) resjson_get_str(c, o, key, field, sizeof(field))
/* An optional member that must be an object when present; *out is NULL when absent. */
int resjson_get_object(const struct resjson_rctx *c, const json_t *o, const char *key,
                       const json_t **out);

/* ---- runs (resjson_phase.c) ---- */
/* A run and its phases: a new reference, or NULL (no message). */
json_t *resjson_run_to_json(const struct run_result *r);
/* Adds the run in o to rs, with its phases. 0, or -1 after error(). */
int resjson_read_run(const struct resjson_rctx *c, const json_t *o, struct run_set *rs);

/* ---- several ranks (resjson_ranks.c) ---- */
int resjson_read_ranks(const struct resjson_rctx *c, const json_t *o, struct ranks_info *ri);
/* Adds a phase's "ranks" and "stonewalled" to o when it ran on several ranks: 1 on
 * failure, else 0. */
int resjson_put_phase_ranks(json_t *o, const struct phase_result *pr);
int resjson_read_phase_ranks(const struct resjson_rctx *c, const json_t *o,
                             struct phase_result *pr);

/* ---- aging's figures, by replay or by profile (resjson_aging.c) ---- */
/* Adds a phase's "age_replay" or "age_profile" object when it has one: 1 on failure, else 0. */
int resjson_put_phase_aging(json_t *o, const struct phase_result *pr);
/* Reads it back (absent: none). 0, or -1 after error(). */
int resjson_read_phase_aging(const struct resjson_rctx *c, const json_t *o,
                             struct phase_result *pr);

/* ---- the stopping rule (resjson_stop.c) ---- */
int resjson_read_stop(const struct resjson_rctx *c, const json_t *o, struct stop_rule *st);

#endif
