/* run_inputs.c — the files a run reads, opened once before it (see run_inputs.h). */
#include "run/run_inputs.h"

#include "base/err.h"
#include "phase/replay.h"
#include "trace/trace_read.h"
#include "tree/tarsrc.h"

int run_inputs_open(struct runner_opts *ro, const char *replay, const char *age_replay,
                    const char *tree_arg, bool threads_given)
{
    if (replay) {
        /* read once here, whole, so a damaged trace stops the run before it starts */
        ro->params.replay = trace_open(replay);
        if (!ro->params.replay || trace_check(ro->params.replay) < 0) {
            trace_close(ro->params.replay);
            return EXIT_RUN_FAILED;
        }
        if (!threads_given)
            ro->threads = replay_threads_wanted(trace_file_info(ro->params.replay),
                                                ro->params.replay_threads);
    }
    if (age_replay) {
        /* read once here, whole, as --replay's trace */
        ro->params.age_replay = trace_open(age_replay);
        if (!ro->params.age_replay || trace_check(ro->params.age_replay) < 0) {
            trace_close(ro->params.age_replay);
            trace_close(ro->params.replay);
            return EXIT_RUN_FAILED;
        }
    }
    if (!ro->tree.prof) {
        /* Decompressed once here, outside every timed phase. */
        ro->tar = tarsrc_open(tree_arg + 4, NULL);
        if (!ro->tar) {
            trace_close(ro->params.replay);
            trace_close(ro->params.age_replay);
            return EXIT_RUN_FAILED;
        }
    }
    return 0;
}

void run_inputs_close(struct runner_opts *ro)
{
    tarsrc_close(ro->tar);
    trace_close(ro->params.replay);
    trace_close(ro->params.age_replay);
}
