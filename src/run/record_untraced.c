/* record_untraced.c — record_untraced.h. */
#include "run/record_untraced.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/prog.h"
#include "base/sig.h"
#include "base/text.h"
#include "os/machine.h"
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
/* On a busy machine (other programs' share of the processors RECORD_BUSY_PERMILLE or more
 * while a run and its replay went on), more runs, up to RECORD_UNTRACED_RUNS_MAX, while
 * fewer than UNTRACED_RUNS_MIN were quiet and the runs have taken under this: a load that
 * comes and goes leaves quieter moments, and the run kept is one of them. */
#define UNTRACED_BUSY_NS ((uint64_t)20000000000)

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

static uint64_t tv_ns(const struct timeval *t)
{
    return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_usec * 1000u;
}

/* The CPU time of record itself and of the children it waited for (the runs, the
 * replays and theirs), user and system. */
static uint64_t own_cpu_ns(void)
{
    struct rusage s, c;
    if (getrusage(RUSAGE_SELF, &s) < 0 || getrusage(RUSAGE_CHILDREN, &c) < 0)
        return 0;
    return tv_ns(&s.ru_utime) + tv_ns(&s.ru_stime) + tv_ns(&c.ru_utime) + tv_ns(&c.ru_stime);
}

bool record_untraced_again(size_t n, size_t nquiet, uint64_t spent_ns, uint64_t first_ns)
{
    if (n >= RECORD_UNTRACED_RUNS_MAX)
        return false;
    if (n < UNTRACED_RUNS_MAX &&
        (n == 0 || spent_ns < UNTRACED_AGAIN_NS ||
         (n < UNTRACED_RUNS_MIN && first_ns < UNTRACED_LONG_NS)))
        return true;
    return nquiet < n && nquiet < UNTRACED_RUNS_MIN && spent_ns < UNTRACED_BUSY_NS;
}

size_t record_untraced_pick(const uint64_t *cpu, const uint64_t *rcpu, const bool *use,
                            size_t n)
{
    /* the runs to choose among: those in use, or all when none is */
    size_t idx[RECORD_UNTRACED_RUNS_MAX] = {0}, m = 0;
    for (size_t i = 0; i < n && m < RECORD_UNTRACED_RUNS_MAX; i++)
        if (use && use[i])
            idx[m++] = i;
    if (m == 0)
        for (size_t i = 0; i < n && m < RECORD_UNTRACED_RUNS_MAX; i++)
            idx[m++] = i;
    size_t best = idx[0];
    if (!rcpu) {
        for (size_t a = 1; a < m; a++)
            if (cpu[idx[a]] < cpu[best])
                best = idx[a];
        return best;
    }
    /* the run with as many differences below it as (m - 1) / 2 (ties: the first) */
    for (size_t a = 0; a < m; a++) {
        size_t i = idx[a];
        double di = (double)cpu[i] - (double)rcpu[i];
        size_t below = 0, same = 0;
        for (size_t b = 0; b < m; b++) {
            size_t j = idx[b];
            double dj = (double)cpu[j] - (double)rcpu[j];
            below += dj < di;
            same += dj == di && b < a;
        }
        if (below + same == (m - 1) / 2)
            return i;
    }
    return best;
}

/* The share of the processors' time (per mille) that other programs used between two
 * readings of the machine's work (busy, os_cpu_busy_ns) and of record's own (own), wall
 * ns apart; -1 where not known. */
static int others_permille(uint64_t busy0, uint64_t busy1, uint64_t own0, uint64_t own1,
                           uint64_t wall, long ncpu)
{
    if (!wall || ncpu <= 0 || busy1 < busy0)
        return -1;
    uint64_t own = own1 > own0 ? own1 - own0 : 0;
    uint64_t others = busy1 - busy0 > own ? busy1 - busy0 - own : 0;
    uint64_t pm = others * 1000 / (wall * (uint64_t)ncpu);
    return pm > 1000 ? 1000 : (int)pm;
}

