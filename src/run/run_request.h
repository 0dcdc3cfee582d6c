/* run_request.h — the one table of `fsbench run`'s options (fio's options table is the
 * model), and the request they are parsed into.
 *
 * Why it lives in run/, below cli/: a run's options come from two places, a command line
 * (read in cli/, cmd_run.c) and a job file's keys (read in run/, run_jobs.c and
 * run_job_request.c), and both are parsed through this one table into one struct
 * run_request. The table therefore belongs below both readers; cli/ keeps reading argv,
 * `run --help` (cli/run_usage.c) and the dispatch.
 *
 * Each option is one row of run_options[] (run_request_table.c): its long name, short name,
 * job-file key, kind, value check (range or values), default, help line and help section.
 * Everything else is made from that row (run_request_forms.c): the getopt_long table, the
 * job-file keys (run/job.h's struct job_keys), the consent scan, what a stored set keeps;
 * `run --help` (cli/run_usage.c) and the drift test of the man page and the bash completion
 * (tests/e2e/t0013) read it too.
 *
 * A command line (run_request_argv) and a job file's keys (run_job_request.c) are both
 * parsed into one struct run_request through run_request_set() (run_request.c): the table
 * checks the value (range, values), refuses a second different value of a one-value option,
 * and calls the row's setter. No argument list is rebuilt from a job.
 *
 * Consent (kind RUN_KIND_CONSENT: --destroy-data, --force, --age-host-fs) is taken from this
 * process's argv alone (run_consent.h): run_request_set() refuses it from any source but
 * RUN_FROM_ARGV, a job file refuses it as a key, and a stored set's arguments lose it (by
 * the kind, not by a list of names).
 */
#ifndef FSBENCH_RUN_REQUEST_H
#define FSBENCH_RUN_REQUEST_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/number.h"
#include "mpi/mpi_run.h"
#include "results/meta.h"
#include "run/job.h"
#include "run/run_bisect.h"
#include "run/run_target.h"
#include "run/runner.h"
#include "target/target.h"

/* What an option's value is. */
enum run_kind {
    RUN_KIND_FLAG,     /* no value (a job key: 1/0, yes/no, true/false) */
    RUN_KIND_NUMBER,   /* a number in .range (its unit in the range); .values: other words */
    RUN_KIND_DURATION, /* a number of seconds (or ms) in .range */
    RUN_KIND_SIZE,     /* bytes with a unit (256K, 10G); .values: other words (auto) */
    RUN_KIND_ENUM,     /* one of .values */
    RUN_KIND_LIST,     /* a list; each repeat adds to it (command line and job file) */
    RUN_KIND_PATH,     /* a file or directory (a job file's is relative to the file) */
    RUN_KIND_TEXT,     /* anything else its setter parses (a label, KEY=VALUE) */
    RUN_KIND_CONSENT,  /* consent: this process's command line alone, never stored */
};

/* The sections of `run --help`, in order. */
enum run_section {
    RUN_SEC_GENERAL,
    RUN_SEC_TARGET,
    RUN_SEC_WORKLOAD,
    RUN_SEC_REPLAY,
    RUN_SEC_MPI,
    RUN_SEC_HIDDEN, /* not listed (--help itself) */
    RUN_SEC_COUNT
};

/* A section's title line (NULL: none) and the note after its rows (NULL: none). */
struct run_section_text {
    const char *title;
    const char *note;
};
extern const struct run_section_text run_sections[RUN_SEC_COUNT];

/* run_option.flags */
enum {
    RUN_OPT_NOT_STORED = 1u << 0, /* says where results go, not what runs: not folded into
                                     the stored job, nor in a stored set's arguments */
    RUN_OPT_OPTIONAL = 1u << 1,   /* the value is optional (--destroy-data[=DEV]) */
    RUN_OPT_DEF_SAID = 1u << 2,   /* .def is what the option's absence does, said in the
                                     help; it is not parsed into the request */
    RUN_OPT_HANDLED = 1u << 3,    /* taken by the job/resume split before parsing (job,
                                     dry-run, check, resume): nothing to set */
};

