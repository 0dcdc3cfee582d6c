/* job_internal.h — what the job module's files share (not for other modules). */
#ifndef FSBENCH_JOB_INTERNAL_H
#define FSBENCH_JOB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "run/job.h"

/* Keys of a job file that are not options of `fsbench run`. */
#define JOB_KEY_INCLUDE "include"
#define JOB_KEY_INTERLEAVE "interleave"
#define JOB_KEY_DESCRIPTION "description"

/* Checks key = value (value expanded) in [global] (global) or a job. On success *name is
 * what the entry is stored under: the option name (phase.NAME.KEY gives KEY) or the job
 * key itself; static storage. 0, or -1 with the reason in why. */
int job_key_check(const struct job_keys *keys, bool global, const char *key, const char *value,
                  const char **name, char *why, size_t len);

/* The option of keys->opts called name, or NULL. */
const struct option *job_key_option(const struct job_keys *keys, const char *name);

/* Entry i of the phase-parameter table: the option, with its phase in *phase; NULL past
 * the end. */
const char *job_phase_param(size_t i, const char **phase);

#endif
