/* record_mirror.h — record's measure of what tracing adds between two calls: the trace
 * just written is replayed (afap, by fsbench's own replay, in a temporary workspace, the
 * initial state's files sparse) under strace with the recording's options, and the mean
 * gap between the replayed calls is taken as the tracer's part of every recorded gap. The
 * replay's own time per call is in that mean too: the very part a replay with original
 * timing spends anyway and must not wait for again. Needs the path of fsbench's own
 * program (os/selfexe.h): not in the POSIX-only build, where record keeps its
 * calibration.
 */
#ifndef FSBENCH_RECORD_MIRROR_H
#define FSBENCH_RECORD_MIRROR_H

#include <stddef.h>
#include <stdint.h>

struct record_mirror {
    uint64_t calls;        /* calls the traced replay made (as recorded) */
    uint64_t gaps;         /* gaps measured between them */
    uint64_t gap_total_ns; /* their sum */
    uint64_t short_gaps;   /* those below MIRROR_SHORT_NS (the rest: the replay's turns
                            * lost to other programs) */
    uint64_t short_total_ns;
    uint64_t quick, quick_total_ns; /* the quick calls' durations (trace_rec_quick) */
    uint64_t user_ns, sys_ns;       /* the traced replay's CPU time in user mode, in the kernel */
};

#define MIRROR_SHORT_NS ((uint64_t)1000000)

/* Replays the first `limit` calls of the trace at path under strace. 0, or -1 with why
 * (one clause: "strace's replay of it ended with status 1"); nothing printed. */
int record_mirror(const char *path, uint64_t limit, struct record_mirror *m, char *why,
                  size_t len);

/* The same replay untraced (record --untraced-run: what a replay spends itself on the calls,
 * its own work per call with them), in a workspace beside the directory near (on its file
 * system where it may; NULL: under $TMPDIR): the CPU time, user and kernel, of the threads
 * that made the calls (not the reading and decoding of the trace beside them), into
 * *cpu_ns. 0, or -1 with why. */
int record_mirror_plain(const char *path, uint64_t limit, const char *near, uint64_t *cpu_ns,
                        char *why, size_t len);

#endif
