/* test_dirscan.c — the dirscan stack's window of open directories: a walk with a window of
 * 2 or 3 levels visits exactly what an unbounded one visits (also when a level is drained,
 * reopened and drained again, and when the allocator refuses to shrink a drained level's
 * buffer), never holds more fds than the window, and long paths are shortened in the
 * middle for messages. */
#include "testutil.h"

#include <malloc.h>

#include "engine/dirscan.h"

/* Fault injection: the Makefile links this test with -Wl,--wrap=realloc, so every realloc
 * of libfsbench (and of this file) comes here; while fail_shrinks is set, a realloc that
 * would shrink a block fails, as an allocator may. */
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);
static int fail_shrinks, shrinks_failed;

void *__wrap_realloc(void *p, size_t n)
{
    if (fail_shrinks && p && n && n < malloc_usable_size(p)) {
        shrinks_failed++;
        return NULL;
    }
    return __real_realloc(p, n);
}

#define FANOUT 3
#define DEPTH 5

/* Makes FANOUT subdirectories and 2 files in every directory down to DEPTH. */
static void make_tree(int dfd, int depth)
{
    tu_touch_n(dfd, "f", 2);
    if (depth == DEPTH)
        return;
    for (int i = 0; i < FANOUT; i++) {
        char n[16];
        snprintf(n, sizeof n, "d%d", i);
        assert_int_equal(mkdirat(dfd, n, 0755), 0);
        int c = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(c >= 0);
        make_tree(c, depth + 1);
        close(c);
    }
}

static int open_fds(void)
{
    return tu_count_dir(opendir("/proc/self/fd")) - 1; /* less the one reading it */
}

struct walk_counts {
    uint64_t dirs, files, path_sum;
    int max_fds;
};

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Walks dir with a stack of the given window; counts and a sum of every path's hash. */
static void walk(const char *dir, size_t window, struct walk_counts *c)
{
    struct eng_worker w = {0};
    assert_non_null(tu_worker_stats(&w));
    struct dirscan_stack s = {0};
    dirscan_init(&s, &engine_posix, &w, window);
    memset(c, 0, sizeof *c);
    int base = open_fds();
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(fd >= 0);
    assert_int_equal(dirscan_enter(&s, fd, -1, "root"), 0);
    struct dirscan_ent ent;
    char path[PATH_MAX];
    for (;;) {
        int r = dirscan_next(&engine_posix, &w, &s.lv[s.n - 1], &ent);
        assert_true(r >= 0);
        if (r == 0) {
            if (s.n == 1)
                break;
            assert_int_equal(dirscan_leave(&s), 0);
            continue;
        }
        c->path_sum += hash(dirscan_path(&s, ent.name, path, sizeof path));
        if (ent.type != DT_DIR) {
            c->files++;
            continue;
        }
        c->dirs++;
        int cfd = engine_posix.opendir(&w, s.lv[s.n - 1].fd, ent.name);
        assert_true(cfd >= 0);
        assert_int_equal(dirscan_enter(&s, cfd, -1, ent.name), 0);
        int now = open_fds() - base;
        if (now > c->max_fds)
            c->max_fds = now;
    }
    dirscan_unwind(&s, 0);
    dirscan_free(&s);
    assert_int_equal(open_fds(), base);
    free(w.st);
}

static void test_window_walks_the_same(void **state)
{
    (void)state;
    char dir[256];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "dirscan"));
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    make_tree(dfd, 0);
    close(dfd);
    struct walk_counts all, w2, w3;
    walk(dir, 0, &all);
    walk(dir, 2, &w2);
    walk(dir, 3, &w3);
    uint64_t dirs = 0, level = 1;
    for (int d = 1; d <= DEPTH; d++)
        dirs += level *= FANOUT;
    assert_int_equal(all.dirs, dirs);
    assert_int_equal(all.files, 2 * (dirs + 1));
    assert_int_equal(w2.dirs, all.dirs);
    assert_int_equal(w2.files, all.files);
    assert_int_equal(w2.path_sum, all.path_sum);
    assert_int_equal(w3.path_sum, all.path_sum);
#ifdef FSBENCH_OS_POSIX_ONLY
    /* the readdir fallback reads through a duplicate of each directory being read */
    const int per_dir = 2;
    assert_true(all.max_fds > DEPTH && all.max_fds <= per_dir * (DEPTH + 1));
#else
    const int per_dir = 1;
    assert_int_equal(all.max_fds, DEPTH + 1);
#endif
    assert_true(w2.max_fds <= per_dir * 2);
    assert_true(w3.max_fds <= per_dir * 3);
    assert_int_equal(tu_rm_tree(dir), 0);
}

/* A drained level keeps only what is left of it; when that shrinking realloc fails, the
 * larger buffer is kept (it once became NULL with its bytes still counted as filled). */
static void test_drain_shrink_refused(void **state)
{
    (void)state;
    char dir[256];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "dirscan"));
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    make_tree(dfd, 0);
    close(dfd);
    struct walk_counts all, w2;
    walk(dir, 0, &all);
    shrinks_failed = 0;
    fail_shrinks = 1;
    walk(dir, 2, &w2);
    fail_shrinks = 0;
    assert_true(shrinks_failed > 0);
    assert_int_equal(w2.dirs, all.dirs);
    assert_int_equal(w2.files, all.files);
    assert_int_equal(w2.path_sum, all.path_sum);
    assert_int_equal(tu_rm_tree(dir), 0);
}

static void test_window_from_rlimit(void **state)
{
    (void)state;
    size_t w1 = dirscan_window(1, 1), w8 = dirscan_window(8, 2);
    assert_true(w1 >= 2 && w1 <= DIRSCAN_WINDOW_MAX);
    assert_true(w8 >= 2 && w8 <= w1);
}

static void test_long_path_keeps_both_ends(void **state)
{
    (void)state;
    struct dirscan_stack s = {0};
    char name[200];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    assert_non_null(dirscan_push(&s, -1, "root"));
    for (int i = 0; i < 40; i++)
        assert_non_null(dirscan_push(&s, -1, name));
    char buf[256];
    dirscan_path(&s, "last", buf, sizeof buf);
    assert_true(strlen(buf) < sizeof buf);
    assert_memory_equal(buf, "root/", 5);
    assert_non_null(strstr(buf, "..."));
    assert_string_equal(buf + strlen(buf) - 5, "/last");
    dirscan_path(&s, NULL, buf, 8);
    assert_string_equal(buf, ""); /* too small to say anything useful */
    dirscan_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_walks_the_same),
        cmocka_unit_test(test_drain_shrink_refused),
        cmocka_unit_test(test_window_from_rlimit),
        cmocka_unit_test(test_long_path_keeps_both_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
