/* trace_file.h — a trace file: its fixed header and footer, and where its two compressed
 * sections lie. Shared by trace_write.c and trace_read.c.
 *
 *   header  16 bytes   "FSBTRACE", format version (u32 little-endian), flags (u32, 0)
 *   calls   zstd       "FSBC", then the call records, streamed as the program ran
 *   info    zstd       "FSBI", then the info block, then the initial state's entries
 *   footer  48 bytes   "FSBTEND\0", calls offset and length, info offset and length
 *                      (u64 each), format version (u32), 0 (u32)
 *
 * The footer comes last so a trace is written front to back once (records go out while
 * the program runs; the initial state is only known at its end). Each section is one
 * zstd stream made by libarchive's raw format with its zstd write filter.
 */
#ifndef FSBENCH_TRACE_FILE_H
#define FSBENCH_TRACE_FILE_H

#include <stdint.h>

#define TRACE_MAGIC "FSBTRACE"
#define TRACE_END_MAGIC "FSBTEND"
#define TRACE_FORMAT_VERSION 6u
/* The oldest format this fsbench still reads (format 1: no TK_MMAP; format 2: no TK_CHAN,
 * TK_WAIT or TK_AWAY, so think time is the whole gap between a thread's calls less one
 * tracer's gap; format 3: no untraced run's figures in the info block; format 4: no think
 * time per process). */
#define TRACE_FORMAT_OLDEST 1u
#define TRACE_HEADER_LEN 16u
#define TRACE_FOOTER_LEN 48u
/* Each section's first bytes, once decompressed. */
#define TRACE_CALLS_TAG "FSBC"
#define TRACE_INFO_TAG "FSBI"
#define TRACE_TAG_LEN 4u

static inline void trace_put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t trace_get_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

#endif
