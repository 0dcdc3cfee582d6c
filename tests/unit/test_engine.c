/* test_engine.c — unit tests of the engines (engine_posix.c, engine_null.c, engine.c).
 *
 * The posix engine runs on a fresh scratch directory per test: each operation must do its
 * system call, return >= 0 or -errno without printing, and count itself in w.st with its
 * kind and the bytes it moved. The null engine must count the same kinds for the same
 * calls and touch nothing on disk.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "measure/measure.h"
#include "testutil.h"

/* Per-test state: a scratch directory, its fd and a zeroed op counter. */
struct fix {
    char dir[4096];
    int fd;
    struct opstats *st;
    struct eng_worker w;
};

static int setup(void **state)
{
    struct fix *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    if (!tu_scratch_dir(f->dir, sizeof f->dir, "engine"))
        return -1;
    f->fd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    f->st = tu_worker_stats(&f->w);
    if (f->fd < 0 || !f->st)
        return -1;
    umask(022);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;
    umask(022);
    close(f->fd);
    int rc = tu_rm_tree(f->dir);
    free(f->st);
    free(f);
    return rc;
}

/* Sum of all op counts. */
static uint64_t total_ops(const struct opstats *st)
{
    uint64_t n = 0;
    for (int k = 0; k < OP_KINDS; k++)
        n += st->count[k];
    return n;
}

/* Entries of a directory other than "." and "..", via readdir (not the engine). */
static int count_entries(const char *path)
{
    return tu_count_dir(opendir(path));
}

/* Open fds of this process (to catch leaks on error paths). */
static int count_fds(void)
{
    return count_entries("/proc/self/fd");
}

static void test_engine_find(void **state)
{
    (void)state;
    assert_ptr_equal(engine_find("posix"), &engine_posix);
    assert_ptr_equal(engine_find("null"), &engine_null);
    assert_null(engine_find("nope"));
    assert_null(engine_find(""));
    assert_null(engine_find("POSIX"));
    assert_true(engine_posix.caps & ENG_CAP_REAL);
    assert_false(engine_null.caps & ENG_CAP_REAL);
}

/* Every registered engine has a name, a description and every operation a phase calls. */
static void test_engine_table_complete(void **state)
{
    (void)state;
    size_t n = 0;
    for (size_t i = 0; engine_table[i]; i++, n++) {
        const struct engine *e = engine_table[i];
        assert_non_null(e->name);
        assert_non_null(e->desc);
        assert_ptr_equal(engine_find(e->name), e);
        assert_non_null(e->opendir);
        assert_non_null(e->close);
        assert_non_null(e->mkdir);
        assert_non_null(e->create_file);
        assert_non_null(e->read_file);
        assert_non_null(e->stat);
        assert_non_null(e->getdents);
        assert_non_null(e->unlink);
        assert_non_null(e->rename);
        assert_non_null(e->symlink);
        assert_non_null(e->readlink);
        assert_non_null(e->link);
        assert_non_null(e->copy_file);
        assert_non_null(e->set_times);
        assert_non_null(e->futimens);
        assert_non_null(e->fchown);
        assert_non_null(e->fchmod);
        assert_non_null(e->lchown);
        assert_non_null(e->fsync);
        assert_non_null(e->syncfs);
        assert_non_null(e->drain);
    }
    assert_true(n >= 2);
}

static void test_posix_mkdir_opendir_close(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->mkdir(&f->w, f->fd, "d", 0750), 0);
    assert_int_equal(f->st->count[OP_MKDIR], 1);
    struct stat st;
    assert_int_equal(fstatat(f->fd, "d", &st, 0), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 07777, 0750);

    int d = e->opendir(&f->w, f->fd, "d");
    assert_true(d >= 0);
    assert_int_equal(f->st->count[OP_OPEN], 1);
    struct stat st2;
    assert_int_equal(fstat(d, &st2), 0);
    assert_int_equal(st2.st_ino, st.st_ino);
    assert_int_equal(e->close(&f->w, d), 0);
    assert_int_equal(f->st->count[OP_CLOSE], 1);

    /* "." opens dirfd itself. */
    d = e->opendir(&f->w, f->fd, ".");
    assert_true(d >= 0);
    assert_int_equal(e->close(&f->w, d), 0);
    assert_int_equal(f->st->count[OP_OPEN], 2);
    assert_int_equal(f->st->count[OP_CLOSE], 2);
    assert_int_equal(total_ops(f->st), 5);
    assert_int_equal(f->st->bytes_read, 0);
    assert_int_equal(f->st->bytes_written, 0);
}

