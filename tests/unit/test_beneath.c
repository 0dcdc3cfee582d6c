/* test_beneath.c — os/beneath.h, by both resolvers (os_open_beneath: openat2 on Linux; and
 * the O_NOFOLLOW walk it falls back to, which is the POSIX build's only one): a path of
 * real directories opens; a symlink at any component (pointing at a decoy that has the
 * same names) is refused with ELOOP for directory and file opens alike, and nothing is
 * created in the decoy; "..", absolute paths and "" are refused; a file where a directory
 * is expected is ENOTDIR; a mount point on the way is EXDEV (root: a tmpfs, and on Linux a
 * bind mount of the same file system, which only openat2 can tell); the engine's opendir
 * resolves the same way and still opens "..". On Linux the walk is also checked as the
 * fallback: a child whose seccomp filter makes openat2 say ENOSYS still refuses symlinks.
 */
#include "testutil.h"

#include <errno.h>
#include <limits.h>
#include <sys/wait.h>

#include "os/beneath.h"

/* The tests run on Linux in both builds: they may mount (the POSIX build's resolver is the
 * walk, whose device check a tmpfs shows). */
#include <sys/mount.h>
#ifndef FSBENCH_OS_POSIX_ONLY
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

typedef int (*open_fn)(int dirfd, const char *path, int flags, mode_t mode);

struct fix {
    char dir[256];
    int root;      /* the tree: a/b/c/f, a/g */
    int decoy;     /* the same names elsewhere */
};

