/* test_engine_uring.c — unit tests of the io_uring engine (engine_uring.c).
 *
 * Each test runs on a fresh scratch directory with a fresh worker. The engine must leave on
 * disk what the posix engine leaves for the same calls, surface a queued operation's
 * failure from a later call or drain(), keep the documented ordering (mkdir before creates
 * inside, unlinks before rmdir, same-name operations in call order) and count every
 * operation with its kind and bytes. The same work at queue depth 1 and 256 must give the
 * same tree and the same counts. Everything skips, with the reason, where io_uring is
 * unavailable.
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

#include "engine/dirscan.h"
#include "engine/engine.h"
#include "engine/uring_ring.h"
#include "measure/measure.h"
#include "testutil.h"

static char unavailable[256];

struct fix {
    char dir[PATH_MAX];
    int fd;
    struct opstats *st;
    struct eng_worker w;
    const struct engine *e;
};

static int fix_open(struct fix *f, unsigned qd)
{
    if (!tu_scratch_dir(f->dir, sizeof f->dir, "uring"))
        return -1;
    f->fd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    f->st = tu_worker_stats(&f->w);
    if (f->fd < 0 || !f->st)
        return -1;
    f->e = &engine_uring;
    eng_set_queue_depth(qd);
    return f->e->worker_init(&f->w);
}

static void fix_close(struct fix *f)
{
    if (f->w.priv)
        f->e->worker_fini(&f->w);
    close(f->fd);
    tu_rm_tree(f->dir);
    free(f->st);
}

static int setup(void **state)
{
    if (unavailable[0]) {
        *state = NULL;
        return 0;
    }
    struct fix *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    umask(022);
    if (fix_open(f, ENG_DEFAULT_QUEUE_DEPTH) < 0)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;
    if (f) {
        fix_close(f);
        free(f);
    }
    eng_set_queue_depth(ENG_DEFAULT_QUEUE_DEPTH);
    return 0;
}

#define FIX()                                                                             \
    struct fix *f = *state;                                                               \
    if (!f) {                                                                             \
        print_message("# skip: io_uring unavailable: %s\n", unavailable);                 \
        skip();                                                                           \
    }

static void test_create_sizes(void **state)
{
    FIX();
    const size_t len = 1000;
    unsigned char *pat = tu_make_pattern(len, 1);
    const uint64_t sizes[] = {0, 1, 4096, 3500};
    char name[32];
    uint64_t sum = 0, writes = 0;
    for (size_t i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "f%zu", i);
        assert_int_equal(f->e->create_file(&f->w, f->fd, name, 0640, pat,
                                           sizes[i] < len ? (size_t)(sizes[i] ? sizes[i] : 1)
                                                          : len,
                                           sizes[i], ENG_CREATE_EXCL),
                         0);
        sum += sizes[i];
        writes += (sizes[i] + len - 1) / len;
    }
    /* The engine copied the pattern: changing it now must not change the files. */
    memset(pat, 0, len);
    free(pat);
    assert_int_equal(f->e->drain(&f->w), 0);
    pat = tu_make_pattern(len, 1);
    for (size_t i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "f%zu", i);
        tu_check_content(f->fd, name, pat, len, (size_t)sizes[i]);
        struct stat st;
        assert_int_equal(fstatat(f->fd, name, &st, 0), 0);
        assert_int_equal(st.st_mode & 07777, 0640 & ~022);
    }
    assert_int_equal(f->st->count[OP_CREATE], 4);
    assert_int_equal(f->st->count[OP_CLOSE], 4);
    assert_int_equal(f->st->count[OP_WRITE], writes);
    assert_int_equal(f->st->bytes_written, sum);
    free(pat);
}