static void create_and_check(struct fix *f, const char *name, size_t len, uint64_t size,
                             uint64_t want_writes)
{
    const struct engine *e = &engine_posix;
    unsigned char *pat = tu_make_pattern(len, (unsigned)size);
    uint64_t c0 = f->st->count[OP_CREATE], w0 = f->st->count[OP_WRITE];
    uint64_t cl0 = f->st->count[OP_CLOSE], b0 = f->st->bytes_written;
    assert_int_equal(e->create_file(&f->w, f->fd, name, 0644, pat, len, size, 0), 0);
    assert_int_equal(f->st->count[OP_CREATE] - c0, 1);
    assert_int_equal(f->st->count[OP_WRITE] - w0, want_writes);
    assert_int_equal(f->st->count[OP_CLOSE] - cl0, 1);
    assert_int_equal(f->st->bytes_written - b0, size);
    assert_int_equal(f->st->bytes_read, 0);
    struct stat st;
    assert_int_equal(fstatat(f->fd, name, &st, AT_SYMLINK_NOFOLLOW), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_mode & 07777, 0644);
    assert_int_equal(st.st_size, size);
    tu_check_content(f->fd, name, pat, len, (size_t)size);
    free(pat);
}

static void test_posix_create_file_sizes(void **state)
{
    struct fix *f = *state;
    create_and_check(f, "empty", 100, 0, 0);
    create_and_check(f, "short", 100, 37, 1);
    create_and_check(f, "exact", 100, 100, 1);
    create_and_check(f, "long", 1000, 3500, 4);   /* 3.5 x len: 3 whole + a half */
    create_and_check(f, "big", 4093, 300000, 74); /* odd period, many writes */
    assert_int_equal(f->st->count[OP_FSYNC], 0);
}

static void test_posix_create_flags(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    const char data[] = "0123456789";
    assert_int_equal(e->create_file(&f->w, f->fd, "a", 0644, data, 10, 25, ENG_CREATE_FSYNC), 0);
    assert_int_equal(f->st->count[OP_FSYNC], 1);
    assert_int_equal(f->st->count[OP_WRITE], 3);

    /* EXCL on an existing name: -EEXIST, one failed create counted, no write, no close. */
    struct opstats before = *f->st;
    assert_int_equal(e->create_file(&f->w, f->fd, "a", 0644, data, 10, 5, ENG_CREATE_EXCL),
                     -EEXIST);
    assert_int_equal(f->st->count[OP_CREATE], before.count[OP_CREATE] + 1);
    assert_int_equal(f->st->count[OP_WRITE], before.count[OP_WRITE]);
    assert_int_equal(f->st->count[OP_CLOSE], before.count[OP_CLOSE]);
    assert_int_equal(f->st->bytes_written, before.bytes_written);
    struct stat st;
    assert_int_equal(fstatat(f->fd, "a", &st, 0), 0);
    assert_int_equal(st.st_size, 25);

    /* Without EXCL an existing file is truncated and rewritten. */
    assert_int_equal(e->create_file(&f->w, f->fd, "a", 0644, data, 10, 4, 0), 0);
    assert_int_equal(fstatat(f->fd, "a", &st, 0), 0);
    assert_int_equal(st.st_size, 4);
    tu_check_content(f->fd, "a", (const unsigned char *)data, 10, 4);

    /* The mode is the one asked for (under the umask). */
    assert_int_equal(e->create_file(&f->w, f->fd, "x", 0755, data, 10, 1, ENG_CREATE_EXCL), 0);
    assert_int_equal(fstatat(f->fd, "x", &st, 0), 0);
    assert_int_equal(st.st_mode & 07777, 0755);

    /* Creating through a symlink is refused (O_NOFOLLOW), nothing written behind it. */
    assert_int_equal(symlinkat("a", f->fd, "l"), 0);
    assert_int_equal(e->create_file(&f->w, f->fd, "l", 0644, data, 10, 10, 0), -ELOOP);
    assert_int_equal(fstatat(f->fd, "a", &st, 0), 0);
    assert_int_equal(st.st_size, 4);
}

