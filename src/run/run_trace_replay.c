/* run_trace_replay.c — `fsbench trace replay FILE DIR`: the replay phase run once outside
 * the runner, untimed but for one line, its result left in DIR/tree (see
 * run_trace_replay.h).
 */
#include "run/run_trace_replay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/text.h"
#include "engine/engine.h"
#include "measure/measure.h"
#include "phase/replay.h"

int run_trace_replay(struct trace_file *t, const char *dir, unsigned timing, unsigned threads,
                     int part, uint64_t limit, bool sparse, bool keep_setid)
{
    if (mkdir(dir, 0755) < 0 && errno != EEXIST)
        return error_errno("trace replay: cannot create %s", text_shown(dir));
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return error_errno("trace replay: cannot open %s", text_shown(dir));
    struct stat st;
    if (part != RUN_TRACE_PART_CALLS &&
        fstatat(fd, PHASE_TREE_DIR, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        close(fd);
        return error("trace replay: %s/%s exists: give a directory without it",
                     text_shown(dir), PHASE_TREE_DIR);
    }
    unsigned n = replay_threads_wanted(trace_file_info(t), threads);
    struct opstats *ops = calloc(n, sizeof *ops);
    struct eng_worker *w = calloc(n, sizeof *w);
    int rc = -1;
    if (!ops || !w) {
        error("out of memory");
        goto out;
    }
    for (unsigned i = 0; i < n; i++)
        w[i].st = &ops[i];
    struct phase_params params = {.replay = t, .replay_timing = timing, .replay_threads = n,
                                  .replay_limit = limit, .replay_sparse = sparse,
                                  .replay_keep_setid = keep_setid};
    struct phase_result res = {0};
    struct phase_ctx ctx = {.eng = &engine_posix, .w = &w[0], .ws_fd = fd, .res = &res,
                            .params = &params, .workers = w, .nworkers = n};
    snprintf(res.name, sizeof res.name, "replay");
    if (part != RUN_TRACE_PART_CALLS && phase_replay_setup(&ctx) < 0) {
        error("trace replay: %s", res.note);
        goto out;
    }
    if (part == RUN_TRACE_PART_STATE) {
        phase_replay_disarm(&ctx); /* setup made the replay ready: not run */
        rc = 0;
        goto out;
    }
    /* made ready untimed, as the runner does (setup did, but for --part calls) */
    if (phase_replay_arm(&ctx) < 0) {
        error("trace replay: %s", res.note);
        goto out;
    }
    uint64_t t0 = meas_now_ns();
    rc = phase_replay(&ctx);
    double secs = (double)(meas_now_ns() - t0) / 1e9;
    if (rc < 0)
        error("trace replay: %s", res.note);
    else
        printf("replayed into %s/%s in %.3f s (the replay threads' CPU time %.6f s): %s\n",
               text_shown(dir), PHASE_TREE_DIR, secs, ctx.helper_user_s + ctx.helper_sys_s,
               text_shown(res.note));
out:
    free(ops);
    free(w);
    close(fd);
    return rc;
}