/* A pattern longer than the engine copies is written step by step from the caller's. */
static void test_create_large_pattern(void **state)
{
    FIX();
    const size_t len = 100000;
    unsigned char *pat = tu_make_pattern(len, 2);
    assert_int_equal(f->e->create_file(&f->w, f->fd, "big", 0644, pat, len, 350000,
                                       ENG_CREATE_EXCL | ENG_CREATE_FSYNC),
                     0);
    assert_int_equal(f->e->drain(&f->w), 0);
    tu_check_content(f->fd, "big", pat, len, 350000);
    assert_int_equal(f->st->count[OP_WRITE], 4);
    assert_int_equal(f->st->count[OP_FSYNC], 1);
    assert_int_equal(f->st->bytes_written, 350000);
    free(pat);
}

static void test_mkdir_opendir_create(void **state)
{
    FIX();
    const char data[] = "hello";
    assert_int_equal(f->e->mkdir(&f->w, f->fd, "d", 0755), 0);
    int d = f->e->opendir(&f->w, f->fd, "d");
    assert_true(d >= 0);
    for (int i = 0; i < 50; i++) {
        char name[16];
        snprintf(name, sizeof name, "x%d", i);
        assert_int_equal(f->e->create_file(&f->w, d, name, 0644, data, 5, 5, ENG_CREATE_EXCL),
                         0);
    }
    /* Closing a directory fd that queued creates still use defers the close. */
    assert_int_equal(f->e->close(&f->w, d), 0);
    assert_int_equal(f->e->drain(&f->w), 0);
    for (int i = 0; i < 50; i++) {
        char name[16];
        snprintf(name, sizeof name, "d/x%d", i);
        tu_check_content(f->fd, name, (const unsigned char *)data, 5, 5);
    }
    assert_int_equal(f->st->count[OP_MKDIR], 1);
    assert_int_equal(f->st->count[OP_OPEN], 1);
    assert_int_equal(f->st->count[OP_CREATE], 50);
    assert_int_equal(f->st->count[OP_CLOSE], 51);
    assert_int_equal(f->st->bytes_written, 250);
    /* The dir fd really is closed: the process has no descriptor on it. */
    assert_int_equal(fcntl(d, F_GETFD), -1);
}

