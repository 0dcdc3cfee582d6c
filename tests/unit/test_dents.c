/* test_dents.c — os_dents_drain: what one getdents64 left plus the rest of the directory
 * holds every entry exactly once, however small the reads. */
#include "testutil.h"

#include "os/dents.h"

struct rec {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* Records in buf[0..len) whose name starts with 'e'. */
static int count_e(const char *buf, size_t len)
{
    int n = 0;
    for (size_t pos = 0; pos < len;) {
        const struct rec *r = (const struct rec *)(const void *)(buf + pos);
        n += r->name[0] == 'e';
        pos += r->reclen;
    }
    return n;
}

static void test_drain_after_partial_read(void **state)
{
    (void)state;
    char dir[256];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "dents"));
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(dfd >= 0);
    tu_touch_n(dfd, "e", 700);
    char first[1024];
    ssize_t got = getdents64(dfd, first, sizeof first);
    assert_true(got > 0);
    /* keep the second half of what the first read returned, as a walker would */
    size_t pos = 0, half = 0;
    for (int k = 0; pos < (size_t)got; k++) {
        if (k == 5)
            half = pos;
        pos += ((const struct rec *)(const void *)(first + pos))->reclen;
    }
    int before = count_e(first, half);
    char *all;
    size_t len;
    assert_int_equal(os_dents_drain(dfd, first + half, (size_t)got - half, 1024, &all, &len), 0);
    assert_int_equal(before + count_e(all, len), 700);
    free(all);
    close(dfd);
    assert_int_equal(tu_rm_tree(dir), 0);
}

static void test_drain_bad_fd(void **state)
{
    (void)state;
    char *all = NULL;
    size_t len = 0;
    assert_true(os_dents_drain(-1, NULL, 0, 1024, &all, &len) < 0);
    assert_null(all);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drain_after_partial_read),
        cmocka_unit_test(test_drain_bad_fd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
