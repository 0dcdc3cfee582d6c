/* tarwrite.h — archives for the unit tests of archive sources (test_tarsrc.c,
 * test_tarindex.c), written with libarchive's writer from a list of entries.
 *
 * Entry types: 'd' dir, 'f' file, 's' sparse file, 'l' symlink, 'h' hard link, 'p' fifo.
 * Files hold pattern(path, offset) bytes; a sparse file has data at [0, 4096) and
 * [SPARSE_MID, SPARSE_MID + 4096) and is SPARSE_SIZE long (the writer takes the whole
 * logical content and skips what the sparse map calls holes). A zero mtime means
 * 1600000000. Entries are owned by the caller's uid and gid.
 */
#ifndef FSBENCH_TEST_TARWRITE_H
#define FSBENCH_TEST_TARWRITE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>
#include <stdlib.h>
#include <unistd.h>

struct spec {
    char type;
    const char *path;
    unsigned mode;
    const char *target;
    size_t size;
    long mtime, nsec;
};

/* The hostile entries both archive tests start from, in this order: an absolute name, two
 * names that climb out of the root, a good directory and file (ok/, ok/file: 5 bytes), a
 * symlink s to the directory `outside` (outside the root) with names through it, hard links
 * out of the root (h, h4), through the symlink (h2) and to the good file (h3), and a fifo.
 * Only ok/, ok/file, s and h3 may be made. */
#define HOSTILE_SPECS(outside)                   \
    {'f', "/abs/x", 0644, NULL, 3, 0, 0},        \
    {'f', "../escape", 0644, NULL, 3, 0, 0},     \
    {'f', "a/../../x", 0644, NULL, 3, 0, 0},     \
    {'d', "ok/", 0755, NULL, 0, 0, 0},           \
    {'f', "ok/file", 0644, NULL, 5, 0, 0},       \
    {'l', "s", 0, (outside), 0, 0, 0},           \
    {'f', "s/file", 0644, NULL, 3, 0, 0},        \
    {'f', "s/deeper/file", 0644, NULL, 3, 0, 0}, \
    {'d', "s/dir/", 0755, NULL, 0, 0, 0},        \
    {'h', "h", 0, "../x", 0, 0, 0},              \
    {'h', "h2", 0, "s/file", 0, 0, 0},           \
    {'h', "h3", 0, "ok/file", 0, 0, 0},          \
    {'h', "h4", 0, "/etc/passwd", 0, 0, 0},      \
    {'p', "fifo", 0644, NULL, 0, 0, 0}

#define SPARSE_SIZE ((size_t)1 << 20)
#define SPARSE_MID ((size_t)512 * 1024)

enum fmt { PAX, PAX_GZ, ZIP_STORE, ZIP_DEFLATE };

/* Byte i of the file at path. */
static inline unsigned char pattern(const char *path, size_t i)
{
    unsigned h = 5381;
    for (const char *p = path; *p; p++)
        h = h * 33 + (unsigned char)*p;
    return (unsigned char)((i * 131 + h + (i >> 9)) & 0xff);
}

/* Writes the n entries of s to path in format fmt. */
static inline void write_archive(const char *path, const struct spec *s, size_t n, enum fmt fmt)
{
    struct archive *a = archive_write_new();
    assert_non_null(a);
    if (fmt == PAX || fmt == PAX_GZ) {
        assert_int_equal(archive_write_set_format_pax(a), ARCHIVE_OK);
        if (fmt == PAX_GZ)
            assert_int_equal(archive_write_add_filter_gzip(a), ARCHIVE_OK);
    } else {
        assert_int_equal(archive_write_set_format_zip(a), ARCHIVE_OK);
        assert_int_equal(archive_write_set_options(a, fmt == ZIP_STORE ? "zip:compression=store"
                                                                       : "zip:compression=deflate"),
                         ARCHIVE_OK);
    }
    assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
    for (size_t i = 0; i < n; i++) {
        struct archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, s[i].path);
        archive_entry_set_mtime(e, s[i].mtime ? s[i].mtime : 1600000000, s[i].nsec);
        archive_entry_set_uid(e, getuid());
        archive_entry_set_gid(e, getgid());
        size_t datalen = 0;
        switch (s[i].type) {
        case 'd':
            archive_entry_set_mode(e, AE_IFDIR | s[i].mode);
            break;
        case 'f':
            archive_entry_set_mode(e, AE_IFREG | s[i].mode);
            archive_entry_set_size(e, (la_int64_t)s[i].size);
            datalen = s[i].size;
            break;
        case 's':
            archive_entry_set_mode(e, AE_IFREG | s[i].mode);
            archive_entry_set_size(e, (la_int64_t)SPARSE_SIZE);
            archive_entry_sparse_add_entry(e, 0, 4096);
            archive_entry_sparse_add_entry(e, (la_int64_t)SPARSE_MID, 4096);
            datalen = SPARSE_SIZE;
            break;
        case 'l':
            archive_entry_set_mode(e, AE_IFLNK | 0777);
            archive_entry_set_symlink(e, s[i].target);
            break;
        case 'h':
            archive_entry_set_mode(e, AE_IFREG | 0644);
            archive_entry_set_hardlink(e, s[i].target);
            archive_entry_set_size(e, 0);
            break;
        case 'p':
            archive_entry_set_mode(e, AE_IFIFO | 0644);
            break;
        default:
            fail_msg("bad spec type %c", s[i].type);
        }
        assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
        if (datalen) {
            unsigned char *buf = calloc(1, datalen);
            assert_non_null(buf);
            for (size_t j = 0; j < datalen; j++)
                if (s[i].type == 'f' || j < 4096 || (j >= SPARSE_MID && j < SPARSE_MID + 4096))
                    buf[j] = pattern(s[i].path, j);
            assert_int_equal(archive_write_data(a, buf, datalen), (la_ssize_t)datalen);
            free(buf);
        }
        archive_entry_free(e);
    }
    assert_int_equal(archive_write_close(a), ARCHIVE_OK);
    archive_write_free(a);
}

#endif
