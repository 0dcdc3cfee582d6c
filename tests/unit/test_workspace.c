/* test_workspace.c — unit tests of the workspace (workspace.c): which directories ws_open
 * accepts, the marker it leaves and ws_close removes, the temporary directory made under
 * $TMPDIR, reuse of what a killed run left, and the promise never to remove anything but
 * "tree" and "copy" (and the directory itself only when fsbench made it).
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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/err.h"
#include "phase/phase.h"
#include "phase/workspace.h"
#include "testutil.h"

struct fix {
    char dir[4096]; /* scratch directory; tests make their workspaces below it */
    char *old_tmpdir;
};

static int setup(void **state)
{
    struct fix *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    const char *tmp = getenv("TMPDIR");
    if (tmp)
        f->old_tmpdir = strdup(tmp);
    if (!tu_scratch_dir(f->dir, sizeof f->dir, "ws"))
        return -1;
    err_set_quiet(1);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;
    err_set_quiet(0);
    if (f->old_tmpdir)
        setenv("TMPDIR", f->old_tmpdir, 1);
    else
        unsetenv("TMPDIR");
    free(f->old_tmpdir);
    int rc = tu_rm_tree(f->dir);
    free(f);
    return rc;
}

/* Path of `rel` below the scratch directory, in a static buffer per slot. */
static const char *sub(struct fix *f, const char *rel)
{
    static char buf[4][4200];
    static int slot;
    slot = (slot + 1) % 4;
    snprintf(buf[slot], sizeof buf[slot], "%s/%s", f->dir, rel);
    return buf[slot];
}

static void make_dir(const char *path)
{
    assert_int_equal(mkdir(path, 0755), 0);
}

static void make_file(const char *path, const char *content)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    assert_true(fd >= 0);
    size_t n = strlen(content);
    assert_int_equal(write(fd, content, n), (ssize_t)n);
    close(fd);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static int count_entries(const char *path)
{
    return tu_count_dir(opendir(path));
}

/* ws_close after a failed ws_open releases whatever it holds and removes nothing. */
static void close_failed(struct workspace *ws)
{
    assert_int_equal(ws_close(ws), 0);
    assert_int_equal(ws->fd, -1);
}

static void test_open_missing_dir(void **state)
{
    struct fix *f = *state;
    struct workspace ws;
    assert_int_equal(ws_open(&ws, sub(f, "missing")), -1);
    close_failed(&ws);
    assert_false(exists(sub(f, "missing")));
}

static void test_open_file(void **state)
{
    struct fix *f = *state;
    make_file(sub(f, "file"), "data");
    struct workspace ws;
    assert_int_equal(ws_open(&ws, sub(f, "file")), -1);
    close_failed(&ws);
    assert_true(exists(sub(f, "file")));
}

static void test_open_non_empty(void **state)
{
    struct fix *f = *state;
    make_dir(sub(f, "w"));
    make_file(sub(f, "w/user-data"), "precious");
    struct workspace ws;
    assert_int_equal(ws_open(&ws, sub(f, "w")), -1);
    close_failed(&ws);
    assert_true(exists(sub(f, "w/user-data")));
    assert_false(exists(sub(f, "w/" WS_MARKER)));
    assert_int_equal(count_entries(sub(f, "w")), 1);
}

/* A directory with "tree" but no marker is not ours: refused, left alone. */
static void test_open_tree_without_marker(void **state)
{
    struct fix *f = *state;
    make_dir(sub(f, "w"));
    make_dir(sub(f, "w/tree"));
    make_file(sub(f, "w/tree/f"), "x");
    struct workspace ws;
    assert_int_equal(ws_open(&ws, sub(f, "w")), -1);
    close_failed(&ws);
    assert_true(exists(sub(f, "w/tree/f")));
    assert_false(exists(sub(f, "w/" WS_MARKER)));
}

static void test_open_empty_marks_and_close_unmarks(void **state)
{
    struct fix *f = *state;
    make_dir(sub(f, "w"));
    struct workspace ws;
    assert_int_equal(ws_open(&ws, sub(f, "w")), 0);
    assert_true(ws.fd >= 0);
    assert_true(ws.marked);
    assert_false(ws.made_dir);
    assert_string_equal(ws.path, sub(f, "w"));
    assert_true(exists(sub(f, "w/" WS_MARKER)));
    assert_int_equal(count_entries(sub(f, "w")), 1);
    /* The fd is the directory. */
    struct stat a, b;
    assert_int_equal(fstat(ws.fd, &a), 0);
    assert_int_equal(stat(sub(f, "w"), &b), 0);
    assert_int_equal(a.st_ino, b.st_ino);

    /* What phases leave is removed at close, with the marker; the directory stays. */
    make_dir(sub(f, "w/tree"));
    make_file(sub(f, "w/tree/a"), "a");
    make_dir(sub(f, "w/copy"));
    assert_int_equal(ws_close(&ws), 0);
    assert_int_equal(ws.fd, -1);
    assert_true(exists(sub(f, "w")));
    assert_int_equal(count_entries(sub(f, "w")), 0);
}

