/* record_untraced.h — record --untraced-run's first step: the recorded directory copied
 * aside (record_snapshot.h), the command run once untraced, its standard streams on
 * /dev/null, while the kernel reports each of its tasks' CPU time at its exit
 * (os/taskcpu.h), and the directory put back as it was. A short program is run again (up
 * to 5 times in all, while the runs have taken less than 2 s) and the run with the
 * least CPU time kept: the program's own cost, not what a busy machine added to it.
 */
#ifndef FSBENCH_RECORD_UNTRACED_H
#define FSBENCH_RECORD_UNTRACED_H

#include <stddef.h>
#include <stdint.h>

#include "os/taskcpu.h"

struct record_untraced {
    uint64_t cpu_ns;        /* its CPU time, user and kernel, with the children it waited for */
    uint64_t wall_ns;
    uint64_t cpu_max_ns;    /* the most CPU time of the runs */
    unsigned runs;          /* the runs made (cpu_ns, wall_ns and the tasks: the least's) */
    struct os_task_cpu *t; /* each task that ended meanwhile (of the whole machine; NULL
                            * with why when not known) */
    size_t n;
    int32_t self;           /* record's own process id, as the tasks number it */
    char why[256];
};

/* Runs argv untraced in the current directory, root copied aside before and put back
 * after each run. 0, or -1 after error() (a status other than 0 is said, not an error; a
 * run that ends so is the last). */
int record_untraced_run(const char *root, char *const argv[], struct record_untraced *u);

void record_untraced_free(struct record_untraced *u);

#endif
