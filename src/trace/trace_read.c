/* trace_read.c — the trace reader (trace_read.h). Each stream runs its own libarchive
 * reader (raw format, zstd filter) over one section of the file, read with pread so that
 * several streams share the descriptor; decoded bytes land in a buffer that always holds a
 * whole record (TRACE_RECORD_MAX) unless the section ends, so the codec never sees a
 * record cut by the buffer, only by the end of the data.
 */
#include "trace/trace_read.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/infile.h"
#include "base/text.h"
#include "trace/trace_codec.h"
#include "trace/trace_file.h"

#define IN_LEN (64 * 1024)
#define BUF_LEN (256 * 1024)

struct trace_file {
    int fd;
    char *path;
    uint64_t size;
    uint64_t calls_off, calls_len, info_off, info_len;
    size_t info_block_len; /* decoded bytes of the info block, before the entries */
    struct trace_info info;
};

enum { S_CALLS, S_STATE };

struct trace_stream {
    struct trace_file *t;
    int which;
    struct archive *a;
    uint64_t off, end; /* the part of the section not read yet */
    uint8_t *in, *buf;
    size_t pos, len;
    bool eof;
    struct trace_codec cc;
    uint64_t records, calls, count[TK_CALL_KINDS], rd, wr;
    char *prev; /* the previous entry's path (state) */
    size_t prev_len;
    uint64_t entries, bytes;
    char why[512]; /* the decoder's reason, before the record's number is put to it */
    char err[1024];
};

static la_ssize_t on_read(struct archive *a, void *arg, const void **out)
{
    struct trace_stream *s = arg;
    size_t want = s->end - s->off < IN_LEN ? (size_t)(s->end - s->off) : IN_LEN;
    *out = s->in;
    if (want == 0)
        return 0;
    ssize_t n = pread(s->t->fd, s->in, want, (off_t)s->off);
    if (n < 0) {
        archive_set_error(a, errno, "%s", strerror(errno));
        return -1;
    }
    if (n == 0) {
        archive_set_error(a, EIO, "the file ended early (changed while read?)");
        return -1;
    }
    s->off += (uint64_t)n;
    return n;
}

static int say(struct trace_stream *s, const char *fmt, const char *detail)
{
    char d[700];
    snprintf(d, sizeof d, fmt, detail);
    snprintf(s->err, sizeof s->err, "%s: %s", text_shown(s->t->path), d);
    return -1;
}

static int fill(struct trace_stream *s, size_t want);

static struct trace_stream *stream_open(struct trace_file *t, int which, char *why, size_t len)
{
    struct trace_stream *s = calloc(1, sizeof *s);
    if (!s || !(s->in = malloc(IN_LEN)) || !(s->buf = malloc(BUF_LEN))) {
        if (s)
            free(s->in);
        free(s);
        snprintf(why, len, "out of memory");
        return NULL;
    }
    s->t = t;
    s->which = which;
    s->off = which == S_CALLS ? t->calls_off : t->info_off;
    s->end = s->off + (which == S_CALLS ? t->calls_len : t->info_len);
    s->cc.nthreads = t->info.nthreads;
    s->cc.nslots = t->info.nslots;
    struct archive *a = s->a = archive_read_new();
    struct archive_entry *e;
    const char *what = which == S_CALLS ? "calls" : "info";
    int r = a ? archive_read_support_filter_zstd(a) : ARCHIVE_FATAL;
    if (r == ARCHIVE_OK || r == ARCHIVE_WARN)
        r = archive_read_support_format_raw(a);
    if (r == ARCHIVE_OK)
        r = archive_read_open(a, s, NULL, on_read, NULL);
    if (r == ARCHIVE_OK)
        r = archive_read_next_header(a, &e);
    if (r != ARCHIVE_OK) {
        snprintf(why, len, "its %s section is not a zstd stream: %s", what,
                 a && archive_error_string(a) ? archive_error_string(a) : "?");
        trace_stream_close(s);
        return NULL;
    } else if (archive_filter_count(a) != 2 || archive_filter_code(a, 0) != ARCHIVE_FILTER_ZSTD) {
        snprintf(why, len, "its %s section is not zstd-compressed", what);
        trace_stream_close(s);
        return NULL;
    }
    const char *tag = which == S_CALLS ? TRACE_CALLS_TAG : TRACE_INFO_TAG;
    if (fill(s, TRACE_TAG_LEN) < 0) {
        snprintf(why, len, "its %s section cannot be decompressed: %s", what,
                 archive_error_string(a) ? archive_error_string(a) : "?");
        trace_stream_close(s);
        return NULL;
    }
    if (s->len < TRACE_TAG_LEN || memcmp(s->buf, tag, TRACE_TAG_LEN)) {
        snprintf(why, len, "its %s section does not begin with %s", what, tag);
        trace_stream_close(s);
        return NULL;
    }
    s->pos = TRACE_TAG_LEN;
    return s;
}

