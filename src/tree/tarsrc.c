/* tarsrc.c — opening a real archive as a tree source: format detection, the one-time
 * decompression into a scratch copy, the pass over the headers (run by tarindex.c on a
 * read-only mapping of the copy). See tarsrc.h; what the pass and the extract phase share
 * (name checks, the set of paths) is in tarentry.c.
 *
 * Decompression keeps the archive's own bytes: a second reader with the "raw" format
 * streams the decompressed data into the copy, so a .tar.xz becomes exactly the .tar
 * that xz -d would give (and a .cpio.gz a .cpio). Rewriting every entry as pax through
 * archive_write would parse and re-encode each header and reorder nothing useful.
 *
 * Formats are listed explicitly: mtree is left out on purpose (it is a description that
 * makes libarchive open files named inside it), and so is "raw" (anything would pass).
 */
#include "tree/tarsrc.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/sig.h"
#include "tree/tarentry.h"
#include "tree/tarindex.h"

struct tarsrc {
    char *path;            /* as given, for messages */
    char *copy;            /* decompressed copy we made, or NULL */
    const char *read_path; /* what the timed pass reads: copy or path */
    int fd;                /* read_path, open from tarsrc_open to tarsrc_close (or -1) */
    int format;            /* libarchive's format code, as detected on the first header */
    struct tarindex *ix;   /* counts, refusals and (maybe) the index */
    bool said_serial;      /* "extracted by one thread" was said */
    uint64_t last_refused; /* by the last extraction */
};

/* ---- readers --------------------------------------------------------------------- */

/* Enables every archive format we accept (not mtree, not raw). */
static void support_formats(struct archive *a)
{
    archive_read_support_format_7zip(a);
    archive_read_support_format_ar(a);
    archive_read_support_format_cab(a);
    archive_read_support_format_cpio(a);
    archive_read_support_format_empty(a);
    archive_read_support_format_iso9660(a);
    archive_read_support_format_lha(a);
    archive_read_support_format_rar(a);
    archive_read_support_format_rar5(a);
    archive_read_support_format_tar(a);
    archive_read_support_format_warc(a);
    archive_read_support_format_xar(a);
    archive_read_support_format_zip(a);
}

struct archive *tarsrc_reader(const struct tarsrc *src)
{
    struct archive *a = archive_read_new();
    if (!a) {
        error("tar:%s: out of memory", src->path);
        return NULL;
    }
    support_formats(a);
    if (archive_read_open_filename(a, src->read_path, TARSRC_BLOCK) != ARCHIVE_OK) {
        error("tar:%s: %s", src->path, tarent_arch_reason(a));
        archive_read_free(a);
        return NULL;
    }
    return a;
}

const char *tarsrc_path(const struct tarsrc *src)
{
    return src->path;
}

const struct tarindex *tarsrc_index(const struct tarsrc *src)
{
    return src->ix;
}

int tarsrc_fd(const struct tarsrc *src)
{
    return src->fd;
}

bool tarsrc_say_serial(struct tarsrc *src)
{
    bool first = !src->said_serial;
    src->said_serial = true;
    return first;
}

uint64_t tarsrc_refused(const struct tarsrc *src)
{
    return src->last_refused;
}

void tarsrc_set_refused(struct tarsrc *src, uint64_t n)
{
    src->last_refused = n;
}

/* ---- decompression --------------------------------------------------------------- */

/* Writes all of buf to fd: 0 or -1 with errno. */
static int write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t r = write(fd, p, len);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += r;
        len -= (size_t)r;
    }
    return 0;
}

/* The decompressed copies that exist now, for a fatal signal's cleanup: fixed slots, so
 * that the handler only reads them and calls unlink(). */
#define TARSRC_COPIES_MAX 8
static char tarsrc_copies[TARSRC_COPIES_MAX][PATH_MAX];
static volatile sig_atomic_t tarsrc_copy_live[TARSRC_COPIES_MAX];

static void tarsrc_unlink_copies(void)
{
    for (int i = 0; i < TARSRC_COPIES_MAX; i++)
        if (tarsrc_copy_live[i]) {
            unlink(tarsrc_copies[i]);
            tarsrc_copy_live[i] = 0;
        }
}

