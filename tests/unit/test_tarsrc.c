/* test_tarsrc.c — unit tests of the archive tree source (tarsrc.c, phase_tarextract.c).
 *
 * Every archive is built here with libarchive's writer in a mkdtemp directory, then opened,
 * counted and extracted with the posix engine through a hand-made phase_ctx, and the result
 * is compared entry by entry with what was written: types, sizes, modes, mtimes, link
 * targets, content, hard links sharing an inode. Hostile archives must be refused entry by
 * entry with nothing written outside the root; truncated, corrupt and non-archives must
 * fail tarsrc_open with one message naming the file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "base/err.h"
#include "phase/phase.h"
#include "phase/phase_tarextract.h"
#include "tarwrite.h"

/* Scratch directory of the current test (one per test, removed in teardown). */
static char base[64];

static int setup(void **state)
{
    snprintf(base, sizeof base, "/tmp/test_tarsrc.XXXXXX");
    if (!mkdtemp(base))
        return -1;
    err_set_quiet(1);
    return 0;
}

static int rm_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) < 0)
        return 0;
    if (S_ISDIR(st.st_mode)) {
        chmod(path, 0700);
        DIR *d = opendir(path);
        struct dirent *de;
        while (d && (de = readdir(d))) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
            rm_tree(sub);
        }
        if (d)
            closedir(d);
        return rmdir(path);
    }
    return unlink(path);
}

static int teardown(void **state)
{
    err_set_quiet(0);
    if (getenv("TEST_TARSRC_KEEP")) /* to look at a failed test's archives */
        return 0;
    return rm_tree(base);
}

/* base/name into buf. */
static const char *at(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", base, name);
    return buf;
}

/* Extracts src into directory dir (created) with engine eng; fills *res. 0 or -1. */
static int extract(struct tarsrc *src, const char *dir, const struct engine *eng,
                   struct phase_result *res)
{
    assert_int_equal(mkdir(dir, 0755), 0);
    int root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(root >= 0);
    struct opstats *ops = calloc(1, sizeof *ops);
    assert_non_null(ops);
    struct eng_worker w = {.st = ops};
    char buf[65536];
    memset(res, 0, sizeof *res);
    struct phase_ctx ctx = {
        .eng = eng, .w = &w, .ws_fd = root, .res = res, .buf = buf, .buflen = sizeof buf};
    int rc = phase_extract_tar(&ctx, src, root);
    close(root);
    free(ops);
    return rc;
}

/* Checks the extracted entry for spec s below dir, at name (NULL: s->path). */
static void check_entry(const char *dir, const struct spec *s, const char *name)
{
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name ? name : s->path);
    if (lstat(p, &st) < 0)
        fail_msg("%s: missing: %s", s->path, strerror(errno));
    long mtime = s->mtime ? s->mtime : 1600000000;
    switch (s->type) {
    case 'd':
        assert_true(S_ISDIR(st.st_mode));
        if ((st.st_mode & 07777) != s->mode)
            fail_msg("%s: mode %o, want %o", s->path, st.st_mode & 07777, s->mode);
        assert_int_equal(st.st_mtim.tv_sec, mtime);
        assert_int_equal(st.st_mtim.tv_nsec, s->nsec);
        return;
    case 'l': {
        char t[4096];
        assert_true(S_ISLNK(st.st_mode));
        ssize_t n = readlink(p, t, sizeof t - 1);
        assert_true(n >= 0);
        t[n] = '\0';
        assert_string_equal(t, s->target);
        assert_int_equal(st.st_mtim.tv_sec, mtime);
        return;
    }
    case 'h': {
        char q[4096];
        struct stat tst;
        snprintf(q, sizeof q, "%s/%s", dir, s->target);
        assert_int_equal(lstat(q, &tst), 0);
        assert_true(S_ISREG(st.st_mode));
        assert_true(st.st_ino == tst.st_ino && st.st_dev == tst.st_dev);
        assert_true(st.st_nlink >= 2);
        return;
    }
    default:
        break;
    }
    assert_true(S_ISREG(st.st_mode));
    if ((st.st_mode & 07777) != s->mode)
        fail_msg("%s: mode %o, want %o", s->path, st.st_mode & 07777, s->mode);
    assert_int_equal(st.st_mtim.tv_sec, mtime);
    assert_int_equal(st.st_mtim.tv_nsec, s->nsec);
    size_t size = s->type == 's' ? SPARSE_SIZE : s->size;
    assert_int_equal((size_t)st.st_size, size);
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    for (size_t i = 0; i < size; i++) {
        int c = getc(f);
        int want = pattern(s->path, i);
        if (s->type == 's' && !(i < 4096 || (i >= SPARSE_MID && i < SPARSE_MID + 4096)))
            want = 0;
        if (c != want) {
            fclose(f);
            fail_msg("%s: byte %zu is %d, want %d", s->path, i, c, want);
        }
    }
    assert_int_equal(getc(f), EOF);
    fclose(f);
    if (s->type == 's') /* holes stay holes: far fewer blocks than the size */
        assert_true((size_t)st.st_blocks * 512 < SPARSE_SIZE / 2);
}

