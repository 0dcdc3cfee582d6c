/* test_age_replay_books.c — unit tests of phase/age_replay_books.c (the books of aging by
 * replay) and of the walk it shares with tree capture (ageprof_walk): a scratch tree's
 * files are counted with their depths, a symlink to a directory is not followed; the
 * histogram puts sizes, ages (from a given now) and depths in a profile's buckets and
 * adding a second tree adds to the first; the distance from a profile built from the same
 * shares is 0; the shares text drops trailing empty buckets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "phase/age_replay.h"
#include "testutil.h"

static void put(const char *dir, const char *name, size_t size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < size; i++)
        fputc('x', f);
    assert_int_equal(fclose(f), 0);
}

/* dir/a (100 B), dir/b (5000 B), dir/s/c (40000 B), dir/s/t/d (0 B), dir/link -> s */
static void make_tree(const char *dir)
{
    char p[4200];
    put(dir, "a", 100);
    put(dir, "b", 5000);
    snprintf(p, sizeof p, "%s/s", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    put(p, "c", 40000);
    snprintf(p, sizeof p, "%s/s/t", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    put(p, "d", 0);
    snprintf(p, sizeof p, "%s/link", dir);
    assert_int_equal(symlink("s", p), 0);
}

static void test_books_count_a_tree(void **state)
{
    (void)state;
    char dir[4096];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "arb"));
    make_tree(dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    struct age_replay_books b = {0};
    assert_int_equal(age_replay_books_add(&b, fd), 0);
    assert_int_equal(b.n, 4); /* the symlink's target not counted twice */
    unsigned depth_of[4] = {0};
    for (size_t i = 0; i < b.n; i++) {
        unsigned k = b.f[i].size == 100     ? 0
                     : b.f[i].size == 5000  ? 1
                     : b.f[i].size == 40000 ? 2
                                            : 3;
        depth_of[k] = b.f[i].depth;
    }
    assert_int_equal(depth_of[0], 1);
    assert_int_equal(depth_of[1], 1);
    assert_int_equal(depth_of[2], 2);
    assert_int_equal(depth_of[3], 3);

    /* the capture's buckets: sizes 0 (d), 1 (a), 2K (b), 32K (c); depths 1, 1, 2, 3 */
    struct ageprof shape;
    ageprof_capture_buckets(&shape);
    struct ageprof_hist h;
    age_replay_books_hist(&b, &shape, (int64_t)time(NULL), &h);
    assert_int_equal(h.files, 4);
    char s[64];
    assert_string_equal(age_replay_shares(&h, &shape, AGEPROF_SIZE, s, sizeof s),
                        "25/25/0/25/0/25");
    assert_string_equal(age_replay_shares(&h, &shape, AGEPROF_DEPTH, s, sizeof s), "50/25/25");
    assert_string_equal(age_replay_shares(&h, &shape, AGEPROF_AGE, s, sizeof s), "100");

    /* a second tree adds to the first */
    assert_int_equal(age_replay_books_add(&b, fd), 0);
    assert_int_equal(b.n, 8);
    age_replay_books_hist(&b, &shape, (int64_t)time(NULL), &h);
    assert_int_equal(h.files, 8);
    assert_int_equal(h.count[AGEPROF_DEPTH][0], 4);
    close(fd);
    age_replay_books_free(&b);
    assert_null(b.f);
    assert_int_equal(b.n, 0);
    assert_int_equal(tu_rm_tree(dir), 0);
}

static void test_books_ages_and_distance(void **state)
{
    (void)state;
    struct age_replay_books b = {0};
    struct age_seen seen[] = {
        {10, 1000, 1},          /* 0 s old at now 1000 */
        {10, 1000 - 86400, 1},  /* 1 d */
        {10, 1000 - 864000, 2}, /* 10 d */
        {10, 5000, 2},          /* ahead of now: 0 s */
    };
    b.f = seen;
    b.n = b.cap = 4;
    const struct ageprof *tiny = ageprof_builtin("tiny"); /* ages 0, 7d; depths 1, 2 */
    assert_non_null(tiny);
    struct ageprof_hist h;
    age_replay_books_hist(&b, tiny, 1000, &h);
    assert_int_equal(h.count[AGEPROF_AGE][0], 3);
    assert_int_equal(h.count[AGEPROF_AGE][1], 1);
    assert_int_equal(h.count[AGEPROF_DEPTH][0], 2);
    assert_int_equal(h.count[AGEPROF_DEPTH][1], 2);
    assert_int_equal(h.count[AGEPROF_SIZE][0], 4); /* 10 B: below 1 KiB */

    /* a profile with the same shares: distance 0; tiny's own: the sizes' 75 % off */
    struct ageprof same = *tiny;
    same.dist[AGEPROF_SIZE] = (struct ageprof_dist){1, {0}, {1}};
    same.dist[AGEPROF_AGE].share[0] = 0.75;
    same.dist[AGEPROF_AGE].share[1] = 0.25;
    same.dist[AGEPROF_DEPTH].share[0] = 0.5;
    same.dist[AGEPROF_DEPTH].share[1] = 0.5;
    age_replay_books_hist(&b, &same, 1000, &h);
    struct ageprof_distance d;
    ageprof_distance(&same, &h, &d);
    assert_true(d.max_abs < 1e-9);
    age_replay_books_hist(&b, tiny, 1000, &h);
    ageprof_distance(tiny, &h, &d);
    assert_true(d.max_abs > 0.74 && d.max_abs < 0.76);
    assert_int_equal(d.worst_dim, AGEPROF_SIZE);

    /* no files: "-" */
    struct age_replay_books none = {0};
    age_replay_books_hist(&none, tiny, 1000, &h);
    char s[16];
    assert_string_equal(age_replay_shares(&h, tiny, AGEPROF_SIZE, s, sizeof s), "-");
}

static void test_walk_unreadable(void **state)
{
    (void)state;
    struct age_replay_books b = {0};
    errno = 0;
    assert_int_equal(age_replay_books_add(&b, -1), -1);
    assert_int_equal(errno, EBADF);
    assert_int_equal(b.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_books_count_a_tree),
        cmocka_unit_test(test_books_ages_and_distance),
        cmocka_unit_test(test_walk_unreadable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