static void test_open_tmpdir(void **state)
{
    struct fix *f = *state;
    assert_int_equal(setenv("TMPDIR", f->dir, 1), 0);
    struct workspace ws;
    assert_int_equal(ws_open(&ws, NULL), 0);
    assert_true(ws.made_dir);
    char prefix[4200];
    snprintf(prefix, sizeof prefix, "%s/fsbench.", f->dir);
    assert_int_equal(strncmp(ws.path, prefix, strlen(prefix)), 0);
    assert_int_equal(strlen(ws.path), strlen(prefix) + 6);
    char marker[4200 + sizeof WS_MARKER];
    snprintf(marker, sizeof marker, "%s/%s", ws.path, WS_MARKER);
    assert_true(exists(marker));
    assert_int_equal(count_entries(f->dir), 1);
    char path[sizeof ws.path];
    snprintf(path, sizeof path, "%s", ws.path);

    char tree[4200 + 8];
    snprintf(tree, sizeof tree, "%s/tree", path);
    make_dir(tree);
    assert_int_equal(ws_close(&ws), 0);
    assert_false(exists(path));
    assert_int_equal(count_entries(f->dir), 0);
}

/* A TMPDIR that does not exist: ws_open fails and creates nothing. */
static void test_open_tmpdir_missing(void **state)
{
    struct fix *f = *state;
    assert_int_equal(setenv("TMPDIR", sub(f, "nope"), 1), 0);
    struct workspace ws;
    assert_int_equal(ws_open(&ws, NULL), -1);
    close_failed(&ws);
    assert_int_equal(count_entries(f->dir), 0);
}

/* What a killed run leaves (the marker, "tree" and "copy" with files) is cleaned and
 * the directory reused. */
static void test_reuse_after_kill(void **state)
{
    struct fix *f = *state;
    make_dir(sub(f, "w"));
    make_file(sub(f, "w/" WS_MARKER), "");
    make_dir(sub(f, "w/tree"));
    make_dir(sub(f, "w/tree/d"));
    make_file(sub(f, "w/tree/d/f1"), "one");
    make_file(sub(f, "w/tree/f2"), "two");
    assert_int_equal(symlink("f2", sub(f, "w/tree/l")), 0);
    make_dir(sub(f, "w/copy"));
    make_file(sub(f, "w/copy/f3"), "three");
    struct workspace ws;
    assert_int_equal(ws_open(&ws, sub(f, "w")), 0);
    assert_true(ws.marked);
    assert_false(exists(sub(f, "w/tree")));
    assert_false(exists(sub(f, "w/copy")));
    assert_true(exists(sub(f, "w/" WS_MARKER)));
    assert_int_equal(count_entries(sub(f, "w")), 1);
    assert_int_equal(ws_close(&ws), 0);
    assert_true(exists(sub(f, "w")));
    assert_int_equal(count_entries(sub(f, "w")), 0);
}

/* Only the marker: reused as is. */
static void test_reuse_marker_only(void **state)
{
    struct fix *f = *state;
    make_dir(sub(f, "w"));
    make_file(sub(f, "w/" WS_MARKER), "");
    struct workspace ws;
    assert_int_equal(ws_open(&ws, sub(f, "w")), 0);
    assert_true(ws.marked);
    assert_int_equal(ws_close(&ws), 0);
    assert_int_equal(count_entries(sub(f, "w")), 0);
}

/* A marked directory with anything besides tree and copy ("keep") is refused, and
 * nothing in it is touched, not even tree. */
static void test_refuse_marked_with_other(void **state)
{
    struct fix *f = *state;
    make_dir(sub(f, "w"));
    make_file(sub(f, "w/" WS_MARKER), "");
    make_dir(sub(f, "w/tree"));
    make_file(sub(f, "w/tree/f"), "x");
    make_dir(sub(f, "w/copy"));
    make_file(sub(f, "w/keep"), "precious");
    struct workspace ws;
    assert_int_equal(ws_open(&ws, sub(f, "w")), -1);
    close_failed(&ws);
    assert_true(exists(sub(f, "w/keep")));
    assert_true(exists(sub(f, "w/tree/f")));
    assert_true(exists(sub(f, "w/copy")));
    assert_true(exists(sub(f, "w/" WS_MARKER)));
    assert_int_equal(count_entries(sub(f, "w")), 4);
}