static void tarsrc_copy_track(const char *path, bool live)
{
    for (int i = 0; i < TARSRC_COPIES_MAX; i++) {
        if (live && !tarsrc_copy_live[i] && strlen(path) < PATH_MAX) {
            memcpy(tarsrc_copies[i], path, strlen(path) + 1);
            tarsrc_copy_live[i] = 1;
            sig_at_fatal(tarsrc_unlink_copies);
            return;
        }
        if (!live && tarsrc_copy_live[i] && !strcmp(tarsrc_copies[i], path)) {
            tarsrc_copy_live[i] = 0;
            return;
        }
    }
}

struct copy_to {
    struct tarsrc *src;
    int fd;
};

/* One block of the decompressed stream into the copy; a stop signal ends the copy. */
static int copy_block(void *arg, const void *buf, size_t n, int64_t off)
{
    struct copy_to *to = arg;
    if (write_all(to->fd, buf, n) < 0)
        return error_errno("tar:%s: writing the decompressed copy %s", to->src->path,
                           to->src->copy);
    int sig = sig_stop_requested();
    if (sig) {
        char name[32];
        return error("tar:%s: decompression interrupted by %s (its copy removed)",
                     to->src->path, sig_name(sig, name, sizeof name));
    }
    return 0;
}

/* Streams the decompressed bytes of src->path into a new file in dir. 0 or -1 after
 * error(); on failure nothing is left in dir. */
static int decompress(struct tarsrc *src, const char *dir)
{
    size_t len = strlen(dir) + sizeof "/fsbench-tar.XXXXXX";
    src->copy = malloc(len);
    if (!src->copy)
        return error("tar:%s: out of memory", src->path);
    snprintf(src->copy, len, "%s/fsbench-tar.XXXXXX", dir);
    int fd = mkstemp(src->copy);
    if (fd < 0) {
        error_errno("tar:%s: cannot create a decompressed copy in %s", src->path, dir);
        free(src->copy);
        src->copy = NULL;
        return -1;
    }
    tarsrc_copy_track(src->copy, true);
    struct archive *a = archive_read_new();
    int rc = -1;
    if (!a) {
        error("tar:%s: out of memory", src->path);
        goto out;
    }
    archive_read_support_filter_all(a);
    archive_read_support_format_raw(a);
    struct archive_entry *ent;
    if (archive_read_open_filename(a, src->path, TARSRC_BLOCK) != ARCHIVE_OK ||
        archive_read_next_header(a, &ent) < ARCHIVE_WARN) {
        error("tar:%s: %s", src->path, tarent_arch_reason(a));
        goto out;
    }
    struct copy_to to = {.src = src, .fd = fd};
    int r = tarent_each_block(a, copy_block, &to);
    if (r == TARENT_READ_FAILED)
        error("tar:%s: %s", src->path, tarent_arch_reason(a));
    if (r < 0)
        goto out;
    rc = 0;
out:
    if (a)
        archive_read_free(a);
    if (close(fd) < 0 && rc == 0)
        rc = error_errno("tar:%s: writing the decompressed copy %s", src->path, src->copy);
    if (rc < 0) {
        unlink(src->copy);
        tarsrc_copy_track(src->copy, false);
        free(src->copy);
        src->copy = NULL;
        return -1;
    }
    src->read_path = src->copy;
    return 0;
}

/* ---- the pass over the headers ------------------------------------------------------ */

/* Opens src's copy (the fd stays open until tarsrc_close), maps it and runs tarindex's pass
 * over the mapping: counts, refusals and the index. 0 or -1 after error() (an incomplete or
 * corrupt archive, with libarchive's reason). The mapping is only for the pass: the
 * extraction reads the data with pread. It is not populated (MAP_POPULATE): that saves a
 * quarter of the pass on a cached Linux tarball (0.8 s instead of 1.05 s; the streaming
 * count took 0.3 s) but would read all of a huge archive of big files, of which the pass
 * needs only the headers. */
