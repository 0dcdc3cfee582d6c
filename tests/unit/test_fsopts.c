/* test_fsopts.c — unit tests of the mkfs and mount option allow-lists (target/fsopts.c):
 * options fsbench passes on for each file system, the words it refuses (a path or device
 * anywhere, a word mkfs would take as an operand, "--", options that name files or other
 * devices, what it adds itself, anything off the list, a value of the wrong shape), that every
 * refusal is one line naming the word and the file system, that the tables are consistent
 * (every option takes the value its shape says), that the generic mount flags are the ones
 * the os layer turns into flags, and that the manual page lists every allowed option.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "os/mount.h"
#include "target/fsopts.h"

static void mkfs_ok(const char *fs, const char *opts)
{
    char why[1024] = "";
    if (fsopts_check_mkfs(fs, opts, why, sizeof why) != 0)
        fail_msg("%s '%s' refused: %s", fs, opts ? opts : "(null)", why);
}

/* Refused, and the one-line message names want (the word) and the file system. */
static void mkfs_bad(const char *fs, const char *opts, const char *want)
{
    char why[1024] = "", named[256];
    if (fsopts_check_mkfs(fs, opts, why, sizeof why) != -1)
        fail_msg("%s '%s' allowed", fs, opts);
    snprintf(named, sizeof named, "'%s' is refused for %s: ", want, fs);
    if (strncmp(why, named, strlen(named)))
        fail_msg("%s '%s': message '%s' does not start with \"%s\"", fs, opts, why, named);
    assert_null(strchr(why, '\n'));
}

static void mount_ok(const char *fs, const char *opts)
{
    char why[1024] = "";
    if (fsopts_check_mount(fs, opts, why, sizeof why) != 0)
        fail_msg("mount %s '%s' refused: %s", fs, opts ? opts : "(null)", why);
}

static void mount_bad(const char *fs, const char *opts, const char *want)
{
    char why[1024] = "", named[256];
    if (fsopts_check_mount(fs, opts, why, sizeof why) != -1)
        fail_msg("mount %s '%s' allowed", fs, opts);
    snprintf(named, sizeof named, "'%s' is refused for %s: ", want, fs);
    if (strncmp(why, named, strlen(named)))
        fail_msg("mount %s '%s': message '%s' does not start with \"%s\"", fs, opts, why, named);
    assert_null(strchr(why, '\n'));
}

static void test_mkfs_allowed(void **state)
{
    (void)state;
    mkfs_ok("ext4", NULL);
    mkfs_ok("ext4", "");
    mkfs_ok("ext4", " \t\n");
    mkfs_ok("ext4", "-b 4096 -L PRECIOUS -O ^has_journal,metadata_csum -m 0.5 -I 256");
    mkfs_ok("ext4", "-E lazy_itable_init=0,stride=4,stripe_width=8,nodiscard,root_owner=0:0");
    mkfs_ok("ext4", "-E lazy_itable_init,quotatype=usrquota:grpquota -J size=64 -j -D");
    mkfs_ok("ext4", "-U random -U 01234567-89ab-cdef-0123-456789abcdef -T news,largefile -e panic");
    mkfs_ok("ext3", "-o Linux -r 1 -N 1000 -g 8192 -G 16 -i 4096 -C 64k -K -v");
    mkfs_ok("ext2", "-b\t1024\n-L x");
    mkfs_ok("xfs", "-L FSB -m crc=1,reflink=1,bigtime -d agcount=4,su=64k,sw=2 -K");
    mkfs_ok("xfs", "-i size=512,sparse -l size=64m,lazy-count=1,internal -n size=8k,ftype=1");
    mkfs_ok("xfs", "-s size=4096 -b size=4096 -l su=8s -d noalign -n version=ci");
    mkfs_ok("btrfs", "--label FSB --nodesize 16k -m single -d DUP -O no-holes,^extref -R quota");
    mkfs_ok("btrfs", "--label=FSB --nodesize=16384 --csum xxhash -K -M -v --mixed -b 1g");
    mkfs_ok("btrfs", "-U 01234567-89ab-cdef-0123-456789abcdef --metadata raid1 --data=single");
    mkfs_ok("f2fs", "-l FSB -O extra_attr,inode_checksum -a 1 -t 0 -s 1 -z 1 -o 5 -T -1");
    mkfs_ok("f2fs", "-e mp4,mkv -E db -R 0:0 -C utf8:strict -i -m -r -w 4096 -d 1");
    mkfs_ok("vfat", "-F 32 -n FSB -s 8 -v -i 0xdeadbeef --codepage 850 --variant=standard");
    mkfs_ok("msdos", "-F 16 -a -A -r 512 -R 32 -S 512 -f 2 -h 0 -M 0xF8 -D 0x80 -b 6");
    mkfs_ok("exfat", "-L FSB -c 64k --pack-bitmap -b 1m --volume-label=x -v -f");
    /* no options at all for a type fsbench knows nothing of */
    mkfs_ok("minix", NULL);
    mkfs_ok("minix", "  ");
}

