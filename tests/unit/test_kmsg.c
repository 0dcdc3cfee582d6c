/* test_kmsg.c — unit tests of the kernel's reason for a refused mount (os/kmsg.h): records in
 * /dev/kmsg's form ("PRI,SEQ,TS,FLAGS;text", one a read) fed through a socket that keeps
 * them apart, as /dev/kmsg does. The message about the device is taken before one that only
 * comes from the file system, a warning before a notice, the last of equals; messages about
 * another device ("loop10" when ours is "loop1", another ext4 mount of the machine) and
 * capacity changes are not; none found, or no log (-1): -1. The POSIX-only build never
 * knows the kernel's reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "os/kmsg.h"

#ifndef FSBENCH_OS_POSIX_ONLY
#include <fcntl.h>

/* A handle that reads the records given, one a read, then ends (non-blocking, as
 * os_kmsg_open's). */
static int feed(const char *const *recs)
{
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
    for (size_t i = 0; recs[i]; i++)
        assert_int_equal(write(sv[1], recs[i], strlen(recs[i])), (ssize_t)strlen(recs[i]));
    close(sv[1]);
    assert_int_equal(fcntl(sv[0], F_SETFL, O_NONBLOCK), 0);
    return sv[0];
}

/* What os_kmsg_find says of recs for loop1 and ext4: the line, or "" for none. */
static const char *found(const char *const *recs, char *buf, size_t len)
{
    int h = feed(recs);
    int rc = os_kmsg_find(h, "loop1", "ext4", buf, len);
    os_kmsg_close(h);
    if (rc < 0)
        buf[0] = '\0';
    return buf;
}

static void test_device_first(void **state)
{
    (void)state;
    char buf[256];
    const char *recs[] = {
        "3,100,1,-;ext4: Unknown parameter 'bogus'",
        "3,101,2,-;EXT4-fs (loop1): can't mount with data=, fs mounted w/o journal",
        "6,102,3,-;EXT4-fs: a notice after it",
        NULL,
    };
    assert_string_equal(found(recs, buf, sizeof buf),
                        "EXT4-fs (loop1): can't mount with data=, fs mounted w/o journal");
}

static void test_warning_first(void **state)
{
    (void)state;
    char buf[256];
    const char *recs[] = {
        "4,1,1,-;EXT4-fs (loop1): the warning",
        "6,2,2,-;EXT4-fs (loop1): mounted filesystem r/w",
        NULL,
    };
    assert_string_equal(found(recs, buf, sizeof buf), "EXT4-fs (loop1): the warning");
    /* the facility's bits above the level do not count */
    const char *fac[] = {
        "30,1,1,-;EXT4-fs (loop1): a notice of facility 3",
        "27,2,2,-;EXT4-fs (loop1): an error of facility 3",
        "30,3,3,-;EXT4-fs (loop1): another notice",
        NULL,
    };
    assert_string_equal(found(fac, buf, sizeof buf), "EXT4-fs (loop1): an error of facility 3");
    /* the last of equals */
    const char *two[] = {
        "3,1,1,-;EXT4-fs (loop1): first",
        "3,2,2,-;EXT4-fs (loop1): second\n SUBSYSTEM=block",
        NULL,
    };
    assert_string_equal(found(two, buf, sizeof buf), "EXT4-fs (loop1): second");
}

static void test_other_devices(void **state)
{
    (void)state;
    char buf[256];
    const char *recs[] = {
        "3,1,1,-;EXT4-fs (loop10): another program's failed mount",
        "3,2,2,-;EXT4-fs (loop7): another device",
        "6,3,3,-;loop1: detected capacity change from 0 to 819200",
        "3,4,4,-;XFS (loop1x): not ours either",
        NULL,
    };
    assert_string_equal(found(recs, buf, sizeof buf), "");
    const char *fs[] = {
        "3,1,1,-;EXT4-fs (loop10): another program's",
        "3,2,2,-;ext4: Unknown parameter 'bogus'",
        NULL,
    };
    assert_string_equal(found(fs, buf, sizeof buf), "ext4: Unknown parameter 'bogus'");
}

static void test_none(void **state)
{
    (void)state;
    char buf[64] = "untouched";
    const char *recs[] = {"6,1,1,-;about nothing of ours", "garbage", NULL};
    int h = feed(recs);
    assert_int_equal(os_kmsg_find(h, "loop1", "ext4", buf, sizeof buf), -1);
    os_kmsg_close(h);
    assert_int_equal(os_kmsg_find(-1, "loop1", "ext4", buf, sizeof buf), -1);
    os_kmsg_close(-1);
}
#else
static void test_posix_never(void **state)
{
    (void)state;
    char buf[64];
    int h = os_kmsg_open();
    assert_int_equal(h, -1);
    assert_int_equal(os_kmsg_find(h, "loop1", "ext4", buf, sizeof buf), -1);
    os_kmsg_close(h);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
#ifndef FSBENCH_OS_POSIX_ONLY
        cmocka_unit_test(test_device_first),
        cmocka_unit_test(test_warning_first),
        cmocka_unit_test(test_other_devices),
        cmocka_unit_test(test_none),
#else
        cmocka_unit_test(test_posix_never),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