static int index_pass(struct tarsrc *src)
{
    src->fd = open(src->read_path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (src->fd < 0 || fstat(src->fd, &st) < 0)
        return error_errno("tar:%s", src->path);
    size_t len = (size_t)st.st_size;
    void *map = NULL;
    if (len > 0 && (uint64_t)st.st_size == len) {
        map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, src->fd, 0);
        if (map == MAP_FAILED)
            map = NULL;
    }
    struct archive *a = archive_read_new();
    if (!a) {
        if (map)
            munmap(map, len);
        return error("tar:%s: out of memory", src->path);
    }
    /* Only the format already detected bids: the other bidders' read-ahead (iso9660 asks
     * for 36 KiB) would make libarchive copy a small archive out of the mapping. */
    if (!map || !src->format || archive_read_support_format_by_code(a, src->format) != ARCHIVE_OK)
        support_formats(a);
    int r = map ? archive_read_open_memory(a, map, len)
                : archive_read_open_fd(a, src->fd, TARSRC_BLOCK);
    int rc;
    if (r != ARCHIVE_OK)
        rc = error("tar:%s: %s", src->path, tarent_arch_reason(a));
    else
        rc = tarindex_scan(a, map, map ? len : 0, src->path, &src->ix);
    archive_read_free(a);
    if (map)
        munmap(map, len);
    return rc;
}

/* ---- open and close -------------------------------------------------------------- */

/* Whether path is compressed (libarchive reports a filter): 1, 0, or -1 after error().
 * Notes the archive's format in src->format. */
static int is_compressed(struct tarsrc *src)
{
    struct archive *a = archive_read_new();
    if (!a)
        return error("tar:%s: out of memory", src->path);
    archive_read_support_filter_all(a);
    support_formats(a);
    struct archive_entry *ent;
    int rc;
    if (archive_read_open_filename(a, src->path, TARSRC_BLOCK) != ARCHIVE_OK) {
        rc = error("tar:%s: %s", src->path, tarent_arch_reason(a));
    } else {
        int r = archive_read_next_header(a, &ent);
        if (r < ARCHIVE_WARN && r != ARCHIVE_EOF) {
            rc = error("tar:%s: %s", src->path, tarent_arch_reason(a));
        } else {
            rc = archive_filter_code(a, 0) != ARCHIVE_FILTER_NONE;
            src->format = archive_format(a);
        }
    }
    archive_read_free(a);
    return rc;
}

struct tarsrc *tarsrc_open(const char *path, const char *scratch_dir)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        error_errno("tar:%s", path);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        error("tar:%s: not a regular file", path);
        return NULL;
    }
    struct tarsrc *src = calloc(1, sizeof *src);
    if (!src || !(src->path = strdup(path))) {
        free(src);
        error("tar:%s: out of memory", path);
        return NULL;
    }
    src->read_path = src->path;
    src->fd = -1;
    int c = is_compressed(src);
    if (c > 0) {
        if (!scratch_dir || !*scratch_dir) {
            scratch_dir = getenv("TMPDIR");
            if (!scratch_dir || !*scratch_dir)
                scratch_dir = "/tmp";
        }
        c = decompress(src, scratch_dir);
    }
    int rc = c < 0 ? -1 : index_pass(src);
    int sig = rc == 0 ? sig_stop_requested() : 0;
    if (sig) {
        char name[32];
        rc = error("tar:%s: interrupted by %s while reading the archive", path,
                   sig_name(sig, name, sizeof name));
    }
    if (rc < 0) {
        tarsrc_close(src);
        return NULL;
    }
    return src;
}

int tarsrc_measure(struct tarsrc *src, struct tarent_totals *t)
{
    *t = src->ix->totals;
    return 0;
}

void tarsrc_close(struct tarsrc *src)
{
    if (!src)
        return;
    tarindex_free(src->ix);
    if (src->fd >= 0)
        close(src->fd);
    if (src->copy) {
        unlink(src->copy);
        tarsrc_copy_track(src->copy, false);
        free(src->copy);
    }
    free(src->path);
    free(src);
}