/* A tree with every kind of entry: modes 0644/0755/0600, a read-only directory with a
 * file in it, a symlink, a hard link, files listed before their directories, an empty
 * file, a file of many read blocks, a sparse file and a nanosecond mtime. */
static const struct spec good[] = {
    {'d', "./", 0755, NULL, 0, 1500000000, 0},
    {'d', "d/", 0755, NULL, 0, 1500000001, 0},
    {'f', "d/a.txt", 0644, NULL, 6, 1500000002, 0},
    {'f', "d/run.sh", 0755, NULL, 100, 1500000003, 0},
    {'f', "d/secret", 0600, NULL, 1, 1500000004, 123456789},
    {'f', "d/empty", 0644, NULL, 0, 1500000005, 0},
    {'f', "d/big", 0640, NULL, 700 * 1024 + 3, 1500000006, 0},
    {'l', "d/link", 0, "a.txt", 0, 1500000007, 0},
    {'h', "d/hard", 0, "d/a.txt", 0, 0, 0},
    {'s', "d/sparse", 0644, NULL, 0, 1500000008, 0},
    {'f', "n/sub/file", 0644, NULL, 10, 1500000009, 0},
    {'d', "n/sub/", 0750, NULL, 0, 1500000010, 0},
    {'d', "n/", 0711, NULL, 0, 1500000011, 0},
    {'d', "ro/", 0555, NULL, 0, 1500000012, 0},
    {'f', "ro/f", 0444, NULL, 3, 1500000013, 0},
    {'f', "./dotted//name", 0644, NULL, 4, 1500000014, 0},
};
#define NGOOD (sizeof good / sizeof good[0])

static void check_good(const char *dir)
{
    for (size_t i = 1; i < NGOOD; i++)
        check_entry(dir, &good[i], strcmp(good[i].path, "./dotted//name") ? NULL : "dotted/name");
    struct stat st;
    assert_int_equal(lstat(dir, &st), 0);
    assert_int_equal(st.st_mtim.tv_sec, 1500000000);
    assert_int_equal(st.st_mode & 07777, 0755);
}

static void check_good_totals(struct tarsrc *src)
{
    struct tarent_totals t;
    assert_int_equal(tarsrc_measure(src, &t), 0);
    assert_int_equal(t.entries, NGOOD);
    assert_int_equal(t.files, 9); /* a.txt run.sh secret empty big sparse file f name */
    assert_int_equal(t.dirs, 5);  /* d n n/sub ro dotted */
    assert_int_equal(t.symlinks, 1);
    assert_int_equal(t.hardlinks, 1);
    assert_int_equal(t.refused, 0);
    assert_int_equal(t.bytes, 6 + 100 + 1 + 0 + 700 * 1024 + 3 + SPARSE_SIZE + 10 + 3 + 4);
}

static void run_good(int gz)
{
    char arc[128], dir[128], scr[128];
    at(arc, sizeof arc, gz ? "good.tar.gz" : "good.tar");
    at(dir, sizeof dir, "out");
    at(scr, sizeof scr, "scratch");
    assert_int_equal(mkdir(scr, 0700), 0);
    write_archive(arc, good, NGOOD, gz ? PAX_GZ : PAX);
    struct tarsrc *src = tarsrc_open(arc, scr);
    assert_non_null(src);
    assert_string_equal(tarsrc_path(src), arc);
    check_good_totals(src);
    /* A decompressed copy exists only for the compressed archive. */
    DIR *d = opendir(scr);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        n += de->d_name[0] != '.';
    closedir(d);
    assert_int_equal(n, gz ? 1 : 0);

    struct phase_result res;
    assert_int_equal(extract(src, dir, &engine_posix, &res), 0);
    assert_int_equal(res.status, PHASE_OK);
    assert_int_equal(res.files, 10); /* 9 files and the hard link */
    assert_int_equal(res.dirs, 5);
    assert_int_equal(res.symlinks, 1);
    assert_int_equal(tarsrc_refused(src), 0);
    check_good(dir);
    tarsrc_close(src);
    assert_int_equal(rmdir(scr), 0); /* empty again: the copy was removed */
}

