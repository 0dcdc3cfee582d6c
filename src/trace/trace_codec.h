/* trace_codec.h — the bytes of a trace's records, its initial state and its info block:
 * encoding into a buffer and decoding (with every check a reader of untrusted input needs)
 * out of one. No I/O: trace_write.c and trace_read.c move the bytes, compressed.
 *
 * Numbers are unsigned LEB128 varints; signed ones are zigzag-coded first. A record is its
 * kind (one byte), thread, start (the difference from the previous record's start,
 * signed), duration, result (signed) and then the fields its kind carries (trace.h TF_*)
 * in the order of the TF_* bits: a path is its length and its bytes. The exact layout is
 * in docs/trace-format.md.
 */
#ifndef FSBENCH_TRACE_CODEC_H
#define FSBENCH_TRACE_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

/* No record, entry or info block is longer (the decoder needs this much contiguous input,
 * or the end of the stream). */
#define TRACE_RECORD_MAX 16384
#define TRACE_INFO_MAX (3 * TRACE_TEXT_MAX + 4096 + TRACE_PROCS_MAX * 64 + \
                        TRACE_PROC_THREADS_MAX * 16)

/* What a record may refer to, from the trace's info block; and the previous record's
 * start, which the next one's is relative to. */
struct trace_codec {
    uint64_t prev_start;
    uint32_t nthreads; /* thread, spawn's aux: below this */
    uint32_t nslots;   /* slots: below this */
};

/* Appends c to out (at least TRACE_RECORD_MAX bytes free): the bytes written. c must be
 * valid (the recorder's own records are); the codec's prev_start advances. */
size_t trace_encode_call(struct trace_codec *cc, const struct trace_call *c, uint8_t *out);
/* Decodes one record of the n bytes at p into *c: the bytes used, 0 when p holds only the
 * beginning of a record (more input needed), or -1 with the reason in why (a whole
 * sentence without the file's name: "record kind 200 is unknown"). Every field is checked
 * against the limits of trace.h and cc; *c is set only when the record passed. */
long trace_decode_call(struct trace_codec *cc, const uint8_t *p, size_t n, struct trace_call *c,
                       char *why, size_t whylen);

/* The same for an entry of the initial state (no ordering checked here). */
size_t trace_encode_entry(const struct trace_entry *e, uint8_t *out);
long trace_decode_entry(const uint8_t *p, size_t n, struct trace_entry *e, char *why,
                        size_t whylen);

/* The info block (every field of struct trace_info but the state counts, which follow
 * it: nstate and state_bytes are its last fields; the untraced run's four from format 4,
 * written unless info->format is 1-3; the processes and threads' think scales from format
 * 5, unless it is 1-4; the table of costs per class of call and the calls' cost by it from
 * format 6, unless it is 1-5). The encoder needs TRACE_INFO_MAX bytes.
 * The decoder allocates info's strings (trace_info_free). */
size_t trace_encode_info(const struct trace_info *info, uint8_t *out);
long trace_decode_info(const uint8_t *p, size_t n, unsigned version, struct trace_info *info,
                       char *why, size_t whylen);

/* Varints, for tests and the info block. */
size_t trace_put_varint(uint8_t *out, uint64_t v);
/* Reads a varint at p (n bytes): bytes used, 0 if cut short, -1 if longer than 10 bytes. */
long trace_get_varint(const uint8_t *p, size_t n, uint64_t *v);

#endif