/* The attack of the issue and its relatives: nothing may name a device or become one. */
static void test_mkfs_paths_and_operands(void **state)
{
    (void)state;
    mkfs_bad("btrfs", "/dev/sdb", "/dev/sdb");
    mkfs_bad("btrfs", "-L x /dev/sdb", "/dev/sdb");
    mkfs_bad("btrfs", "sdb", "sdb"); /* relative: a device from /dev */
    mkfs_bad("btrfs", "-K sdb", "sdb");
    mkfs_bad("btrfs", "-L /dev/sdb", "-L /dev/sdb"); /* as a value */
    mkfs_bad("btrfs", "--label=/dev/sdb", "--label=/dev/sdb");
    mkfs_bad("btrfs", "--label=a/b", "--label=a/b");
    mkfs_bad("btrfs", "-- /dev/sdb", "--");
    mkfs_bad("btrfs", "-", "-");
    mkfs_bad("btrfs", "-r /etc", "-r");
    mkfs_bad("btrfs", "--rootdir=/etc", "--rootdir=/etc");
    mkfs_bad("ext4", "/dev/sdb", "/dev/sdb");
    mkfs_bad("ext4", "-L x 4096", "4096"); /* the fs-size operand */
    mkfs_bad("ext4", "-z /dev/sdb", "-z");
    mkfs_bad("ext4", "-d /etc", "-d");
    mkfs_bad("ext4", "-l badblocks", "-l");
    mkfs_bad("ext4", "-M /mnt", "-M");
    mkfs_bad("ext4", "-J device=/dev/sdb", "-J device=/dev/sdb");
    mkfs_bad("ext4", "-J device=LABEL=journal", "-J device=LABEL=journal");
    mkfs_bad("ext4", "-J size=64,device=x", "-J size=64,device=x");
    mkfs_bad("ext4", "-E offset=4096", "-E offset=4096");
    mkfs_bad("xfs", "-l logdev=/dev/sdb", "-l logdev=/dev/sdb");
    mkfs_bad("xfs", "-l size=64m,logdev=sdb", "-l size=64m,logdev=sdb");
    mkfs_bad("xfs", "-l name=sdb", "-l name=sdb");
    mkfs_bad("xfs", "-r rtdev=/dev/sdb", "-r");
    mkfs_bad("xfs", "-d name=/dev/sdb", "-d name=/dev/sdb");
    mkfs_bad("xfs", "-d file,name=img", "-d file,name=img");
    mkfs_bad("xfs", "-c options=/etc/x", "-c");
    mkfs_bad("xfs", "-p proto", "-p");
    mkfs_bad("f2fs", "-c /dev/sdb", "-c");
    mkfs_bad("f2fs", "-c sdb", "-c");
    mkfs_bad("f2fs", "-l x 1024", "1024"); /* the sectors operand */
    mkfs_bad("vfat", "-C img", "-C");
    mkfs_bad("vfat", "-g 255/63", "-g");
    mkfs_bad("vfat", "-I", "-I");
    mkfs_bad("exfat", "/dev/sdb", "/dev/sdb");
    /* a type fsbench knows nothing of gets no options at all */
    mkfs_bad("minix", "-n 30", "-n");
    mkfs_bad("minix", "/dev/sdb", "/dev/sdb");
}