/* Tops the buffer up to at least want bytes (at most BUF_LEN), or to the end of the data. */
static int fill(struct trace_stream *s, size_t want)
{
    if (s->pos) {
        memmove(s->buf, s->buf + s->pos, s->len - s->pos);
        s->len -= s->pos;
        s->pos = 0;
    }
    while (!s->eof && s->len < want) {
        la_ssize_t n = archive_read_data(s->a, s->buf + s->len, BUF_LEN - s->len);
        if (n < 0)
            return say(s, "cannot decompress: %s",
                       archive_error_string(s->a) ? archive_error_string(s->a) : "?");
        if (n == 0)
            s->eof = true;
        s->len += (size_t)n;
    }
    return 0;
}

/* Makes sure a record's worth is buffered: 1 when there is something, 0 at the end. */
static int more(struct trace_stream *s)
{
    if (s->len - s->pos < TRACE_RECORD_MAX && !s->eof && fill(s, BUF_LEN / 2) < 0)
        return -1;
    return s->pos < s->len;
}

/* stream_open with the file's name before the reason. */
static struct trace_stream *stream_named(struct trace_file *t, int which, char *why, size_t len)
{
    char w[700];
    struct trace_stream *s = stream_open(t, which, w, sizeof w);
    if (!s)
        snprintf(why, len, "%s: %s", text_shown(t->path), w);
    return s;
}

struct trace_stream *trace_calls_open(struct trace_file *t, char *why, size_t len)
{
    return stream_named(t, S_CALLS, why, len);
}

struct trace_stream *trace_state_open(struct trace_file *t, char *why, size_t len)
{
    struct trace_stream *s = stream_named(t, S_STATE, why, len);
    if (!s)
        return NULL;
    s->prev = malloc(TRACE_PATH_MAX);
    /* skip the info block trace_open decoded */
    size_t skip = t->info_block_len;
    while (s && skip) {
        int m = s->prev ? more(s) : -1;
        if (m <= 0) {
            snprintf(why, len, "%s", m < 0 && s->err[0] ? s->err : "out of memory");
            trace_stream_close(s);
            return NULL;
        }
        size_t k = s->len - s->pos < skip ? s->len - s->pos : skip;
        s->pos += k;
        skip -= k;
    }
    return s;
}

static int end_calls(struct trace_stream *s)
{
    const struct trace_info *in = &s->t->info;
    char d[160];
    if (s->records != in->nrecords || s->calls != in->ncalls) {
        snprintf(d, sizeof d, "%" PRIu64 " records where its info block says %" PRIu64
                 " (cut short?)", s->records, in->nrecords);
        return say(s, "%s", d);
    }
    for (unsigned k = 1; k < TK_CALL_KINDS; k++)
        if (s->count[k] != in->count[k])
            return say(s, "its %s calls do not add up to its info block's count",
                       trace_kind_name(k));
    if (s->rd != in->bytes_read || s->wr != in->bytes_written)
        return say(s, "%s", "its bytes read and written do not add up to its info block's");
    return 0;
}

