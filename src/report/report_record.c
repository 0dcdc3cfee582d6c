/* report_record.c — report_record.h. */
#include "report/report_record.h"

#include <stdio.h>

#include "base/err.h"
#include "base/text.h"

static void human(char *buf, size_t len, uint64_t b)
{
    if (b < 1024)
        snprintf(buf, len, "%llu bytes", (unsigned long long)b);
    else if (b < ((uint64_t)1 << 20))
        snprintf(buf, len, "%.1f KiB", (double)b / 1024);
    else if (b < ((uint64_t)1 << 30))
        snprintf(buf, len, "%.1f MiB", (double)b / (1 << 20));
    else
        snprintf(buf, len, "%.2f GiB", (double)b / (1 << 30));
}

void report_record_summary(const char *out, const struct trace_info *in, uint64_t skipped,
                           uint64_t think_ns, const char *why, int plain)
{
    char a[32], b[32], c[32], d[32], e[32];
    inform("record: %s calls of %u thread%s in %.3f s below %s written to %s",
           trace_count_str(in->ncalls, a, sizeof a), in->nthreads, in->nthreads == 1 ? "" : "s",
           (double)in->duration_ns / 1e9, text_shown(in->root), text_shown(out));
    inform("record: left out: %s calls outside %s, %s on descriptors opened before the start, "
           "%s unreadable",
           trace_count_str(in->left_outside, b, sizeof b), text_shown(in->root),
           trace_count_str(in->left_prestart, c, sizeof c),
           trace_count_str(in->left_other, d, sizeof d));
    human(e, sizeof e, in->state_bytes);
    inform("record: initial state: %s entr%s (%s of files)%s",
           trace_count_str(in->nstate, a, sizeof a), in->nstate == 1 ? "y" : "ies", e,
           skipped ? " (entries on other file systems, devices and fifos not scanned)" : "");
    if (plain == 3) {
        inform("record: the program's own time between calls: %.3f s (its CPU time run "
               "untraced, %.3f s in %.3f s (of %llu run%s, each followed by an untraced "
               "replay, the one whose CPU time above its replay's is the median), less what "
               "a replay spends on its %s calls, %.3f s: that replay's CPU time, shared among "
               "the threads by their price by this machine's costs per kind of call, %.3f s; "
               "traced it used %.3f s)",
               (double)think_ns / 1e9, (double)in->plain_cpu_ns / 1e9,
               (double)in->plain_wall_ns / 1e9, (unsigned long long)in->plain_runs,
               in->plain_runs == 1 ? "" : "s", trace_count_str(in->ncalls, a, sizeof a),
               (double)in->plain_replay_cpu_ns / 1e9, (double)in->calib_calls_ns / 1e9,
               (double)in->cpu_ns / 1e9);
    }
    else if (plain == 2) {
        uint64_t off = in->plain_replay_cpu_ns > in->calib_calls_ns ? in->plain_replay_cpu_ns
                                                                     : in->calib_calls_ns;
        inform("record: the program's own time between calls: %.3f s (its CPU time run "
               "untraced, %.3f s in %.3f s (the least of %llu run%s), less what a replay "
               "spends on its %s calls, %.3f s: the larger of their price by this machine's "
               "costs per kind of call, %.3f s, and an untraced replay's CPU time, %.3f s "
               "(the least of %llu); traced it used %.3f s)",
               (double)think_ns / 1e9, (double)in->plain_cpu_ns / 1e9,
               (double)in->plain_wall_ns / 1e9, (unsigned long long)in->plain_runs,
               in->plain_runs == 1 ? "" : "s", trace_count_str(in->ncalls, a, sizeof a),
               (double)off / 1e9, (double)in->calib_calls_ns / 1e9,
               (double)in->plain_replay_cpu_ns / 1e9, (unsigned long long)in->plain_replays,
               (double)in->cpu_ns / 1e9);
    }
    else if (plain == 1)
        inform("record: the program's own time between calls: %.3f s (its CPU time run "
               "untraced, %.3f s in %.3f s: %s)",
               (double)think_ns / 1e9, (double)in->plain_cpu_ns / 1e9,
               (double)in->plain_wall_ns / 1e9, why[0] ? why : "no replay measured");
    else if (in->mirror_gap_ns && in->cpu_ns)
        inform("record: the program's own time between calls: %.3f s (its CPU time, %.3f s, "
               "less that of a traced replay of %s of its calls, %.3f s, for all of them; "
               "traced, the program's CPU time may be far above its own: --untraced-run "
               "measures it untraced)",
               (double)think_ns / 1e9, (double)in->cpu_ns / 1e9,
               trace_count_str(in->mirror_calls, a, sizeof a), (double)in->mirror_cpu_ns / 1e9);
    else if (in->cpu_ns)
        inform("record: the program's own time between calls: %.3f s (its CPU time in user "
               "mode: %s)",
               (double)think_ns / 1e9, why[0] ? why : "not measured by a replay");
    /* (--untraced-run is recommended in the traced estimate's line above) */
    else
        inform("record: the program's own time between calls: %.3f s (the gaps less the "
               "tracer's part of each, %.1f us)",
               (double)think_ns / 1e9, (double)in->tracer_gap_ns / 1e3);
    inform("record: limits: of I/O through memory maps only the maps are seen (%s map%s; a "
           "replay faults in each mapped range once); calls on descriptors opened before the "
           "start are left out",
           trace_count_str(in->count[TK_MMAP], a, sizeof a), in->count[TK_MMAP] == 1 ? "" : "s");
}

