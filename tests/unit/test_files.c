/* test_files.c — unit tests of src/base/infile.c and src/base/outfile.c: input files must be
 * regular files read with a size limit (devices, FIFOs and directories refused without
 * blocking; a symlink to a regular file is fine), and output is written by a temporary
 * and a rename: a failure leaves the old file as it was, a device is written in place and
 * never removed, a symlink keeps pointing at the replaced file, modes are kept.
 */
#include "testutil.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "base/err.h"
#include "base/infile.h"
#include "base/outfile.h"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    return tu_scratch_dir(dir, sizeof dir, "files") ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return tu_rm_tree(dir);
}

static const char *at(const char *name)
{
    static char p[4][512];
    static int i;
    char *s = p[i++ % 4];
    snprintf(s, 512, "%s/%s", dir, name);
    return s;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void test_infile_kinds(void **state)
{
    (void)state;
    char why[128], *text;
    size_t len;
    write_file(at("job.ini"), "a = 1\n");
    assert_int_equal(infile_read(at("job.ini"), INFILE_TEXT_MAX, &text, &len, why, sizeof why), 0);
    assert_int_equal(len, 6);
    assert_string_equal(text, "a = 1\n");
    free(text);
    /* a symlink to a regular file is read; one to a device is not */
    assert_int_equal(symlink(at("job.ini"), at("link.ini")), 0);
    assert_int_equal(infile_read(at("link.ini"), INFILE_TEXT_MAX, &text, &len, why, sizeof why), 0);
    free(text);
    assert_int_equal(symlink("/dev/zero", at("zero.ini")), 0);
    assert_int_equal(infile_read(at("zero.ini"), INFILE_TEXT_MAX, &text, &len, why, sizeof why),
                     -1);
    assert_string_equal(why, "not a regular file (a character device)");
    assert_null(text);
    assert_int_equal(infile_read("/dev/urandom", INFILE_TEXT_MAX, &text, &len, why, sizeof why),
                     -1);
    assert_string_equal(why, "not a regular file (a character device)");
    /* a FIFO is refused at once, not waited on */
    assert_int_equal(mkfifo(at("fifo.ini"), 0600), 0);
    assert_int_equal(infile_read(at("fifo.ini"), INFILE_TEXT_MAX, &text, &len, why, sizeof why),
                     -1);
    assert_string_equal(why, "not a regular file (a FIFO)");
    assert_int_equal(infile_read(dir, INFILE_TEXT_MAX, &text, &len, why, sizeof why), -1);
    assert_string_equal(why, "not a regular file (a directory)");
    assert_int_equal(infile_read(at("none.ini"), INFILE_TEXT_MAX, &text, &len, why, sizeof why),
                     -1);
    assert_string_equal(why, strerror(ENOENT));
    assert_int_equal(infile_open(at("fifo.ini"), why, sizeof why), -1);
    int fd = infile_open(at("job.ini"), why, sizeof why);
    assert_true(fd >= 0);
    close(fd);
}

static void test_infile_limit(void **state)
{
    (void)state;
    char why[128], *text;
    size_t len;
    write_file(at("big"), "0123456789");
    assert_int_equal(infile_read(at("big"), 10, &text, &len, why, sizeof why), 0);
    free(text);
    assert_int_equal(infile_read(at("big"), 9, &text, &len, why, sizeof why), -1);
    assert_string_equal(why, "larger than 9 bytes");
    char buf[32];
    assert_string_equal(infile_limit_str(INFILE_TEXT_MAX, buf, sizeof buf), "1 MiB");
    assert_string_equal(infile_limit_str(INFILE_JSON_MAX, buf, sizeof buf), "256 MiB");
    /* NULs are kept for the caller to name */
    FILE *f = fopen(at("nul"), "w");
    fwrite("a\0b", 1, 3, f);
    fclose(f);
    assert_int_equal(infile_read(at("nul"), 10, &text, &len, why, sizeof why), 0);
    assert_int_equal(len, 3);
    assert_memory_equal(text, "a\0b", 4);
    free(text);
}

static char *slurp(const char *path)
{
    char why[128], *text;
    size_t len;
    return infile_read(path, 1 << 20, &text, &len, why, sizeof why) == 0 ? text : NULL;
}

static int entries(void)
{
    return tu_count_dir(opendir(dir));
}

static void test_outfile_replace(void **state)
{
    (void)state;
    struct outfile o;
    write_file(at("out.json"), "old\n");
    chmod(at("out.json"), 0640);
    int before = entries();
    assert_int_equal(outfile_open(&o, at("out.json"), "test"), 0);
    fputs("new\n", o.f);
    /* nothing replaced until the commit; the old text is whole meanwhile */
    char *t = slurp(at("out.json"));
    assert_string_equal(t, "old\n");
    free(t);
    assert_int_equal(outfile_commit(&o), 0);
    t = slurp(at("out.json"));
    assert_string_equal(t, "new\n");
    free(t);
    struct stat st;
    assert_int_equal(stat(at("out.json"), &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    assert_int_equal(entries(), before); /* no temporary left */
    /* discarded: the old file stays, the temporary goes */
    assert_int_equal(outfile_open(&o, at("out.json"), "test"), 0);
    fputs("half", o.f);
    outfile_discard(&o);
    t = slurp(at("out.json"));
    assert_string_equal(t, "new\n");
    free(t);
    assert_int_equal(entries(), before);
    /* through a symlink: the file it names is replaced, the link stays a link */
    assert_int_equal(symlink("out.json", at("out-link.json")), 0);
    assert_int_equal(outfile_open(&o, at("out-link.json"), "test"), 0);
    fputs("linked\n", o.f);
    assert_int_equal(outfile_commit(&o), 0);
    assert_int_equal(lstat(at("out-link.json"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    t = slurp(at("out.json"));
    assert_string_equal(t, "linked\n");
    free(t);
    /* someone else's symlink is not followed: the link is replaced, its target kept */
    if (geteuid() == 0 && lchown(at("out-link.json"), 65534, 65534) == 0) {
        assert_int_equal(outfile_open(&o, at("out-link.json"), "test"), 0);
        fputs("mine\n", o.f);
        assert_int_equal(outfile_commit(&o), 0);
        assert_int_equal(lstat(at("out-link.json"), &st), 0);
        assert_true(S_ISREG(st.st_mode));
        t = slurp(at("out.json"));
        assert_string_equal(t, "linked\n");
        free(t);
    }
}

static void test_outfile_devices(void **state)
{
    (void)state;
    struct outfile o;
    char msg[256];
    /* a full device: written in place, the failure said, the device never removed. A node
     * of our own where we may make one (root): a regression removes nothing of the system's */
    const char *full = "/dev/full";
    if (mknod(at("full"), S_IFCHR | 0600, makedev(1, 7)) == 0)
        full = at("full");
    assert_int_equal(outfile_open(&o, full, "test"), 0);
    assert_null(o.tmp);
    for (int i = 0; i < 1000; i++)
        fputs("0123456789abcdef", o.f);
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(outfile_commit(&o), -1);
    err_capture_end();
    char want[600];
    snprintf(want, sizeof want, "test: %s: write failed: No space left on device", full);
    assert_string_equal(msg, want);
    struct stat st;
    assert_int_equal(stat(full, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    /* a symlink to a device: written through, the link kept */
    assert_int_equal(symlink("/dev/null", at("null-link")), 0);
    assert_int_equal(outfile_open(&o, at("null-link"), "test"), 0);
    fputs("x", o.f);
    assert_int_equal(outfile_commit(&o), 0);
    assert_int_equal(lstat(at("null-link"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(outfile_open(&o, dir, "test"), -1);
    err_capture_end();
    assert_non_null(strstr(msg, "is a directory"));
}

static void test_outfile_same(void **state)
{
    (void)state;
    write_file(at("r.db"), "");
    assert_int_equal(link(at("r.db"), at("hard.db")), 0);
    assert_true(outfile_same(at("r.db"), at("hard.db")));
    assert_true(outfile_same(at("r.db"), at("./r.db")));
    assert_false(outfile_same(at("r.db"), at("other.db")));
    /* not made yet: the same resolved path */
    assert_true(outfile_same(at("r.db-wal"), at("./r.db-wal")));
    assert_false(outfile_same(at("r.db-wal"), at("r.db-shm")));
}

int main(void)
{
    err_set_quiet(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_infile_kinds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_infile_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_outfile_replace, setup, teardown),
        cmocka_unit_test_setup_teardown(test_outfile_devices, setup, teardown),
        cmocka_unit_test_setup_teardown(test_outfile_same, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
