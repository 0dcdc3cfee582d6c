/* test_longpath.c — *at calls on paths longer than PATH_MAX: a chain of directories made
 * with longpath_mkdir one level at a time until the path is three times PATH_MAX, opened
 * and linked into; a path that fits makes no extra call; a name longer than a chunk is
 * refused with ENAMETOOLONG. */
#include "testutil.h"

#include <errno.h>

#include "phase/longpath.h"

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
    struct longpath lp = LONGPATH_INIT;
    size_t levels = 3 * PATH_MAX / 4 + 1, len = 0;
    char *path = malloc(levels * 4 + 32);
    assert_non_null(path);
    for (size_t i = 0; i < levels; i++) {
        len += (size_t)sprintf(path + len, "%sddd", i ? "/" : "");
        assert_int_equal(longpath_mkdir(&engine_posix, &w, &lp, root, path, 0755), 0);
    }
    assert_true(len > 3 * PATH_MAX - 8);
    int fd = longpath_opendir(&engine_posix, &w, NULL, root, path);
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
    /* the chain cost O(depth) opens thanks to the cache, not O(depth^2) */
    assert_true(st->count[OP_OPEN] < levels);
    longpath_release(&engine_posix, &w, &lp);
    close(root);
    free(path);
    free(st);
    char cmd[300]; /* nftw stops at PATH_MAX: rm -rf does not */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(access(dir, F_OK), -1);
}

static void test_short_path_untouched(void **state)
{
    (void)state;
    struct eng_worker w = {0};
    int fd;
    const char *rest;
    assert_int_equal(longpath_at(&engine_null, &w, NULL, 7, "a/b", &fd, &rest), 0);
    assert_int_equal(fd, 7);
    assert_string_equal(rest, "a/b");
    char huge[LONGPATH_CHUNK + 10];
    memset(huge, 'x', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    assert_int_equal(longpath_at(&engine_posix, &w, NULL, AT_FDCWD, huge, &fd, &rest), -ENAMETOOLONG);
    struct longpath lp = LONGPATH_INIT;
    assert_int_equal(longpath_at(&engine_posix, &w, &lp, AT_FDCWD, huge, &fd, &rest), -ENAMETOOLONG);
    assert_int_equal(lp.fd, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deep_chain),
        cmocka_unit_test(test_short_path_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