static void make_names(int fd)
{
    assert_int_equal(mkdirat(fd, "a", 0755), 0);
    assert_int_equal(mkdirat(fd, "a/b", 0755), 0);
    assert_int_equal(mkdirat(fd, "a/b/c", 0755), 0);
    int f = openat(fd, "a/b/c/f", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    assert_true(f >= 0);
    close(f);
    f = openat(fd, "a/g", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    assert_true(f >= 0);
    close(f);
}

static int setup(void **state)
{
    struct fix *fx = calloc(1, sizeof *fx);
    assert_non_null(tu_scratch_dir(fx->dir, sizeof fx->dir, "beneath"));
    int top = open(fx->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(top >= 0);
    assert_int_equal(mkdirat(top, "tree", 0755), 0);
    assert_int_equal(mkdirat(top, "decoy", 0755), 0);
    fx->root = openat(top, "tree", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    fx->decoy = openat(top, "decoy", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    close(top);
    make_names(fx->root);
    make_names(fx->decoy);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fix *fx = *state;
    close(fx->root);
    close(fx->decoy);
    assert_int_equal(tu_rm_tree(fx->dir), 0);
    free(fx);
    return 0;
}

/* -errno of an open, or 0 (the fd closed). */
static int try_open(open_fn fn, int dirfd, const char *path, int flags)
{
    int fd = fn(dirfd, path, flags, 0644);
    if (fd < 0)
        return -errno;
    close(fd);
    return 0;
}

/* Replaces tree component `comp` ("a", "a/b", ...) by a symlink to the decoy's, runs the
 * checks, and puts it back. */
static void swap(struct fix *fx, const char *comp, bool on)
{
    char away[64], target[512];
    snprintf(away, sizeof away, "%s.away", comp);
    if (on) {
        assert_int_equal(renameat(fx->root, comp, fx->root, away), 0);
        snprintf(target, sizeof target, "%s/decoy/%s", fx->dir, comp);
        assert_int_equal(symlinkat(target, fx->root, comp), 0);
    } else {
        assert_int_equal(unlinkat(fx->root, comp, 0), 0);
        assert_int_equal(renameat(fx->root, away, fx->root, comp), 0);
    }
}

static void check_resolver(struct fix *fx, open_fn fn)
{
    /* what is there opens */
    assert_int_equal(try_open(fn, fx->root, "a", O_RDONLY | O_DIRECTORY), 0);
    assert_int_equal(try_open(fn, fx->root, "a/b/c", O_RDONLY | O_DIRECTORY), 0);
    assert_int_equal(try_open(fn, fx->root, "a/b/c/", O_RDONLY | O_DIRECTORY), 0);
    assert_int_equal(try_open(fn, fx->root, "a//b", O_RDONLY | O_DIRECTORY), 0);
    assert_int_equal(try_open(fn, fx->root, "a/b/c/f", O_RDONLY), 0);
    assert_int_equal(try_open(fn, fx->root, ".", O_RDONLY | O_DIRECTORY), 0);
    assert_int_equal(try_open(fn, fx->root, "a/./b", O_RDONLY | O_DIRECTORY), 0);
    /* a symlink at each component: ELOOP, for a directory and for a file */
    static const char *const comps[] = {"a", "a/b", "a/b/c"};
    for (size_t i = 0; i < 3; i++) {
        swap(fx, comps[i], true);
        assert_int_equal(try_open(fn, fx->root, "a/b/c", O_RDONLY | O_DIRECTORY), -ELOOP);
        assert_int_equal(try_open(fn, fx->root, "a/b/c/f", O_RDONLY), -ELOOP);
        assert_int_equal(try_open(fn, fx->root, "a/b/c/new", O_CREAT | O_EXCL | O_WRONLY),
                         -ELOOP);
        swap(fx, comps[i], false);
    }
    assert_int_equal(symlinkat("c", fx->root, "a/b/l"), 0);
    assert_int_equal(try_open(fn, fx->root, "a/b/l", O_RDONLY), -ELOOP);
    assert_int_equal(try_open(fn, fx->root, "a/b/l", O_RDONLY | O_DIRECTORY), -ELOOP);
    assert_int_equal(try_open(fn, fx->root, "a/b/l/f", O_RDONLY), -ELOOP);
    assert_int_equal(unlinkat(fx->root, "a/b/l", 0), 0);
    struct stat sb;
    assert_int_equal(fstatat(fx->decoy, "a/b/c/new", &sb, 0), -1);
    /* a new file below real directories is made */
    assert_int_equal(try_open(fn, fx->root, "a/b/c/new", O_CREAT | O_EXCL | O_WRONLY), 0);
    assert_int_equal(unlinkat(fx->root, "a/b/c/new", 0), 0);
    /* .., absolute, empty */
    assert_int_equal(try_open(fn, fx->root, "..", O_RDONLY | O_DIRECTORY), -EXDEV);
    assert_int_equal(try_open(fn, fx->root, "a/..", O_RDONLY | O_DIRECTORY), -EXDEV);
    assert_int_equal(try_open(fn, fx->root, "a/../a", O_RDONLY | O_DIRECTORY), -EXDEV);
    assert_int_equal(try_open(fn, fx->root, "../decoy/a", O_RDONLY | O_DIRECTORY), -EXDEV);
    assert_int_equal(try_open(fn, fx->root, fx->dir, O_RDONLY | O_DIRECTORY), -EXDEV);
    assert_int_equal(try_open(fn, fx->root, "", O_RDONLY), -ENOENT);
    /* a file where a directory is expected */
    assert_int_equal(try_open(fn, fx->root, "a/g/x", O_RDONLY), -ENOTDIR);
    assert_int_equal(try_open(fn, fx->root, "a/g", O_RDONLY | O_DIRECTORY), -ENOTDIR);
    assert_int_equal(try_open(fn, fx->root, "a/missing/x", O_RDONLY), -ENOENT);
    /* too long for one call */
    char *huge = malloc(PATH_MAX + 8);
    size_t n = 0;
    while (n < PATH_MAX + 2)
        n += (size_t)sprintf(huge + n, "a/");
    assert_int_equal(try_open(fn, fx->root, huge, O_RDONLY | O_DIRECTORY), -ENAMETOOLONG);
    free(huge);
}

static int walk_fn(int dirfd, const char *path, int flags, mode_t mode)
{
    return os_open_beneath_walk(dirfd, path, flags, mode);
}

static void test_open_beneath(void **state)
{
    check_resolver(*state, os_open_beneath);
}

static void test_walk(void **state)
{
    check_resolver(*state, walk_fn);
}

static void test_kind_and_stat(void **state)
{
    struct fix *fx = *state;
    assert_int_equal(os_beneath_kind("a"), OS_BENEATH_NAME);
    assert_int_equal(os_beneath_kind("a/"), OS_BENEATH_NAME);
    assert_int_equal(os_beneath_kind("."), OS_BENEATH_NAME);
    assert_int_equal(os_beneath_kind("a/b"), OS_BENEATH_PATH);
    assert_int_equal(os_beneath_kind("..a/b.."), OS_BENEATH_PATH);
    assert_int_equal(os_beneath_kind(".."), -EXDEV);
    assert_int_equal(os_beneath_kind("a/../b"), -EXDEV);
    assert_int_equal(os_beneath_kind("a/.."), -EXDEV);
    assert_int_equal(os_beneath_kind("/a"), -EXDEV);
    assert_int_equal(os_beneath_kind(""), -ENOENT);
    struct stat sb;
    assert_int_equal(os_stat_beneath(fx->root, "a/b/c/f", &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    assert_int_equal(os_stat_beneath(fx->root, "a", &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    swap(fx, "a/b", true);
    assert_int_equal(os_stat_beneath(fx->root, "a/b", &sb), 0);
    assert_true(S_ISLNK(sb.st_mode)); /* the link itself */
    assert_int_equal(os_stat_beneath(fx->root, "a/b/c/f", &sb), -1);
    assert_int_equal(errno, ELOOP);
    swap(fx, "a/b", false);
    assert_int_equal(os_stat_beneath(fx->root, "a/..", &sb), -1);
    assert_int_equal(errno, EXDEV);
}

/* The engine's opendir resolves beneath too; ".." alone is its parent. */
static void test_engine_opendir(void **state)
{
    struct fix *fx = *state;
    struct eng_worker w = {0};
    assert_non_null(tu_worker_stats(&w));
    int fd = engine_posix.opendir(&w, fx->root, "a/b/c");
    assert_true(fd >= 0);
    int up = engine_posix.opendir(&w, fd, "..");
    assert_true(up >= 0);
    struct stat x, y;
    assert_int_equal(fstat(up, &x), 0);
    assert_int_equal(fstatat(fx->root, "a/b", &y, 0), 0);
    assert_int_equal(x.st_ino, y.st_ino);
    engine_posix.close(&w, up);
    engine_posix.close(&w, fd);
    swap(fx, "a", true);
    assert_int_equal(engine_posix.opendir(&w, fx->root, "a/b/c"), -ELOOP);
    assert_int_equal(engine_posix.opendir(&w, fx->root, "a"), -ELOOP);
    swap(fx, "a", false);
    assert_int_equal(engine_posix.opendir(&w, fx->root, "a/../a"), -EXDEV);
    assert_int_equal(w.st->count[OP_OPEN], 5);
    free(w.st);
}

/* Root only: a tmpfs mounted on a/b/c (and on Linux a bind mount of the decoy on a/b) is
 * not crossed. */
static void test_mount_point(void **state)
{
    struct fix *fx = *state;
    if (geteuid() != 0) {
        print_message("# skipped: mounting needs root\n");
        skip();
    }
    char mnt[512], src[512];
    snprintf(mnt, sizeof mnt, "%s/tree/a/b/c", fx->dir);
    if (mount("fsbench-ut", mnt, "tmpfs", 0, "size=1m") < 0) {
        print_message("# skipped: cannot mount a tmpfs: %s\n", strerror(errno));
        skip();
    }
    /* results first, assertions after the unmount: a failure leaves nothing mounted */
    open_fn fns[] = {os_open_beneath, walk_fn};
    int got[2][3];
    for (int i = 0; i < 2; i++) {
        got[i][0] = try_open(fns[i], fx->root, "a/b/c", O_RDONLY | O_DIRECTORY);
        got[i][1] = try_open(fns[i], fx->root, "a/b/c/x", O_CREAT | O_WRONLY);
        int b = openat(fx->root, "a/b", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        got[i][2] = try_open(fns[i], b, "c", O_RDONLY | O_DIRECTORY);
        close(b);
    }
    struct stat sb;
    int st_rc = os_stat_beneath(fx->root, "a/b/c", &sb) < 0 ? -errno : 0;
    assert_int_equal(umount(mnt), 0);
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 3; k++)
            assert_int_equal(got[i][k], -EXDEV);
    assert_int_equal(st_rc, -EXDEV);
#ifndef FSBENCH_OS_POSIX_ONLY
    /* a bind mount of the same file system: openat2 sees it, an fstat cannot */
    snprintf(mnt, sizeof mnt, "%s/tree/a/b", fx->dir);
    snprintf(src, sizeof src, "%s/decoy/a/b", fx->dir);
    assert_int_equal(mount(src, mnt, NULL, MS_BIND, NULL), 0);
    int rc = try_open(os_open_beneath, fx->root, "a/b/c", O_RDONLY | O_DIRECTORY);
    int rc1 = try_open(os_open_beneath, fx->root, "a/b", O_RDONLY | O_DIRECTORY);
    assert_int_equal(umount(mnt), 0);
    assert_int_equal(rc, -EXDEV);
    assert_int_equal(rc1, -EXDEV);
#else
    (void)src;
#endif
}

#ifndef FSBENCH_OS_POSIX_ONLY
/* In a child whose seccomp filter answers openat2 with ENOSYS (a kernel before 5.6): the
 * resolver falls back to the walk and still refuses symlinks. */
static void test_enosys_fallback(void **state)
{
    struct fix *fx = *state;
    swap(fx, "a/b", true);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct sock_filter f[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_fprog prog = {.len = sizeof f / sizeof f[0], .filter = f};
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
            prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
            _exit(2);
        struct open_how_probe {
            uint64_t flags, mode, resolve;
        } how = {0};
        if (syscall(SYS_openat2, fx->root, "a", &how, sizeof how) >= 0 || errno != ENOSYS)
            _exit(3); /* the filter does not work here */
        int bad = 0;
        bad |= try_open(os_open_beneath, fx->root, "a/b/c", O_RDONLY | O_DIRECTORY) != -ELOOP;
        bad |= try_open(os_open_beneath, fx->root, "a/b/c/f", O_RDONLY) != -ELOOP;
        bad |= try_open(os_open_beneath, fx->root, "a", O_RDONLY | O_DIRECTORY) != 0;
        bad |= try_open(os_open_beneath, fx->root, "a/g", O_RDONLY) != 0;
        _exit(bad ? 1 : 0);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    swap(fx, "a/b", false);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) == 2 || WEXITSTATUS(st) == 3) {
        print_message("# skipped: no seccomp filter here (%d)\n", WEXITSTATUS(st));
        skip();
    }
    assert_int_equal(WEXITSTATUS(st), 0);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_open_beneath, setup, teardown),
        cmocka_unit_test_setup_teardown(test_walk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kind_and_stat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_opendir, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mount_point, setup, teardown),
#ifndef FSBENCH_OS_POSIX_ONLY
        cmocka_unit_test_setup_teardown(test_enosys_fallback, setup, teardown),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