static void test_mkfs_refused_options(void **state)
{
    (void)state;
    /* what fsbench adds itself: given again, -F -F formats a mounted device */
    mkfs_bad("ext4", "-F", "-F");
    mkfs_bad("ext4", "-q", "-q");
    mkfs_bad("xfs", "-f", "-f");
    mkfs_bad("btrfs", "--force", "--force");
    mkfs_bad("f2fs", "-f", "-f");
    /* no fresh file system */
    mkfs_bad("ext4", "-n", "-n");
    mkfs_bad("ext4", "-S", "-S");
    mkfs_bad("ext4", "-V", "-V");
    mkfs_bad("xfs", "-N", "-N");
    mkfs_bad("btrfs", "--version", "--version");
    mkfs_bad("ext4", "-t ext2", "-t");
    mkfs_bad("ext4", "-c", "-c");
    /* off the list: unknown, abbreviated long options, combined flags, attached values */
    mkfs_bad("ext4", "-x", "-x");
    mkfs_bad("btrfs", "--lab x", "--lab");
    mkfs_bad("btrfs", "--root=/x", "--root=/x");
    mkfs_bad("ext4", "-jD", "-jD");
    mkfs_bad("ext4", "-b4096", "-b4096");
    mkfs_bad("btrfs", "-nodesize", "-nodesize");
    /* values: missing, of the wrong shape, on a flag */
    mkfs_bad("ext4", "-b", "-b");
    mkfs_bad("ext4", "-L", "-L");
    mkfs_bad("ext4", "-b x", "-b x");
    mkfs_bad("ext4", "-b -4096", "-b -4096");
    mkfs_bad("ext4", "-m 1.", "-m 1.");
    mkfs_bad("ext4", "-L 12345678901234567", "-L 12345678901234567"); /* 17 > 16 */
    mkfs_bad("ext4", "-L -q", "-L -q");
    mkfs_bad("ext4", "-U nope", "-U nope");
    mkfs_bad("ext4", "-O no_such_feature", "-O no_such_feature");
    mkfs_bad("ext4", "-O has_journal,", "-O has_journal,");
    mkfs_bad("ext4", "-O journal_dev", "-O journal_dev");
    mkfs_bad("ext4", "-e ignore", "-e ignore");
    mkfs_bad("ext4", "-E stride=x", "-E stride=x");
    mkfs_bad("ext4", "-E stride", "-E stride");
    mkfs_bad("ext4", "-E nodiscard=1", "-E nodiscard=1");
    mkfs_bad("ext4", "-E stride=4,,nodiscard", "-E stride=4,,nodiscard");
    mkfs_bad("ext4", "-E", "-E");
    mkfs_bad("xfs", "-L 1234567890123", "-L 1234567890123"); /* 13 > 12 */
    mkfs_bad("xfs", "-m crc=2", "-m crc=2");
    mkfs_bad("btrfs", "-m raid7", "-m raid7");
    mkfs_bad("btrfs", "--mixed=1", "--mixed=1");
    mkfs_bad("btrfs", "-O list-all", "-O list-all");
    mkfs_bad("btrfs", "--label", "--label");
    mkfs_bad("btrfs", "-U 0123", "-U 0123");
    mkfs_bad("vfat", "-n 123456789012", "-n 123456789012"); /* 12 > 11 */
    mkfs_bad("ext4", "-L caf\xc3\xa9", "-L caf\xc3\xa9");
}

/* Every name fsopts_mkfs_names() lists is an option (a leading '-'), and alone it is
 * allowed (a flag) or refused for want of its value: the table and the parser agree. */