/* ws_clear removes tree and copy and nothing else, even when something else appears in
 * the workspace after it was opened; ws_close then keeps the directory it did not make. */
static void test_clear_only_tree_and_copy(void **state)
{
    struct fix *f = *state;
    make_dir(sub(f, "w"));
    struct workspace ws;
    assert_int_equal(ws_open(&ws, sub(f, "w")), 0);
    make_dir(sub(f, "w/tree"));
    make_file(sub(f, "w/tree/f"), "x");
    make_dir(sub(f, "w/copy"));
    make_file(sub(f, "w/keep"), "precious");
    make_dir(sub(f, "w/keepdir"));
    make_file(sub(f, "w/keepdir/g"), "y");
    assert_int_equal(ws_clear(&ws), 0);
    assert_false(exists(sub(f, "w/tree")));
    assert_false(exists(sub(f, "w/copy")));
    assert_true(exists(sub(f, "w/keep")));
    assert_true(exists(sub(f, "w/keepdir/g")));
    assert_true(exists(sub(f, "w/" WS_MARKER)));
    assert_int_equal(ws_close(&ws), 0);
    assert_int_equal(count_entries(sub(f, "w")), 2);
    assert_true(exists(sub(f, "w/keep")));
}

/* A workspace fsbench made is removed at close only if empty: a stranger's file keeps
 * it (ws_close reports the failure) and survives. */
static void test_close_made_dir_keeps_foreign(void **state)
{
    struct fix *f = *state;
    assert_int_equal(setenv("TMPDIR", f->dir, 1), 0);
    struct workspace ws;
    assert_int_equal(ws_open(&ws, NULL), 0);
    char keep[4200 + 8];
    snprintf(keep, sizeof keep, "%s/keep", ws.path);
    make_file(keep, "precious");
    assert_int_equal(ws_close(&ws), -1);
    assert_true(exists(keep));
    assert_int_equal(unlink(keep), 0);
}

/* A "tree" that is a symlink to a directory outside is never followed by the cleanup. */
static void test_clear_does_not_follow_symlink(void **state)
{
    struct fix *f = *state;
    make_dir(sub(f, "outside"));
    make_file(sub(f, "outside/precious"), "data");
    make_dir(sub(f, "w"));
    struct workspace ws;
    assert_int_equal(ws_open(&ws, sub(f, "w")), 0);
    assert_int_equal(symlink(sub(f, "outside"), sub(f, "w/tree")), 0);
    ws_clear(&ws);
    assert_true(exists(sub(f, "outside/precious")));
    ws_close(&ws);
    assert_true(exists(sub(f, "outside/precious")));
}

/* Cleanup finishes even when an interrupt is pending, and keeps the interrupt. */
static void test_clear_ignores_interrupt(void **state)
{
    struct fix *f = *state;
    make_dir(sub(f, "w"));
    struct workspace ws;
    assert_int_equal(ws_open(&ws, sub(f, "w")), 0);
    make_dir(sub(f, "w/tree"));
    make_dir(sub(f, "w/tree/d"));
    make_file(sub(f, "w/tree/d/f"), "x");
    phase_interrupt = SIGINT;
    int rc = ws_clear(&ws);
    int still = phase_interrupt;
    phase_interrupt = 0;
    assert_int_equal(rc, 0);
    assert_int_equal(still, SIGINT);
    assert_false(exists(sub(f, "w/tree")));
    assert_int_equal(ws_close(&ws), 0);
}

static void test_open_too_long(void **state)
{
    (void)state;
    char *p = malloc(PATH_MAX + 10);
    assert_non_null(p);
    memset(p, 'a', PATH_MAX + 9);
    p[0] = '/';
    p[PATH_MAX + 9] = '\0';
    struct workspace ws;
    assert_int_equal(ws_open(&ws, p), -1);
    close_failed(&ws);
    free(p);
}

/* Opens the workspace dir in a child that holds it until told (a live run in another
 * process): its pid, with *go the pipe end that releases it. */
static pid_t hold_in_child(const char *dir, int *go)
{
    int ready[2], g[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(g), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct workspace ws;
        int rc = ws_open(&ws, dir);
        ssize_t w = write(ready[1], rc == 0 ? "y" : "n", 1);
        char c;
        w = read(g[0], &c, 1);
        (void)w;
        _exit(rc == 0 && ws_close(&ws) == 0 ? 0 : 1);
    }
    char c = 0;
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(c, 'y');
    close(ready[0]), close(ready[1]), close(g[0]);
    *go = g[1];
    return pid;
}

