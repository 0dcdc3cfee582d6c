/* run_resume.h — what lets a run set be finished after an interrupt, and the finishing:
 * the set keeps the arguments that made it, where they ran and how many runs it plans,
 * and its state (running, interrupted, stopped, done) as it goes; `fsbench run --resume
 * LABEL` (cmd_run_resume.c) runs the same arguments again with the stored runs moved into
 * the new run set, so that the runner makes only the runs the set lacks, in the same round
 * order (the order comes from the seed and the round: runner_round_order()).
 */
#ifndef FSBENCH_RUN_RESUME_H
#define FSBENCH_RUN_RESUME_H

#include <stddef.h>
#include <stdint.h>

#include "measure/results.h"
#include "results/store.h"
#include "run/runner.h"

/* Fills what resumes rs: args_json (NULL: the set cannot be resumed), the current
 * directory and the runs ro plans (runs x configurations; with --runs auto the most). */
void run_resume_describe(struct run_set *rs, const char *args_json, const struct runner_opts *ro);

/* Moves the runs of `kept` (a stored set, its interrupted runs left out) into rs, which
 * holds none yet, and points ro->plan at rs: a run rs holds is not made again, and a
 * configuration that failed stays out. kept is left without runs. */
void run_resume_adopt(struct run_set *rs, struct run_set *kept, struct runner_opts *ro);

/* Whether ro plans what the stored set (kept) planned, before anything is touched: the same
 * kind of target (directory, image or device) and the same device, the same runs
 * (kept->planned: rounds x configurations) and, with phases, the same phases (each stored
 * run's, in order). The arguments a set keeps are data someone may have changed: a plan
 * that differs is refused. 0, or -1 after error() naming what differs. */
int run_resume_check_plan(const struct run_set *kept, const struct runner_opts *ro, bool phases);

/* When the resumed set's runs begin (set_ready): its configurations must be those stored
 * (kept->target.configs; rs's are the new ones), no other live process may be finishing it
 * (it is claimed, marked running by this one), then its interrupted runs are deleted.
 * 0, or -1 after error(). */
int run_resume_ready(struct store *s, int64_t set_id, const struct run_set *kept,
                     const struct run_set *rs);

/* After the runner returned rc (runner_run's): the state stored for the set ("done",
 * "interrupted", "stopped"); a failure to store it is said but changes nothing else. */
void run_resume_end(struct store *s, int64_t set_id, const struct runner_opts *ro,
                    const struct run_set *rs, int rc);

/* `fsbench run --resume LABEL`: the set labelled label in the store at db (NULL: the
 * default), opened to write first so that runs that waited in its spool join it, its
 * interrupted runs left out (made again). RUN_RESUME_GO with *set (run_set_free() and
 * free() it), *info and *kept (its runs left); else the exit status after a line (EXIT_OK:
 * the set is complete, nothing to do). */
#define RUN_RESUME_GO (-1)
int run_resume_load(const char *label, const char *db, struct run_set **set,
                    struct store_set_info *info, size_t *kept);

/* While --resume runs the stored arguments: the set it finishes (*id its id); else NULL. */
struct run_set *run_resuming(int64_t *id);
/* The set --resume finishes from now on (NULL, 0: none): cmd_run_resume.c sets it around
 * running the stored arguments. */
void run_resume_set(struct run_set *set, int64_t id);

/* path made absolute against the current directory into buf (it stays as it is when it
 * is "-" or already absolute): --resume's --db and --json, for the stored arguments run in
 * the directory they ran in. */
const char *run_resume_absolute(const char *path, char *buf, size_t len);

/* How --resume's stored arguments are run, above run/: run runs them (argc entries, argv[0]
 * "run"; the process exit status). */
struct run_resume_args {
    int (*run)(int argc, char **argv);
};
/* Finishes the set labelled label (db: its store, NULL the default): loaded
 * (run_resume_load), its stored arguments (then extra, NULL-ended) made an argument list
 * with every consent option taken out (each said in a warning: a set never stores them,
 * and consent comes from this process's command line alone) and run by how in the
 * directory they ran in, the set made known to the run meanwhile. The process exit
 * status. */
int run_resume_finish(const char *label, const char *db, const char *const *extra,
                      const struct run_resume_args *how);

#endif
