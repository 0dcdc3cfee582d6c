/* replay_gen.c — writes the trace of bench/replay_work.h's workload (bench/replay): one
 * thread, one slot, no initial state; the record of N calls as `fsbench record` would
 * write it, streamed (memory does not grow with N).
 *
 *   replay_gen FILE N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_work.h"
#include "trace/trace_write.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: replay_gen FILE N\n");
        return 2;
    }
    uint64_t n = rw_total(strtoull(argv[2], NULL, 10));
    struct trace_writer *w = trace_writer_open(argv[1]);
    if (!w)
        return 1;
    struct trace_info in = {.command = "replay_gen",
                            .root = "/bench",
                            .tracer = "none",
                            .nthreads = 1,
                            .nslots = 1,
                            .max_concurrency = 1,
                            .max_io = RW_SIZE};
    static const unsigned kind[] = {
        [RW_MKDIR] = TK_MKDIR, [RW_CREATE] = TK_OPEN,   [RW_WRITE] = TK_WRITE,
        [RW_CLOSE] = TK_CLOSE, [RW_STAT] = TK_STAT,     [RW_OPEN] = TK_OPEN,
        [RW_READ] = TK_READ,   [RW_READ_END] = TK_READ, [RW_UNLINK] = TK_UNLINK,
        [RW_RMDIR] = TK_RMDIR,
    };
    for (uint64_t i = 0; i < n; i++) {
        struct rw_call rc;
        rw_call(i, &rc);
        struct trace_call c = {.kind = (uint8_t)kind[rc.op], .start_ns = i * 1000, .dur_ns = 500};
        switch (rc.op) {
        case RW_CREATE:
            c.flags = TRO_CREAT | TRO_WRONLY | TRO_TRUNC;
            c.mode = 0644;
            break;
        case RW_MKDIR:
            c.mode = 0755;
            break;
        case RW_WRITE:
        case RW_READ:
            c.size = RW_SIZE, c.result = RW_SIZE;
            break;
        case RW_READ_END:
            c.size = RW_SIZE;
            break;
        default:
            break;
        }
        if (rc.op != RW_WRITE && rc.op != RW_CLOSE && rc.op != RW_READ && rc.op != RW_READ_END) {
            c.path = rc.path;
            c.path_len = (uint32_t)strlen(rc.path);
        }
        if (trace_writer_call(w, &c) < 0) {
            trace_writer_discard(w);
            return 1;
        }
        in.ncalls++;
        in.nrecords++;
        in.count[c.kind]++;
        if (rc.op == RW_WRITE)
            in.bytes_written += RW_SIZE;
        if (rc.op == RW_READ)
            in.bytes_read += RW_SIZE;
        in.duration_ns = c.start_ns + c.dur_ns;
    }
    if (trace_writer_info(w, &in) < 0)
        return trace_writer_discard(w), 1;
    return trace_writer_commit(w) < 0 ? 1 : 0;
}