static void test_posix_read_file(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    unsigned char *pat = tu_make_pattern(1000, 7);
    assert_int_equal(e->create_file(&f->w, f->fd, "f", 0644, pat, 1000, 3500, 0), 0);
    uint64_t written = f->st->bytes_written;
    assert_int_equal(written, 3500);

    /* A buffer larger than the file: one read with data, one at EOF; buf holds the file. */
    unsigned char *buf = calloc(1, 8192);
    assert_non_null(buf);
    uint64_t got = 12345;
    assert_int_equal(e->read_file(&f->w, f->fd, "f", buf, 8192, &got), 0);
    assert_int_equal(got, 3500);
    assert_int_equal(f->st->bytes_read, 3500);
    assert_int_equal(f->st->bytes_written, written);
    assert_int_equal(f->st->count[OP_OPEN], 1);
    assert_int_equal(f->st->count[OP_READ], 2);
    assert_int_equal(f->st->count[OP_CLOSE], 2); /* create's close and read_file's */
    for (size_t off = 0; off < 3500; off += 1000)
        assert_memory_equal(buf + off, pat, off + 1000 <= 3500 ? 1000 : 3500 - off);

    /* A small buffer: ceil(3500 / 512) reads with data, then EOF. */
    assert_int_equal(e->read_file(&f->w, f->fd, "f", buf, 512, &got), 0);
    assert_int_equal(got, 3500);
    assert_int_equal(f->st->count[OP_READ], 2 + 7 + 1);
    assert_int_equal(f->st->bytes_read, 7000);

    /* An empty file reads as 0 bytes with a single (EOF) read. */
    assert_int_equal(e->create_file(&f->w, f->fd, "z", 0644, pat, 1000, 0, 0), 0);
    assert_int_equal(e->read_file(&f->w, f->fd, "z", buf, 512, &got), 0);
    assert_int_equal(got, 0);
    assert_int_equal(f->st->count[OP_READ], 11);

    /* Errors: missing file; a directory (read fails with EISDIR after the open). */
    assert_int_equal(e->read_file(&f->w, f->fd, "missing", buf, 512, &got), -ENOENT);
    assert_int_equal(got, 0);
    assert_int_equal(mkdirat(f->fd, "dir", 0755), 0);
    assert_int_equal(e->read_file(&f->w, f->fd, "dir", buf, 512, &got), -EISDIR);
    assert_int_equal(f->st->bytes_read, 7000);
    free(buf);
    free(pat);
}

static void test_posix_stat(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->create_file(&f->w, f->fd, "f", 0600, "abc", 3, 7, 0), 0);
    assert_int_equal(symlinkat("f", f->fd, "l"), 0);
    struct stat st;
    memset(&st, 0xff, sizeof st);
    assert_int_equal(e->stat(&f->w, f->fd, "f", &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_size, 7);
    assert_int_equal(st.st_mode & 07777, 0600);
    /* lstat semantics: the link itself, not its target. */
    assert_int_equal(e->stat(&f->w, f->fd, "l", &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(st.st_size, 1);
    assert_int_equal(e->stat(&f->w, f->fd, "missing", &st), -ENOENT);
    assert_int_equal(e->stat(&f->w, f->fd, "f/x", &st), -ENOTDIR);
    assert_int_equal(f->st->count[OP_STAT], 4);
}

/* The kernel's getdents64 record. */
struct dirent64_rec {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

static void test_posix_getdents(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->create_file(&f->w, f->fd, "a", 0644, "x", 1, 1, 0), 0);
    assert_int_equal(e->create_file(&f->w, f->fd, "b", 0644, "x", 1, 0, 0), 0);
    assert_int_equal(e->mkdir(&f->w, f->fd, "c", 0755), 0);
    assert_int_equal(e->symlink(&f->w, "a", f->fd, "d"), 0);
    int d = e->opendir(&f->w, f->fd, ".");
    assert_true(d >= 0);
    uint64_t calls0 = f->st->count[OP_READDIR];

    /* A small buffer forces several calls. */
    char buf[128] __attribute__((aligned(8)));
    int seen[4] = {0}, dots = 0, calls = 0;
    for (;;) {
        int n = e->getdents(&f->w, d, buf, sizeof buf);
        calls++;
        assert_true(n >= 0);
        if (n == 0)
            break;
        for (int pos = 0; pos < n;) {
            struct dirent64_rec *r = (struct dirent64_rec *)(buf + pos);
            pos += r->d_reclen;
            if (!strcmp(r->d_name, ".") || !strcmp(r->d_name, "..")) {
                dots++;
                continue;
            }
            assert_int_equal(strlen(r->d_name), 1);
            int i = r->d_name[0] - 'a';
            assert_true(i >= 0 && i < 4);
            seen[i]++;
            static const unsigned char want[4] = {DT_REG, DT_REG, DT_DIR, DT_LNK};
            assert_true(r->d_type == want[i] || r->d_type == DT_UNKNOWN);
        }
    }
    assert_int_equal(dots, 2);
    for (int i = 0; i < 4; i++)
        assert_int_equal(seen[i], 1);
    assert_true(calls >= 2);
    assert_int_equal(f->st->count[OP_READDIR] - calls0, (uint64_t)calls);
    assert_int_equal(e->close(&f->w, d), 0);

    /* A buffer too small for one record, and a closed fd. */
    d = e->opendir(&f->w, f->fd, ".");
    assert_true(d >= 0);
    assert_int_equal(e->getdents(&f->w, d, buf, 8), -EINVAL);
    assert_int_equal(e->close(&f->w, d), 0);
    assert_int_equal(e->getdents(&f->w, d, buf, sizeof buf), -EBADF);
    assert_int_equal(f->st->count[OP_READDIR] - calls0, (uint64_t)calls + 2);
    assert_int_equal(f->st->bytes_read, 0);
}

static void test_posix_rename(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->create_file(&f->w, f->fd, "a", 0644, "abc", 3, 3, 0), 0);
    assert_int_equal(e->mkdir(&f->w, f->fd, "sub", 0755), 0);
    int sub = e->opendir(&f->w, f->fd, "sub");
    assert_true(sub >= 0);
    assert_int_equal(e->rename(&f->w, f->fd, "a", sub, "b"), 0);
    assert_int_equal(f->st->count[OP_RENAME], 1);
    struct stat st;
    assert_int_equal(fstatat(f->fd, "a", &st, 0), -1);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(fstatat(sub, "b", &st, 0), 0);
    assert_int_equal(st.st_size, 3);
    assert_int_equal(e->rename(&f->w, f->fd, "a", sub, "c"), -ENOENT);
    assert_int_equal(f->st->count[OP_RENAME], 2);
    assert_int_equal(e->close(&f->w, sub), 0);
}

static void test_posix_symlink_readlink(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->symlink(&f->w, "some/target-name", f->fd, "l"), 0);
    assert_int_equal(f->st->count[OP_SYMLINK], 1);
    char buf[64];
    memset(buf, 'x', sizeof buf);
    assert_int_equal(e->readlink(&f->w, f->fd, "l", buf, sizeof buf), 16);
    assert_string_equal(buf, "some/target-name");
    assert_int_equal(f->st->count[OP_READLINK], 1);

    /* Too small for target + NUL: -ENAMETOOLONG, never a truncated target. */
    assert_int_equal(e->readlink(&f->w, f->fd, "l", buf, 16), -ENAMETOOLONG);
    assert_int_equal(e->readlink(&f->w, f->fd, "l", buf, 8), -ENAMETOOLONG);
    assert_int_equal(e->readlink(&f->w, f->fd, "l", buf, 1), -EINVAL);

    assert_int_equal(e->symlink(&f->w, "other", f->fd, "l"), -EEXIST);
    assert_int_equal(e->readlink(&f->w, f->fd, "missing", buf, sizeof buf), -ENOENT);
    assert_int_equal(e->create_file(&f->w, f->fd, "reg", 0644, "a", 1, 1, 0), 0);
    assert_int_equal(e->readlink(&f->w, f->fd, "reg", buf, sizeof buf), -EINVAL);
    assert_int_equal(f->st->count[OP_SYMLINK], 2);
}

