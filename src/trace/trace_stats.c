/* trace_stats.c — a trace summed up (trace_stats.h), and the one mapping from a trace's
 * call kinds to fsbench's operation kinds, which the replay counts by too.
 */
#include "trace/trace_stats.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "trace/trace_gaps.h"

enum op_kind trace_op_kind(unsigned kind, uint32_t flags)
{
    switch (kind) {
    case TK_OPEN: return (flags & TRO_CREAT) ? OP_CREATE : OP_OPEN;
    case TK_CLOSE: return OP_CLOSE;
    case TK_READ:
    case TK_PREAD: return OP_READ;
    case TK_WRITE:
    case TK_PWRITE: return OP_WRITE;
    case TK_LSEEK: return OP_SEEK;
    case TK_GETDENTS: return OP_READDIR;
    case TK_FSYNC:
    case TK_FDATASYNC:
    case TK_SYNC_RANGE: return OP_FSYNC;
    case TK_FSTAT:
    case TK_FSTATFS:
    case TK_STAT:
    case TK_ACCESS:
    case TK_STATFS: return OP_STAT;
    case TK_DUP:
    case TK_SETFL: return OP_FCNTL;
    case TK_SYNCFS:
    case TK_SYNC: return OP_SYNCFS;
    case TK_MKDIR: return OP_MKDIR;
    case TK_RMDIR: return OP_RMDIR;
    case TK_UNLINK: return OP_UNLINK;
    case TK_RENAME: return OP_RENAME;
    case TK_LINK: return OP_LINK;
    case TK_SYMLINK: return OP_SYMLINK;
    case TK_READLINK: return OP_READLINK;
    case TK_COPY: return OP_COPY;
    case TK_MMAP: /* replayed as the reads (and writes) of the range it maps */
        return (flags & TRM_WRITE) && (flags & TRM_SHARED) ? OP_WRITE : OP_READ;
    case TK_FALLOCATE:
    case TK_FTRUNCATE:
    case TK_TRUNCATE:
    case TK_FCHMOD:
    case TK_FCHOWN:
    case TK_FUTIMENS:
    case TK_CHMOD:
    case TK_CHOWN:
    case TK_UTIMENS:
    default: return OP_SETATTR;
    }
}

int trace_stats_compute(struct trace_file *t, struct trace_stats *s)
{
    memset(s, 0, sizeof *s);
    char why[1200];
    struct trace_stream *st = trace_calls_open(t, why, sizeof why);
    if (!st)
        return error("%s", why);
    uint32_t nth = trace_file_info(t)->nthreads;
    struct trace_gaps *g = trace_gaps_new(nth);
    if (!g) {
        trace_stream_close(st);
        return error("trace stats: out of memory");
    }
    struct trace_call c;
    uint64_t seq = 0;
    int r;
    while ((r = trace_next_call(st, &c)) > 0) {
        seq++;
        struct trace_gap gp;
        if (trace_gaps_feed(g, &c, &gp)) {
            if (gp.call) {
                uint64_t th = trace_thread_think_ns(trace_file_info(t), c.thread, gp.gap_ns,
                                                    gp.away_ns, gp.stops);
                s->think_ns += th;
                if (c.thread < TRACE_STATS_THREADS)
                    s->thread_think_ns[c.thread] += th;
            }
            if (gp.gap_ns > s->longest_gap_ns) {
                s->longest_gap_ns = gp.gap_ns;
                s->longest_gap_seq = seq;
            }
        }
        if (c.kind < TK_CALL_KINDS) {
            s->calls[c.kind]++;
            s->ops[trace_op_kind(c.kind, c.flags)]++;
            s->failed += c.result < 0;
        } else if (c.kind == TK_SPAWN) {
            s->spawns++;
        } else if (c.kind == TK_EXIT) {
            s->exits++;
            /* format 5: a process's think time its gaps could not hold (the replay works it
             * over the process's life; counted here at its exit) */
            uint64_t th = c.thread < nth ? trace_exit_think_ns(trace_file_info(t), c.thread) : 0;
            s->think_ns += th;
            if (c.thread < TRACE_STATS_THREADS)
                s->thread_think_ns[c.thread] += th;
        } else if (c.kind == TK_INHERIT) {
            s->inherits++;
        } else if (c.kind == TK_DROP) {
            s->drops++;
        } else if (c.kind == TK_CHAN) {
            *((c.flags & TRP_WRITE) ? &s->chan_writes : &s->chan_reads) += 1;
            s->chan_bytes += (c.flags & TRP_WRITE) ? c.size : 0;
        } else if (c.kind == TK_WAIT) {
            s->waits++;
        } else if (c.kind == TK_AWAY) {
            s->aways++;
            s->away_ns += c.dur_ns;
            s->away_stops += c.size;
        }
    }
    trace_gaps_free(g);
    if (r < 0)
        error("%s", trace_stream_error(st));
    trace_stream_close(st);
    if (r < 0)
        return -1;
    struct trace_entry e;
    if (!(st = trace_state_open(t, why, sizeof why)))
        return error("%s", why);
    while ((r = trace_next_entry(st, &e)) > 0)
        s->state[e.type]++;
    if (r < 0)
        error("%s", trace_stream_error(st));
    trace_stream_close(st);
    return r < 0 ? -1 : 0;
}
