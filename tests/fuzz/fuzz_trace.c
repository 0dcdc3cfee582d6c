/* fuzz_trace.c — libFuzzer target: the trace reader (trace_open, trace_check, the calls and
 * state streams, trace stats) on a file made from the fuzzer's bytes, two ways, chosen by
 * the first byte:
 *   even  the bytes are the file, as they are (headers, footers, section bounds, zstd);
 *   odd   the next two bytes (little-endian) say how many of the rest are the calls
 *         section's content and the rest is the info section's; both are compressed with
 *         zstd (libarchive's raw writer, as fsbench writes traces) and wrapped in a valid
 *         header and footer, so that the fuzzer reaches the record and entry decoders
 *         instead of stopping at zstd's checks.
 */
#include <archive.h>
#include <archive_entry.h>

#include "fuzz_util.h"
#include "trace/trace_file.h"
#include "trace/trace_read.h"
#include "trace/trace_stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* zstd of n bytes of p into out (cap bytes): the compressed length, 0 on failure. */
static size_t compress(const uint8_t *p, size_t n, uint8_t *out, size_t cap)
{
    struct archive *a = archive_write_new();
    struct archive_entry *e = archive_entry_new();
    size_t used = 0;
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_pathname(e, "x");
    if (archive_write_add_filter_zstd(a) != ARCHIVE_OK ||
        archive_write_set_format_raw(a) != ARCHIVE_OK ||
        archive_write_set_bytes_per_block(a, 0) != ARCHIVE_OK ||
        archive_write_open_memory(a, out, cap, &used) != ARCHIVE_OK ||
        archive_write_header(a, e) != ARCHIVE_OK ||
        (n && archive_write_data(a, p, n) != (la_ssize_t)n) || archive_write_close(a) != ARCHIVE_OK)
        used = 0;
    archive_entry_free(e);
    archive_write_free(a);
    return used;
}

static void read_all(const char *path)
{
    struct trace_file *t = trace_open(path);
    if (!t)
        return;
    trace_check(t);
    struct trace_stats s;
    trace_stats_compute(t, &s);
    char why[1200];
    struct trace_stream *st = trace_state_open(t, why, sizeof why);
    if (st) {
        struct trace_entry e;
        while (trace_next_entry(st, &e) > 0)
            ;
        trace_stream_close(st);
    }
    trace_close(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path;
    if (size < 3 || !(data[0] & 1)) {
        path = fuzz_file("in.fsbt", data, size);
    } else {
        size_t rest = size - 3, a = ((size_t)data[1] | (size_t)data[2] << 8) % (rest + 1);
        size_t cap = 2 * size + 4096;
        uint8_t *buf = malloc(TRACE_HEADER_LEN + 2 * cap + TRACE_FOOTER_LEN);
        uint8_t *body = malloc(rest + 8);
        if (!buf || !body)
            abort();
        memcpy(buf, TRACE_MAGIC, 8);
        trace_put_le(buf + 8, TRACE_FORMAT_VERSION, 4);
        trace_put_le(buf + 12, 0, 4);
        size_t off = TRACE_HEADER_LEN;
        memcpy(body, TRACE_CALLS_TAG, 4);
        memcpy(body + 4, data + 3, a);
        size_t cl = compress(body, a + 4, buf + off, cap);
        memcpy(body, TRACE_INFO_TAG, 4);
        memcpy(body + 4, data + 3 + a, rest - a);
        size_t il = cl ? compress(body, rest - a + 4, buf + off + cl, cap) : 0;
        if (!cl || !il) {
            free(buf);
            free(body);
            return 0;
        }
        uint8_t *f = buf + off + cl + il;
        memcpy(f, TRACE_END_MAGIC, 8);
        trace_put_le(f + 8, off, 8);
        trace_put_le(f + 16, cl, 8);
        trace_put_le(f + 24, off + cl, 8);
        trace_put_le(f + 32, il, 8);
        trace_put_le(f + 40, TRACE_FORMAT_VERSION, 4);
        trace_put_le(f + 44, 0, 4);
        path = fuzz_file("in.fsbt", buf, off + cl + il + TRACE_FOOTER_LEN);
        free(buf);
        free(body);
    }
    read_all(path);
    unlink(path);
    return 0;
}