static void test_mkfs_tables_consistent(void **state)
{
    (void)state;
    static const char *const types[] = {"ext2", "ext3", "ext4",  "xfs",   "btrfs",
                                        "f2fs", "vfat", "msdos", "exfat", NULL};
    for (size_t t = 0; types[t]; t++) {
        char names[2048], why[1024];
        fsopts_mkfs_names(types[t], names, sizeof names);
        assert_true(strlen(names) > 0);
        size_t n = 0;
        for (char *save = NULL, *w = strtok_r(names, " ", &save); w;
             w = strtok_r(NULL, " ", &save)) {
            n++;
            if (w[0] != '-' || strchr(w, '/') || strchr(w, '='))
                fail_msg("%s: '%s' is not an option name", types[t], w);
            if (fsopts_check_mkfs(types[t], w, why, sizeof why) == 0)
                continue;
            if (!strstr(why, "needs a value"))
                fail_msg("%s: '%s' alone: %s", types[t], w, why);
        }
        assert_true(n >= 5);
    }
    char buf[64];
    assert_string_equal(fsopts_mkfs_names("minix", buf, sizeof buf), "");
}

static void test_mount_allowed(void **state)
{
    (void)state;
    mount_ok("ext4", NULL);
    mount_ok("ext4", "");
    mount_ok("ext4", "defaults");
    mount_ok("ext4", "noatime,,relatime,");
    mount_ok("ext4", "noatime,data=writeback,commit=30,barrier=0,nodelalloc,errors=remount-ro");
    mount_ok("ext4", "barrier,dax,dax=inode,init_itable,init_itable=10,mb_optimize_scan=1");
    mount_ok("ext3", "data=journal,jqfmt=vfsv0,usrquota,resuid=0,sb=32768");
    mount_ok("xfs", "noatime,logbsize=256k,logbufs=8,inode64,allocsize=64m,nouuid,sunit=8");
    mount_ok("btrfs", "noatime,compress=zstd:3,space_cache=v2,ssd,commit=60,discard=async");
    mount_ok("btrfs", "compress,compress-force=lzo,discard,space_cache,subvolid=5");
    mount_ok("f2fs", "background_gc=on,inline_data,mode=fragment:segment,compress_algorithm=lz4:3");
    mount_ok("vfat", "uid=1000,umask=022,shortname=mixed,utf8,iocharset=iso8859-1,time_offset=-60");
    mount_ok("exfat", "uid=0,fmask=0133,iocharset=utf8,keep_last_dots");
    /* a type fsbench knows nothing of: the generic flags only */
    mount_ok("minix", "ro,noatime,sync,nodev,nosuid,noexec,lazytime,dirsync,defaults");
}

static void test_mount_refused(void **state)
{
    (void)state;
    mount_bad("ext4", "journal_path=/dev/sdb", "journal_path=/dev/sdb");
    mount_bad("ext4", "noatime,journal_path=j", "journal_path=j");
    mount_bad("ext4", "journal_dev=2049", "journal_dev=2049");
    mount_bad("ext4", "usrjquota=aquota.user", "usrjquota=aquota.user");
    mount_bad("ext4", "abort", "abort");
    mount_bad("xfs", "logdev=/dev/sdb", "logdev=/dev/sdb");
    mount_bad("xfs", "logdev=sdb", "logdev=sdb");
    mount_bad("xfs", "rtdev=sdb", "rtdev=sdb");
    mount_bad("btrfs", "device=/dev/sdb", "device=/dev/sdb");
    mount_bad("btrfs", "device=sdb", "device=sdb");
    mount_bad("btrfs", "subvol=x", "subvol=x");
    mount_bad("f2fs", "prjjquota=x", "prjjquota=x");
    /* for every type, also those fsbench knows nothing of */
    static const char *const types[] = {"ext4", "xfs", "btrfs", "vfat", "minix", NULL};
    for (size_t t = 0; types[t]; t++) {
        mount_bad(types[t], "source=/dev/sdb", "source=/dev/sdb");
        mount_bad(types[t], "source=sdb", "source=sdb");
        mount_bad(types[t], "noatime,loop=/dev/loop0", "loop=/dev/loop0");
        mount_bad(types[t], "loop", "loop");
        mount_bad(types[t], "offset=4096", "offset=4096");
        mount_bad(types[t], "bind", "bind");
        mount_bad(types[t], "remount", "remount");
        mount_bad(types[t], "x=/etc/passwd", "x=/etc/passwd");
        mount_bad(types[t], "no_such_option", "no_such_option");
    }
    /* values of the wrong shape, a value on a flag, none where one is needed */
    mount_bad("ext4", "commit=abc", "commit=abc");
    mount_bad("ext4", "commit", "commit");
    mount_bad("ext4", "data=nonsense", "data=nonsense");
    mount_bad("ext4", "noacl=1", "noacl=1");
    mount_bad("btrfs", "compress=zstd:", "compress=zstd:");
    mount_bad("btrfs", "compress=brotli", "compress=brotli");
    mount_bad("xfs", "logbsize=256q", "logbsize=256q");
    mount_bad("ext4", "noatime\t", "noatime\t");
}

