/* test_target.c — unit tests of the target module (target.c): sizes, mount-option parsing,
 * refusals that need no privilege, and, as root, a full cycle on a 64 MiB ext4 image (create,
 * mkfs, mount with options, write, umount, mount again, the device checks on a used loop
 * device, destroy) that must leave no mount, loop device, image or directory behind.
 *
 * Root-only tests skip with a reason otherwise. Every test's teardown calls
 * target_destroy_all(), so a failed assertion cannot leave a loop device attached.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/err.h"
#include "target/target.h"

/* ---- sizes ---- */

static void test_parse_size_good(void **state)
{
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = {
        {"1048576", 1048576},
        {"1", 1},
        {"1B", 1},
        {"16k", 16384},
        {"1K", 1024},
        {"256M", 256ull << 20},
        {"512MiB", 512ull << 20},
        {"4G", 4ull << 30},
        {"4g", 4ull << 30},
        {"4GB", 4ull << 30},
        {"4GiB", 4ull << 30},
        {"2T", 2ull << 40},
        {"16777215T", 16777215ull << 40},
        {"18446744073709551615", UINT64_MAX},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 0;
        if (target_parse_size(good[i].s, &v) != 0 || v != good[i].v)
            fail_msg("'%s' gave %llu", good[i].s, (unsigned long long)v);
    }
}

static void test_parse_size_bad(void **state)
{
    static const char *bad[] = {
        "",
        "0",
        "0G",
        "-1",
        " 1G",
        "+1G",
        "1.5G",
        "4X",
        "4GG",
        "4G ",
        "4Gi",
        "4iB",
        "G",
        "4 G",
        "4BB",
        "0x10",
        "18446744073709551616",
        "99999999999999999999",
        "16777216T",
        "17179869184G",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 42;
        if (target_parse_size(bad[i], &v) != -1)
            fail_msg("'%s' accepted as %llu", bad[i], (unsigned long long)v);
        assert_int_equal(v, 42);
    }
    uint64_t v;
    assert_int_equal(target_parse_size(NULL, &v), -1);
}

/* ---- mount options ---- */

static void check_opts(const char *opts, unsigned long want_flags, const char *want_data)
{
#ifdef FSBENCH_OS_POSIX_ONLY
    /* no flag words without a mount call: everything but "defaults" goes to the data */
    want_flags = 0;
    want_data = opts && strcmp(opts, "defaults") ? opts : "";
#endif
    unsigned long flags = 12345;
    char data[256];
    memset(data, 'x', sizeof data);
    assert_int_equal(target_parse_mount_opts(opts, &flags, data, sizeof data), 0);
    if (flags != want_flags || strcmp(data, want_data))
        fail_msg("'%s': flags %#lx data '%s', want %#lx '%s'", opts ? opts : "(null)", flags, data,
                 want_flags, want_data);
}

static void test_mount_opts(void **state)
{
    check_opts(NULL, 0, "");
    check_opts("", 0, "");
    check_opts("defaults", 0, "");
    check_opts("noatime,data=journal", MS_NOATIME, "data=journal");
    check_opts("sync", MS_SYNCHRONOUS, "");
    check_opts("sync,async", 0, "");
    check_opts("async", 0, "");
    check_opts("ro", MS_RDONLY, "");
    check_opts("ro,rw", 0, "");
    check_opts("data=journal", 0, "data=journal");
    check_opts("noatime,nobarrier", MS_NOATIME, "nobarrier");
    check_opts("compress=zstd,commit=60,noatime", MS_NOATIME, "compress=zstd,commit=60");
    check_opts(",,noatime,,nobarrier,", MS_NOATIME, "nobarrier");
    check_opts("defaults,dirsync", MS_DIRSYNC, "");
    check_opts("nodiratime,relatime", MS_NODIRATIME | MS_RELATIME, "");
    check_opts("strictatime,lazytime", MS_STRICTATIME | MS_LAZYTIME, "");
    check_opts("noatime,atime", 0, "");
    check_opts("nodev,nosuid,noexec,mand", MS_NODEV | MS_NOSUID | MS_NOEXEC | MS_MANDLOCK, "");
    check_opts("nodev,dev", 0, "");
    /* prefixes of flag words are data, not flags */
    check_opts("noatim,syncx", 0, "noatim,syncx");

    unsigned long flags;
    char small[8];
    assert_int_equal(target_parse_mount_opts("commit=60", &flags, small, sizeof small), -1);
    assert_int_equal(target_parse_mount_opts("a=1,b=2", &flags, small, sizeof small), 0);
    assert_string_equal(small, "a=1,b=2");
    assert_int_equal(target_parse_mount_opts("a=1,b=22", &flags, small, sizeof small), -1);
}