/* A buffer of exactly target length + 1 holds the target and its NUL, so readlink must
 * succeed; in particular the longest target Linux allows (PATH_MAX - 1 bytes) must fit a
 * PATH_MAX buffer, which is what the copy phase passes. */
static void test_posix_readlink_exact_fit(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->symlink(&f->w, "some/target-name", f->fd, "l"), 0);
    char buf[PATH_MAX];
    assert_int_equal(e->readlink(&f->w, f->fd, "l", buf, 17), 16);
    assert_string_equal(buf, "some/target-name");

    char *longest = malloc(PATH_MAX);
    assert_non_null(longest);
    memset(longest, 'a', PATH_MAX - 1);
    for (size_t i = 200; i < PATH_MAX - 1; i += 200)
        longest[i] = '/';
    longest[PATH_MAX - 1] = '\0';
    assert_int_equal(symlinkat(longest, f->fd, "long"), 0);
    assert_int_equal(e->readlink(&f->w, f->fd, "long", buf, sizeof buf), PATH_MAX - 1);
    assert_string_equal(buf, longest);
    free(longest);
}

static void test_posix_link(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->create_file(&f->w, f->fd, "a", 0644, "abc", 3, 9, 0), 0);
    assert_int_equal(e->link(&f->w, f->fd, "a", f->fd, "h"), 0);
    assert_int_equal(f->st->count[OP_LINK], 1);
    struct stat sa, sh;
    assert_int_equal(fstatat(f->fd, "a", &sa, 0), 0);
    assert_int_equal(fstatat(f->fd, "h", &sh, 0), 0);
    assert_int_equal(sa.st_ino, sh.st_ino);
    assert_int_equal(sa.st_nlink, 2);
    assert_int_equal(e->link(&f->w, f->fd, "a", f->fd, "h"), -EEXIST);
    assert_int_equal(e->link(&f->w, f->fd, "missing", f->fd, "h2"), -ENOENT);
    assert_int_equal(f->st->count[OP_LINK], 3);
}