/* A record the decoder refused (r < 0) or found cut short (0): says which, with its number. */
static int bad_record(struct trace_stream *s, long r)
{
    char d[600];
    if (r == 0)
        snprintf(s->why, sizeof s->why, "cut short");
    snprintf(d, sizeof d, "record %" PRIu64 ": %s", s->records + 1, s->why);
    return say(s, "%s", d);
}

int trace_next_call(struct trace_stream *s, struct trace_call *c)
{
    if (s->err[0])
        return -1;
    int m = more(s);
    if (m < 0)
        return -1;
    if (m == 0)
        return end_calls(s) < 0 ? -1 : 0;
    /* the reason goes to the stream, not the stack: the hot path keeps no buffer of its own */
    long r = trace_decode_call(&s->cc, s->buf + s->pos, s->len - s->pos, c, s->why,
                               sizeof s->why);
    if (r <= 0)
        return bad_record(s, r);
    s->pos += (size_t)r;
    if (++s->records > s->t->info.nrecords)
        return say(s, "%s", "more records than its info block says");
    if (c->kind < TK_CALL_KINDS) {
        s->calls++;
        s->count[c->kind]++;
        uint64_t rd, wr;
        trace_call_bytes(c, &rd, &wr);
        s->rd += rd;
        s->wr += wr;
    }
    return 1;
}

static int cmp_path(const char *a, size_t an, const char *b, size_t bn)
{
    int r = memcmp(a, b, an < bn ? an : bn);
    return r ? r : (an > bn) - (an < bn);
}

int trace_next_entry(struct trace_stream *s, struct trace_entry *e)
{
    if (s->err[0])
        return -1;
    int m = more(s);
    if (m < 0)
        return -1;
    const struct trace_info *in = &s->t->info;
    if (m == 0) {
        if (s->entries != in->nstate || s->bytes != in->state_bytes)
            return say(s, "%s", "its initial state does not add up to its info block's count");
        return 0;
    }
    char why[512], d[600];
    long r = trace_decode_entry(s->buf + s->pos, s->len - s->pos, e, why, sizeof why);
    if (r == 0)
        snprintf(why, sizeof why, "initial state: cut short");
    if (r <= 0) {
        snprintf(d, sizeof d, "entry %" PRIu64 ": %s", s->entries + 1, why);
        return say(s, "%s", d);
    }
    s->pos += (size_t)r;
    if (s->entries && cmp_path(s->prev, s->prev_len, e->path, e->path_len) >= 0) {
        snprintf(d, sizeof d, "entry %" PRIu64 ": initial state: not in path order",
                 s->entries + 1);
        return say(s, "%s", d);
    }
    memcpy(s->prev, e->path, e->path_len);
    s->prev_len = e->path_len;
    s->entries++;
    if (e->type == TT_REG)
        s->bytes += e->size;
    if (s->entries > in->nstate || s->bytes > in->state_bytes)
        return say(s, "%s", "its initial state holds more than its info block says");
    return 1;
}

const char *trace_stream_error(const struct trace_stream *s)
{
    return s->err[0] ? s->err : "no error";
}

void trace_stream_close(struct trace_stream *s)
{
    if (!s)
        return;
    if (s->a)
        archive_read_free(s->a);
    free(s->in);
    free(s->buf);
    free(s->prev);
    free(s);
}

/* ---- the file ---- */

static struct trace_file *refuse(struct trace_file *t, const char *why)
{
    error("%s: %s", text_shown(t->path), why);
    trace_close(t);
    return NULL;
}

