/* trace_print.c — what `fsbench trace stats` and `trace dump` print about a trace made by
 * `fsbench record`: the stats as text or JSON, and the dump one record a line. Prints only:
 * trace/trace_stats.c computes.
 */
#include "report/trace_print.h"

#include <jansson.h>
#include <stdio.h>
#include <time.h>

#include "base/err.h"
#include "base/text.h"
#include "measure/results.h"
#include "trace/trace_calib.h"
#include "trace/trace_read.h"
#include "trace/trace_stats.h"

/* One record as text: "12 t0 +1.234567 open a/b flags=0x41 mode=644 = slot 3 (5.1 us)". */
static void dump_call(uint64_t seq, const struct trace_call *c)
{
    unsigned f = trace_kind_fields(c->kind);
    printf("%llu t%u +%.6f %s", (unsigned long long)seq, c->thread, (double)c->start_ns / 1e9,
           trace_kind_name(c->kind));
    char p[TRACE_PATH_MAX];
    if (f & TF_PATH) {
        snprintf(p, sizeof p, "%.*s", (int)c->path_len, c->path);
        printf(" %s", text_shown(p));
    }
    if (f & TF_PATH2) {
        snprintf(p, sizeof p, "%.*s", (int)c->path2_len, c->path2);
        printf(" %s", text_shown(p));
    }
    if (f & TF_SLOT)
        printf(" slot=%u", c->slot);
    if (f & TF_SLOT2)
        printf(" slot2=%u", c->slot2);
    if (f & TF_SIZE)
        printf(" size=%llu", (unsigned long long)c->size);
    if (f & TF_OFF)
        printf(" off=%llu", (unsigned long long)c->off);
    if (f & TF_OFF2)
        printf(" off2=%llu", (unsigned long long)c->off2);
    if (f & TF_SOFF)
        printf(" off=%lld", (long long)c->soff);
    if (f & TF_FLAGS)
        printf(" flags=0x%x", c->flags);
    if (f & TF_MODE)
        printf(" mode=%o", c->mode);
    if (f & TF_AUX)
        printf(c->kind == TK_WAIT ? " child=t%u" : " parent=t%u", c->aux);
    if (c->result < 0)
        printf(" = %s", trace_err_name((unsigned)-c->result));
    else if (trace_kind_result(c->kind) == TR_SLOT)
        printf(" = slot %lld", (long long)c->result);
    else
        printf(" = %lld", (long long)c->result);
    printf(" (%.1f us)\n", (double)c->dur_ns / 1e3);
}

int trace_print_dump(struct trace_file *t)
{
    char why[1200];
    struct trace_stream *s = trace_state_open(t, why, sizeof why);
    if (!s)
        return error("%s", why);
    struct trace_entry e;
    int r;
    while ((r = trace_next_entry(s, &e)) > 0) {
        char p[TRACE_PATH_MAX];
        snprintf(p, sizeof p, "%.*s", (int)e.path_len, e.path);
        printf("state %s %s mode=%o size=%llu\n",
               e.type == TT_DIR ? "dir" : e.type == TT_REG ? "file" : "symlink", text_shown(p),
               e.mode, (unsigned long long)e.size);
    }
    if (r < 0)
        error("%s", trace_stream_error(s));
    trace_stream_close(s);
    if (r < 0 || !(s = trace_calls_open(t, why, sizeof why)))
        return r < 0 ? -1 : error("%s", why);
    struct trace_call c;
    uint64_t seq = 0;
    while ((r = trace_next_call(s, &c)) > 0)
        dump_call(++seq, &c);
    if (r < 0)
        error("%s", trace_stream_error(s));
    trace_stream_close(s);
    return r < 0 ? -1 : 0;
}

