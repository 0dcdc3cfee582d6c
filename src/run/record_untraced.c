/* record_untraced.c — record_untraced.h. */
#include "run/record_untraced.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "base/err.h"
#include "base/prog.h"
#include "base/text.h"
#include "run/record_snapshot.h"

/* Runs at most; up to the most while all of them have taken under UNTRACED_AGAIN_NS, and
 * at least UNTRACED_RUNS_MIN while the first one (with its directory put back) took under
 * UNTRACED_LONG_NS. One run's CPU time moved 10-35 % between recordings on a quiet two-CPU
 * machine (find -ls; du; tar -c: 0.41 and 0.55 s), so a program of a few seconds gets
 * three runs too; only a long one runs once. */
#define UNTRACED_RUNS_MAX 5
#define UNTRACED_RUNS_MIN 3
#define UNTRACED_AGAIN_NS ((uint64_t)2000000000)
#define UNTRACED_LONG_NS ((uint64_t)10000000000)

/* argv run untraced: its CPU and wall time, each of its tasks'. Its exit status as the
 * shell gives it, or -1. */
static int run_plain(char *const argv[], struct record_untraced *u)
{
    struct timespec t0, t1;
    struct os_taskcpu *l = os_taskcpu_start(u->why, sizeof u->why);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct rusage ru;
    int st = prog_run_quiet(argv, 1, &ru);
    int e = errno;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (l)
        u->t = os_taskcpu_stop(l, &u->n, u->why, sizeof u->why);
    u->self = os_taskcpu_self();
    errno = e;
    if (st < 0)
        return error_errno("record: --untraced-run: running %s", text_shown(argv[0]));
    u->wall_ns = (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec));
    u->cpu_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u + (uint64_t)ru.ru_utime.tv_usec * 1000u +
                (uint64_t)ru.ru_stime.tv_sec * 1000000000u + (uint64_t)ru.ru_stime.tv_usec * 1000u;
    u->cpu_max_ns = u->cpu_ns;
    return st;
}

/* One untraced run between a snapshot of root and its restoring. Its status, or -1 after
 * error(). */
static int run_once(const char *root, char *const argv[], struct record_untraced *u)
{
    struct record_snapshot snap;
    char why[512];
    if (record_snapshot_take(&snap, root, why, sizeof why) < 0)
        return error("record: --untraced-run: %s cannot be copied aside: %s", text_shown(root),
                     why);
    int st = run_plain(argv, u);
    if (record_snapshot_restore(&snap, why, sizeof why) < 0)
        return error("record: --untraced-run: %s could not be put back as it was (%s); what it "
                     "held before is kept in %s", text_shown(root), why, text_shown(snap.path));
    if (st == 127)
        return error("record: --untraced-run: %s could not be run", text_shown(argv[0]));
    if (st > 128)
        return error("record: --untraced-run: %s was killed by signal %d when run untraced",
                     text_shown(argv[0]), st - 128);
    return st;
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int record_untraced_run(const char *root, char *const argv[], struct record_untraced *u)
{
    uint64_t t0 = now_ns();
    int st = run_once(root, argv, u);
    if (st < 0)
        return -1;
    if (st > 0) {
        inform("record: --untraced-run: %s exited with status %d when run untraced",
               text_shown(argv[0]), st);
        return 0;
    }
    u->runs = 1;
    /* the program again, while the runs take little time: the least CPU time kept, the
     * one least stretched by other programs' use of the caches and processors */
    uint64_t first_ns = now_ns() - t0;
    while (u->runs < UNTRACED_RUNS_MAX &&
           (now_ns() - t0 < UNTRACED_AGAIN_NS ||
            (u->runs < UNTRACED_RUNS_MIN && first_ns < UNTRACED_LONG_NS))) {
        struct record_untraced again = {0};
        st = run_once(root, argv, &again);
        if (st != 0) {
            record_untraced_free(&again);
            return st < 0 ? -1 : 0; /* the first run stands */
        }
        again.runs = u->runs + 1;
        again.cpu_max_ns = u->cpu_max_ns > again.cpu_ns ? u->cpu_max_ns : again.cpu_ns;
        if (again.cpu_ns < u->cpu_ns) {
            record_untraced_free(u);
            *u = again;
        } else {
            u->runs = again.runs;
            u->cpu_max_ns = again.cpu_max_ns;
            record_untraced_free(&again);
        }
    }
    return 0;
}

void record_untraced_free(struct record_untraced *u)
{
    free(u->t);
    u->t = NULL;
    u->n = 0;
}