static void test_posix_copy_file(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    size_t len = 4093, size = 200000;
    unsigned char *pat = tu_make_pattern(len, 3);
    assert_int_equal(e->create_file(&f->w, f->fd, "src", 0644, pat, len, size, 0), 0);
    assert_int_equal(fchmodat(f->fd, "src", 0751, 0), 0);
    struct timespec t[2] = {{1000000000, 111111111}, {1234567890, 123456789}};
    assert_int_equal(utimensat(f->fd, "src", t, 0), 0);
    struct stat ss;
    assert_int_equal(fstatat(f->fd, "src", &ss, 0), 0);

    /* A umask that would cut the mode: copy_file must still set it exactly. */
    umask(077);
    opstats_reset(f->st);
    struct timespec times[2] = {ss.st_atim, ss.st_mtim};
    char buf[4096];
    uint64_t bytes = 0;
    assert_int_equal(e->copy_file(&f->w, f->fd, "src", f->fd, "dst", ss.st_mode & 07777, times, buf,
                                  sizeof buf, &bytes),
                     0);
    umask(022);
    assert_int_equal(bytes, size);
    struct stat ds;
    assert_int_equal(fstatat(f->fd, "dst", &ds, AT_SYMLINK_NOFOLLOW), 0);
    assert_true(S_ISREG(ds.st_mode));
    assert_int_equal(ds.st_mode & 07777, 0751);
    assert_int_equal(ds.st_size, size);
    assert_int_equal(ds.st_mtim.tv_sec, 1234567890);
    assert_int_equal(ds.st_mtim.tv_nsec, 123456789);
    assert_int_equal(ds.st_atim.tv_sec, ss.st_atim.tv_sec);
    assert_true(ds.st_ino != ss.st_ino);
    tu_check_content(f->fd, "dst", pat, len, size);

    /* Counted: open the source, create the copy, data moved, mode and times, two closes. */
    assert_int_equal(f->st->count[OP_OPEN], 1);
    assert_int_equal(f->st->count[OP_CREATE], 1);
    assert_int_equal(f->st->count[OP_SETATTR], 2);
    assert_int_equal(f->st->count[OP_CLOSE], 2);
    assert_true(f->st->count[OP_COPY] + f->st->count[OP_WRITE] >= 1);
    assert_int_equal(f->st->bytes_written, size);
    /* With copy_file_range nothing is read through buf; with read/write, all of it. */
    assert_true(f->st->bytes_read == 0 || f->st->bytes_read == size);

    /* Errors: the copy exists (-EEXIST), the source is missing; no fd leaks either way. */
    int fds = count_fds();
    assert_int_equal(
        e->copy_file(&f->w, f->fd, "src", f->fd, "dst", 0644, times, buf, sizeof buf, &bytes),
        -EEXIST);
    assert_int_equal(count_fds(), fds);
    assert_int_equal(
        e->copy_file(&f->w, f->fd, "missing", f->fd, "new", 0644, times, buf, sizeof buf, &bytes),
        -ENOENT);
    assert_int_equal(count_fds(), fds);
    assert_int_equal(faccessat(f->fd, "new", F_OK, AT_SYMLINK_NOFOLLOW), -1);
    free(pat);
}

static void test_posix_copy_empty_file(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->create_file(&f->w, f->fd, "src", 0600, "a", 1, 0, 0), 0);
    char buf[64];
    uint64_t bytes = 99;
    assert_int_equal(
        e->copy_file(&f->w, f->fd, "src", f->fd, "dst", 0600, NULL, buf, sizeof buf, &bytes), 0);
    assert_int_equal(bytes, 0);
    struct stat st;
    assert_int_equal(fstatat(f->fd, "dst", &st, 0), 0);
    assert_int_equal(st.st_size, 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    assert_int_equal(f->st->count[OP_SETATTR], 1); /* mode only: no times given */
}

static void test_posix_set_times(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->create_file(&f->w, f->fd, "f", 0644, "a", 1, 1, 0), 0);
    assert_int_equal(e->symlink(&f->w, "f", f->fd, "l"), 0);
    struct stat before;
    assert_int_equal(fstatat(f->fd, "f", &before, 0), 0);

    struct timespec t[2] = {{1500000000, 5}, {1600000000, 987654321}};
    assert_int_equal(e->set_times(&f->w, f->fd, "l", t), 0);
    struct stat sl, sf;
    assert_int_equal(fstatat(f->fd, "l", &sl, AT_SYMLINK_NOFOLLOW), 0);
    assert_int_equal(sl.st_mtim.tv_sec, 1600000000);
    assert_int_equal(sl.st_mtim.tv_nsec, 987654321);
    /* The link's target is untouched: no following. */
    assert_int_equal(fstatat(f->fd, "f", &sf, 0), 0);
    assert_int_equal(sf.st_mtim.tv_sec, before.st_mtim.tv_sec);
    assert_int_equal(sf.st_mtim.tv_nsec, before.st_mtim.tv_nsec);

    assert_int_equal(e->set_times(&f->w, f->fd, "f", t), 0);
    assert_int_equal(fstatat(f->fd, "f", &sf, 0), 0);
    assert_int_equal(sf.st_mtim.tv_sec, 1600000000);
    assert_int_equal(sf.st_atim.tv_sec, 1500000000);
    assert_int_equal(sf.st_atim.tv_nsec, 5);
    assert_int_equal(e->set_times(&f->w, f->fd, "missing", t), -ENOENT);
    assert_int_equal(f->st->count[OP_SETATTR], 3);
}