int trace_print_json(const struct trace_info *in, const struct trace_stats *s)
{
    json_t *kinds = json_object(), *ops = json_object();
    for (unsigned k = 1; k < TK_CALL_KINDS; k++)
        if (s->calls[k])
            json_object_set_new(kinds, trace_kind_name(k), json_integer((json_int_t)s->calls[k]));
    for (int k = 0; k < OP_KINDS; k++)
        if (s->ops[k])
            json_object_set_new(ops, op_kind_name((enum op_kind)k),
                                json_integer((json_int_t)s->ops[k]));
    json_t *o = json_pack(
        "{s:i, s:s, s:s, s:s, s:I, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:I, s:I,"
        " s:{s:I, s:I, s:I}, s:{s:I, s:I, s:I, s:I, s:I}, s:I, s:I}",
        "format", (int)in->format, "command", in->command, "root", in->root, "tracer", in->tracer, "calls",
        (json_int_t)in->ncalls, "duration_s", (double)in->duration_ns / 1e9, "threads",
        (json_int_t)in->nthreads, "threads_at_once", (json_int_t)in->max_concurrency,
        "descriptors_at_once", (json_int_t)in->nslots, "bytes_read",
        (json_int_t)in->bytes_read, "bytes_written", (json_int_t)in->bytes_written, "failed",
        (json_int_t)s->failed, "kinds", kinds, "ops", ops, "records", (json_int_t)in->nrecords,
        "max_io", (json_int_t)in->max_io, "left_out", "outside", (json_int_t)in->left_outside,
        "before_start", (json_int_t)in->left_prestart, "unreadable",
        (json_int_t)in->left_other, "initial_state", "entries", (json_int_t)in->nstate,
        "files", (json_int_t)s->state[TT_REG], "directories", (json_int_t)s->state[TT_DIR],
        "symlinks", (json_int_t)s->state[TT_SYMLINK], "bytes", (json_int_t)in->state_bytes,
        "tracer_gap_ns", (json_int_t)in->tracer_gap_ns, "tracer_dur_ns",
        (json_int_t)in->tracer_dur_ns);
    json_object_set_new(o, "longest_gap_ns", json_integer((json_int_t)s->longest_gap_ns));
    json_object_set_new(o, "between_processes",
                        json_pack("{s:I, s:I, s:I, s:I}", "channel_writes",
                                  (json_int_t)s->chan_writes, "channel_reads",
                                  (json_int_t)s->chan_reads, "channel_bytes",
                                  (json_int_t)s->chan_bytes, "waits", (json_int_t)s->waits));
    json_object_set_new(o, "away",
                        json_pack("{s:I, s:I, s:I}", "gaps", (json_int_t)s->aways, "blocked_ns",
                                  (json_int_t)s->away_ns, "tracer_stops",
                                  (json_int_t)s->away_stops));
    json_object_set_new(
        o, "think",
        json_pack("{s:I, s:I, s:I, s:f, s:I, s:I, s:I}", "calibration_gap_ns",
                  (json_int_t)in->calib_gap_ns, "calibration_p10_ns", (json_int_t)in->calib_p10_ns,
                  "trace_p10_ns", (json_int_t)in->gap_p10_ns, "scale",
                  (double)in->think_scale_ppm / 1e6, "total_ns", (json_int_t)in->think_ns,
                  "program_cpu_ns", (json_int_t)in->cpu_ns, "replay_cpu_ns",
                  (json_int_t)in->mirror_cpu_ns));
    json_t *by = json_array();
    for (uint32_t i = 0; i < in->nthreads && i < TRACE_STATS_THREADS; i++)
        json_array_append_new(by, json_integer((json_int_t)s->thread_think_ns[i]));
    json_t *th = json_object_get(o, "think");
    json_object_set_new(th, "replayed_ns", json_integer((json_int_t)s->think_ns));
    json_object_set_new(th, "by_thread_ns", by);
    if (in->plain_cpu_ns)
        json_object_set_new(th, "untraced",
                            json_pack("{s:I, s:I, s:I, s:I}", "cpu_ns",
                                      (json_int_t)in->plain_cpu_ns, "wall_ns",
                                      (json_int_t)in->plain_wall_ns, "replay_cpu_ns",
                                      (json_int_t)in->plain_replay_cpu_ns, "replay_calls",
                                      (json_int_t)in->plain_replay_calls));
    if (in->plain_cpu_ns && in->format >= 6) {
        /* format 6: the calls priced one by one, and the table */
        json_t *un = json_object_get(th, "untraced"), *per = json_object();
        for (unsigned i = 0; i < CAL_CLASSES; i++)
            json_object_set_new(per, trace_calib_name(i),
                                json_integer((json_int_t)in->calib.call_ns[i]));
        json_object_set_new(un, "calls_cost_ns", json_integer((json_int_t)in->calib_calls_ns));
        json_object_set_new(un, "runs", json_integer((json_int_t)in->plain_runs));
        json_object_set_new(un, "replays", json_integer((json_int_t)in->plain_replays));
        json_object_set_new(un, "cost_per_call_ns", per);
        json_object_set_new(un, "read_ns_per_mib",
                            json_integer((json_int_t)in->calib.read_ns_per_mib));
        json_object_set_new(un, "write_ns_per_mib",
                            json_integer((json_int_t)in->calib.write_ns_per_mib));
    }
    if (in->nprocs) {
        /* format 5: the think time per process */
        json_t *pa = json_array();
        for (uint32_t i = 0; i < in->nprocs; i++) {
            const struct trace_proc *p = &in->procs[i];
            json_array_append_new(
                pa, json_pack("{s:I, s:s, s:I, s:I, s:I}", "leader", (json_int_t)p->leader,
                              "comm", p->comm, "untraced_cpu_ns", (json_int_t)p->cpu_ns,
                              "think_ns", (json_int_t)p->think_ns, "beside_ns",
                              (json_int_t)p->tail_ns));
        }
        json_object_set_new(th, "processes", pa);
    }
    if (!o)
        return error("trace stats: out of memory");
    int rc = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS) == 0 ? 0 : -1;
    fputc('\n', stdout);
    json_decref(o);
    return rc;
}