/* Lists a directory through the engine's getdents; returns entries, checks types. */
static int walk_count(struct fix *f, int dirfd, int *files, int *dirs, uint64_t *bytes,
                      void *buf, size_t buflen)
{
    struct dirscan_stack s = {0};
    struct dirscan *d = dirscan_push(&s, dirfd, ".");
    assert_non_null(d);
    struct dirscan_ent ent;
    int r;
    while ((r = dirscan_next(f->e, &f->w, &s.lv[0], &ent)) > 0) {
        struct stat st;
        assert_int_equal(f->e->stat(&f->w, dirfd, ent.name, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            (*dirs)++;
            int c = f->e->opendir(&f->w, dirfd, ent.name);
            assert_true(c >= 0);
            walk_count(f, c, files, dirs, bytes, buf, buflen);
            assert_int_equal(f->e->close(&f->w, c), 0);
        } else if (S_ISLNK(st.st_mode)) {
            (*files)++; /* not read: read_file does not follow links (ELOOP) */
        } else {
            (*files)++;
            uint64_t got;
            assert_int_equal(f->e->read_file(&f->w, dirfd, ent.name, buf, buflen, &got), 0);
            assert_int_equal(got, (uint64_t)st.st_size);
            *bytes += got;
        }
    }
    assert_int_equal(r, 0);
    dirscan_free(&s);
    return 0;
}

/* Makes 10 dirs x 20 files (sizes vary) through the engine; returns the bytes. */
static uint64_t make_tree(struct fix *f, const unsigned char *pat, size_t len)
{
    uint64_t sum = 0;
    for (int d = 0; d < 10; d++) {
        char dn[16];
        snprintf(dn, sizeof dn, "d%d", d);
        assert_int_equal(f->e->mkdir(&f->w, f->fd, dn, 0755), 0);
        int dfd = f->e->opendir(&f->w, f->fd, dn);
        assert_true(dfd >= 0);
        for (int i = 0; i < 20; i++) {
            char fn[16];
            snprintf(fn, sizeof fn, "f%d", i);
            uint64_t size = (uint64_t)((d * 20 + i) * 397 % 9000);
            assert_int_equal(
                f->e->create_file(&f->w, dfd, fn, 0644, pat, len, size, ENG_CREATE_EXCL), 0);
            sum += size;
        }
        assert_int_equal(f->e->close(&f->w, dfd), 0);
    }
    assert_int_equal(f->e->drain(&f->w), 0);
    return sum;
}

static void test_tree_walk_read_delete(void **state)
{
    FIX();
    const size_t len = 1500;
    unsigned char *pat = tu_make_pattern(len, 3);
    uint64_t sum = make_tree(f, pat, len);
    assert_int_equal(f->st->count[OP_CREATE], 200);
    assert_int_equal(f->st->bytes_written, sum);
    for (int d = 0; d < 10; d++)
        for (int i = 0; i < 20; i++) {
            char fn[32];
            snprintf(fn, sizeof fn, "d%d/f%d", d, i);
            tu_check_content(f->fd, fn, pat, len, (size_t)((d * 20 + i) * 397 % 9000));
        }

    opstats_reset(f->st);
    char buf[4096];
    int files = 0, dirs = 0;
    uint64_t bytes = 0;
    walk_count(f, f->fd, &files, &dirs, &bytes, buf, sizeof buf);
    assert_int_equal(f->e->drain(&f->w), 0);
    assert_int_equal(files, 200);
    assert_int_equal(dirs, 10);
    assert_int_equal(bytes, sum);
    assert_int_equal(f->st->bytes_read, sum);
    assert_int_equal(f->st->count[OP_STAT], 210);
    assert_int_equal(f->st->count[OP_OPEN], 210); /* 10 dirs + 200 files */
    assert_int_equal(f->st->count[OP_CLOSE], 210);

    /* Delete: unlink every file through the dir's fd, close it, rmdir through the parent
     * while the unlinks may still be queued (the rmdir must wait for them). */
    opstats_reset(f->st);
    for (int d = 0; d < 10; d++) {
        char dn[16];
        snprintf(dn, sizeof dn, "d%d", d);
        int dfd = f->e->opendir(&f->w, f->fd, dn);
        assert_true(dfd >= 0);
        for (int i = 0; i < 20; i++) {
            char fn[16];
            snprintf(fn, sizeof fn, "f%d", i);
            assert_int_equal(f->e->unlink(&f->w, dfd, fn, 0), 0);
        }
        assert_int_equal(f->e->close(&f->w, dfd), 0);
        assert_int_equal(f->e->unlink(&f->w, f->fd, dn, AT_REMOVEDIR), 0);
    }
    assert_int_equal(f->e->drain(&f->w), 0);
    assert_int_equal(f->st->count[OP_UNLINK], 200);
    assert_int_equal(f->st->count[OP_RMDIR], 10);
    struct stat st;
    assert_int_equal(fstatat(f->fd, "d0", &st, 0), -1);
    assert_int_equal(fstat(f->fd, &st), 0);
    assert_int_equal(st.st_nlink, 2);
    free(pat);
}

static void test_rename_symlink_readlink(void **state)
{
    FIX();
    assert_int_equal(f->e->create_file(&f->w, f->fd, "a", 0644, "x", 1, 1, ENG_CREATE_EXCL),
                     0);
    assert_int_equal(f->e->rename(&f->w, f->fd, "a", f->fd, "b"), 0);
    /* Same name in call order: the create of "a" again must come after the rename. */
    assert_int_equal(f->e->create_file(&f->w, f->fd, "a", 0644, "y", 1, 2, ENG_CREATE_EXCL),
                     0);
    assert_int_equal(f->e->symlink(&f->w, "b", f->fd, "l"), 0);
    char buf[64];
    assert_int_equal(f->e->readlink(&f->w, f->fd, "l", buf, sizeof buf), 1);
    assert_string_equal(buf, "b");
    assert_int_equal(f->e->drain(&f->w), 0);
    tu_check_content(f->fd, "b", (const unsigned char *)"x", 1, 1);
    tu_check_content(f->fd, "a", (const unsigned char *)"y", 1, 2);
    /* unlink then create of the same name in one batch: no EEXIST. */
    assert_int_equal(f->e->unlink(&f->w, f->fd, "a", 0), 0);
    assert_int_equal(f->e->create_file(&f->w, f->fd, "a", 0644, "z", 1, 3, ENG_CREATE_EXCL),
                     0);
    assert_int_equal(f->e->drain(&f->w), 0);
    tu_check_content(f->fd, "a", (const unsigned char *)"z", 1, 3);
    assert_int_equal(f->st->count[OP_RENAME], 1);
    assert_int_equal(f->st->count[OP_SYMLINK], 1);
    assert_int_equal(f->st->count[OP_READLINK], 1);
    assert_int_equal(f->st->count[OP_UNLINK], 1);
    assert_int_equal(f->st->count[OP_CREATE], 3);
}

static void test_stat_matches(void **state)
{
    FIX();
    assert_int_equal(f->e->create_file(&f->w, f->fd, "s", 0600, "abc", 3, 10000, 0), 0);
    assert_int_equal(f->e->symlink(&f->w, "nowhere", f->fd, "l"), 0);
    assert_int_equal(f->e->mkdir(&f->w, f->fd, "d", 0700), 0);
    const char *names[] = {"s", "l", "d"};
    for (int i = 0; i < 3; i++) {
        struct stat a, b;
        assert_int_equal(f->e->stat(&f->w, f->fd, names[i], &a), 0);
        assert_int_equal(fstatat(f->fd, names[i], &b, AT_SYMLINK_NOFOLLOW), 0);
        assert_int_equal(a.st_dev, b.st_dev);
        assert_int_equal(a.st_ino, b.st_ino);
        assert_int_equal(a.st_mode, b.st_mode);
        assert_int_equal(a.st_nlink, b.st_nlink);
        assert_int_equal(a.st_uid, b.st_uid);
        assert_int_equal(a.st_gid, b.st_gid);
        assert_int_equal(a.st_rdev, b.st_rdev);
        assert_int_equal(a.st_size, b.st_size);
        assert_int_equal(a.st_blksize, b.st_blksize);
        assert_int_equal(a.st_blocks, b.st_blocks);
        assert_memory_equal(&a.st_atim, &b.st_atim, sizeof a.st_atim);
        assert_memory_equal(&a.st_mtim, &b.st_mtim, sizeof a.st_mtim);
        assert_memory_equal(&a.st_ctim, &b.st_ctim, sizeof a.st_ctim);
    }
    struct stat st;
    assert_int_equal(f->e->stat(&f->w, f->fd, "missing", &st), -ENOENT);
    assert_int_equal(f->st->count[OP_STAT], 4);
}

static void test_errors(void **state)
{
    FIX();
    assert_int_equal(f->e->create_file(&f->w, f->fd, "e", 0644, "1", 1, 1, ENG_CREATE_EXCL),
                     0);
    assert_int_equal(f->e->drain(&f->w), 0);
    /* The EXCL create of an existing name fails in the kernel later: from drain. */
    int r = f->e->create_file(&f->w, f->fd, "e", 0644, "2", 1, 1, ENG_CREATE_EXCL);
    if (r == 0)
        r = f->e->drain(&f->w);
    assert_int_equal(r, -EEXIST);
    assert_string_equal(uring_error_name(&f->w), "e");
    assert_int_equal(f->e->drain(&f->w), 0); /* handed out once */
    tu_check_content(f->fd, "e", (const unsigned char *)"1", 1, 1);
    /* No write or close was counted for the failed chain. */
    assert_int_equal(f->st->count[OP_CREATE], 2);
    assert_int_equal(f->st->count[OP_WRITE], 1);
    assert_int_equal(f->st->count[OP_CLOSE], 1);

    assert_int_equal(f->e->opendir(&f->w, f->fd, "missing"), -ENOENT);
    /* A queued failure comes back from the next call, which then does nothing. */
    assert_int_equal(f->e->mkdir(&f->w, f->fd, "e", 0755), 0);
    struct stat st;
    int r2 = f->e->stat(&f->w, f->fd, "e", &st);
    assert_int_equal(r2, -EEXIST);
    assert_int_equal(f->e->unlink(&f->w, f->fd, "nope", 0), 0);
    assert_int_equal(f->e->drain(&f->w), -ENOENT);
    uint64_t got;
    char buf[16];
    assert_int_equal(f->e->read_file(&f->w, f->fd, "nope", buf, sizeof buf, &got), -ENOENT);
}

/* The same work at queue depth qd; returns a fingerprint of the tree and the counts. */
static void run_at_depth(unsigned qd, uint64_t out[OP_KINDS + 4])
{
    struct fix fx = {0};
    struct fix *f = &fx;
    assert_int_equal(fix_open(f, qd), 0);
    const size_t len = 1500;
    unsigned char *pat = tu_make_pattern(len, 9);
    uint64_t sum = make_tree(f, pat, len);
    /* plus a big file (step by step at qd 1) and a symlink */
    assert_int_equal(f->e->create_file(&f->w, f->fd, "big", 0644, pat, len, 30000, 0), 0);
    assert_int_equal(f->e->symlink(&f->w, "big", f->fd, "lnk"), 0);
    assert_int_equal(f->e->drain(&f->w), 0);
    char buf[1024];
    int files = 0, dirs = 0;
    uint64_t bytes = 0;
    walk_count(f, f->fd, &files, &dirs, &bytes, buf, sizeof buf);
    assert_int_equal(f->e->drain(&f->w), 0);
    for (int k = 0; k < OP_KINDS; k++)
        out[k] = f->st->count[k];
    out[OP_KINDS] = (uint64_t)files;
    out[OP_KINDS + 1] = (uint64_t)dirs;
    out[OP_KINDS + 2] = bytes;
    out[OP_KINDS + 3] = f->st->bytes_written;
    assert_int_equal(f->st->bytes_written, sum + 30000);
    tu_check_content(f->fd, "big", pat, len, 30000);
    free(pat);
    fix_close(f);
}

static void test_queue_depths(void **state)
{
    if (unavailable[0]) {
        print_message("# skip: io_uring unavailable: %s\n", unavailable);
        skip();
    }
    uint64_t a[OP_KINDS + 4], b[OP_KINDS + 4], c[OP_KINDS + 4];
    run_at_depth(1, a);
    run_at_depth(256, b);
    run_at_depth(3, c);
    for (int k = 0; k < OP_KINDS + 4; k++) {
        assert_int_equal(a[k], b[k]);
        assert_int_equal(a[k], c[k]);
    }
    assert_int_equal(a[OP_KINDS], 202); /* 200, big, lnk */
    assert_int_equal(a[OP_KINDS + 1], 10);
    eng_set_queue_depth(ENG_DEFAULT_QUEUE_DEPTH);
}

static void test_primitives(void **state)
{
    FIX();
    int fd = f->e->open(&f->w, f->fd, "p", O_WRONLY | O_CREAT | O_EXCL, 0644);
    assert_true(fd >= 0);
    assert_int_equal(f->e->write(&f->w, fd, "abcd", 4), 4);
    assert_int_equal(f->e->pwrite(&f->w, fd, "XY", 2, 1), 2);
    assert_int_equal(f->e->fsync(&f->w, fd), 0);
    assert_int_equal(f->e->ftruncate(&f->w, fd, 3), 0);
    assert_int_equal(f->e->close(&f->w, fd), 0);
    assert_int_equal(f->e->drain(&f->w), 0);
    fd = f->e->open(&f->w, f->fd, "p", O_RDONLY, 0);
    assert_true(fd >= 0);
    char b[8];
    assert_int_equal(f->e->read(&f->w, fd, b, sizeof b), 3);
    assert_memory_equal(b, "aXY", 3);
    assert_int_equal(f->e->read(&f->w, fd, b, sizeof b), 0);
    assert_int_equal(f->e->close(&f->w, fd), 0);
    assert_int_equal(f->e->drain(&f->w), 0);
    assert_int_equal(f->st->count[OP_CREATE], 1);
    assert_int_equal(f->st->count[OP_OPEN], 1);
    assert_int_equal(f->st->count[OP_WRITE], 2);
    assert_int_equal(f->st->count[OP_READ], 2);
    assert_int_equal(f->st->count[OP_CLOSE], 2);
    assert_int_equal(f->st->bytes_written, 6);
    assert_int_equal(f->st->bytes_read, 3);
}

static void test_copy_link_times(void **state)
{
    FIX();
    char buf[4096];
    uint64_t got;
    assert_int_equal(f->e->create_file(&f->w, f->fd, "src", 0644, "q", 1, 5000, 0), 0);
    struct timespec t[2] = {{1000000, 5}, {2000000, 7}};
    assert_int_equal(f->e->copy_file(&f->w, f->fd, "src", f->fd, "dst", 0600, t, buf,
                                     sizeof buf, &got),
                     0);
    assert_int_equal(got, 5000);
    tu_check_content(f->fd, "dst", (const unsigned char *)"q", 1, 5000);
    assert_int_equal(f->e->link(&f->w, f->fd, "dst", f->fd, "hard"), 0);
    assert_int_equal(f->e->mkdir(&f->w, f->fd, "dd", 0755), 0);
    assert_int_equal(f->e->set_times(&f->w, f->fd, "dd", t), 0);
    struct stat st;
    assert_int_equal(fstatat(f->fd, "hard", &st, 0), 0);
    assert_int_equal(st.st_nlink, 2);
    assert_int_equal(st.st_mtim.tv_sec, 2000000);
    assert_int_equal(fstatat(f->fd, "dd", &st, 0), 0);
    assert_int_equal(st.st_mtim.tv_sec, 2000000);
    assert_int_equal(f->e->syncfs(&f->w, f->fd), 0);
    assert_int_equal(f->e->drain(&f->w), 0);
    assert_int_equal(f->st->count[OP_LINK], 1);
    assert_int_equal(f->st->count[OP_SYNCFS], 1);
}

/* A path with '/' waits for everything queued (rule 2): mkdir d, create d/x at once. */
static void test_slash_names(void **state)
{
    FIX();
    assert_int_equal(f->e->mkdir(&f->w, f->fd, "d", 0755), 0);
    assert_int_equal(f->e->mkdir(&f->w, f->fd, "d/e", 0755), 0);
    assert_int_equal(f->e->create_file(&f->w, f->fd, "d/e/x", 0644, "k", 1, 1, 0), 0);
    assert_int_equal(f->e->drain(&f->w), 0);
    tu_check_content(f->fd, "d/e/x", (const unsigned char *)"k", 1, 1);
}

int main(void)
{
    if (uring_available(unavailable, sizeof unavailable) == 0)
        unavailable[0] = '\0';
    else if (!unavailable[0])
        snprintf(unavailable, sizeof unavailable, "unknown reason");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_create_sizes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_create_large_pattern, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mkdir_opendir_create, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tree_walk_read_delete, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rename_symlink_readlink, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stat_matches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_primitives, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_link_times, setup, teardown),
        cmocka_unit_test_setup_teardown(test_slash_names, setup, teardown),
        cmocka_unit_test(test_queue_depths),
    };
    return cmocka_run_group_tests_name("engine_uring", tests, NULL, NULL);
}