/* tar -x's single metadata calls: each sets what it names and counts one setattr. */
static void test_posix_tar_attrs(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->create_file(&f->w, f->fd, "f", 0600, "a", 1, 1, 0), 0);
    assert_int_equal(e->symlink(&f->w, "f", f->fd, "l"), 0);
    int fd = openat(f->fd, "f", O_WRONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    struct timespec t[2] = {{0, UTIME_OMIT}, {1000000000, 7}};
    uint64_t before = f->st->count[OP_SETATTR];
    assert_int_equal(e->futimens(&f->w, fd, t), 0);
    assert_int_equal(e->fchown(&f->w, fd, geteuid(), getegid()), 0);
    assert_int_equal(e->fchmod(&f->w, fd, 0640), 0);
    assert_int_equal(e->lchown(&f->w, f->fd, "l", geteuid(), getegid()), 0);
    assert_int_equal(e->lchown(&f->w, f->fd, "missing", geteuid(), getegid()), -ENOENT);
    assert_int_equal(e->fchmod(&f->w, -1, 0640), -EBADF);
    close(fd);
    struct stat st;
    assert_int_equal(fstatat(f->fd, "f", &st, 0), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    assert_int_equal(st.st_mtim.tv_sec, 1000000000);
    assert_int_equal(st.st_mtim.tv_nsec, 7);
    assert_int_equal(f->st->count[OP_SETATTR] - before, 6);
}

static void test_posix_unlink_rmdir(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->create_file(&f->w, f->fd, "f", 0644, "a", 1, 1, 0), 0);
    assert_int_equal(e->mkdir(&f->w, f->fd, "d", 0755), 0);
    assert_int_equal(e->mkdir(&f->w, f->fd, "full", 0755), 0);
    assert_int_equal(mkdirat(f->fd, "full/x", 0755), 0);
    opstats_reset(f->st);

    assert_int_equal(e->unlink(&f->w, f->fd, "f", 0), 0);
    assert_int_equal(f->st->count[OP_UNLINK], 1);
    assert_int_equal(f->st->count[OP_RMDIR], 0);
    assert_int_equal(e->unlink(&f->w, f->fd, "d", AT_REMOVEDIR), 0);
    assert_int_equal(f->st->count[OP_UNLINK], 1);
    assert_int_equal(f->st->count[OP_RMDIR], 1);

    assert_int_equal(e->unlink(&f->w, f->fd, "f", 0), -ENOENT);
    assert_int_equal(e->unlink(&f->w, f->fd, "full", 0), -EISDIR);
    assert_int_equal(e->unlink(&f->w, f->fd, "full", AT_REMOVEDIR), -ENOTEMPTY);
    assert_int_equal(f->st->count[OP_UNLINK], 3);
    assert_int_equal(f->st->count[OP_RMDIR], 2);
    assert_int_equal(total_ops(f->st), 5);
    assert_int_equal(count_entries(f->dir), 1); /* only "full" left */
}

static void test_posix_fsync_syncfs(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    int d = e->opendir(&f->w, f->fd, ".");
    assert_true(d >= 0);
    assert_int_equal(e->fsync(&f->w, d), 0);
    assert_int_equal(e->syncfs(&f->w, d), 0);
    assert_int_equal(f->st->count[OP_FSYNC], 1);
    assert_int_equal(f->st->count[OP_SYNCFS], 1);
    assert_int_equal(e->close(&f->w, d), 0);
    assert_int_equal(e->fsync(&f->w, d), -EBADF);
    assert_int_equal(e->syncfs(&f->w, d), -EBADF);
    assert_int_equal(e->close(&f->w, d), -EBADF);
    assert_int_equal(f->st->count[OP_FSYNC], 2);
    assert_int_equal(f->st->count[OP_SYNCFS], 2);
    assert_int_equal(f->st->count[OP_CLOSE], 2);
    assert_int_equal(e->drain(&f->w), 0);
}

/* Failing operations print nothing on stdout or stderr: outputs are redirected to files
 * while they run; results are collected and asserted after restoring them. */
