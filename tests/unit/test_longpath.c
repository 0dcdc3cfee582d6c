/* test_longpath.c — acting on paths below a directory by name in the parent's fd: a chain
 * of directories made with longpath_mkdir one level at a time until the path is three times
 * PATH_MAX, opened and linked into, in O(depth) opens thanks to the cursor; the cursor
 * keeps at most LONGPATH_WINDOW fds and reopens what its window closed; a directory swapped
 * for a symlink anywhere on a path (a short one or one longer than PATH_MAX) is refused
 * with ELOOP and nothing is made through it; a name longer than a chunk is refused with
 * ENAMETOOLONG. */
#include "testutil.h"

#include <errno.h>

#include "phase/longpath.h"

static int open_fds(void)
{
    return tu_count_dir(opendir("/proc/self/fd")) - 1; /* less the one reading it */
}

static void rm_rf(const char *dir)
{
    char cmd[600]; /* nftw stops at PATH_MAX: rm -rf does not */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(access(dir, F_OK), -1);
}

static void test_deep_chain(void **state)
{
    (void)state;
    char dir[256];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "longpath"));
    struct eng_worker w = {0};
    struct opstats *st = tu_worker_stats(&w);
    assert_non_null(st);
    int root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(root >= 0);
    int fds0 = open_fds();
    struct longpath lp = LONGPATH_INIT;
    size_t levels = 3 * PATH_MAX / 4 + 1, len = 0;
    char *path = malloc(levels * 4 + 32);
    assert_non_null(path);
    for (size_t i = 0; i < levels; i++) {
        len += (size_t)sprintf(path + len, "%sddd", i ? "/" : "");
        assert_int_equal(longpath_mkdir(&engine_posix, &w, &lp, root, path, 0755), 0);
        assert_true(open_fds() - fds0 <= LONGPATH_WINDOW);
    }
    assert_true(len > 3 * PATH_MAX - 8);
    /* one open per level, not one per level and piece */
    assert_true(st->count[OP_OPEN] < levels);
    int fd = longpath_opendir(&engine_posix, &w, root, path);
    assert_true(fd >= 0);
    assert_int_equal(mkdirat(fd, "bottom", 0755), 0);
    close(fd);
    /* a hard link from the top to a file at the bottom, both by long paths */
    int f = openat(root, "top", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    assert_true(f >= 0);
    close(f);
    strcpy(path + len, "/bottom/link");
    assert_int_equal(longpath_link(&engine_posix, &w, &lp, root, "top", root, path), 0);
    struct stat sb;
    assert_int_equal(fstatat(root, "top", &sb, 0), 0);
    assert_int_equal(sb.st_nlink, 2);
    /* back to the top of the chain: the window closed it, the cursor reopens it */
    assert_int_equal(longpath_mkdir(&engine_posix, &w, &lp, root, "ddd/ddd/second", 0755), 0);
    assert_int_equal(fstatat(root, "ddd/ddd/second", &sb, AT_SYMLINK_NOFOLLOW), 0);
    assert_true(S_ISDIR(sb.st_mode));
    longpath_release(&engine_posix, &w, &lp);
    assert_int_equal(open_fds(), fds0);
    close(root);
    free(path);
    free(st);
    rm_rf(dir);
}

/* A path one of the cursor's directories costs no open; a sibling one. */
static void test_cursor_reuse(void **state)
{
    (void)state;
    char dir[256];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "longpath"));
    struct eng_worker w = {0};
    struct opstats *st = tu_worker_stats(&w);
    int root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(root >= 0);
    assert_int_equal(mkdirat(root, "a", 0755), 0);
    assert_int_equal(mkdirat(root, "a/b", 0755), 0);
    assert_int_equal(mkdirat(root, "a/c", 0755), 0);
    struct longpath lp = LONGPATH_INIT;
    int fd = longpath_dir(&engine_posix, &w, &lp, root, "a/b", 3);
    assert_true(fd >= 0);
    assert_int_equal(st->count[OP_OPEN], 2);
    assert_int_equal(longpath_dir(&engine_posix, &w, &lp, root, "a/b/x", 3), fd);
    assert_int_equal(longpath_dir(&engine_posix, &w, &lp, root, "a", 1) >= 0, 1);
    assert_int_equal(st->count[OP_OPEN], 2); /* a was open already */
    assert_true(longpath_dir(&engine_posix, &w, &lp, root, "a/c", 3) >= 0);
    assert_int_equal(st->count[OP_OPEN], 3);
    assert_int_equal(longpath_dir(&engine_posix, &w, &lp, root, "", 0), root);
    int pfd;
    const char *base;
    assert_int_equal(longpath_parent(&engine_posix, &w, &lp, root, "a/c/new", &pfd, &base), 0);
    assert_string_equal(base, "new");
    assert_int_equal(st->count[OP_OPEN], 3);
    assert_int_equal(longpath_parent(&engine_posix, &w, NULL, root, "top", &pfd, &base), 0);
    assert_int_equal(pfd, root);
    longpath_release(&engine_posix, &w, &lp);
    close(root);
    free(st);
    rm_rf(dir);
}

