/* run_session.h — one run set from its start to its end, below the command line: the set
 * named and described (label, command line, job text, meta, what resumes it), the results
 * store opened to write and the label claimed, every finished run saved as it finishes (or
 * left in the spool while another process holds the store locked), a --resume's stored
 * set adopted and its state kept, and at the end the spool retried and the set's state
 * stored. What is printed about the set (the report) is the caller's.
 */
#ifndef FSBENCH_RUN_SESSION_H
#define FSBENCH_RUN_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/results.h"
#include "results/store.h"
#include "run/run_bisect.h"
#include "run/runner.h"

/* What the set is and where its results go. */
struct run_session_opts {
    const char *label;    /* NULL: "<scenario>-<date>-<time>", the next free one */
    const char *scenario; /* stored as the set's scenario */
    const char *db;       /* NULL: the default store */
    bool save;            /* false: nothing is stored */
    const char *json;     /* --json (checked against the store's path), or NULL */
    int argc;             /* the sub-command's arguments, for the stored command line */
    char **argv;
    const char *job_text; /* the job file, expanded (or NULL), and its SHA-256 */
    const char *job_hash;
    const char *args_json;  /* what resumes the set (NULL: it cannot be resumed) */
    struct run_set *resume; /* --resume: the stored set this run finishes, and its id */
    int64_t resume_id;
    /* Runs the set instead of runner_run (jobs interleaved in rounds), or NULL. */
    int (*run)(void *arg, const struct runner_opts *ro, struct run_set *rs,
               struct runner_auto *ra);
    void *run_arg;
    const struct run_meta *meta; /* stored with the set */
    unsigned nmeta;
};

struct run_session {
    const struct run_session_opts *o;
    const struct runner_opts *ro;
    struct store *store;    /* NULL: not saving */
    char db[4096];          /* its path, for the spool */
    int64_t set_id;
    unsigned saved;         /* runs of this set in the store, the interrupted one apart */
    bool partial;           /* the phases of a run a signal stopped are in the store too */
    unsigned waiting;       /* runs in the spool (the store was locked) */
    FILE *cb_out;           /* --format compilebench: where each run's block goes (or NULL) */
    FILE *steps_out;        /* --age-steps: where each run's step line goes (or NULL) */
};

/* Starts the set rs (zeroed) that ro will make: names and describes it, checks a resumed
 * plan, opens the store and claims the label (o->save), sets ro's hooks, adopts the
 * resumed set's runs, and says which device mkfs will overwrite. 0, or the process exit
 * status after error() (nothing to end then). */
int run_session_begin(struct run_session *s, struct runner_opts *ro,
                      const struct run_session_opts *o, struct run_set *rs);
/* Makes the set's runs (o->run, else runner_run). runner_run's return. */
int run_session_run(struct run_session *s, struct runner_opts *ro, struct run_set *rs,
                    struct runner_auto *ra);
/* After the runs, rc what run_session_run returned: runs that waited get the full wait,
 * and the set's state is stored. The store stays open for run_session_close(). */
void run_session_end(struct run_session *s, const struct run_set *rs, int rc);
/* Closes the store; with runs still in the spool, one error line says where they wait and
 * it returns -1; else 0. */
int run_session_close(struct run_session *s, const struct run_set *rs);

/* How a set that run_session_make makes is reported: cli/ prints, run/ runs. */
struct run_session_report {
    /* After the runs, before the set is ended: the report (the table, failures, a
     * bisection's class). rc: run_session_run's; returns the status to go on with. */
    int (*runs_done)(void *arg, struct runner_opts *ro, struct run_set *rs,
                     const struct runner_auto *ra, int rc, struct run_bisect *bisect);
    /* After the set is ended, when it saved runs (saved > 0) or an interrupted run's
     * phases (partial): the line saying so. */
    void (*saved)(void *arg, const struct run_set *rs, unsigned saved, bool partial);
    void *arg;
    FILE *cb_out;    /* as struct run_session's */
    FILE *steps_out;
};

/* Makes the set that ro describes, from start to end: a bisection's ends loaded first (ask,
 * NULL or asking nothing: none), the session begun, the runs made and reported through
 * rep, the set ended and the store closed; a closed standard output is said with what was
 * kept. Returns the process exit status: begin's or the bisection's when they refuse,
 * else EXIT_OK or EXIT_RUN_FAILED. */
int run_session_make(struct runner_opts *ro, const struct run_session_opts *o,
                     const struct run_bisect_ask *ask, const struct run_session_report *rep);

/* Checks a --label value (NULL: none given, fine): 0, or EXIT_USAGE after error(). */
int run_session_check_label(const char *label);

#endif