int record_untraced_run(const char *root, char *const argv[], struct record_untraced *u,
                        const struct record_untraced_pair *pair)
{
    struct record_untraced r[RECORD_UNTRACED_RUNS_MAX];
    uint64_t cpu[RECORD_UNTRACED_RUNS_MAX], rcpu[RECORD_UNTRACED_RUNS_MAX];
    int opm[RECORD_UNTRACED_RUNS_MAX];
    bool quiet[RECORD_UNTRACED_RUNS_MAX];
    memset(r, 0, sizeof r);
    /* only the program's own runs count towards the time limits, not the replays */
    uint64_t spent = 0, first_ns = 0, cpu_max = 0;
    size_t n = 0, nquiet = 0;
    bool paired = pair != NULL;
    int rc = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t busy0, busy1, own0 = own_cpu_ns(), start = now_ns();
    bool measurable = os_cpu_busy_ns(&busy0) == 0;
    /* a signal caught (sig.h) ends the runs after the one under way; when some runs were
     * made on a busy machine, more look for quieter moments (UNTRACED_BUSY_NS) */
    while (!sig_stop_requested() &&
           record_untraced_again(n, measurable ? nquiet : n, spent, first_ns)) {
        uint64_t t0 = now_ns(), b0 = 0, b1 = 0, o0 = own_cpu_ns();
        bool known = measurable && os_cpu_busy_ns(&b0) == 0;
        int st = run_once(root, argv, &r[n]);
        uint64_t took = now_ns() - t0;
        if (st < 0 && n == 0) {
            record_untraced_free(&r[0]);
            return -1;
        }
        if (st != 0) {
            if (n == 0) {
                inform("record: --untraced-run: %s exited with status %d when run untraced",
                       text_shown(argv[0]), st);
                *u = r[0];
                u->others_permille = u->kept_others_permille = -1;
                return 0;
            }
            record_untraced_free(&r[n]);
            rc = st < 0 ? -1 : 0; /* the runs before it stand */
            break;
        }
        if (n == 0)
            first_ns = took;
        spent += took;
        cpu[n] = r[n].cpu_ns;
        cpu_max = cpu[n] > cpu_max ? cpu[n] : cpu_max;
        /* the replay at the same moment as the run */
        if (paired && (sig_stop_requested() || pair->replay(pair->arg, &rcpu[n]) < 0))
            paired = false;
        /* how much of the machine others used while the run and its replay went on */
        opm[n] = known && os_cpu_busy_ns(&b1) == 0
                     ? others_permille(b0, b1, o0, own_cpu_ns(), now_ns() - t0, ncpu)
                     : -1;
        quiet[n] = opm[n] >= 0 && opm[n] < RECORD_BUSY_PERMILLE;
        nquiet += quiet[n];
        if (opm[n] < 0)
            measurable = false; /* not known: no runs added for it */
        n++;
    }
    size_t k = record_untraced_pick(cpu, paired ? rcpu : NULL, quiet, n);
    for (size_t i = 0; i < n; i++)
        if (i != k)
            record_untraced_free(&r[i]);
    *u = r[k];
    u->runs = (unsigned)n;
    u->quiet_runs = (unsigned)nquiet;
    u->cpu_max_ns = cpu_max;
    u->pairs = paired ? (unsigned)n : 0;
    u->replay_cpu_ns = paired ? rcpu[k] : 0;
    u->kept_others_permille = opm[k];
    /* how much of the machine other programs used over all the runs */
    u->others_permille = -1;
    if (os_cpu_busy_ns(&busy1) == 0 && opm[k] >= 0)
        u->others_permille =
            others_permille(busy0, busy1, own0, own_cpu_ns(), now_ns() - start, ncpu);
    return rc;
}

void record_untraced_free(struct record_untraced *u)
{
    free(u->t);
    u->t = NULL;
    u->n = 0;
}