struct trace_file *trace_open(const char *path)
{
    struct trace_file *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(path))) {
        free(t);
        error("out of memory");
        return NULL;
    }
    t->fd = -1;
    char why[1200];
    t->fd = infile_open(path, why, sizeof why);
    if (t->fd < 0)
        return refuse(t, why);
    struct stat st;
    if (fstat(t->fd, &st) < 0)
        return refuse(t, strerror(errno));
    t->size = (uint64_t)st.st_size;
    uint8_t h[TRACE_HEADER_LEN], f[TRACE_FOOTER_LEN];
    if (t->size < TRACE_HEADER_LEN + TRACE_FOOTER_LEN ||
        pread(t->fd, h, sizeof h, 0) != (ssize_t)sizeof h)
        return refuse(t, "not an fsbench trace (too short)");
    if (memcmp(h, TRACE_MAGIC, 8))
        return refuse(t, "not an fsbench trace (see fsbench record)");
    uint64_t version = trace_get_le(h + 8, 4);
    if (version < TRACE_FORMAT_OLDEST || version > TRACE_FORMAT_VERSION) {
        snprintf(why, sizeof why, "trace format %" PRIu64 ", where this fsbench reads format "
                 "%u (made by a %s fsbench?)", version, TRACE_FORMAT_VERSION,
                 version > TRACE_FORMAT_VERSION ? "newer" : "different");
        return refuse(t, why);
    }
    if (trace_get_le(h + 12, 4) != 0)
        return refuse(t, "unknown header flags (made by a newer fsbench?)");
    if (pread(t->fd, f, sizeof f, (off_t)(t->size - TRACE_FOOTER_LEN)) != (ssize_t)sizeof f ||
        memcmp(f, TRACE_END_MAGIC, 8))
        return refuse(t, "its end is missing (cut short, or still being written?)");
    t->calls_off = trace_get_le(f + 8, 8);
    t->calls_len = trace_get_le(f + 16, 8);
    t->info_off = trace_get_le(f + 24, 8);
    t->info_len = trace_get_le(f + 32, 8);
    uint64_t body = t->size - TRACE_FOOTER_LEN;
    if (t->calls_off != TRACE_HEADER_LEN || t->calls_len > body - t->calls_off ||
        t->info_off != t->calls_off + t->calls_len || t->info_len != body - t->info_off ||
        trace_get_le(f + 40, 4) != version || trace_get_le(f + 44, 4) != 0)
        return refuse(t, "its sections do not fit its size (cut short or damaged)");
    /* the info block: bounded, read through a stream with room for no limits yet */
    t->info.nthreads = 1;
    struct trace_stream *s = stream_open(t, S_STATE, why, sizeof why);
    if (!s)
        return refuse(t, why);
    if (fill(s, TRACE_INFO_MAX) < 0) {
        error("%s", s->err);
        trace_stream_close(s);
        trace_close(t);
        return NULL;
    }
    long r = trace_decode_info(s->buf, s->len, (unsigned)version, &t->info, why, sizeof why);
    trace_stream_close(s);
    if (r < 0)
        return refuse(t, why);
    t->info.format = (uint32_t)version;
    t->info_block_len = (size_t)r;
    return t;
}

void trace_close(struct trace_file *t)
{
    if (!t)
        return;
    if (t->fd >= 0)
        close(t->fd);
    trace_info_free(&t->info);
    free(t->path);
    free(t);
}

const struct trace_info *trace_file_info(const struct trace_file *t)
{
    return &t->info;
}

const char *trace_file_path(const struct trace_file *t)
{
    return t->path;
}

int trace_file_fd(const struct trace_file *t)
{
    return t->fd;
}

void trace_file_calls_section(const struct trace_file *t, uint64_t *off, uint64_t *len)
{
    *off = t->calls_off;
    *len = t->calls_len;
}

int trace_check(struct trace_file *t)
{
    char why[1200];
    struct trace_call c;
    struct trace_entry e;
    struct trace_stream *s = trace_calls_open(t, why, sizeof why);
    if (!s)
        return error("%s", why);
    int r;
    while ((r = trace_next_call(s, &c)) > 0)
        ;
    if (r < 0)
        error("%s", trace_stream_error(s));
    trace_stream_close(s);
    if (r < 0)
        return -1;
    if (!(s = trace_state_open(t, why, sizeof why)))
        return error("%s", why);
    while ((r = trace_next_entry(s, &e)) > 0)
        ;
    if (r < 0)
        error("%s", trace_stream_error(s));
    trace_stream_close(s);
    return r < 0 ? -1 : 0;
}