static void test_plain(void **state)
{
    run_good(0);
}

static void test_gzip(void **state)
{
    run_good(1);
}

/* The null engine walks the same archive, counts the same entries and writes nothing. */
static void test_null_engine(void **state)
{
    char arc[128], dir[128];
    write_archive(at(arc, sizeof arc, "good.tar"), good, NGOOD, PAX);
    struct tarsrc *src = tarsrc_open(arc, base);
    assert_non_null(src);
    struct phase_result res;
    assert_int_equal(extract(src, at(dir, sizeof dir, "out"), &engine_null, &res), 0);
    assert_int_equal(res.files, 10);
    assert_int_equal(res.dirs, 5);
    assert_int_equal(res.symlinks, 1);
    tarsrc_close(src);
    assert_int_equal(rmdir(dir), 0);
}

/* A later entry of the same name replaces a file or symlink (as with tar), never a
 * directory. */
static void test_duplicates(void **state)
{
    const struct spec s[] = {
        {'f', "x", 0644, NULL, 5, 0, 0},
        {'f', "x", 0600, NULL, 9, 0, 0},
        {'l', "y", 0, "x", 0, 0, 0},
        {'f', "y", 0644, NULL, 2, 0, 0},
        {'d', "z/", 0755, NULL, 0, 0, 0},
        {'f', "z", 0644, NULL, 2, 0, 0},
        {'d', "z/", 0700, NULL, 0, 1400000000, 0},
    };
    char arc[128], dir[128];
    write_archive(at(arc, sizeof arc, "dup.tar"), s, 7, PAX);
    struct tarsrc *src = tarsrc_open(arc, base);
    assert_non_null(src);
    struct tarent_totals t;
    tarsrc_measure(src, &t);
    assert_int_equal(t.refused, 1);
    assert_int_equal(t.dirs, 1);
    struct phase_result res;
    assert_int_equal(extract(src, at(dir, sizeof dir, "out"), &engine_posix, &res), 0);
    assert_int_equal(tarsrc_refused(src), 1);
    assert_int_equal(res.dirs, 1);
    check_entry(dir, &s[1], NULL);
    check_entry(dir, &s[3], NULL);
    check_entry(dir, &s[6], NULL);
    tarsrc_close(src);
}

