/* test_signals.c — unit tests of how fsbench meets signals and a broken standard output:
 * base/sig.c (which signals stop a run, which are ignored, the fault path, children's
 * defaults, names), base/outcheck.c (a closed pipe said once) and os/lockfile (a lock held
 * by another open file). Everything that installs handlers runs in a forked child, so the
 * test runner keeps its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/err.h"
#include "base/outcheck.h"
#include "base/sig.h"
#include "os/lockfile.h"
#include "testutil.h"

/* Runs fn in a child: its exit status (a signal's death as 128 + the signal). */
static int in_child(int (*fn)(void))
{
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* the runner's own fault handlers would carry on with the tests in the child */
        static const int faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGTRAP};
        for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
            signal(faults[i], SIG_DFL);
        alarm(20); /* a child that hangs ends */
        _exit(fn());
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_names(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(sig_name(SIGTERM, b, sizeof b), "SIGTERM");
    assert_string_equal(sig_name(SIGQUIT, b, sizeof b), "SIGQUIT");
    assert_string_equal(sig_name(SIGRTMIN, b, sizeof b), "SIGRTMIN");
    assert_string_equal(sig_name(SIGRTMIN + 3, b, sizeof b), "SIGRTMIN+3");
    assert_string_equal(sig_name(SIGRTMAX - 2, b, sizeof b), "SIGRTMAX-2");
    assert_string_equal(sig_name(SIGRTMAX, b, sizeof b), "SIGRTMAX");
    assert_string_equal(sig_name(999, b, sizeof b), "signal 999");
}

static volatile atomic_int child_flag;

/* Every caught signal stores its number and the process goes on; SIGPIPE is ignored. */
static int raise_each(void)
{
    if (sig_install(&child_flag) < 0)
        return 10;
    for (size_t i = 0; sig_caught[i]; i++) {
        atomic_store(&child_flag, 0);
        raise(sig_caught[i]);
        if (atomic_load(&child_flag) != sig_caught[i])
            return 11;
    }
    for (int s = SIGRTMIN; s <= SIGRTMAX; s++) {
        atomic_store(&child_flag, 0);
        raise(s);
        if (atomic_load(&child_flag) != s)
            return 12;
    }
    atomic_store(&child_flag, 0);
    raise(SIGPIPE);
    if (atomic_load(&child_flag) != 0 || sig_stop_requested() != 0)
        return 13;
    raise(SIGUSR1);
    return sig_stop_requested() == SIGUSR1 ? 0 : 14;
}

static void test_caught_and_ignored(void **state)
{
    (void)state;
    assert_int_equal(in_child(raise_each), 0);
}

/* A signal ignored at start (nohup) stays ignored. */
static int keep_ignored(void)
{
    signal(SIGHUP, SIG_IGN);
    if (sig_install(&child_flag) < 0)
        return 10;
    raise(SIGHUP);
    if (atomic_load(&child_flag) != 0)
        return 11;
    raise(SIGTERM);
    return atomic_load(&child_flag) == SIGTERM ? 0 : 12;
}

static void test_ignored_stays_ignored(void **state)
{
    (void)state;
    assert_int_equal(in_child(keep_ignored), 0);
}

/* A child gets SIGPIPE's default back. */
static int child_reset(void)
{
    if (sig_install(&child_flag) < 0)
        return 10;
    sig_child_reset();
    struct sigaction cur;
    sigaction(SIGPIPE, NULL, &cur);
    return cur.sa_handler == SIG_DFL ? 0 : 11;
}

static void test_child_reset(void **state)
{
    (void)state;
    assert_int_equal(in_child(child_reset), 0);
}

/* A fault raised by the process itself runs the fatal functions, then kills it. */
static int fatal_pipe = -1;
static void fatal_fn(void)
{
    ssize_t w = write(fatal_pipe, "F", 1);
    (void)w;
}
static int self_fault(void)
{
    if (sig_install(&child_flag) < 0)
        return 10;
    sig_at_fatal(fatal_fn);
    raise(SIGSEGV);
    return 11; /* not reached */
}

static void test_fault_runs_fatal_then_dies(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    fatal_pipe = p[1];
    assert_int_equal(in_child(self_fault), 128 + SIGSEGV);
    close(p[1]);
    char c = 0;
    assert_int_equal(read(p[0], &c, 1), 1);
    assert_int_equal(c, 'F');
    close(p[0]);
}

/* A fault signal sent by another process is an interrupt: the child goes on. */
static void test_fault_sent_is_interrupt(void **state)
{
    (void)state;
    int ready[2], go[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(go), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (sig_install(&child_flag) < 0)
            _exit(10);
        ssize_t w = write(ready[1], "r", 1);
        (void)w;
        char c;
        while (atomic_load(&child_flag) == 0)
            if (read(go[0], &c, 1) < 0)
                continue; /* EINTR: the signal came */
        _exit(atomic_load(&child_flag) == SIGBUS ? 0 : 11);
    }
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(kill(pid, SIGBUS), 0);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
}

/* Standard output to a pipe whose reader is gone: -1 with one line, then -1 quietly. */
static int closed_stdout(void)
{
    int p[2];
    if (pipe(p) < 0)
        return 10;
    close(p[0]);
    signal(SIGPIPE, SIG_IGN);
    dup2(p[1], STDOUT_FILENO);
    printf("lost\n");
    char why[256] = "";
    err_capture_begin(why, sizeof why);
    int a = outcheck_stdout("2 runs are saved");
    err_capture_end();
    if (a != -1 || !strstr(why, "standard output was closed before the end") ||
        !strstr(why, ": 2 runs are saved"))
        return 11;
    why[0] = '\0';
    err_capture_begin(why, sizeof why);
    int b = outcheck_stdout(NULL);
    err_capture_end();
    return b == -1 && why[0] == '\0' ? 0 : 12;
}

static void test_outcheck_closed_pipe(void **state)
{
    (void)state;
    assert_int_equal(in_child(closed_stdout), 0);
    assert_int_equal(outcheck_stdout(NULL), 0); /* ours is fine */
}

/* A lock held by another process refuses ours until that process ends (flock and the
 * POSIX fallback's fcntl lock agree on that much). */
static void test_lockfile(void **state)
{
    (void)state;
    char dir[4096], path[4200];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "lock"));
    snprintf(path, sizeof path, "%s/l", dir);
    int ready[2], go[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(go), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(path, O_RDWR | O_CREAT, 0600);
        int rc = fd >= 0 ? os_lock_try(fd) : -1;
        ssize_t w = write(ready[1], rc == 0 ? "y" : "n", 1);
        char c;
        w = read(go[0], &c, 1); /* hold it until told */
        (void)w;
        _exit(0);
    }
    char c = 0;
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(c, 'y');
    int b = open(path, O_RDWR);
    assert_true(b >= 0);
    assert_int_equal(os_lock_try(b), 1);
    assert_int_equal(write(go[1], "g", 1), 1);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_int_equal(os_lock_try(b), 0);
    close(b);
    close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
    assert_int_equal(tu_rm_tree(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_caught_and_ignored),
        cmocka_unit_test(test_ignored_stays_ignored),
        cmocka_unit_test(test_child_reset),
        cmocka_unit_test(test_fault_runs_fatal_then_dies),
        cmocka_unit_test(test_fault_sent_is_interrupt),
        cmocka_unit_test(test_outcheck_closed_pipe),
        cmocka_unit_test(test_lockfile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