static void test_posix_errors_silent(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->create_file(&f->w, f->fd, "f", 0644, "a", 1, 1, 0), 0);
    char out[4200], errp[4200];
    snprintf(out, sizeof out, "%s/out", f->dir);
    snprintf(errp, sizeof errp, "%s/err", f->dir);
    fflush(stdout);
    fflush(stderr);
    int save1 = dup(1), save2 = dup(2);
    int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int er = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(save1 >= 0 && save2 >= 0 && o >= 0 && er >= 0);
    dup2(o, 1);
    dup2(er, 2);

    int r[10];
    char buf[64];
    uint64_t bytes;
    struct stat st;
    r[0] = e->create_file(&f->w, f->fd, "f", 0644, "a", 1, 1, ENG_CREATE_EXCL);
    r[1] = e->opendir(&f->w, f->fd, "missing");
    r[2] = e->opendir(&f->w, f->fd, "f");
    r[3] = e->mkdir(&f->w, f->fd, "f", 0755);
    r[4] = e->read_file(&f->w, f->fd, "missing", buf, sizeof buf, &bytes);
    r[5] = e->stat(&f->w, f->fd, "missing", &st);
    r[6] = e->unlink(&f->w, f->fd, "missing", AT_REMOVEDIR);
    r[7] = e->rename(&f->w, f->fd, "missing", f->fd, "x");
    r[8] = e->readlink(&f->w, f->fd, "f", buf, sizeof buf);
    r[9] = e->mkdir(&f->w, -1, "x", 0755);
    fflush(stdout);
    fflush(stderr);
    dup2(save1, 1);
    dup2(save2, 2);
    close(save1);
    close(save2);
    close(o);
    close(er);

    assert_int_equal(r[0], -EEXIST);
    assert_int_equal(r[1], -ENOENT);
    assert_int_equal(r[2], -ENOTDIR);
    assert_int_equal(r[3], -EEXIST);
    assert_int_equal(r[4], -ENOENT);
    assert_int_equal(r[5], -ENOENT);
    assert_int_equal(r[6], -ENOENT);
    assert_int_equal(r[7], -ENOENT);
    assert_int_equal(r[8], -EINVAL);
    assert_int_equal(r[9], -EBADF);
    struct stat so, se;
    assert_int_equal(stat(out, &so), 0);
    assert_int_equal(stat(errp, &se), 0);
    assert_int_equal(so.st_size, 0);
    assert_int_equal(se.st_size, 0);
    /* Failed calls are counted too (they cost a system call). */
    assert_int_equal(f->st->count[OP_MKDIR], 2);
    assert_int_equal(f->st->count[OP_RMDIR], 1);
    assert_int_equal(f->st->count[OP_RENAME], 1);
}

/* Every op records a latency sample in its own histogram. */
static void test_posix_latency_recorded(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_posix;
    assert_int_equal(e->mkdir(&f->w, f->fd, "d", 0755), 0);
    assert_int_equal(e->create_file(&f->w, f->fd, "f", 0644, "ab", 2, 5, 0), 0);
    for (int k = 0; k < OP_KINDS; k++)
        assert_int_equal(f->st->lat[k].count, f->st->count[k]);
    assert_int_equal(f->st->lat[OP_WRITE].count, 3);
    assert_int_equal(atomic_load(&f->st->progress_ops), total_ops(f->st));
    assert_int_equal(atomic_load(&f->st->progress_bytes), 5);
}

/* ---- the null engine ---- */

static void null_create_counts(struct fix *f, size_t len, uint64_t size, unsigned flags,
                               uint64_t writes)
{
    const struct engine *e = &engine_null;
    unsigned char *pat = tu_make_pattern(len, 1);
    opstats_reset(f->st);
    assert_int_equal(e->create_file(&f->w, f->fd, "f", 0644, pat, len, size, flags), 0);
    assert_int_equal(f->st->count[OP_CREATE], 1);
    assert_int_equal(f->st->count[OP_WRITE], writes);
    assert_int_equal(f->st->count[OP_CLOSE], 1);
    assert_int_equal(f->st->count[OP_FSYNC], (flags & ENG_CREATE_FSYNC) ? 1 : 0);
    assert_int_equal(f->st->bytes_written, size);
    assert_int_equal(f->st->bytes_read, 0);
    assert_int_equal(total_ops(f->st), 2 + writes + ((flags & ENG_CREATE_FSYNC) ? 1 : 0));
    free(pat);
}

static void test_null_create_counts(void **state)
{
    struct fix *f = *state;
    null_create_counts(f, 100, 0, 0, 0);
    null_create_counts(f, 100, 37, 0, 1);
    null_create_counts(f, 100, 100, 0, 1);
    null_create_counts(f, 1000, 3500, 0, 4);
    null_create_counts(f, 1000, 3500, ENG_CREATE_FSYNC | ENG_CREATE_EXCL, 4);
    null_create_counts(f, 4093, 300000, 0, 74);
}