struct run_request;
struct run_option;

/* Sets the request from one checked value: text as given; num its number for the number
 * kinds (NUMBER, DURATION with a .range), or the index in .values for ENUM. 0, or
 * EXIT_USAGE after error() naming the option. */
typedef int (*run_setter)(struct run_request *rq, const struct run_option *o, const char *text,
                          double num);

struct run_option {
    const char *name;         /* long name: --name */
    char short_name;          /* -c, or 0 */
    const char *key;          /* its job-file key, or NULL: the command line's only */
    enum run_kind kind;
    const char *arg;          /* the value's name in the help ("N", "DIR"); NULL: a flag */
    const struct num_range *range;   /* NUMBER, DURATION: checked by the table (NULL: by
                                        the setter) */
    const char *const *values;       /* ENUM: the values; NUMBER, SIZE: other words */
    const char *bad;          /* ENUM: the message for another value, a format taking the
                                 value: "unknown engine '%s' (posix, uring, null, auto)" */
    const char *def;          /* the default as the user would write it, parsed into every
                                 request before its options (NULL: none) */
    enum run_section section;
    unsigned flags;           /* RUN_OPT_* */
    const char *usage;        /* the help's left column when not "--name ARG" */
    const char *help;         /* the help's lines ('\n' between them, 60 columns) */
    run_setter set;           /* NULL: nothing to set (consent, RUN_OPT_HANDLED) */
};

/* The table, ending with a row whose name is NULL; and its row count. */
extern const struct run_option run_options[];
#define RUN_OPTIONS_MAX 96

/* The short options of fsbench run, for every getopt_long over its arguments (the scans of
 * cmd_run_job.c and cmd_run_resume.c prefix "+:" or ":"), and the getopt_long table; both
 * made from run_options[]. The table's val is the row's index + 256 (or its short name). */
const char *run_options_short(void);
const struct option *run_options_getopt(void);
/* The row getopt_long returned c for (idx: its index in run_options_getopt(), or -1);
 * NULL for an error ('?', ':'). */
const struct run_option *run_option_of(int c, int idx);
/* The row called name, or NULL. */
const struct run_option *run_option_find(const char *name);
/* Whether the row takes no value. */
bool run_option_is_flag(const struct run_option *o);

/* The job-file keys: the rows with a key, the list rows repeatable, consent rows with a key
 * refused as consent, and each value checked by parsing it as the command line would. */
const struct job_keys *run_options_job_keys(void);
/* Whether a job key's value is a path (job_keys.is_path): resolved against the job file. */
bool run_option_is_path(const char *key, const char *value, size_t *skip);

/* --runs S: "auto", "until-verdict" or a whole number from 1 to 100000, into ro (the last
 * --runs given wins); the row's setter, and `fsbench cmd --runs`. 0, or -1 after error(). */
int run_request_runs(const char *s, struct runner_opts *ro);
/* The number of rows (the NULL row left out). */
size_t run_options_count(void);

/* ---- the request ------------------------------------------------------------------ */

/* --format's values but compilebench (which sets cb_format, and the table): the order of
 * report/report.h's enum report_format, which cli/ hands the request's format to. */
enum { RUN_FORMAT_TABLE, RUN_FORMAT_SEEDS };

/* Where a value comes from. */
enum run_source {
    RUN_FROM_DEFAULT, /* the table's default */
    RUN_FROM_ARGV,    /* this process's command line */
    RUN_FROM_JOB,     /* a job file's key (or an include's) */
    RUN_FROM_STORED,  /* a stored set's arguments (--resume) */
};

/* Everything `fsbench run`'s options say, parsed and checked one by one (what needs two
 * options together is checked by run_request_check()). */
