/* trace_write.c — the trace writer (trace_write.h). Records are encoded into a buffer
 * and handed to libarchive in large pieces; libarchive's raw format with the zstd write
 * filter compresses each section into one zstd stream, which its write callback passes to
 * the output file while counting the bytes for the footer.
 */
#include "trace/trace_write.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdbool.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/outfile.h"
#include "trace/trace_codec.h"
#include "trace/trace_file.h"

#define BUF_LEN (256 * 1024)

struct trace_writer {
    struct outfile out;
    struct archive *a;          /* the open section */
    uint64_t written;           /* bytes of the file so far */
    uint64_t calls_off, calls_len, info_off, info_len;
    struct trace_codec cc;
    uint8_t *buf;
    size_t used;
    int failed;
    bool copied;                /* the calls section was copied whole: no stream open */
    uint32_t format;            /* the info block's format (1 for tests), else 0 */
};

static la_ssize_t on_write(struct archive *a, void *arg, const void *p, size_t n)
{
    struct trace_writer *w = arg;
    if (fwrite(p, 1, n, w->out.f) != n) {
        archive_set_error(a, errno ? errno : EIO, "%s", strerror(errno ? errno : EIO));
        return -1;
    }
    w->written += n;
    return (la_ssize_t)n;
}

/* Starts a section's zstd stream with its tag (never empty: libarchive's raw reader
 * cannot tell an empty stream from no stream). */
static int section_begin(struct trace_writer *w, const char *tag)
{
    struct archive *a = archive_write_new();
    struct archive_entry *e = archive_entry_new();
    w->a = a;
    if (!a || !e) {
        archive_entry_free(e);
        return error("trace: out of memory");
    }
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_pathname(e, "trace");
    int ok = archive_write_add_filter_zstd(a) == ARCHIVE_OK &&
             archive_write_set_format_raw(a) == ARCHIVE_OK &&
             archive_write_set_bytes_per_block(a, 0) == ARCHIVE_OK &&
             archive_write_open(a, w, NULL, on_write, NULL) == ARCHIVE_OK &&
             archive_write_header(a, e) == ARCHIVE_OK;
    archive_entry_free(e);
    if (!ok)
        return error("trace %s: cannot start a zstd stream: %s", w->out.path,
                     archive_error_string(a) ? archive_error_string(a) : "libarchive failed");
    memcpy(w->buf + w->used, tag, TRACE_TAG_LEN);
    w->used += TRACE_TAG_LEN;
    return 0;
}

static int flush(struct trace_writer *w)
{
    size_t off = 0;
    while (off < w->used) {
        la_ssize_t n = archive_write_data(w->a, w->buf + off, w->used - off);
        if (n <= 0)
            return error("trace %s: write failed: %s", w->out.path,
                         archive_error_string(w->a) ? archive_error_string(w->a) : "?");
        off += (size_t)n;
    }
    w->used = 0;
    return 0;
}

/* Flushes and closes the open section; its compressed length goes to *len. */
static int section_end(struct trace_writer *w, uint64_t start, uint64_t *len)
{
    int rc = flush(w);
    if (archive_write_close(w->a) != ARCHIVE_OK && rc == 0)
        rc = error("trace %s: write failed: %s", w->out.path,
                   archive_error_string(w->a) ? archive_error_string(w->a) : "?");
    archive_write_free(w->a);
    w->a = NULL;
    *len = w->written - start;
    return rc;
}

static int put_raw(struct trace_writer *w, const void *p, size_t n)
{
    if (fwrite(p, 1, n, w->out.f) != n)
        return error_errno("trace %s: write failed", w->out.path);
    w->written += n;
    return 0;
}

/* A writer on a new file at path with the trace's header written: NULL after error(). */
static struct trace_writer *writer_new(const char *path)
{
    struct trace_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->buf = malloc(BUF_LEN))) {
        free(w);
        error("trace: out of memory");
        return NULL;
    }
    if (outfile_open(&w->out, path, "record") < 0) {
        free(w->buf);
        free(w);
        return NULL;
    }
    uint8_t h[TRACE_HEADER_LEN] = {0};
    memcpy(h, TRACE_MAGIC, 8);
    trace_put_le(h + 8, TRACE_FORMAT_VERSION, 4);
    if (put_raw(w, h, sizeof h) < 0) {
        trace_writer_discard(w);
        return NULL;
    }
    w->calls_off = TRACE_HEADER_LEN;
    return w;
}

