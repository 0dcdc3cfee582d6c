/* job.h — INI job files: a whole experiment in one file (fio-style).
 *
 * A job file has a [global] section and one section per job; every key is a long option of
 * `fsbench run` (the caller hands in its getopt_long table, so keys and options cannot
 * drift apart), plus `include = FILE`, `interleave = jobs` ([global] only), `description`,
 * and phase parameters `phase.NAME.KEY` (KEY an option that belongs to phase NAME).
 * Values expand ${NAME} from the environment, else from the built-ins ncpus and ram.
 *
 * Parsing (job_parse.c) builds the model below and the expanded text: the file with its
 * includes inlined and every value expanded, comments kept, which re-parses to the same
 * model; its SHA-256 is the job's identity (job_hash.c). job_args.c gives one job's keys in
 * the order they apply (a job inherits [global] and overrides it key by key).
 *
 * Every error is one line "FILE:LINE: what" through error(), and parsing stops there: a file
 * either loads whole and valid or not at all.
 */
#ifndef FSBENCH_JOB_H
#define FSBENCH_JOB_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#define JOB_MAX_JOBS 32
#define JOB_MAX_INCLUDE_DEPTH 16

/* What a key may be: the options of `fsbench run`, and how to check a value. */
struct job_keys {
    const struct option *opts;     /* getopt_long's table, ending with {NULL} */
    const char *const *excluded;   /* options that are not keys (help, job), NULL-ended */
    const char *const *repeatable; /* options given once per value (mount-opts) */
    /* Checks option key's value the way the command line does (scale, "abc"): 0, or -1
     * with the one-line reason in why. May be NULL (no value check). */
    int (*check)(void *arg, const char *key, const char *value, char *why, size_t len);
    void *arg;
    /* Options a job file may not set: consent to destroying data (destroy-data, force),
     * which only the person at the command line gives. NULL-ended, or NULL. */
    const char *const *cmdline_only;
    /* Whether option key's value names a file or directory (dir, json, db, tree = tar:FILE):
     * a relative one is resolved against the job file's directory, after the first *skip
     * bytes ("tar:"). May be NULL (no paths). */
    bool (*is_path)(const char *key, const char *value, size_t *skip);
};

struct job_entry {
    char *key;        /* the option name (phase.NAME.KEY is stored as KEY) */
    char *value;      /* expanded, as written (the stored text has it) */
    char *arg;        /* what the option gets when that differs: a relative path resolved
                       * against the file's directory; NULL otherwise */
    const char *file; /* owned by the job_file */
    int line;
};

struct job_section {
    char *name; /* "global" for the first */
    const char *file;
    int line; /* of its [header]; 0 when implicit */
    struct job_entry *e;
    size_t n, cap;
    char *body; /* expanded text of the section (comments and keys), owned */
    size_t body_len, body_cap;
};

struct job_file {
    char *path;              /* as given */
    struct job_section *sec; /* sec[0] is [global] */
    size_t nsec;
    char *preamble; /* comments before the first section */
    size_t pre_len, pre_cap;
    char **files; /* every file read, for messages (owned) */
    size_t nfiles;
    bool interleave; /* interleave = jobs */
    char *text;      /* the expanded text (after job_parse) */
    char hash[65];   /* its SHA-256, hex */
};

/* Loads a job file. text: the file's content, or NULL to read path. 0, or -1 after one
 * error line (FILE:LINE: ...); *jf is then freed. */
int job_parse(const char *path, const char *text, const struct job_keys *keys, struct job_file *jf);
void job_free(struct job_file *jf);

/* Rewrites jf's expanded text and hash as the experiment that runs when the n options
 * names[i] (values[i], NULL for a flag) are given on the command line: every line setting
 * one of them is commented out, and they are written at the end of [global]. So the text
 * stored with a run set reruns what ran. n = 0 writes the text as parsed. 0 or -1. */
int job_fold(struct job_file *jf, const char *const *names, const char *const *values,
             size_t n);

/* Jobs in file order: the sections after [global]; a file with only [global] is one job
 * named after the file. */
size_t job_count(const struct job_file *jf);
const char *job_name(const struct job_file *jf, size_t i);
/* The job's description (its `description` key, else [global]'s), or NULL. */
const char *job_description(const struct job_file *jf, size_t i);

/* One argument of a job's list, with where it came from. */
struct job_arg {
    char *arg;         /* as the command line says it: "--tree=pkgsrc", "--fsync-dir" */
    const char *value; /* the value the option gets (a path resolved); NULL for a flag */
    const char *key;
    const char *file;
    int line;
};

/* The arguments of job i: [global]'s keys the job does not set, then the job's, each as
 * one "--key=value" (or "--key" for a true flag; a false flag is left out). Keys named in
 * skip (the command line's options) are left out: the command line overrides the file.
 * Returns the count, or -1 after error(). Free with job_args_free. */
int job_args(const struct job_file *jf, size_t i, const struct job_keys *keys,
             const char *const *skip, struct job_arg **out);
void job_args_free(struct job_arg *a, int n);

/* --- helpers, exposed for tests ---------------------------------------------------- */

/* The nearest of names (NULL-ended) to s by edit distance, or NULL if none is close. */
const char *job_nearest(const char *s, const char *const *names);
/* Expands ${NAME} in in into out: 0, or -1 with the reason in why. */
int job_expand(const char *in, char *out, size_t len, char *why, size_t why_len);
/* Parses a flag value (1/0, yes/no, true/false, on/off): 0/1, or -1. */
int job_bool(const char *v);
/* SHA-256 of data as 64 hex digits and a NUL into hex[65]. */
void job_sha256_hex(const void *data, size_t len, char hex[65]);

#endif