/* A directory of the path swapped for a symlink to a decoy: refused, nothing made there. */
static void test_symlink_refused(void **state)
{
    (void)state;
    char dir[256], decoy[300];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "longpath"));
    snprintf(decoy, sizeof decoy, "%s/decoy", dir);
    assert_int_equal(mkdir(decoy, 0755), 0);
    char dsub[320];
    snprintf(dsub, sizeof dsub, "%s/b", decoy);
    assert_int_equal(mkdir(dsub, 0755), 0);
    struct eng_worker w = {0};
    struct opstats *st = tu_worker_stats(&w);
    int wsfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_int_equal(mkdirat(wsfd, "tree", 0755), 0);
    int root = openat(wsfd, "tree", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(root >= 0);
    assert_int_equal(symlinkat(decoy, root, "a"), 0);
    struct longpath lp = LONGPATH_INIT;
    assert_int_equal(longpath_mkdir(&engine_posix, &w, &lp, root, "a/b/c", 0755), -ELOOP);
    assert_int_equal(longpath_mkdir(&engine_posix, &w, NULL, root, "a/b/c", 0755), -ELOOP);
    assert_int_equal(longpath_opendir(&engine_posix, &w, root, "a/b"), -ELOOP);
    assert_int_equal(longpath_link(&engine_posix, &w, &lp, root, "a/b", root, "x"), -ELOOP);
    /* and one level down, in a path longer than PATH_MAX */
    assert_int_equal(mkdirat(root, "r", 0755), 0);
    char *path = malloc(2 * PATH_MAX);
    size_t len = (size_t)sprintf(path, "r/a");
    assert_int_equal(symlinkat(decoy, root, "r/a"), 0);
    while (len < PATH_MAX + 100)
        len += (size_t)sprintf(path + len, "/b");
    assert_int_equal(longpath_mkdir(&engine_posix, &w, &lp, root, path, 0755), -ELOOP);
    assert_int_equal(longpath_opendir(&engine_posix, &w, root, path), -ELOOP);
    struct stat sb;
    char probe[400];
    snprintf(probe, sizeof probe, "%s/b/c", decoy);
    assert_int_equal(stat(probe, &sb), -1);
    snprintf(probe, sizeof probe, "%s/b/b", decoy);
    assert_int_equal(stat(probe, &sb), -1);
    longpath_release(&engine_posix, &w, &lp);
    free(path);
    close(root);
    close(wsfd);
    free(st);
    rm_rf(dir);
}

static void test_name_too_long(void **state)
{
    (void)state;
    struct eng_worker w = {0};
    struct opstats *st = tu_worker_stats(&w);
    char huge[LONGPATH_CHUNK + 10];
    memset(huge, 'x', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    assert_int_equal(longpath_opendir(&engine_posix, &w, AT_FDCWD, huge), -ENAMETOOLONG);
    struct longpath lp = LONGPATH_INIT;
    char longer[LONGPATH_CHUNK + 20];
    snprintf(longer, sizeof longer, "%s/y", huge);
    assert_int_equal(longpath_mkdir(&engine_posix, &w, &lp, AT_FDCWD, longer, 0755),
                     -ENAMETOOLONG);
    assert_int_equal(lp.n, 0);
    longpath_release(&engine_posix, &w, &lp);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deep_chain),
        cmocka_unit_test(test_cursor_reuse),
        cmocka_unit_test(test_symlink_refused),
        cmocka_unit_test(test_name_too_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