struct run_request {
    struct runner_opts ro;
    struct target_args ta;
    struct mpirun_opts mo;
    unsigned long max_runs;
    const char *profile; /* --tree */
    const char *size_arg, *scale_arg, *replay, *json, *label, *db, *phases;
    const char *age_steps, *age_replay; /* --age-steps, --age-replay as given */
    double scale;
    unsigned long long seed;
    int format;    /* RUN_FORMAT_*: report/'s enum report_format, in its order */
    bool cb_format; /* --format compilebench */
    bool save, quiet, wide, skip_bad;
    struct run_meta meta[RES_META_MAX];
    unsigned nmeta;
    struct run_bisect_ask bisect; /* --bisect-good, --bisect-bad, ... */
    const char *pos[2]; /* positionals (a scenario name left over: refused) */
    int npos;
    bool options_only; /* only checked (a job file's value): nothing read from disk */
    int argc;          /* the user's command line, stored with the set */
    char **argv;
    bool given[RUN_OPTIONS_MAX];       /* by row: set by the user (not the default) */
    const char *seen[RUN_OPTIONS_MAX]; /* by row: a one-value option's first value */
    char phases_acc[4096];
};

/* Zeroes rq and sets every row's default (.def). argc, argv: the command line stored with
 * the set. 0, or EXIT_USAGE when a default does not parse (a bug: test_run_options). */
int run_request_init(struct run_request *rq, int argc, char **argv);
/* Sets option o to value (NULL for a flag) from src: consent only from RUN_FROM_ARGV (and
 * then nothing is set: run_consent() has it), the value checked by the table, a second
 * different value of a one-value option refused. 0, or EXIT_USAGE after one error line
 * naming --o. */
int run_request_set(struct run_request *rq, const struct run_option *o, const char *value,
                    enum run_source src);
/* The row's given flag (set by the user, not the default). */
bool run_request_given(const struct run_request *rq, const char *name);

/* run_request_check.c: the checks of rq that need the options together but no other system
 * than the file system: one scenario at most, the tree and the phases resolved (into rq->ro)
 * and what the phases need of the options. 0, or EXIT_USAGE after error(). */
int run_request_check(struct run_request *rq);
/* The phases of the default scenario, RUN_DEFAULT_JOB (built in): what a run without a
 * phase list runs. NULL after error(). */
const char *run_request_default_phases(void);
/* The shipped job whose phases are the default scenario's (jobs/basic.ini). */
#define RUN_DEFAULT_JOB "basic"

/* What run_request_argv() found besides options. */
enum { RUN_ARGV_OK = 0, RUN_ARGV_HELP = -2, RUN_ARGV_BAD = -3 };
/* Parses argv (argv[0] "run") into rq (run_request_init() first) from src: RUN_ARGV_OK,
 * RUN_ARGV_HELP (-h), RUN_ARGV_BAD (getopt said why on stderr), or EXIT_USAGE after
 * error(). */
int run_request_argv(struct run_request *rq, int argc, char **argv, enum run_source src);

/* One element of run's argv, in order (run_args_next()). */
struct run_arg {
    const struct run_option *opt; /* the option's row; NULL: a positional or a bad option */
    int c;                        /* getopt_long's answer ('?', ':' a bad option); -1 a positional */
    int bad_opt;                  /* a bad option's optopt */
    const char *value;            /* the option's value (NULL: none), or the positional */
    int from, to;                 /* the words of argv it took: argv[from] to argv[to - 1] */
    bool after_dashes;            /* a positional after "--" */
};

/* Walks run's argv (argv[0] "run") without permuting it, through the table's getopt
 * table: every option, bad option and positional in the order given. getopt's state is
 * its own while it walks; run_args_end() puts opterr back. */
struct run_args {
    int argc;
    char **argv;
    int saved_opterr;
    bool dashes;
    char shortopts[64];
};
void run_args_begin(struct run_args *it, int argc, char **argv);
/* The next element into *a: true, or false at the end. */
bool run_args_next(struct run_args *it, struct run_arg *a);
void run_args_end(struct run_args *it);

/* The run's arguments (argv[0] "run" left out) as a JSON array of strings, without the
 * options that say where results go or give consent (RUN_OPT_NOT_STORED,
 * RUN_KIND_CONSENT): what --resume runs again. A static buffer; NULL when they do not fit. */
const char *run_options_args_json(int argc, char **argv);

#endif
