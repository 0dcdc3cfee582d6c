/* test_prog.c — unit tests of running a program quietly (base/prog.h prog_run_quiet): its
 * exit status as a shell gives it (0, 1, 127 when it cannot be run, 128 + N when killed by
 * signal N), $PATH searched only when asked, its standard output not ours, and its CPU time
 * (with its children's) in the resource use it returns; prog_run_output keeps its standard
 * output (cut to the buffer) and not its error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/prog.h"

static void test_status(void **state)
{
    (void)state;
    char *ok[] = {"/bin/sh", "-c", "exit 0", NULL};
    char *three[] = {"/bin/sh", "-c", "exit 3", NULL};
    char *killed[] = {"/bin/sh", "-c", "kill -9 $$", NULL};
    char *missing[] = {"/nonexistent/fsbench-no-such-program", NULL};
    assert_int_equal(prog_run_quiet(ok, 0, NULL), 0);
    assert_int_equal(prog_run_quiet(three, 0, NULL), 3);
    assert_int_equal(prog_run_quiet(killed, 0, NULL), 128 + 9);
    assert_int_equal(prog_run_quiet(missing, 0, NULL), 127);
}

static void test_search(void **state)
{
    (void)state;
    char *bare[] = {"sh", "-c", "exit 5", NULL};
    assert_int_equal(prog_run_quiet(bare, 1, NULL), 5);   /* found in $PATH */
    assert_int_equal(prog_run_quiet(bare, 0, NULL), 127); /* not looked for */
}

/* Whether a command can be run, as execvp would find it: a name in $PATH, a path as it
 * is; a directory, a file without x, a missing one and an unknown name are not, each
 * with its reason. */
static void test_runnable(void **state)
{
    (void)state;
    char why[128];
    assert_int_equal(prog_runnable("sh", why, sizeof why), 0);
    assert_int_equal(prog_runnable("/bin/sh", why, sizeof why), 0);
    assert_int_equal(prog_runnable("no-such-command-anywhere", why, sizeof why), -1);
    assert_string_equal(why, "not found in $PATH");
    assert_int_equal(prog_runnable("/nonexistent/prog", why, sizeof why), -1);
    assert_string_equal(why, "No such file or directory");
    assert_int_equal(prog_runnable("/tmp", why, sizeof why), -1);
    assert_string_equal(why, "not an executable file");
    char f[] = "/tmp/test_prog_runnable.XXXXXX";
    int fd = mkstemp(f);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(prog_runnable(f, why, sizeof why), -1); /* mode 0600: not executable */
    assert_string_equal(why, "not an executable file");
    assert_int_equal(chmod(f, 0700), 0);
    assert_int_equal(prog_runnable(f, why, sizeof why), 0);
    unlink(f);
    /* only $PATH is searched, as execvp does: not /usr/sbin when PATH lacks it */
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", "/nonexistent-dir", 1);
    assert_int_equal(prog_runnable("sh", why, sizeof why), -1);
    if (old) {
        setenv("PATH", old, 1);
        free(old);
    } else {
        unsetenv("PATH");
    }
}

static void test_quiet_and_rusage(void **state)
{
    (void)state;
    /* its output goes to /dev/null: a closed standard output of ours would not matter, and
     * a file it writes by name proves it ran; a child's busy loop counts in ru */
    char path[] = "/tmp/fsbench-test-prog-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "echo out; echo err >&2; (i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done); "
             "echo ran > %s",
             path);
    char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    struct rusage ru = {0};
    assert_int_equal(prog_run_quiet(argv, 0, &ru), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 4); /* "ran\n" */
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
                 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    assert_true(cpu > 0.001); /* 20,000 rounds of the shell's loop take milliseconds */
    remove(path);
}

static void test_output(void **state)
{
    (void)state;
    char out[8];
    char *said[] = {"/bin/sh", "-c", "echo abc; echo not-this >&2; exit 1", NULL};
    assert_int_equal(prog_run_output(said, out, sizeof out), 1);
    assert_string_equal(out, "abc\n"); /* its standard output, not its error */
    char *long_one[] = {"/bin/sh", "-c", "echo 0123456789", NULL};
    assert_int_equal(prog_run_output(long_one, out, sizeof out), 0);
    assert_string_equal(out, "0123456"); /* the rest dropped, NUL-terminated */
    char *missing[] = {"/nonexistent/fsbench-no-such-program", NULL};
    assert_int_equal(prog_run_output(missing, out, sizeof out), 127);
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status),
        cmocka_unit_test(test_search),
        cmocka_unit_test(test_runnable),
        cmocka_unit_test(test_quiet_and_rusage),
        cmocka_unit_test(test_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