/* ---- refusals without privilege ---- */

static void test_refusals(void **state)
{
    assert_int_equal(target_destroy(NULL), 0);
    assert_int_equal(target_check_device("/nonexistent/device", true), -1);
    assert_int_equal(target_check_device("/dev/null", true), -1); /* a char device */
    assert_int_equal(target_check_device("/etc/hostname", true), -1);
    assert_int_equal(target_check_fstype("no-such-fs"), -1);
    assert_int_equal(target_check_fstype("../../bin/sh"), -1);
    assert_int_equal(target_check_fstype(""), -1);
    struct target_spec spec = {.device = "/dev/null", .fstype = "ext4"};
    assert_null(target_create(&spec)); /* no destroy_data */
    struct target_spec none = {.fstype = "ext4"};
    assert_null(target_create(&none)); /* neither image nor device */
    struct target_spec both = {.image_bytes = 1 << 20, .device = "/dev/null"};
    assert_null(target_create(&both));
    assert_int_equal(target_destroy_all(), 0);
}

/* ---- the full cycle (root) ---- */

static char tmpdir[PATH_MAX];

static int teardown_root(void **state)
{
    target_destroy_all();
    if (tmpdir[0]) {
        char cmd[PATH_MAX + 32];
        /* only our own mkdtemp directory; normally already empty */
        if (rmdir(tmpdir) < 0 && errno != ENOENT) {
            snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
            if (system(cmd) != 0)
                fprintf(stderr, "# could not remove %s\n", tmpdir);
        }
        tmpdir[0] = '\0';
    }
    return 0;
}

static bool mkfs_ext4_present(void)
{
    return system("PATH=$PATH:/usr/sbin:/sbin command -v mkfs.ext4 >/dev/null 2>&1") == 0;
}

/* The mountinfo line of mount point mp, or "" if it is not mounted. */
static void mountinfo_of(const char *mp, char *out, size_t len)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    char line[4096], p[PATH_MAX];
    out[0] = '\0';
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%*s %*s %*s %*s %4095s", p) == 1 && !strcmp(p, mp))
            snprintf(out, len, "%s", line);
    fclose(f);
}

/* The backing file of /dev/loopN, or "" when it is detached. */
static void backing_of(const char *dev, char *out, size_t len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "/sys/block/%s/loop/backing_file", strrchr(dev, '/') + 1);
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(out, (int)len, f))
        out[strcspn(out, "\n")] = '\0';
    fclose(f);
}