/* Hostile names: each refused with a warning, nothing outside the root, the rest made. */
static void test_hostile(void **state)
{
    char arc[128], dir[128], out[128], log[128];
    at(out, sizeof out, "outside");
    assert_int_equal(mkdir(out, 0755), 0);
    const struct spec evil[] = {
        HOSTILE_SPECS(out),
        {'l', "ok", 0, "/", 0, 0, 0},
        {'f', "ok/file/x", 0644, NULL, 3, 0, 0},
        {'f', "x/../y", 0644, NULL, 3, 0, 0},
    };
    size_t n = sizeof evil / sizeof evil[0];
    write_archive(at(arc, sizeof arc, "evil.tar"), evil, n, PAX);
    struct tarsrc *src = tarsrc_open(arc, base);
    assert_non_null(src);
    struct tarent_totals t;
    tarsrc_measure(src, &t);
    assert_int_equal(t.entries, n);
    /* The count is exact: ok/file/x goes through a regular file, refused as well. */
    assert_int_equal(t.files, 1);
    assert_int_equal(t.dirs, 1);
    assert_int_equal(t.symlinks, 1);
    assert_int_equal(t.hardlinks, 1);
    assert_int_equal(t.refused, n - 4); /* all but ok/ ok/file s h3 */

    /* Capture stderr to count the warning lines. */
    at(log, sizeof log, "stderr.log");
    fflush(stderr);
    int saved = dup(2);
    int lf = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && lf >= 0);
    dup2(lf, 2);
    close(lf);
    err_set_quiet(0);
    struct phase_result res;
    int rc = extract(src, at(dir, sizeof dir, "root"), &engine_posix, &res);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    err_set_quiet(1);
    assert_int_equal(rc, 0);
    assert_int_equal(res.status, PHASE_OK);
    assert_int_equal(tarsrc_refused(src), n - 4); /* ok/file/x too: through a file */
    assert_int_equal(res.files, 2);
    assert_int_equal(res.dirs, 1);
    assert_int_equal(res.symlinks, 1);

    FILE *f = fopen(log, "r");
    assert_non_null(f);
    char line[1024];
    int refused_lines = 0, more = 0;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "fsbench: warning: tar:") && strstr(line, "refused '"))
            refused_lines++;
        else if (strstr(line, "3 more entries refused"))
            more++;
        else
            fail_msg("unexpected stderr line: %s", line);
    }
    fclose(f);
    assert_int_equal(refused_lines, 10);
    assert_int_equal(more, 1);

    /* Inside: ok/ ok/file s h3 and nothing else. */
    struct stat st;
    char p[256];
    assert_int_equal(lstat(at(p, sizeof p, "root/ok/file"), &st), 0);
    assert_true(S_ISREG(st.st_mode));
    ino_t ino = st.st_ino;
    assert_int_equal(lstat(at(p, sizeof p, "root/h3"), &st), 0);
    assert_true(st.st_ino == ino);
    assert_int_equal(lstat(at(p, sizeof p, "root/s"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    DIR *d = opendir(dir);
    int nroot = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        nroot += de->d_name[0] != '.';
    closedir(d);
    assert_int_equal(nroot, 3);
    /* Outside: nothing new. */
    d = opendir(out);
    int nout = 0;
    while ((de = readdir(d)))
        nout += de->d_name[0] != '.';
    closedir(d);
    assert_int_equal(nout, 0);
    d = opendir(base);
    while ((de = readdir(d)))
        if (de->d_name[0] != '.' && strcmp(de->d_name, "outside") && strcmp(de->d_name, "root") &&
            strcmp(de->d_name, "evil.tar") && strcmp(de->d_name, "stderr.log"))
            fail_msg("written outside the root: %s", de->d_name);
    closedir(d);
    assert_int_equal(access("/abs/x", F_OK), -1);
    tarsrc_close(src);
}

/* tarsrc_open of path fails, and its one message names path and contains want. */
static void expect_open_fails(const char *path, const char *want)
{
    char msg[512];
    err_capture_begin(msg, sizeof msg);
    struct tarsrc *src = tarsrc_open(path, base);
    err_capture_end();
    if (src) {
        tarsrc_close(src);
        fail_msg("%s opened", path);
    }
    char head[256];
    snprintf(head, sizeof head, "tar:%s: ", path);
    if (strncmp(msg, head, strlen(head)) != 0 || (want && !strstr(msg, want)))
        fail_msg("message '%s' for %s", msg, path);
    assert_null(strchr(msg, '\n'));
}

static void truncate_half(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(truncate(path, st.st_size / 2), 0);
}

static void test_truncated(void **state)
{
    /* Content that does not compress, so half the .gz is half the archive. */
    const struct spec s[] = {
        {'d', "d/", 0755, NULL, 0, 0, 0},
        {'f', "d/one", 0644, NULL, 300000, 0, 0},
        {'f', "d/two", 0644, NULL, 300000, 0, 0},
    };
    char gz[128], tar[128];
    write_archive(at(gz, sizeof gz, "cut.tar.gz"), s, 3, PAX_GZ);
    truncate_half(gz);
    expect_open_fails(gz, NULL);
    write_archive(at(tar, sizeof tar, "cut.tar"), s, 3, PAX);
    truncate_half(tar);
    expect_open_fails(tar, NULL);
    /* No decompressed copy is left behind. */
    DIR *d = opendir(base);
    struct dirent *de;
    while ((de = readdir(d)))
        if (!strncmp(de->d_name, "fsbench-tar.", 12))
            fail_msg("copy %s left behind", de->d_name);
    closedir(d);
}

/* The archive changes under an open tarsrc: the extraction fails with libarchive's reason. */
static void test_truncated_during_extract(void **state)
{
    const struct spec s[] = {
        {'f', "one", 0644, NULL, 300000, 0, 0},
        {'f', "two", 0644, NULL, 300000, 0, 0},
    };
    char tar[128], dir[128];
    write_archive(at(tar, sizeof tar, "t.tar"), s, 2, PAX);
    struct tarsrc *src = tarsrc_open(tar, base);
    assert_non_null(src);
    truncate_half(tar);
    struct phase_result res;
    assert_int_equal(extract(src, at(dir, sizeof dir, "out"), &engine_posix, &res), -1);
    assert_int_equal(res.status, PHASE_FAILED);
    char head[256];
    snprintf(head, sizeof head, "read tar:%s: ", tar);
    if (strncmp(res.note, head, strlen(head)) != 0)
        fail_msg("note '%s'", res.note);
    tarsrc_close(src);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_not_archives(void **state)
{
    char p[128];
    write_file(at(p, sizeof p, "notes.txt"), "this is not an archive\njust some text\n");
    expect_open_fails(p, "Unrecognized archive format");
    write_file(at(p, sizeof p, "empty.tar"), "");
    expect_open_fails(p, "empty");
    expect_open_fails(at(p, sizeof p, "missing.tar"), "No such file");
    expect_open_fails(base, "not a regular file");

    /* gzip'ed text: decompresses, but is no archive; the copy is removed. */
    struct archive *a = archive_write_new();
    archive_write_set_format_raw(a);
    archive_write_add_filter_gzip(a);
    assert_int_equal(archive_write_open_filename(a, at(p, sizeof p, "text.gz")), ARCHIVE_OK);
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_filetype(e, AE_IFREG);
    assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
    archive_write_data(a, "hello, this is text\n", 20);
    archive_entry_free(e);
    archive_write_close(a);
    archive_write_free(a);
    expect_open_fails(p, "Unrecognized archive format");
    DIR *d = opendir(base);
    struct dirent *de;
    while ((de = readdir(d)))
        if (!strncmp(de->d_name, "fsbench-tar.", 12))
            fail_msg("copy %s left behind", de->d_name);
    closedir(d);
}

/* Files are created with their final mode when the umask keeps it (no fchmod later), else
 * private (0600) and the mode set once written. */
static void test_create_mode(void **state)
{
    (void)state;
    mode_t fix = 0;
    assert_int_equal(tarent_create_mode(0644, 022, &fix), 0644);
    assert_int_equal(fix, (mode_t)-1);
    assert_int_equal(tarent_create_mode(0755, 022, &fix), 0755);
    assert_int_equal(fix, (mode_t)-1);
    assert_int_equal(tarent_create_mode(0666, 022, &fix), 0600); /* umask clears a bit */
    assert_int_equal(fix, 0666);
    assert_int_equal(tarent_create_mode(04755, 022, &fix), 0600); /* set-uid */
    assert_int_equal(fix, 04755);
    assert_int_equal(tarent_create_mode(01644, 0, &fix), 0600); /* sticky */
    assert_int_equal(fix, 01644);
    assert_int_equal(tarent_create_mode(0600, 077, &fix), 0600);
    assert_int_equal(fix, (mode_t)-1);
    assert_int_equal(tarent_create_mode(0640, 077, &fix), 0600);
    assert_int_equal(fix, 0640);
    mode_t before = umask(027);
    assert_int_equal(tarent_umask(), 027);
    assert_int_equal(tarent_umask(), 027); /* reading it left it alone */
    umask(before);
}

static void test_norm_path(void **state)
{
    static const struct {
        const char *in, *out; /* out NULL: refused */
    } c[] = {
        {"a", "a"},     {"./a", "a"},     {"a/b/", "a/b"},    {".//a/./b//", "a/b"},
        {"./", ""},     {".", ""},        {"/a", NULL},       {"..", NULL},
        {"a/..", NULL}, {"a/../b", NULL}, {"..a/b", "..a/b"}, {"a/...", "a/..."},
        {"", NULL},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        char out[64];
        const char *why = NULL;
        int r = tarent_norm_path(c[i].in, out, sizeof out, &why);
        if (c[i].out == NULL) {
            if (r != 1 || !why)
                fail_msg("'%s' accepted as '%s'", c[i].in, out);
        } else if (r != 0 || strcmp(out, c[i].out)) {
            fail_msg("'%s' gave %d '%s', want '%s'", c[i].in, r, r ? why : out, c[i].out);
        }
    }
    char small[4];
    const char *why;
    assert_int_equal(tarent_norm_path("abcdef", small, sizeof small, &why), 1);
    char pr[8];
    tarent_printable("a\nb\x1b", pr, sizeof pr);
    assert_string_equal(pr, "a?b?");
    tarent_printable("abcdefghij", pr, sizeof pr);
    assert_string_equal(pr, "abcd...");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_norm_path),
        cmocka_unit_test_setup_teardown(test_plain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gzip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_null_engine, setup, teardown),
        cmocka_unit_test_setup_teardown(test_duplicates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile, setup, teardown),
        cmocka_unit_test_setup_teardown(test_truncated, setup, teardown),
        cmocka_unit_test_setup_teardown(test_truncated_during_extract, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_archives, setup, teardown),
        cmocka_unit_test(test_create_mode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