static void release_child(pid_t pid, int go)
{
    assert_int_equal(write(go, "g", 1), 1);
    close(go);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* The marker names the run's pid and is locked while it runs: a second run's ws_open of the
 * same directory is refused, naming the pid, and removes nothing; once the first is closed
 * the directory is free again. */
static void test_second_open_in_use(void **state)
{
    struct fix *f = *state;
    make_dir(sub(f, "w"));
    int go;
    pid_t pid = hold_in_child(sub(f, "w"), &go);
    make_dir(sub(f, "w/tree"));
    make_file(sub(f, "w/tree/live"), "x");
    char text[64] = "";
    int fd = open(sub(f, "w/" WS_MARKER), O_RDONLY);
    assert_true(fd >= 0);
    assert_true(read(fd, text, sizeof text - 1) > 0);
    close(fd);
    char want[64];
    snprintf(want, sizeof want, "fsbench pid %ld\n", (long)pid);
    assert_string_equal(text, want);
    struct workspace b;
    char why[512] = "";
    err_capture_begin(why, sizeof why);
    int rc = ws_open(&b, sub(f, "w"));
    err_capture_end();
    assert_int_equal(rc, -1);
    char in_use[600];
    snprintf(in_use, sizeof in_use, "%s is in use by fsbench pid %ld", sub(f, "w"), (long)pid);
    assert_non_null(strstr(why, in_use));
    assert_int_equal(ws_close(&b), 0); /* holds nothing */
    assert_true(exists(sub(f, "w/tree/live")));
    assert_int_equal(unlink(sub(f, "w/tree/live")), 0);
    release_child(pid, go);
    assert_int_equal(ws_open(&b, sub(f, "w")), 0);
    assert_int_equal(ws_close(&b), 0);
}

/* ws_clean_leftover: a live run's directory is left alone; a killed run's (marker
 * unlocked) is cleaned, and a temporary one removed; --dry-run changes nothing. */
static void test_clean_leftover(void **state)
{
    struct fix *f = *state;
    make_dir(sub(f, "w"));
    int go;
    pid_t pid = hold_in_child(sub(f, "w"), &go);
    make_dir(sub(f, "w/tree"));
    assert_int_equal(ws_clean_leftover(sub(f, "w"), false, false), 0);
    assert_true(exists(sub(f, "w/tree")));
    /* killed: the lock goes with the process */
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(go);
    assert_int_equal(ws_clean_leftover(sub(f, "w"), false, true), 1);
    assert_true(exists(sub(f, "w/tree")));
    assert_int_equal(ws_clean_leftover(sub(f, "w"), false, false), 1);
    assert_false(exists(sub(f, "w/tree")));
    assert_false(exists(sub(f, "w/" WS_MARKER)));
    assert_true(exists(sub(f, "w")));
    assert_int_equal(ws_clean_leftover(sub(f, "w"), false, false), 0); /* nothing left */
    /* a temporary run directory (mode 0700) is removed with its content */
    assert_int_equal(mkdir(sub(f, "t"), 0700), 0);
    make_file(sub(f, "t/" WS_MARKER), "");
    make_dir(sub(f, "t/copy"));
    assert_int_equal(ws_clean_leftover(sub(f, "t"), true, false), 1);
    assert_false(exists(sub(f, "t")));
    /* one holding something not fsbench's is not touched */
    make_dir(sub(f, "u"));
    make_file(sub(f, "u/" WS_MARKER), "");
    make_file(sub(f, "u/mine"), "x");
    assert_int_equal(ws_clean_leftover(sub(f, "u"), false, false), 0);
    assert_true(exists(sub(f, "u/mine")));
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_open_missing_dir),
        T(test_open_file),
        T(test_open_non_empty),
        T(test_open_tree_without_marker),
        T(test_open_empty_marks_and_close_unmarks),
        T(test_open_tmpdir),
        T(test_open_tmpdir_missing),
        T(test_reuse_after_kill),
        T(test_reuse_marker_only),
        T(test_refuse_marked_with_other),
        T(test_clear_only_tree_and_copy),
        T(test_close_made_dir_keeps_foreign),
        T(test_clear_does_not_follow_symlink),
        T(test_clear_ignores_interrupt),
        T(test_open_too_long),
        T(test_second_open_in_use),
        T(test_clean_leftover),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