static void test_image_cycle(void **state)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/fsbench-unit.XXXXXX", base && *base ? base : "/tmp");
    assert_non_null(mkdtemp(tmpdir));

    struct target_spec spec = {.image_bytes = 64ull << 20,
                               .image_dir = tmpdir,
                               .fstype = "ext4",
                               .mkfs_opts = "-b 4096  -E nodiscard"};
    struct target *t = target_create(&spec);
    assert_non_null(t);
    char dev[64], mnt[PATH_MAX], dir[PATH_MAX], image[PATH_MAX], line[4096], back[PATH_MAX];
    snprintf(dev, sizeof dev, "%s", target_device(t));
    snprintf(mnt, sizeof mnt, "%s", target_mount_point(t));
    assert_int_equal(strncmp(dev, "/dev/loop", 9), 0);
    assert_int_equal(strncmp(mnt, tmpdir, strlen(tmpdir)), 0);
    snprintf(dir, sizeof dir, "%s", mnt);
    *strrchr(dir, '/') = '\0';
    assert_non_null(strstr(dir, "/fsbench-target."));
    snprintf(image, sizeof image, "%s/image", dir);
    struct stat st;
    assert_int_equal(stat(image, &st), 0);
    assert_int_equal(st.st_size, 64 << 20);
    assert_true(st.st_blocks == 0); /* sparse */
    backing_of(dev, back, sizeof back);
    assert_string_equal(back, image);
    assert_false(target_is_mounted(t));

    assert_int_equal(target_mkfs(t), 0);
    assert_int_equal(target_mount(t, "noatime,data=journal"), 0);
    assert_true(target_is_mounted(t));
    mountinfo_of(mnt, line, sizeof line);
    assert_non_null(strstr(line, "noatime"));
    assert_non_null(strstr(line, "data=journal"));
    assert_non_null(strstr(line, " ext4 "));
    assert_int_equal(target_mount(t, NULL), -1); /* already mounted */
    assert_int_equal(target_mkfs(t), -1);        /* never mkfs a mounted device */

    char file[PATH_MAX];
    snprintf(file, sizeof file, "%s/hello", mnt);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("fsbench\n", f);
    assert_int_equal(fclose(f), 0);

    /* a mounted device is refused, even with force */
    assert_int_equal(target_check_device(dev, false), -1);
    assert_int_equal(target_check_device(dev, true), -1);

    assert_int_equal(target_umount(t), 0);
    assert_false(target_is_mounted(t));
    mountinfo_of(mnt, line, sizeof line);
    assert_string_equal(line, "");
    assert_int_equal(target_umount(t), 0); /* no-op */

    /* an unmounted device with an ext4 signature: refused unless forced */
    assert_int_equal(target_check_device(dev, false), -1);
    assert_int_equal(target_check_device(dev, true), 0);

    /* a bad option fails cleanly and leaves it unmounted */
    assert_int_equal(target_mount(t, "data=nonsense"), -1);
    assert_false(target_is_mounted(t));

    assert_int_equal(target_mount(t, "defaults"), 0);
    f = fopen(file, "r");
    assert_non_null(f);
    char buf[32] = "";
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "fsbench\n");

    /* destroy while mounted: unmounts, detaches, removes */
    assert_int_equal(target_destroy(t), 0);
    mountinfo_of(mnt, line, sizeof line);
    assert_string_equal(line, "");
    backing_of(dev, back, sizeof back); /* detached, or someone else's by now */
    assert_string_not_equal(back, image);
    assert_int_equal(stat(image, &st), -1);
    assert_int_equal(stat(dir, &st), -1);
    assert_int_equal(rmdir(tmpdir), 0); /* nothing else was left in it */
    tmpdir[0] = '\0';
}

static void test_mkfs_failure_and_destroy_all(void **state)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/fsbench-unit.XXXXXX", base && *base ? base : "/tmp");
    assert_non_null(mkdtemp(tmpdir));

    struct target_spec spec = {.image_bytes = 16ull << 20,
                               .image_dir = tmpdir,
                               .fstype = "ext4",
                               .mkfs_opts = "-I 100"}; /* allowed, but no inode size */
    struct target *a = target_create(&spec);
    assert_non_null(a);
    assert_int_equal(target_mkfs(a), -1); /* mkfs.ext4 fails */
    assert_int_equal(target_set_fs(a, "no-such-fs"), -1);
    spec.mkfs_opts = NULL;
    struct target *b = target_create(&spec);
    assert_non_null(b);
    assert_ptr_not_equal(a, b);
    assert_string_not_equal(target_device(a), target_device(b));
    assert_int_equal(target_mkfs(b), 0);
    assert_int_equal(target_mount(b, "sync"), 0);
    char mnt[PATH_MAX], line[4096];
    snprintf(mnt, sizeof mnt, "%s", target_mount_point(b));

    assert_int_equal(target_destroy_all(), 0);
    mountinfo_of(mnt, line, sizeof line);
    assert_string_equal(line, "");
    assert_int_equal(rmdir(tmpdir), 0); /* both directories removed */
    tmpdir[0] = '\0';
    assert_int_equal(target_destroy_all(), 0); /* idempotent */
}

/* A fault's release (target_release_on_fault, run in the signal handler) says nothing, even
 * where target_destroy() would (a busy mount, unmounted lazily), and leaves what it cannot
 * release for target_destroy_all() from the main flow. */
