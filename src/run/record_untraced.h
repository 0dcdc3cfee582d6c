/* record_untraced.h — record --untraced-run's runs, after the traced one: the recorded
 * directory as it was before the program copied aside (record_snapshot.h), the command run
 * once untraced, its standard streams on /dev/null, while the kernel reports each of its
 * tasks' CPU time at its exit (os/taskcpu.h), and the directory put back as it was. A
 * short program is run again (up to 5 times in all, while the runs have taken less than
 * 2 s; at least 3 unless the first took over 10 s).
 *
 * Each run is paired with an untraced replay of the trace made right after it (the
 * caller's pair): a load that lasts the whole recording lifts the program's calls and the
 * replay's alike, so the difference between the two is the program's own work beyond its
 * calls at either moment. The run kept is the one whose difference is the median; without
 * pairs, the one with the least CPU time (the program's own cost, the least stretched by
 * other programs).
 *
 * Each run's moment is weighed too: the share of the processors' time that other programs
 * used while it and its replay went on. A load lifts a program's own work beyond its calls
 * (a compiler's CPU time grows with other programs' use of the caches and memory), which
 * the replay does not take off; so when some runs were made on a busy machine (others'
 * share RECORD_BUSY_PERMILLE or more), more runs are made (up to RECORD_UNTRACED_RUNS_MAX,
 * while fewer than 3 were quiet and the runs have taken under 20 s), and the run kept is
 * chosen among the quiet ones when there are any.
 */
#ifndef FSBENCH_RECORD_UNTRACED_H
#define FSBENCH_RECORD_UNTRACED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/taskcpu.h"

/* The most untraced runs (5 on a quiet machine, more on a busy one) */
#define RECORD_UNTRACED_RUNS_MAX 9
/* From this share of the processors' time (per mille) that other programs used while a
 * run and its replay went on, the run was made on a busy machine */
#define RECORD_BUSY_PERMILLE 250

struct record_untraced {
    uint64_t cpu_ns;        /* its CPU time, user and kernel, with the children it waited for */
    uint64_t wall_ns;
    uint64_t cpu_max_ns;    /* the most CPU time of the runs */
    unsigned runs;          /* the runs made (cpu_ns, wall_ns and the tasks: the kept one's) */
    unsigned quiet_runs;    /* of them, made on a quiet machine (others' share under
                             * RECORD_BUSY_PERMILLE) */
    unsigned pairs;         /* runs each paired with a replay (runs, or 0: not paired) */
    uint64_t replay_cpu_ns; /* the kept run's replay's CPU time (when paired) */
    int others_permille;    /* the share of the processors' time other programs used
                             * while the runs and replays went on (all the work the machine
                             * did, os_cpu_busy_ns, less record's own and its children's),
                             * in per mille; -1 where not known */
    int kept_others_permille; /* the same while the kept run and its replay went on */
    struct os_task_cpu *t; /* each task that ended meanwhile (of the whole machine; NULL
                            * with why when not known) */
    size_t n;
    int32_t self;           /* record's own process id, as the tasks number it */
    char why[256];
};

/* The replay made after each run: 0 with its CPU time in *cpu_ns, or -1 (the runs are
 * then not paired). */
struct record_untraced_pair {
    int (*replay)(void *arg, uint64_t *cpu_ns);
    void *arg;
};

/* Runs argv untraced in the current directory, root copied aside before and put back
 * after each run, each run followed by pair's replay (pair NULL: none); a signal caught
 * (base/sig.h) ends them after the run under way. 0, or -1 after error() (a status other
 * than 0 is said, not an error; a run that ends so is the last). */
int record_untraced_run(const char *root, char *const argv[], struct record_untraced *u,
                        const struct record_untraced_pair *pair);

/* After n runs (nquiet of them on a quiet machine) that took spent_ns in all, the first
 * first_ns: whether to make another. */
bool record_untraced_again(size_t n, size_t nquiet, uint64_t spent_ns, uint64_t first_ns);

/* Of n runs (at most RECORD_UNTRACED_RUNS_MAX) with CPU times cpu[] and their replays'
 * rcpu[] (NULL: not paired), the index of the one to keep, among those with use[] set (all
 * when none is, or use is NULL): the median difference cpu - rcpu (the lower of the two
 * middle ones), or the least cpu. */
size_t record_untraced_pick(const uint64_t *cpu, const uint64_t *rcpu, const bool *use,
                            size_t n);

void record_untraced_free(struct record_untraced *u);

#endif