struct trace_writer *trace_writer_open(const char *path)
{
    struct trace_writer *w = writer_new(path);
    if (!w)
        return NULL;
    w->cc.nthreads = TRACE_THREADS_MAX;
    w->cc.nslots = TRACE_SLOTS_MAX;
    if (section_begin(w, TRACE_CALLS_TAG) < 0) {
        trace_writer_discard(w);
        return NULL;
    }
    return w;
}

struct trace_writer *trace_writer_open_copy(const char *path, int src_fd, uint64_t off,
                                            uint64_t len)
{
    struct trace_writer *w = writer_new(path);
    if (!w)
        return NULL;
    int rc = 0;
    for (uint64_t done = 0; rc == 0 && done < len;) {
        size_t n = len - done < BUF_LEN ? (size_t)(len - done) : BUF_LEN;
        ssize_t k = pread(src_fd, w->buf, n, (off_t)(off + done));
        if (k <= 0)
            rc = error("trace %s: cannot read the trace to copy", w->out.path);
        else
            rc = put_raw(w, w->buf, (size_t)k), done += (uint64_t)k;
    }
    if (rc < 0) {
        trace_writer_discard(w);
        return NULL;
    }
    w->calls_len = len;
    w->copied = true;
    return w;
}

int trace_writer_call(struct trace_writer *w, const struct trace_call *c)
{
    if (w->used > BUF_LEN - TRACE_RECORD_MAX && flush(w) < 0)
        return -1;
    w->used += trace_encode_call(&w->cc, c, w->buf + w->used);
    return 0;
}

int trace_writer_info(struct trace_writer *w, const struct trace_info *info)
{
    if (!w->copied && section_end(w, w->calls_off, &w->calls_len) < 0)
        return -1;
    w->info_off = w->written;
    if (section_begin(w, TRACE_INFO_TAG) < 0)
        return -1;
    uint8_t *b = malloc(TRACE_INFO_MAX);
    if (!b)
        return error("trace: out of memory");
    size_t n = trace_encode_info(info, b);
    w->format = info->format >= 1 && info->format < TRACE_FORMAT_VERSION ? info->format : 0;
    int rc = 0;
    for (size_t off = 0; off < n && rc == 0;) {
        size_t k = n - off < BUF_LEN - w->used ? n - off : BUF_LEN - w->used;
        memcpy(w->buf + w->used, b + off, k);
        w->used += k;
        off += k;
        if (w->used == BUF_LEN)
            rc = flush(w);
    }
    free(b);
    return rc;
}

int trace_writer_entry(struct trace_writer *w, const struct trace_entry *e)
{
    if (w->used > BUF_LEN - TRACE_RECORD_MAX && flush(w) < 0)
        return -1;
    w->used += trace_encode_entry(e, w->buf + w->used);
    return 0;
}

int trace_writer_commit(struct trace_writer *w)
{
    int rc = section_end(w, w->info_off, &w->info_len);
    if (rc == 0) {
        uint8_t f[TRACE_FOOTER_LEN] = {0};
        memcpy(f, TRACE_END_MAGIC, 8);
        trace_put_le(f + 8, w->calls_off, 8);
        trace_put_le(f + 16, w->calls_len, 8);
        trace_put_le(f + 24, w->info_off, 8);
        trace_put_le(f + 32, w->info_len, 8);
        uint32_t version = w->format ? w->format : TRACE_FORMAT_VERSION;
        trace_put_le(f + 40, version, 4);
        rc = put_raw(w, f, sizeof f);
        if (rc == 0 && version != TRACE_FORMAT_VERSION) {
            /* an older format (tests of the reader): the header says it too */
            uint8_t v[4];
            trace_put_le(v, version, 4);
            if (fflush(w->out.f) != 0 || pwrite(fileno(w->out.f), v, 4, 8) != 4)
                rc = error_errno("trace %s: cannot write its header", w->out.path);
        }
    }
    if (rc == 0)
        rc = outfile_commit(&w->out);
    else
        outfile_discard(&w->out);
    free(w->buf);
    free(w);
    return rc;
}

void trace_writer_discard(struct trace_writer *w)
{
    if (!w)
        return;
    if (w->a)
        archive_write_free(w->a); /* closes it; what it writes goes to the temporary */
    outfile_discard(&w->out);
    free(w->buf);
    free(w);
}