/* The generic flag words are the ones the os layer turns into mount(2) flags (Linux: the
 * POSIX-only build knows no flag words, and mounts nothing). */
#ifndef FSBENCH_OS_POSIX_ONLY
static void test_mount_flags_match_os(void **state)
{
    (void)state;
    for (size_t i = 0; fsopts_mount_flags[i]; i++) {
        unsigned long flags;
        char data[64];
        assert_int_equal(os_mount_parse_opts(fsopts_mount_flags[i], &flags, data, sizeof data), 0);
        if (data[0])
            fail_msg("'%s' is a generic flag here but data for os_mount_parse_opts",
                     fsopts_mount_flags[i]);
    }
}
#endif

/* docs/fsbench.1 lists every option fsbench allows (run from the source tree, as make check
 * does; skipped elsewhere). */
static void test_manual_lists_every_option(void **state)
{
    (void)state;
    FILE *f = fopen("docs/fsbench.1", "r");
    if (!f) {
        print_message("# skip: docs/fsbench.1 not here (run from the source tree)\n");
        return;
    }
    static char man[1 << 20];
    size_t n = fread(man, 1, sizeof man - 1, f);
    fclose(f);
    man[n] = '\0';
    static const char *const types[] = {"ext4", "xfs", "btrfs", "f2fs", "vfat", "exfat", NULL};
    for (size_t t = 0; types[t]; t++) {
        char names[4096], pat[128];
        for (int mount = 0; mount < 2; mount++) {
            if (mount)
                fsopts_mount_names(types[t], names, sizeof names);
            else
                fsopts_mkfs_names(types[t], names, sizeof names);
            for (char *save = NULL, *w = strtok_r(names, " ", &save); w;
                 w = strtok_r(NULL, " ", &save)) {
                /* the page escapes '-' as "\-" */
                size_t k = 0;
                for (const char *c = w; *c && k + 3 < sizeof pat; c++) {
                    if (*c == '-')
                        pat[k++] = '\\';
                    pat[k++] = *c;
                }
                pat[k] = '\0';
                if (!strstr(man, pat))
                    fail_msg("docs/fsbench.1 does not list the %s %s option %s", types[t],
                             mount ? "mount" : "mkfs", w);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mkfs_allowed),
        cmocka_unit_test(test_mkfs_paths_and_operands),
        cmocka_unit_test(test_mkfs_refused_options),
        cmocka_unit_test(test_mkfs_tables_consistent),
        cmocka_unit_test(test_mount_allowed),
        cmocka_unit_test(test_mount_refused),
#ifndef FSBENCH_OS_POSIX_ONLY
        cmocka_unit_test(test_mount_flags_match_os),
#endif
        cmocka_unit_test(test_manual_lists_every_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