void report_record_procs(const struct trace_info *in, const char *why)
{
    if (why) {
        inform("record: think time per process: not known (%s): one scale for all threads",
               why);
        return;
    }
    inform("record: think time per process (its CPU time run untraced less what a replay "
           "spends on its calls; over its threads' gaps, the rest on its own thread over "
           "its life, beside the others):");
    for (uint32_t i = 0; i < in->nprocs; i++) {
        const struct trace_proc *p = &in->procs[i];
        if (i == 12 && in->nprocs > 13) {
            inform("record:   ... and %u more processes", in->nprocs - 12);
            break;
        }
        inform("record:   t%u %s: CPU %.3f s, think %.3f s (%.3f s beside the others)",
               p->leader, p->comm[0] ? text_shown(p->comm) : "?", (double)p->cpu_ns / 1e9,
               (double)p->think_ns / 1e9, (double)p->tail_ns / 1e9);
    }
}

void report_record_busy(const struct record_untraced *u)
{
    int all = u->others_permille, kept = u->kept_others_permille;
    if (all < 0 || kept < 0)
        return;
    if (all < RECORD_BUSY_PERMILLE && kept < RECORD_BUSY_PERMILLE) {
        inform("record: while it ran untraced, other programs used %d %% of the processors' "
               "time", (all + 5) / 10);
        return;
    }
    if (kept < RECORD_BUSY_PERMILLE) {
        inform("record: while it ran untraced, other programs used %d %% of the processors' "
               "time; %u of its %u runs were made at quieter moments (under %d %%), and the "
               "one kept beside %d %%", (all + 5) / 10, u->quiet_runs, u->runs,
               RECORD_BUSY_PERMILLE / 10, (kept + 5) / 10);
        return;
    }
    inform("record: while it ran untraced, other programs used %d %% of the processors' "
           "time (%d %% beside the run kept; none of its %u runs found a quieter moment): the "
           "machine was busy. The replay after each run takes off what the load added to the "
           "calls, not what it added to the program's own work (a compiler's CPU time grows "
           "with other programs' use of the caches), so the think time may be longer than on "
           "a quiet machine; record on a quiet one where you can",
           (all + 5) / 10, (kept + 5) / 10, u->runs);
}
