/* replay.h — the replay phase: a trace made by `fsbench record` played back below the
 * workspace's "tree", on any target, measured like every phase.
 *
 * Untimed first (phase_replay_setup, called by the runner before the phase's clocks
 * start): the trace's initial state is laid down in "tree" (directories, files of their
 * recorded sizes filled with a pattern, symlinks) and synced, and the replay's own
 * machinery made ready (phase_replay_arm). Timed: every call, on up to
 * params->replay_threads threads (and no more than the run's workers), with the trace's
 * descriptors mapped to the replay's own and data written as pattern bytes.
 *
 * Order: with REPLAY_AFAP each recorded thread's calls run in order as fast as they can;
 * calls of different threads keep their recorded order only where they touch the same
 * resource (a path, its parent directory when the call changes it, a descriptor):
 * resource-oriented ordering (ARTC, SOSP'13). REPLAY_ORIGINAL also waits each thread's
 * recorded think time between its calls (less what the tracer itself added, measured by
 * record). Recorded threads beyond the replay's threads share them.
 *
 * Every path is resolved beneath "tree" with no symlink followed, no ".." and no mount
 * point crossed (os/beneath.h); the name a call acts on is acted on in its parent's
 * descriptor, never followed. A call whose result differs from the recorded one (an
 * error where it succeeded, a short read) is counted per kind; the note says "12 of
 * 41,200 calls diverged; first: unlink a/b: ENOENT, recorded 0", and past 1 % of the calls
 * the phase fails with that line.
 */
#ifndef FSBENCH_REPLAY_H
#define FSBENCH_REPLAY_H

#include "phase/phase.h"

struct trace_info;

enum replay_timing { REPLAY_AFAP, REPLAY_ORIGINAL };

/* The most threads a replay runs on. */
#define REPLAY_THREADS_MAX 64

/* The untimed set-up: the initial state, then phase_replay_arm. 0, or -1 after
 * phase_fail(). */
int phase_replay_setup(struct phase_ctx *ctx);
/* Untimed too: the replay's own machinery made ready in ctx->replay_armed (its chunk pool
 * and tables allocated and first touched, the trace's calls stream opened, its threads
 * started and waiting), so that the phase's time is the calls' and the think times', not
 * the replay's start (some milliseconds: a third of a 25 ms program's). 0 (also when
 * armed already), or -1 after phase_fail(). */
int phase_replay_arm(struct phase_ctx *ctx);
/* A replay armed and not run (a caller that stops after setup): its threads stopped and
 * joined, everything freed. Nothing when none is armed. */
void phase_replay_disarm(struct phase_ctx *ctx);
/* The timed replay (armed first where setup did not). 0, or -1 (res->status and note
 * set). */
int phase_replay(struct phase_ctx *ctx);

/* How many threads a replay of a trace uses with a cap of `cap` (0: none but
 * REPLAY_THREADS_MAX): as many as the program ran at once, at most cap. */
unsigned replay_threads_wanted(const struct trace_info *info, unsigned cap);

#endif
