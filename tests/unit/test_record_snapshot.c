/* test_record_snapshot.c — unit tests of record --untraced-run's copy of the recorded
 * directory (src/run/record_snapshot.c): a tree of every kind of entry copied aside, changed
 * every way, and put back the same (names, types, modes, sizes, contents, link counts,
 * times, symlink targets); a symlink to a directory outside is copied as a link, never
 * followed; the copy sits beside the directory and is gone afterwards; a socket is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "run/record_snapshot.h"

struct fx {
    char top[PATH_MAX];  /* the temporary directory holding everything */
    char root[PATH_MAX]; /* top/root: the directory snapshotted */
};

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void pathf(char *out, const struct fx *x, const char *rel)
{
    snprintf(out, PATH_MAX, "%s/%s", x->root, rel);
}

static void rm_rf(const char *path)
{
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    assert_int_equal(system(cmd), 0);
}

/* One line per entry below dir (sorted by the walk's order of names): what must come back. */
static void listing(const char *dir, const char *rel, char *out, size_t len)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *names[64];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && n < 64)
            names[n++] = strdup(e->d_name);
    closedir(d);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(names[j], names[i]) < 0) {
                char *t = names[i];
                names[i] = names[j];
                names[j] = t;
            }
    for (size_t i = 0; i < n; i++) {
        char p[PATH_MAX], r[PATH_MAX], target[PATH_MAX] = "", data[64] = "";
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", names[i]);
        struct stat st;
        assert_int_equal(lstat(p, &st), 0);
        if (S_ISLNK(st.st_mode)) {
            ssize_t k = readlink(p, target, sizeof target - 1);
            assert_true(k >= 0);
            target[k] = '\0';
        }
        if (S_ISREG(st.st_mode)) {
            FILE *f = fopen(p, "r");
            assert_non_null(f);
            size_t k = fread(data, 1, sizeof data - 1, f);
            data[k] = '\0';
            fclose(f);
        }
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s %o %lld %lu %lld.%09ld %s [%s]\n", r,
                 (unsigned)st.st_mode, (long long)st.st_size, (unsigned long)st.st_nlink,
                 S_ISLNK(st.st_mode) ? 0LL : (long long)st.st_mtim.tv_sec,
                 S_ISLNK(st.st_mode) ? 0L : st.st_mtim.tv_nsec, target, data);
        if (S_ISDIR(st.st_mode))
            listing(p, r, out, len);
        free(names[i]);
    }
}

static int setup(void **state)
{
    struct fx *x = calloc(1, sizeof *x);
    const char *tmp = getenv("TMPDIR");
    snprintf(x->top, sizeof x->top, "%s/fsbench-snap-test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!x || !mkdtemp(x->top))
        return -1;
    snprintf(x->root, sizeof x->root, "%s/root", x->top);
    char p[PATH_MAX], q[PATH_MAX];
    mkdir(x->root, 0755);
    pathf(p, x, "d"), mkdir(p, 0700);
    pathf(p, x, "d/e"), mkdir(p, 02750);
    pathf(p, x, "f"), put(p, "hello");
    chmod(p, 0640);
    pathf(q, x, "d/e/hard"), link(p, q);
    pathf(p, x, "d/e/x"), put(p, "gone");
    pathf(p, x, "rel"), symlink("d/e/x", p);
    pathf(p, x, "dangling"), symlink("nowhere", p);
    snprintf(q, sizeof q, "%s/outside", x->top);
    mkdir(q, 0755);
    snprintf(q, sizeof q, "%s/outside/secret", x->top);
    put(q, "secret");
    snprintf(q, sizeof q, "%s/outside", x->top);
    pathf(p, x, "out"), symlink(q, p);
    pathf(p, x, "fifo"), mkfifo(p, 0600);
    struct timespec ts[2] = {{1000000000, 123456789}, {1000000000, 123456789}};
    pathf(p, x, "d/e/x"), utimensat(AT_FDCWD, p, ts, 0);
    pathf(p, x, "d/e"), utimensat(AT_FDCWD, p, ts, 0);
    *state = x;
    return 0;
}

static int teardown(void **state)
{
    struct fx *x = *state;
    rm_rf(x->top);
    free(x);
    return 0;
}

/* Every entry in the top directory but root and outside: the copies left behind. */
static int others(const struct fx *x)
{
    DIR *d = opendir(x->top);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "root") &&
            strcmp(e->d_name, "outside"))
            n++;
    closedir(d);
    return n;
}

static void test_put_back(void **state)
{
    struct fx *x = *state;
    static char before[16384], after[16384];
    before[0] = after[0] = '\0';
    listing(x->root, "", before, sizeof before);
    struct record_snapshot s;
    char why[512];
    if (record_snapshot_take(&s, x->root, why, sizeof why) < 0)
        fail_msg("%s", why);
    assert_int_equal(s.entries, 9);
    assert_int_equal(others(x), 1); /* the copy, beside the directory */
    /* changed every way: removed, appended, a mode, a new file and directory, a link */
    char p[PATH_MAX];
    pathf(p, x, "d"), rm_rf(p);
    pathf(p, x, "f"), put(p, "changed and longer");
    pathf(p, x, "fifo"), chmod(p, 0644);
    pathf(p, x, "new"), mkdir(p, 0755);
    pathf(p, x, "new/file"), put(p, "new");
    pathf(p, x, "dangling"), unlink(p);
    if (record_snapshot_restore(&s, why, sizeof why) < 0)
        fail_msg("%s", why);
    listing(x->root, "", after, sizeof after);
    assert_string_equal(after, before);
    assert_int_equal(others(x), 0); /* the copy is gone */
    /* the outside directory was never followed into, nor changed */
    char q[PATH_MAX];
    snprintf(q, sizeof q, "%s/outside/secret", x->top);
    struct stat st;
    assert_int_equal(stat(q, &st), 0);
    pathf(p, x, "out/secret");
    assert_int_equal(lstat(p, &st), 0); /* through the link, as before */
    pathf(p, x, "out");
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
}

static void test_socket_refused(void **state)
{
    struct fx *x = *state;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s/d/sock", x->root);
    if (strlen(a.sun_path) + 1 >= sizeof a.sun_path) {
        close(fd);
        skip();
    }
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    struct record_snapshot s;
    char why[512];
    assert_int_equal(record_snapshot_take(&s, x->root, why, sizeof why), -1);
    assert_string_equal(why, "d/sock is a socket (it cannot be copied)");
    assert_int_equal(others(x), 0); /* nothing left behind */
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_put_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_socket_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
