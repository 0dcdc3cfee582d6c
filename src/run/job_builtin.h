/* job_builtin.h — the job files shipped in jobs/NAME.ini, built into the binary.
 *
 * The Makefile turns every jobs/NAME.ini into one entry of job_builtin_table (a generated
 * source in the build directory), so the binary carries the jobs its own option table
 * understands, wherever it is run from; `make install` also copies them to
 * PREFIX/share/fsbench/jobs to read and edit. A job file is found by name
 * (`fsbench run seed-000-dirpref`) or run from any path.
 */
#ifndef FSBENCH_JOB_BUILTIN_H
#define FSBENCH_JOB_BUILTIN_H

struct job_builtin {
    const char *name; /* "seed-000-dirpref" */
    const char *path; /* "jobs/seed-000-dirpref.ini", for messages */
    const char *text;
};

/* Ends with {NULL}. */
extern const struct job_builtin job_builtin_table[];

/* By name, with or without ".ini"; NULL if none. */
const struct job_builtin *job_builtin_find(const char *name);

#endif
