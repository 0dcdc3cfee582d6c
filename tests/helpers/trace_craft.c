/* trace_craft.c — writes small traces by hand for the tests of hostile traces (t1301): what
 * no real program records but a file may hold. Linked with libfsbench (its trace writer).
 *
 *   trace_craft gap FILE NS   one thread: mkdir "a", then mkdir "b" NS nanoseconds later
 *   trace_craft setid FILE    an initial state file "s" of mode 06777; calls: an open that
 *                             creates "n" with mode 06777, its close, chmod "s" 04755 and
 *                             mkdir "d" 02777
 *   trace_craft v1 FILE       mkdir "a" and "b" 1 ms apart, written in format 1 (the
 *                             format before mmap records): older traces must still read
 *   trace_craft v2 FILE       the same in format 2 (the format before away records)
 *   trace_craft v4 FILE       the same in format 4 (the format before think time per process)
 *   trace_craft away FILE NS W  as gap, with an away record before mkdir "b": W of the NS
 *                             nanoseconds the thread waited (think time NS - W)
 *   trace_craft tiny FILE N GAP  one thread: N stats of "." GAP ns apart (each call 1 us):
 *                             a think time of GAP - 1 us before each but the first, the
 *                             tracer's part 0 (thousands of tiny think times)
 * Exit status 0, or 1 after a message.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_write.h"

static struct trace_info info = {.command = "trace_craft", .root = "/craft", .tracer = "none",
                                 .nthreads = 1, .nslots = 1, .max_concurrency = 1, .max_io = 0,
                                 .think_scale_ppm = 1000000};

static int put(struct trace_writer *w, struct trace_call c, const char *path)
{
    if (path) {
        c.path = path;
        c.path_len = (uint32_t)strlen(path);
    }
    info.ncalls++;
    info.nrecords++;
    info.count[c.kind]++;
    info.duration_ns = c.start_ns + c.dur_ns;
    return trace_writer_call(w, &c);
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "tiny")) {
        struct trace_writer *w = trace_writer_open(argv[2]);
        if (!w)
            return 1;
        uint64_t n = strtoull(argv[3], NULL, 10), gap = strtoull(argv[4], NULL, 10);
        int rc = 0;
        for (uint64_t i = 0; i < n && rc == 0; i++)
            rc = put(w, (struct trace_call){.kind = TK_STAT, .start_ns = 1000 + i * gap,
                                            .dur_ns = 1000},
                     ".");
        if (rc || trace_writer_info(w, &info) < 0) {
            trace_writer_discard(w);
            return 1;
        }
        return trace_writer_commit(w) < 0 ? 1 : 0;
    }
    bool plain = !strcmp(argv[1], "gap") || !strcmp(argv[1], "v1") || !strcmp(argv[1], "v2") ||
                 !strcmp(argv[1], "v4") || !strcmp(argv[1], "away");
    if (argc < 3 || (!plain && strcmp(argv[1], "setid")) ||
        (!strcmp(argv[1], "gap") && argc != 4) || (!strcmp(argv[1], "away") && argc != 5)) {
        fprintf(stderr, "usage: trace_craft gap FILE NS | trace_craft away FILE NS W | "
                        "trace_craft tiny FILE N GAP | trace_craft setid|v1|v2|v4 FILE\n");
        return 2;
    }
    struct trace_writer *w = trace_writer_open(argv[2]);
    if (!w)
        return 1;
    int rc = 0;
    struct trace_entry e = {.path = "s", .path_len = 1, .type = TT_REG, .mode = 06777, .size = 10};
    if (plain) {
        uint64_t gap = argc > 3 ? strtoull(argv[3], NULL, 10) : 1000000;
        if (!strcmp(argv[1], "v1"))
            info.format = 1;
        if (!strcmp(argv[1], "v2"))
            info.format = 2;
        if (!strcmp(argv[1], "v4"))
            info.format = 4;
        rc |= put(w, (struct trace_call){.kind = TK_MKDIR, .start_ns = 1000, .dur_ns = 1000,
                                         .mode = 0755},
                  "a");
        if (!strcmp(argv[1], "away")) {
            info.nrecords++;
            rc |= trace_writer_call(w, &(struct trace_call){.kind = TK_AWAY,
                                                            .start_ns = 2000 + gap,
                                                            .dur_ns = strtoull(argv[4], NULL, 10)});
        }
        rc |= put(w, (struct trace_call){.kind = TK_MKDIR, .start_ns = 2000 + gap,
                                         .dur_ns = 1000, .mode = 0755},
                  "b");
    } else {
        rc |= put(w, (struct trace_call){.kind = TK_OPEN, .start_ns = 1000, .dur_ns = 1000,
                                         .flags = TRO_CREAT | TRO_WRONLY, .mode = 06777},
                  "n");
        rc |= put(w, (struct trace_call){.kind = TK_CLOSE, .start_ns = 3000, .dur_ns = 1000},
                  NULL);
        rc |= put(w, (struct trace_call){.kind = TK_CHMOD, .start_ns = 5000, .dur_ns = 1000,
                                         .mode = 04755},
                  "s");
        rc |= put(w, (struct trace_call){.kind = TK_MKDIR, .start_ns = 7000, .dur_ns = 1000,
                                         .mode = 02777},
                  "d");
        info.nstate = 1;
        info.state_bytes = e.size;
    }
    if (rc || trace_writer_info(w, &info) < 0 ||
        (info.nstate && trace_writer_entry(w, &e) < 0)) {
        trace_writer_discard(w);
        return 1;
    }
    return trace_writer_commit(w) < 0 ? 1 : 0;
}