void trace_print_text(const char *path, const struct trace_info *in,
                      const struct trace_stats *s)
{
    char a[32], b[32], c[32], d[32], when[64];
    time_t t = (time_t)(in->started_unix_ns / 1000000000u);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
    printf("trace %s (format %u), recorded %s with %s\n", text_shown(path), in->format, when,
           in->tracer[0] ? text_shown(in->tracer) : "strace");
    printf("command: %s\n", text_shown(in->command));
    printf("directory: %s\n", text_shown(in->root));
    printf("calls: %s in %.3f s (%s failed); threads: %u (%u at once); descriptors: %u at "
           "once\n",
           trace_count_str(in->ncalls, a, sizeof a), (double)in->duration_ns / 1e9,
           trace_count_str(s->failed, b, sizeof b), in->nthreads, in->max_concurrency,
           in->nslots);
    printf("bytes: %s read, %s written\n", trace_count_str(in->bytes_read, a, sizeof a),
           trace_count_str(in->bytes_written, b, sizeof b));
    printf("left out: %s calls outside the directory, %s on descriptors opened before the "
           "start, %s unreadable\n",
           trace_count_str(in->left_outside, a, sizeof a),
           trace_count_str(in->left_prestart, b, sizeof b),
           trace_count_str(in->left_other, c, sizeof c));
    printf("initial state: %s entr%s (%s file%s, %llu director%s, %llu symlink%s), %s bytes\n",
           trace_count_str(in->nstate, a, sizeof a), in->nstate == 1 ? "y" : "ies",
           trace_count_str(s->state[TT_REG], b, sizeof b), s->state[TT_REG] == 1 ? "" : "s",
           (unsigned long long)s->state[TT_DIR], s->state[TT_DIR] == 1 ? "y" : "ies",
           (unsigned long long)s->state[TT_SYMLINK], s->state[TT_SYMLINK] == 1 ? "" : "s",
           trace_count_str(in->state_bytes, c, sizeof c));
    printf("tracer: %.1f us between calls, %.1f us in each taken off as its own (calibrated: "
           "%.1f us, quickest tenth %.1f us here and %.1f us there); think time scaled by "
           "%.3f\n",
           (double)in->tracer_gap_ns / 1e3, (double)in->tracer_dur_ns / 1e3,
           (double)in->calib_gap_ns / 1e3, (double)in->gap_p10_ns / 1e3,
           (double)in->calib_p10_ns / 1e3, (double)in->think_scale_ppm / 1e6);
    if (in->plain_cpu_ns && in->format >= 6) {
        /* the replays paired with the runs (as many) or made after them: which of the
         * two figures was taken off is the think time's difference from the CPU time */
        printf("think time: %.3f s in all (the program's CPU time run untraced %.3f s in "
               "%.3f s, of %llu run%s, less what a replay spends on its %s calls: their price "
               "by the recording machine's costs %.3f s, an untraced replay's CPU time "
               "%.3f s, of %llu; traced: the program's %.3f s)\n",
               (double)in->think_ns / 1e9, (double)in->plain_cpu_ns / 1e9,
               (double)in->plain_wall_ns / 1e9, (unsigned long long)in->plain_runs,
               in->plain_runs == 1 ? "" : "s", trace_count_str(in->ncalls, a, sizeof a),
               (double)in->calib_calls_ns / 1e9, (double)in->plain_replay_cpu_ns / 1e9,
               (unsigned long long)in->plain_replays, (double)in->cpu_ns / 1e9);
        printf("cost per call (CPU time on the recording's file system):");
        for (unsigned i = 0; i < CAL_CLASSES; i++)
            printf("%s %s %.1f us", i ? "," : "", trace_calib_name(i),
                   (double)in->calib.call_ns[i] / 1e3);
        printf("; read %.2f ms/MiB, write %.2f ms/MiB\n",
               (double)in->calib.read_ns_per_mib / 1e6, (double)in->calib.write_ns_per_mib / 1e6);
    } else if (in->plain_cpu_ns)
        printf("think time: %.3f s in all (the program's CPU time run untraced %.3f s in "
               "%.3f s, an untraced replay's %.3f s for %s calls; traced: the program's %.3f s)\n",
               (double)in->think_ns / 1e9, (double)in->plain_cpu_ns / 1e9,
               (double)in->plain_wall_ns / 1e9, (double)in->plain_replay_cpu_ns / 1e9,
               trace_count_str(in->plain_replay_calls, a, sizeof a), (double)in->cpu_ns / 1e9);
    else if (in->cpu_ns)
        printf("think time: %.3f s in all (the program's CPU time %.3f s, a traced replay's "
               "%.3f s for %s calls)\n",
               (double)in->think_ns / 1e9, (double)in->cpu_ns / 1e9,
               (double)in->mirror_cpu_ns / 1e9, trace_count_str(in->mirror_calls, a, sizeof a));
    if (in->nprocs) {
        printf("think time per process (its CPU time run untraced less an untraced replay's "
               "for its calls; over its threads' gaps, the rest on its own thread over its "
               "life, beside the others):");
        for (uint32_t i = 0; i < in->nprocs; i++) {
            const struct trace_proc *p = &in->procs[i];
            if (i == 16) {
                printf(" ... and %u more", in->nprocs - i);
                break;
            }
            printf("%s t%u %s %.3f s of CPU, %.3f s think (%.3f s beside)", i ? ";" : "",
                   p->leader, p->comm[0] ? text_shown(p->comm) : "?", (double)p->cpu_ns / 1e9,
                   (double)p->think_ns / 1e9, (double)p->tail_ns / 1e9);
        }
        printf("\n");
    }
    printf("think time a replay with original timing spends: %.3f s", (double)s->think_ns / 1e9);
    for (uint32_t i = 0; i < in->nthreads && i < TRACE_STATS_THREADS; i++)
        printf("%s t%u %.3f s", i ? "," : " (by thread:", i, (double)s->thread_think_ns[i] / 1e9);
    printf("%s\n", in->nthreads > TRACE_STATS_THREADS ? ", ...)" : in->nthreads ? ")" : "");
    if (s->longest_gap_seq) {
        char r[32];
        printf("longest gap between a thread's calls: %.3f s (before record %s)",
               (double)s->longest_gap_ns / 1e9, trace_count_str(s->longest_gap_seq, r, sizeof r));
        if (s->longest_gap_ns > TRACE_THINK_MAX_NS)
            printf("; a replay with original timing cuts any think time to %u s",
                   (unsigned)(TRACE_THINK_MAX_NS / 1000000000u));
        printf("\n");
    }
    /* what the trace could not see, and what a replay does about it */
    printf("not seen, and how a replay accounts for it:\n");
    if (in->format < 2)
        printf("  I/O through memory maps: not recorded (format 1; its amount unknown); a "
               "replay does none of it\n");
    else
        printf("  I/O through memory maps: %s maps of files below the directory recorded, "
               "not the pages the program touched; a replay faults in each mapped range once and "
               "writes it back once where the map was shared and writable\n",
               trace_count_str(in->count[TK_MMAP], a, sizeof a));
    if (in->format < 3)
        printf("  how the processes ordered one another (pipes, socket pairs, waits): not "
               "recorded (format %u); a replay orders them by the files they share and their "
               "starts only\n", in->format);
    else
        printf("  how the processes ordered one another: %s writes and %s reads of pipes and "
               "socket pairs (%s bytes) and %s waits for a child recorded; a replay orders a "
               "read after the writes of its bytes and a wait after the child's last call; "
               "signals, shared memory and other sockets are not seen\n",
               trace_count_str(s->chan_writes, a, sizeof a),
               trace_count_str(s->chan_reads, b, sizeof b),
               trace_count_str(s->chan_bytes, c, sizeof c),
               trace_count_str(s->waits, d, sizeof d));
    printf("  %s calls on descriptors opened before the start, %s outside the directory: "
           "left out, not replayed\n",
           trace_count_str(in->left_prestart, a, sizeof a),
           trace_count_str(in->left_outside, b, sizeof b));
    if (in->format < 3)
        printf("  waits between calls (for a child, a pipe, select or poll, a sleep): not "
               "recorded (format %u): counted as think time\n", in->format);
    else
        printf("  waits between calls (for a child, a pipe or socket, select or poll, a "
               "sleep): %.3f s in %s gaps, not think time; the tracer's stops at calls the "
               "trace does not hold: %s, a tracer's gap taken off for each\n",
               (double)s->away_ns / 1e9, trace_count_str(s->aways, a, sizeof a),
               trace_count_str(s->away_stops, b, sizeof b));
    if (in->left_other)
        printf("  %s lines the recorder could not read: left out\n",
               trace_count_str(in->left_other, a, sizeof a));
    printf("  the tracer's own time: %.1f us of each gap taken off, what is left scaled by "
           "%.3f (to the program's CPU time less a traced replay's); the %.1f us it added to "
           "each call's duration is not replayed (a replay makes the call itself)\n",
           (double)in->tracer_gap_ns / 1e3, (double)in->think_scale_ppm / 1e6,
           (double)in->tracer_dur_ns / 1e3);
    printf("calls by kind:\n");
    for (unsigned k = 1; k < TK_CALL_KINDS; k++)
        if (s->calls[k])
            printf("  %-16s %14s\n", trace_kind_name(k), trace_count_str(s->calls[k], a, sizeof a));
    printf("as fsbench's operations (what a replay counts):\n");
    for (int k = 0; k < OP_KINDS; k++)
        if (s->ops[k])
            printf("  %-16s %14s\n", op_kind_name((enum op_kind)k),
                   trace_count_str(s->ops[k], a, sizeof a));
    printf("processes and threads: %llu started, %llu ended; descriptors: %llu inherited, "
           "%llu closed by exit or exec\n",
           (unsigned long long)s->spawns, (unsigned long long)s->exits,
           (unsigned long long)s->inherits, (unsigned long long)s->drops);
    printf("\n");
}