/* The null and posix engines count the same kinds for the same create_file call. */
static void test_null_matches_posix_counts(void **state)
{
    struct fix *f = *state;
    unsigned char *pat = tu_make_pattern(1000, 5);
    struct opstats *np = calloc(1, sizeof *np);
    assert_non_null(np);
    struct eng_worker nw = {.st = np};
    assert_int_equal(
        engine_posix.create_file(&f->w, f->fd, "f", 0644, pat, 1000, 3500, ENG_CREATE_FSYNC), 0);
    assert_int_equal(
        engine_null.create_file(&nw, f->fd, "f", 0644, pat, 1000, 3500, ENG_CREATE_FSYNC), 0);
    for (int k = 0; k < OP_KINDS; k++)
        assert_int_equal(np->count[k], f->st->count[k]);
    assert_int_equal(np->bytes_written, f->st->bytes_written);
    free(np);
    free(pat);
}

static void test_null_touches_nothing(void **state)
{
    struct fix *f = *state;
    const struct engine *e = &engine_null;
    assert_int_equal(e->mkdir(&f->w, f->fd, "d", 0755), 0);
    int d = e->opendir(&f->w, f->fd, "d");
    assert_true(d >= 0);
    assert_int_equal(e->create_file(&f->w, d, "f", 0644, "abc", 3, 10, ENG_CREATE_EXCL), 0);
    assert_int_equal(e->create_file(&f->w, f->fd, "g", 0644, "abc", 3, 10, 0), 0);
    assert_int_equal(e->symlink(&f->w, "g", f->fd, "l"), 0);
    assert_int_equal(e->link(&f->w, f->fd, "g", f->fd, "h"), 0);
    assert_int_equal(e->rename(&f->w, f->fd, "g", f->fd, "g2"), 0);
    char buf[256];
    uint64_t bytes = 7;
    assert_int_equal(
        e->copy_file(&f->w, f->fd, "g", f->fd, "c", 0644, NULL, buf, sizeof buf, &bytes), 0);
    assert_int_equal(bytes, 0);
    assert_int_equal(e->read_file(&f->w, f->fd, "g", buf, sizeof buf, &bytes), 0);
    assert_int_equal(bytes, 0);
    /* Directories read as empty: getdents returns 0 at once. */
    assert_int_equal(e->getdents(&f->w, d, buf, sizeof buf), 0);
    struct stat st;
    assert_int_equal(e->stat(&f->w, f->fd, "anything", &st), 0);
    assert_int_equal(e->set_times(&f->w, f->fd, "g2", NULL), 0);
    assert_int_equal(e->fsync(&f->w, d), 0);
    assert_int_equal(e->syncfs(&f->w, d), 0);
    assert_int_equal(e->unlink(&f->w, f->fd, "g2", 0), 0);
    assert_int_equal(e->unlink(&f->w, f->fd, "d", AT_REMOVEDIR), 0);
    assert_int_equal(e->close(&f->w, d), 0);
    assert_int_equal(e->drain(&f->w), 0);
    assert_int_equal(count_entries(f->dir), 0);

    assert_int_equal(f->st->count[OP_MKDIR], 1);
    assert_int_equal(f->st->count[OP_OPEN], 3); /* opendir, copy's source, read_file */
    assert_int_equal(f->st->count[OP_CREATE], 3);
    assert_int_equal(f->st->count[OP_WRITE], 8);
    assert_int_equal(f->st->count[OP_SYMLINK], 1);
    assert_int_equal(f->st->count[OP_LINK], 1);
    assert_int_equal(f->st->count[OP_RENAME], 1);
    assert_int_equal(f->st->count[OP_COPY], 1);
    assert_int_equal(f->st->count[OP_READ], 1);
    assert_int_equal(f->st->count[OP_READDIR], 1);
    assert_int_equal(f->st->count[OP_STAT], 1);
    assert_int_equal(f->st->count[OP_SETATTR], 1);
    assert_int_equal(f->st->count[OP_FSYNC], 1);
    assert_int_equal(f->st->count[OP_SYNCFS], 1);
    assert_int_equal(f->st->count[OP_UNLINK], 1);
    assert_int_equal(f->st->count[OP_RMDIR], 1);
    assert_int_equal(f->st->bytes_written, 20);
    assert_int_equal(f->st->bytes_read, 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_find),
        cmocka_unit_test(test_engine_table_complete),
        T(test_posix_mkdir_opendir_close),
        T(test_posix_create_file_sizes),
        T(test_posix_create_flags),
        T(test_posix_read_file),
        T(test_posix_stat),
        T(test_posix_getdents),
        T(test_posix_rename),
        T(test_posix_symlink_readlink),
        T(test_posix_readlink_exact_fit),
        T(test_posix_link),
        T(test_posix_copy_file),
        T(test_posix_copy_empty_file),
        T(test_posix_set_times),
        T(test_posix_tar_attrs),
        T(test_posix_unlink_rmdir),
        T(test_posix_fsync_syncfs),
        T(test_posix_errors_silent),
        T(test_posix_latency_recorded),
        T(test_null_create_counts),
        T(test_null_matches_posix_counts),
        T(test_null_touches_nothing),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