static void test_release_on_fault_quiet(void **state)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/fsbench-unit.XXXXXX", base && *base ? base : "/tmp");
    assert_non_null(mkdtemp(tmpdir));
    struct target_spec spec = {.image_bytes = 16ull << 20, .image_dir = tmpdir, .fstype = "ext4"};
    struct target *t = target_create(&spec);
    assert_non_null(t);
    assert_int_equal(target_mkfs(t), 0);
    assert_int_equal(target_mount(t, NULL), 0);
    char mnt[PATH_MAX], file[PATH_MAX + 8], line[4096], msg[512] = "";
    snprintf(mnt, sizeof mnt, "%s", target_mount_point(t));
    snprintf(file, sizeof file, "%s/busy", mnt);
    int fd = open(file, O_CREAT | O_RDWR | O_CLOEXEC, 0600); /* keeps the mount busy */
    assert_true(fd >= 0);
    err_capture_begin(msg, sizeof msg);
    target_release_on_fault();
    err_capture_end();
    assert_string_equal(msg, ""); /* no error(), warning() or formatting in a handler */
    mountinfo_of(mnt, line, sizeof line);
    assert_string_equal(line, ""); /* unmounted (lazily) */
    close(fd);
    assert_int_equal(target_destroy_all(), 0);
    assert_int_equal(rmdir(tmpdir), 0); /* everything else went too */
    tmpdir[0] = '\0';
}

#ifdef FSBENCH_OS_POSIX_ONLY
/* The POSIX build has no loop devices: an image target fails with one clear line, leaving
 * nothing behind, and no device passes the checks it cannot make. */
static void test_image_unsupported(void **state)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/fsbench-unit.XXXXXX", base && *base ? base : "/tmp");
    assert_non_null(mkdtemp(tmpdir));
    struct target_spec spec = {.image_bytes = 16ull << 20, .image_dir = tmpdir, .fstype = "ext4"};
    char msg[512] = "";
    err_capture_begin(msg, sizeof msg);
    struct target *t = target_create(&spec);
    err_capture_end();
    assert_null(t);
    assert_non_null(strstr(msg, "Linux")); /* "mounting ext4 needs Linux: ..." */
    assert_int_equal(rmdir(tmpdir), 0); /* empty again: the target removed what it made */
    tmpdir[0] = '\0';
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(target_check_device("/dev/null", true), -1);
    err_capture_end();
    assert_non_null(strstr(msg, "needs Linux"));
}
#endif

/* cmocka 1.1 reports skip() as "not ok N # SKIP", which prove counts as a failure, so the
 * root tests are left out of the plan with a reason instead. */
int main(void)
{
#ifdef FSBENCH_OS_POSIX_ONLY
    const bool posix_only = true;
#else
    const bool posix_only = false;
#endif
    err_set_quiet(getenv("TEST_TARGET_VERBOSE") == NULL);
    const struct CMUnitTest unprivileged[] = {
        cmocka_unit_test(test_parse_size_good),
        cmocka_unit_test(test_parse_size_bad),
        cmocka_unit_test(test_mount_opts),
        cmocka_unit_test_teardown(test_refusals, teardown_root),
#ifdef FSBENCH_OS_POSIX_ONLY
        cmocka_unit_test(test_image_unsupported),
#endif
    };
    const struct CMUnitTest all[] = {
        cmocka_unit_test(test_parse_size_good),
        cmocka_unit_test(test_parse_size_bad),
        cmocka_unit_test(test_mount_opts),
        cmocka_unit_test_teardown(test_refusals, teardown_root),
        cmocka_unit_test_teardown(test_image_cycle, teardown_root),
        cmocka_unit_test_teardown(test_mkfs_failure_and_destroy_all, teardown_root),
        cmocka_unit_test_teardown(test_release_on_fault_quiet, teardown_root),
    };
    const char *why = posix_only             ? "this build has no loop devices or mount (Linux)"
                      : geteuid() != 0         ? "they need root (loop devices, mkfs, mount)"
                      : !mkfs_ext4_present() ? "they need mkfs.ext4 (e2fsprogs)"
                                             : NULL;
    if (!why)
        return cmocka_run_group_tests(all, NULL, NULL);
    printf("# skip: test_image_cycle, test_mkfs_failure_and_destroy_all: %s\n", why);
    return cmocka_run_group_tests(unprivileged, NULL, NULL);
}
