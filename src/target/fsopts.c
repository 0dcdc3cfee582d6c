/* fsopts.c — the allow-lists of mkfs and mount options per file system (see fsopts.h).
 *
 * Each mkfs table follows the mkfs program's own option parser, so that a word fsbench takes
 * as an option's value is the word the program takes as that value (were they to disagree,
 * the value would become an operand: another device). The short options were checked
 * against each program's getopt string and manual page: mke2fs 1.47.0
 * "b:cd:e:g:i:jl:m:no:qr:s:t:vC:DE:FG:I:J:KL:M:N:O:R:ST:U:Vz:", mkfs.xfs 6.1.0
 * "b:c:d:i:l:L:m:n:KNp:qr:s:CfV", mkfs.btrfs 6.2 "A:b:fl:n:s:m:d:L:R:O:r:U:VvMKq" (and its
 * long options), mkfs.f2fs 1.15.0 "qa:c:C:d:e:E:g:hil:mo:O:rR:s:S:z:t:T:U:Vfw:", mkfs.fat
 * 4.2 "aAb:cCf:D:F:g:Ii:l:m:M:n:r:R:s:S:h:v" (and --codepage, --variant), mkfs.exfat 1.2.0
 * "n:L:c:b:fVvh" (and its long options). Only options that take a value in every one of
 * those versions take one here; a long option's value may be attached ("--label=x") or the
 * next word. Short options are one word each ("-b 4096", not "-b4096" or "-jq").
 *
 * Nothing here may name a path: a word or value holding '/' is refused before any table is
 * read. Values have shapes (a whole number, a size, a label, a UUID, one word of a list, a
 * comma-separated list of sub-options with shapes of their own) that hold no '/' either.
 * Refused entries carry their reason, so that the user learns why, not only that.
 */
#include "target/fsopts.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The shape of an option's value. */
enum shape {
    S_NONE,    /* a flag: no value */
    S_REFUSED, /* never passed on: arg is the reason */
    S_UINT,    /* digits */
    S_INT,     /* digits, optionally after '-' */
    S_REAL,    /* digits with an optional fraction */
    S_SIZE,    /* digits with an optional unit letter: 4096, 64k, 1g (xfs: 8s, 2b) */
    S_BOOL,    /* 0 or 1 */
    S_HEX,     /* hexadecimal digits, optionally after 0x */
    S_OCTAL,   /* octal digits */
    S_LABEL,   /* a volume label of at most max characters */
    S_UUID,    /* 8-4-4-4-12 hexadecimal digits, or one of the words in arg */
    S_OWNER,   /* UID:GID */
    S_WORD,    /* one word of [A-Za-z0-9_.-] (a character set, a file-name extension) */
    S_CHOICE,  /* one of the words in arg */
    S_LIST,    /* comma-separated words of arg, each optionally after '^' (features) */
    S_COLONS,  /* colon-separated words of arg */
    S_WORDS,   /* comma-separated S_WORDs */
    S_SUBOPTS, /* comma-separated key[=value] of the sub-option table in arg */
};

enum {
    F_OPTIONAL = 1u << 0, /* sub-option or mount key: "key" alone, or "key=value" */
    F_CI = 1u << 1,       /* S_CHOICE, S_LIST: case does not matter */
    F_LEVEL = 1u << 2,    /* S_CHOICE: ":N" may follow the word (compress=zstd:3) */
};

struct opt {
    const char *name; /* "-b", "--nodesize"; a sub-option or mount key: "stride" */
    enum shape shape;
    unsigned flags;  /* F_* */
    const void *arg; /* S_CHOICE, S_LIST, S_COLONS, S_UUID: words (const char *const *);
                      * S_SUBOPTS: const struct opt *; S_REFUSED: the reason */
    unsigned max;    /* S_LABEL: most characters */
};

struct fsdef {
    const char *const *types; /* the --fs names sharing the tables */
    const struct opt *mkfs;   /* NULL-name ended */
    const struct opt *mount;  /* NULL-name ended */
};

/* Reasons shared by several tables. */
#define R_ADDED "fsbench adds it itself"
#define R_PATH "it names a file or directory"
#define R_DEVICE "it names another device"
#define R_NOFS "mkfs would not make a fresh file system with it"
#define R_TYPE "the file system type is what --fs says"
#define R_WHOLE "it reads or writes the whole device besides making the file system"
#define R_SAFETY "it turns off mkfs's own safety checks"
#define R_QUOTAFILE "it names a quota file"

/* ---- value word lists ---- */

static const char *const w_errors[] = {"continue", "remount-ro", "panic", NULL};
static const char *const w_uuid_ext[] = {"clear", "random", "time", NULL};
static const char *const w_01[] = {"0", "1", NULL};
static const char *const w_012[] = {"0", "1", "2", NULL};
static const char *const w_12[] = {"1", "2", NULL};
static const char *const w_dax[] = {"always", "never", "inode", NULL};
static const char *const w_jqfmt[] = {"vfsold", "vfsv0", "vfsv1", NULL};

/* ---- ext2, ext3, ext4 (mke2fs) ---- */

static const char *const ext_features[] = {
    "64bit",        "bigalloc",      "casefold",
    "dir_index",    "dir_nlink",     "ea_inode",
    "encrypt",      "ext_attr",      "extent",
    "extents",      "extra_isize",   "fast_commit",
    "filetype",     "flex_bg",       "has_journal",
    "huge_file",    "inline_data",   "large_dir",
    "large_file",   "metadata_csum", "metadata_csum_seed",
    "meta_bg",      "mmp",           "orphan_file",
    "project",      "quota",         "resize_inode",
    "sparse_super", "sparse_super2", "stable_inodes",
    "uninit_bg",    "verity",        "none",
    NULL,
};
static const char *const ext_creator[] = {"linux",   "hurd",  "gnu", "masix",
                                          "freebsd", "lites", NULL};
static const char *const ext_usage[] = {"floppy", "small",     "default",    "big",  "huge",
                                        "news",   "largefile", "largefile4", "hurd", NULL};
static const char *const ext_encoding[] = {"utf8", "utf8-12.1", NULL};
static const char *const ext_encflags[] = {"strict", NULL};
static const char *const ext_quotatype[] = {"usrquota", "grpquota", "prjquota", NULL};

static const struct opt ext_E[] = {
    {"encoding", S_CHOICE, 0, ext_encoding, 0},
    {"encoding_flags", S_CHOICE, 0, ext_encflags, 0},
    {"mmp_update_interval", S_UINT, 0, NULL, 0},
    {"stride", S_UINT, 0, NULL, 0},
    {"stripe_width", S_UINT, 0, NULL, 0},
    {"stripe-width", S_UINT, 0, NULL, 0},
    {"resize", S_UINT, 0, NULL, 0},
    {"lazy_itable_init", S_BOOL, F_OPTIONAL, NULL, 0},
    {"lazy_journal_init", S_BOOL, F_OPTIONAL, NULL, 0},
    {"assume_storage_prezeroed", S_BOOL, F_OPTIONAL, NULL, 0},
    {"no_copy_xattrs", S_NONE, 0, NULL, 0},
    {"num_backup_sb", S_CHOICE, 0, w_012, 0},
    {"packed_meta_blocks", S_BOOL, F_OPTIONAL, NULL, 0},
    {"root_owner", S_OWNER, F_OPTIONAL, NULL, 0},
    {"test_fs", S_NONE, 0, NULL, 0},
    {"orphan_file_size", S_SIZE, 0, NULL, 0},
    {"discard", S_NONE, 0, NULL, 0},
    {"nodiscard", S_NONE, 0, NULL, 0},
    {"quotatype", S_COLONS, 0, ext_quotatype, 0},
    {"offset", S_REFUSED, 0, "it moves the file system away from the start of the device", 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt ext_J[] = {
    {"size", S_UINT, 0, NULL, 0},
    {"fast_commit_size", S_UINT, 0, NULL, 0},
    {"location", S_SIZE, 0, NULL, 0},
    {"device", S_REFUSED, 0, R_DEVICE " (an external journal)", 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt ext_mkfs[] = {
    {"-b", S_UINT, 0, NULL, 0},
    {"-C", S_SIZE, 0, NULL, 0},
    {"-D", S_NONE, 0, NULL, 0},
    {"-e", S_CHOICE, 0, w_errors, 0},
    {"-E", S_SUBOPTS, 0, ext_E, 0},
    {"-g", S_UINT, 0, NULL, 0},
    {"-G", S_UINT, 0, NULL, 0},
    {"-i", S_UINT, 0, NULL, 0},
    {"-I", S_UINT, 0, NULL, 0},
    {"-j", S_NONE, 0, NULL, 0},
    {"-J", S_SUBOPTS, 0, ext_J, 0},
    {"-K", S_NONE, 0, NULL, 0},
    {"-L", S_LABEL, 0, NULL, 16},
    {"-m", S_REAL, 0, NULL, 0},
    {"-N", S_UINT, 0, NULL, 0},
    {"-o", S_CHOICE, F_CI, ext_creator, 0},
    {"-O", S_LIST, 0, ext_features, 0},
    {"-r", S_CHOICE, 0, w_01, 0},
    {"-T", S_LIST, 0, ext_usage, 0},
    {"-U", S_UUID, 0, w_uuid_ext, 0},
    {"-v", S_NONE, 0, NULL, 0},
    {"-F", S_REFUSED, 0, R_ADDED " (given twice it would format a mounted device)", 0},
    {"-q", S_REFUSED, 0, R_ADDED, 0},
    {"-c", S_REFUSED, 0, R_WHOLE " (a bad-block scan)", 0},
    {"-d", S_REFUSED, 0, R_PATH " (a directory to copy in)", 0},
    {"-l", S_REFUSED, 0, R_PATH " (a bad-block list)", 0},
    {"-z", S_REFUSED, 0, R_PATH " (an undo file mkfs would write)", 0},
    {"-M", S_REFUSED, 0, R_PATH " (the last-mounted directory)", 0},
    {"-n", S_REFUSED, 0, R_NOFS, 0},
    {"-S", S_REFUSED, 0, R_NOFS " (it rewrites superblocks only)", 0},
    {"-V", S_REFUSED, 0, R_NOFS, 0},
    {"-t", S_REFUSED, 0, R_TYPE, 0},
    {"-R", S_REFUSED, 0, "it is the old name of -E: use -E", 0},
    {"-s", S_REFUSED, 0, "it is obsolete: use -O sparse_super or -O ^sparse_super", 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt ext_mount[] = {
    {"acl", S_NONE, 0, NULL, 0},
    {"noacl", S_NONE, 0, NULL, 0},
    {"bsddf", S_NONE, 0, NULL, 0},
    {"minixdf", S_NONE, 0, NULL, 0},
    {"check", S_CHOICE, 0, (const char *const[]){"none", NULL}, 0},
    {"nocheck", S_NONE, 0, NULL, 0},
    {"debug", S_NONE, 0, NULL, 0},
    {"errors", S_CHOICE, 0, w_errors, 0},
    {"grpid", S_NONE, 0, NULL, 0},
    {"bsdgroups", S_NONE, 0, NULL, 0},
    {"nogrpid", S_NONE, 0, NULL, 0},
    {"sysvgroups", S_NONE, 0, NULL, 0},
    {"grpquota", S_NONE, 0, NULL, 0},
    {"noquota", S_NONE, 0, NULL, 0},
    {"quota", S_NONE, 0, NULL, 0},
    {"usrquota", S_NONE, 0, NULL, 0},
    {"prjquota", S_NONE, 0, NULL, 0},
    {"nouid32", S_NONE, 0, NULL, 0},
    {"oldalloc", S_NONE, 0, NULL, 0},
    {"orlov", S_NONE, 0, NULL, 0},
    {"resgid", S_UINT, 0, NULL, 0},
    {"resuid", S_UINT, 0, NULL, 0},
    {"sb", S_UINT, 0, NULL, 0},
    {"user_xattr", S_NONE, 0, NULL, 0},
    {"nouser_xattr", S_NONE, 0, NULL, 0},
    {"norecovery", S_NONE, 0, NULL, 0},
    {"noload", S_NONE, 0, NULL, 0},
    {"data", S_CHOICE, 0, (const char *const[]){"journal", "ordered", "writeback", NULL}, 0},
    {"data_err", S_CHOICE, 0, (const char *const[]){"ignore", "abort", NULL}, 0},
    {"barrier", S_BOOL, F_OPTIONAL, NULL, 0},
    {"nobarrier", S_NONE, 0, NULL, 0},
    {"commit", S_UINT, 0, NULL, 0},
    {"jqfmt", S_CHOICE, 0, w_jqfmt, 0},
    {"journal_checksum", S_NONE, 0, NULL, 0},
    {"nojournal_checksum", S_NONE, 0, NULL, 0},
    {"journal_async_commit", S_NONE, 0, NULL, 0},
    {"inode_readahead_blks", S_UINT, 0, NULL, 0},
    {"stripe", S_UINT, 0, NULL, 0},
    {"delalloc", S_NONE, 0, NULL, 0},
    {"nodelalloc", S_NONE, 0, NULL, 0},
    {"max_batch_time", S_UINT, 0, NULL, 0},
    {"min_batch_time", S_UINT, 0, NULL, 0},
    {"journal_ioprio", S_UINT, 0, NULL, 0},
    {"auto_da_alloc", S_BOOL, F_OPTIONAL, NULL, 0},
    {"noauto_da_alloc", S_NONE, 0, NULL, 0},
    {"noinit_itable", S_NONE, 0, NULL, 0},
    {"init_itable", S_UINT, F_OPTIONAL, NULL, 0},
    {"discard", S_NONE, 0, NULL, 0},
    {"nodiscard", S_NONE, 0, NULL, 0},
    {"block_validity", S_NONE, 0, NULL, 0},
    {"noblock_validity", S_NONE, 0, NULL, 0},
    {"dioread_lock", S_NONE, 0, NULL, 0},
    {"dioread_nolock", S_NONE, 0, NULL, 0},
    {"max_dir_size_kb", S_UINT, 0, NULL, 0},
    {"i_version", S_NONE, 0, NULL, 0},
    {"nombcache", S_NONE, 0, NULL, 0},
    {"no_mbcache", S_NONE, 0, NULL, 0},
    {"dax", S_CHOICE, F_OPTIONAL, w_dax, 0},
    {"mb_optimize_scan", S_BOOL, 0, NULL, 0},
    {"prefetch_block_bitmaps", S_NONE, 0, NULL, 0},
    {"no_prefetch_block_bitmaps", S_NONE, 0, NULL, 0},
    {"inlinecrypt", S_NONE, 0, NULL, 0},
    {"journal_dev", S_REFUSED, 0, R_DEVICE " (an external journal)", 0},
    {"journal_path", S_REFUSED, 0, R_DEVICE " (an external journal)", 0},
    {"usrjquota", S_REFUSED, 0, R_QUOTAFILE, 0},
    {"grpjquota", S_REFUSED, 0, R_QUOTAFILE, 0},
    {"abort", S_REFUSED, 0, "it stops the file system (a debugging option)", 0},
    {NULL, S_NONE, 0, NULL, 0},
};

/* ---- xfs (mkfs.xfs) ---- */

static const struct opt xfs_b[] = {
    {"size", S_SIZE, 0, NULL, 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt xfs_m[] = {
    {"bigtime", S_BOOL, F_OPTIONAL, NULL, 0},
    {"crc", S_BOOL, F_OPTIONAL, NULL, 0},
    {"finobt", S_BOOL, F_OPTIONAL, NULL, 0},
    {"inobtcount", S_BOOL, F_OPTIONAL, NULL, 0},
    {"uuid", S_UUID, 0, NULL, 0},
    {"rmapbt", S_BOOL, F_OPTIONAL, NULL, 0},
    {"reflink", S_BOOL, F_OPTIONAL, NULL, 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt xfs_d[] = {
    {"agcount", S_UINT, 0, NULL, 0},
    {"agsize", S_SIZE, 0, NULL, 0},
    {"cowextsize", S_UINT, 0, NULL, 0},
    {"size", S_SIZE, 0, NULL, 0},
    {"sunit", S_UINT, 0, NULL, 0},
    {"su", S_SIZE, 0, NULL, 0},
    {"swidth", S_UINT, 0, NULL, 0},
    {"sw", S_UINT, 0, NULL, 0},
    {"noalign", S_NONE, 0, NULL, 0},
    {"rtinherit", S_BOOL, F_OPTIONAL, NULL, 0},
    {"projinherit", S_UINT, 0, NULL, 0},
    {"extszinherit", S_UINT, 0, NULL, 0},
    {"daxinherit", S_BOOL, F_OPTIONAL, NULL, 0},
    {"name", S_REFUSED, 0, R_PATH " (the file or device to format)", 0},
    {"file", S_REFUSED, 0, R_PATH " (it formats the file -d name= names)", 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt xfs_i[] = {
    {"size", S_SIZE, 0, NULL, 0},
    {"perblock", S_UINT, 0, NULL, 0},
    {"maxpct", S_UINT, 0, NULL, 0},
    {"align", S_BOOL, F_OPTIONAL, NULL, 0},
    {"attr", S_CHOICE, 0, w_12, 0},
    {"projid32bit", S_BOOL, F_OPTIONAL, NULL, 0},
    {"sparse", S_BOOL, F_OPTIONAL, NULL, 0},
    {"nrext64", S_BOOL, F_OPTIONAL, NULL, 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt xfs_l[] = {
    {"agnum", S_UINT, 0, NULL, 0},
    {"internal", S_BOOL, F_OPTIONAL, NULL, 0},
    {"size", S_SIZE, 0, NULL, 0},
    {"version", S_CHOICE, 0, w_12, 0},
    {"sunit", S_UINT, 0, NULL, 0},
    {"su", S_SIZE, 0, NULL, 0},
    {"lazy-count", S_BOOL, 0, NULL, 0},
    {"logdev", S_REFUSED, 0, R_DEVICE " (an external log)", 0},
    {"name", S_REFUSED, 0, R_DEVICE " (an external log)", 0},
    {"file", S_REFUSED, 0, R_PATH " (an external log)", 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt xfs_n[] = {
    {"size", S_SIZE, 0, NULL, 0},
    {"version", S_CHOICE, 0, (const char *const[]){"2", "ci", NULL}, 0},
    {"ftype", S_BOOL, 0, NULL, 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt xfs_s[] = {
    {"size", S_SIZE, 0, NULL, 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt xfs_mkfs[] = {
    {"-b", S_SUBOPTS, 0, xfs_b, 0},
    {"-m", S_SUBOPTS, 0, xfs_m, 0},
    {"-d", S_SUBOPTS, 0, xfs_d, 0},
    {"-i", S_SUBOPTS, 0, xfs_i, 0},
    {"-l", S_SUBOPTS, 0, xfs_l, 0},
    {"-n", S_SUBOPTS, 0, xfs_n, 0},
    {"-s", S_SUBOPTS, 0, xfs_s, 0},
    {"-L", S_LABEL, 0, NULL, 12},
    {"-K", S_NONE, 0, NULL, 0},
    {"-f", S_REFUSED, 0, R_ADDED, 0},
    {"-q", S_REFUSED, 0, R_ADDED, 0},
    {"-c", S_REFUSED, 0, R_PATH " (a configuration file)", 0},
    {"-p", S_REFUSED, 0, R_PATH " (a prototype file)", 0},
    {"-r", S_REFUSED, 0, R_DEVICE " (a real-time section is another device)", 0},
    {"-N", S_REFUSED, 0, R_NOFS, 0},
    {"-V", S_REFUSED, 0, R_NOFS, 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt xfs_mount[] = {
    {"allocsize", S_SIZE, 0, NULL, 0},
    {"attr2", S_NONE, 0, NULL, 0},
    {"noattr2", S_NONE, 0, NULL, 0},
    {"dax", S_CHOICE, F_OPTIONAL, w_dax, 0},
    {"discard", S_NONE, 0, NULL, 0},
    {"nodiscard", S_NONE, 0, NULL, 0},
    {"grpid", S_NONE, 0, NULL, 0},
    {"bsdgroups", S_NONE, 0, NULL, 0},
    {"nogrpid", S_NONE, 0, NULL, 0},
    {"sysvgroups", S_NONE, 0, NULL, 0},
    {"filestreams", S_NONE, 0, NULL, 0},
    {"ikeep", S_NONE, 0, NULL, 0},
    {"noikeep", S_NONE, 0, NULL, 0},
    {"inode32", S_NONE, 0, NULL, 0},
    {"inode64", S_NONE, 0, NULL, 0},
    {"largeio", S_NONE, 0, NULL, 0},
    {"nolargeio", S_NONE, 0, NULL, 0},
    {"logbufs", S_UINT, 0, NULL, 0},
    {"logbsize", S_SIZE, 0, NULL, 0},
    {"noalign", S_NONE, 0, NULL, 0},
    {"norecovery", S_NONE, 0, NULL, 0},
    {"nouuid", S_NONE, 0, NULL, 0},
    {"noquota", S_NONE, 0, NULL, 0},
    {"uquota", S_NONE, 0, NULL, 0},
    {"usrquota", S_NONE, 0, NULL, 0},
    {"quota", S_NONE, 0, NULL, 0},
    {"uqnoenforce", S_NONE, 0, NULL, 0},
    {"qnoenforce", S_NONE, 0, NULL, 0},
    {"gquota", S_NONE, 0, NULL, 0},
    {"grpquota", S_NONE, 0, NULL, 0},
    {"gqnoenforce", S_NONE, 0, NULL, 0},
    {"pquota", S_NONE, 0, NULL, 0},
    {"prjquota", S_NONE, 0, NULL, 0},
    {"pqnoenforce", S_NONE, 0, NULL, 0},
    {"sunit", S_UINT, 0, NULL, 0},
    {"swidth", S_UINT, 0, NULL, 0},
    {"swalloc", S_NONE, 0, NULL, 0},
    {"wsync", S_NONE, 0, NULL, 0},
    {"logdev", S_REFUSED, 0, R_DEVICE " (an external log)", 0},
    {"rtdev", S_REFUSED, 0, R_DEVICE " (a real-time section)", 0},
    {NULL, S_NONE, 0, NULL, 0},
};

/* ---- btrfs (mkfs.btrfs) ---- */

static const char *const btrfs_profiles[] = {"single",  "dup",   "raid0", "raid1",  "raid1c3",
                                             "raid1c4", "raid5", "raid6", "raid10", NULL};
static const char *const btrfs_csum[] = {"crc32c", "xxhash", "sha256", "blake2", NULL};
static const char *const btrfs_features[] = {
    "mixed-bg", "extref",           "raid56", "skinny-metadata", "no-holes", "raid1c34",
    "zoned",    "block-group-tree", "quota",  "free-space-tree", NULL};
static const char *const btrfs_runtime[] = {"quota", "free-space-tree", NULL};
static const struct opt btrfs_mkfs[] = {
    {"-b", S_SIZE, 0, NULL, 0},
    {"--byte-count", S_SIZE, 0, NULL, 0},
    {"--csum", S_CHOICE, F_CI, btrfs_csum, 0},
    {"--checksum", S_CHOICE, F_CI, btrfs_csum, 0},
    {"-d", S_CHOICE, F_CI, btrfs_profiles, 0},
    {"--data", S_CHOICE, F_CI, btrfs_profiles, 0},
    {"-m", S_CHOICE, F_CI, btrfs_profiles, 0},
    {"--metadata", S_CHOICE, F_CI, btrfs_profiles, 0},
    {"-M", S_NONE, 0, NULL, 0},
    {"--mixed", S_NONE, 0, NULL, 0},
    {"-n", S_SIZE, 0, NULL, 0},
    {"--nodesize", S_SIZE, 0, NULL, 0},
    {"-s", S_SIZE, 0, NULL, 0},
    {"--sectorsize", S_SIZE, 0, NULL, 0},
    {"-L", S_LABEL, 0, NULL, 255},
    {"--label", S_LABEL, 0, NULL, 255},
    {"-K", S_NONE, 0, NULL, 0},
    {"--nodiscard", S_NONE, 0, NULL, 0},
    {"-O", S_LIST, 0, btrfs_features, 0},
    {"--features", S_LIST, 0, btrfs_features, 0},
    {"-R", S_LIST, 0, btrfs_runtime, 0},
    {"--runtime-features", S_LIST, 0, btrfs_runtime, 0},
    {"-U", S_UUID, 0, NULL, 0},
    {"--uuid", S_UUID, 0, NULL, 0},
    {"-v", S_NONE, 0, NULL, 0},
    {"--verbose", S_NONE, 0, NULL, 0},
    {"-f", S_REFUSED, 0, R_ADDED, 0},
    {"--force", S_REFUSED, 0, R_ADDED, 0},
    {"-q", S_REFUSED, 0, R_ADDED, 0},
    {"--quiet", S_REFUSED, 0, R_ADDED, 0},
    {"-r", S_REFUSED, 0, R_PATH " (a directory to copy in)", 0},
    {"--rootdir", S_REFUSED, 0, R_PATH " (a directory to copy in)", 0},
    {"--shrink", S_REFUSED, 0, "it goes with --rootdir, which " R_PATH, 0},
    {"-V", S_REFUSED, 0, R_NOFS, 0},
    {"--version", S_REFUSED, 0, R_NOFS, 0},
    {"--help", S_REFUSED, 0, R_NOFS, 0},
    {"-A", S_REFUSED, 0, "it is obsolete (the allocation start)", 0},
    {"-l", S_REFUSED, 0, "it was removed from mkfs.btrfs: use --nodesize", 0},
    {"--leafsize", S_REFUSED, 0, "it was removed from mkfs.btrfs: use --nodesize", 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const char *const btrfs_compress[] = {"zlib", "lzo", "zstd", "no", "none", NULL};
static const struct opt btrfs_mount[] = {
    {"acl", S_NONE, 0, NULL, 0},
    {"noacl", S_NONE, 0, NULL, 0},
    {"autodefrag", S_NONE, 0, NULL, 0},
    {"noautodefrag", S_NONE, 0, NULL, 0},
    {"barrier", S_NONE, 0, NULL, 0},
    {"nobarrier", S_NONE, 0, NULL, 0},
    {"clear_cache", S_NONE, 0, NULL, 0},
    {"commit", S_UINT, 0, NULL, 0},
    {"compress", S_CHOICE, F_OPTIONAL | F_LEVEL, btrfs_compress, 0},
    {"compress-force", S_CHOICE, F_OPTIONAL | F_LEVEL, btrfs_compress, 0},
    {"datacow", S_NONE, 0, NULL, 0},
    {"nodatacow", S_NONE, 0, NULL, 0},
    {"datasum", S_NONE, 0, NULL, 0},
    {"nodatasum", S_NONE, 0, NULL, 0},
    {"degraded", S_NONE, 0, NULL, 0},
    {"discard", S_CHOICE, F_OPTIONAL, (const char *const[]){"sync", "async", NULL}, 0},
    {"nodiscard", S_NONE, 0, NULL, 0},
    {"enospc_debug", S_NONE, 0, NULL, 0},
    {"noenospc_debug", S_NONE, 0, NULL, 0},
    {"fatal_errors", S_CHOICE, 0, (const char *const[]){"bug", "panic", NULL}, 0},
    {"flushoncommit", S_NONE, 0, NULL, 0},
    {"noflushoncommit", S_NONE, 0, NULL, 0},
    {"nologreplay", S_NONE, 0, NULL, 0},
    {"max_inline", S_SIZE, 0, NULL, 0},
    {"metadata_ratio", S_UINT, 0, NULL, 0},
    {"norecovery", S_NONE, 0, NULL, 0},
    {"rescan_uuid_tree", S_NONE, 0, NULL, 0},
    {"skip_balance", S_NONE, 0, NULL, 0},
    {"space_cache", S_CHOICE, F_OPTIONAL, (const char *const[]){"v1", "v2", NULL}, 0},
    {"nospace_cache", S_NONE, 0, NULL, 0},
    {"ssd", S_NONE, 0, NULL, 0},
    {"ssd_spread", S_NONE, 0, NULL, 0},
    {"nossd", S_NONE, 0, NULL, 0},
    {"nossd_spread", S_NONE, 0, NULL, 0},
    {"subvolid", S_UINT, 0, NULL, 0},
    {"thread_pool", S_UINT, 0, NULL, 0},
    {"treelog", S_NONE, 0, NULL, 0},
    {"notreelog", S_NONE, 0, NULL, 0},
    {"usebackuproot", S_NONE, 0, NULL, 0},
    {"user_subvol_rm_allowed", S_NONE, 0, NULL, 0},
    {"device", S_REFUSED, 0, R_DEVICE, 0},
    {"subvol", S_REFUSED, 0, "it names a path (use subvolid=)", 0},
    {NULL, S_NONE, 0, NULL, 0},
};

/* ---- f2fs (mkfs.f2fs) ---- */

static const char *const f2fs_features[] = {
    "encrypt",
    "extra_attr",
    "project_quota",
    "inode_checksum",
    "flexible_inline_xattr",
    "quota",
    "inode_crtime",
    "lost_found",
    "verity",
    "sb_checksum",
    "casefold",
    "compression",
    NULL,
};
static const struct opt f2fs_mkfs[] = {
    {"-a", S_CHOICE, 0, w_01, 0},
    {"-C", S_CHOICE, 0, (const char *const[]){"utf8", "utf8:strict", NULL}, 0},
    {"-d", S_UINT, 0, NULL, 0},
    {"-e", S_WORDS, 0, NULL, 0},
    {"-E", S_WORDS, 0, NULL, 0},
    {"-g", S_CHOICE, 0, (const char *const[]){"android", NULL}, 0},
    {"-i", S_NONE, 0, NULL, 0},
    {"-l", S_LABEL, 0, NULL, 255},
    {"-m", S_NONE, 0, NULL, 0},
    {"-o", S_REAL, 0, NULL, 0},
    {"-O", S_LIST, 0, f2fs_features, 0},
    {"-r", S_NONE, 0, NULL, 0},
    {"-R", S_OWNER, 0, NULL, 0},
    {"-s", S_UINT, 0, NULL, 0},
    {"-t", S_CHOICE, 0, w_01, 0},
    {"-T", S_INT, 0, NULL, 0},
    {"-U", S_UUID, 0, NULL, 0},
    {"-w", S_UINT, 0, NULL, 0},
    {"-z", S_UINT, 0, NULL, 0},
    {"-f", S_REFUSED, 0, R_ADDED, 0},
    {"-q", S_REFUSED, 0, R_ADDED, 0},
    {"-c", S_REFUSED, 0, R_DEVICE " (more devices for one volume)", 0},
    {"-S", S_REFUSED, 0, R_NOFS " (a sparse-file mode)", 0},
    {"-V", S_REFUSED, 0, R_NOFS, 0},
    {"-h", S_REFUSED, 0, R_NOFS, 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt f2fs_mount[] = {
    {"background_gc", S_CHOICE, 0, (const char *const[]){"on", "off", "sync", NULL}, 0},
    {"gc_merge", S_NONE, 0, NULL, 0},
    {"nogc_merge", S_NONE, 0, NULL, 0},
    {"disable_roll_forward", S_NONE, 0, NULL, 0},
    {"norecovery", S_NONE, 0, NULL, 0},
    {"discard", S_NONE, 0, NULL, 0},
    {"nodiscard", S_NONE, 0, NULL, 0},
    {"heap", S_NONE, 0, NULL, 0},
    {"no_heap", S_NONE, 0, NULL, 0},
    {"user_xattr", S_NONE, 0, NULL, 0},
    {"nouser_xattr", S_NONE, 0, NULL, 0},
    {"acl", S_NONE, 0, NULL, 0},
    {"noacl", S_NONE, 0, NULL, 0},
    {"active_logs", S_CHOICE, 0, (const char *const[]){"2", "4", "6", NULL}, 0},
    {"disable_ext_identify", S_NONE, 0, NULL, 0},
    {"inline_xattr", S_NONE, 0, NULL, 0},
    {"noinline_xattr", S_NONE, 0, NULL, 0},
    {"inline_xattr_size", S_UINT, 0, NULL, 0},
    {"inline_data", S_NONE, 0, NULL, 0},
    {"noinline_data", S_NONE, 0, NULL, 0},
    {"inline_dentry", S_NONE, 0, NULL, 0},
    {"noinline_dentry", S_NONE, 0, NULL, 0},
    {"flush_merge", S_NONE, 0, NULL, 0},
    {"noflush_merge", S_NONE, 0, NULL, 0},
    {"barrier", S_NONE, 0, NULL, 0},
    {"nobarrier", S_NONE, 0, NULL, 0},
    {"fastboot", S_NONE, 0, NULL, 0},
    {"extent_cache", S_NONE, 0, NULL, 0},
    {"noextent_cache", S_NONE, 0, NULL, 0},
    {"data_flush", S_NONE, 0, NULL, 0},
    {"reserve_root", S_UINT, 0, NULL, 0},
    {"resuid", S_UINT, 0, NULL, 0},
    {"resgid", S_UINT, 0, NULL, 0},
    {"mode", S_CHOICE, 0,
     (const char *const[]){"adaptive", "lfs", "fragment:segment", "fragment:block", NULL}, 0},
    {"usrquota", S_NONE, 0, NULL, 0},
    {"grpquota", S_NONE, 0, NULL, 0},
    {"prjquota", S_NONE, 0, NULL, 0},
    {"quota", S_NONE, 0, NULL, 0},
    {"noquota", S_NONE, 0, NULL, 0},
    {"jqfmt", S_CHOICE, 0, w_jqfmt, 0},
    {"alloc_mode", S_CHOICE, 0, (const char *const[]){"reuse", "default", NULL}, 0},
    {"fsync_mode", S_CHOICE, 0, (const char *const[]){"posix", "strict", "nobarrier", NULL}, 0},
    {"inlinecrypt", S_NONE, 0, NULL, 0},
    {"checkpoint", S_CHOICE, 0, (const char *const[]){"enable", "disable", NULL}, 0},
    {"checkpoint_merge", S_NONE, 0, NULL, 0},
    {"nocheckpoint_merge", S_NONE, 0, NULL, 0},
    {"compress_algorithm", S_CHOICE, F_LEVEL,
     (const char *const[]){"lzo", "lz4", "zstd", "lzo-rle", NULL}, 0},
    {"compress_log_size", S_UINT, 0, NULL, 0},
    {"compress_extension", S_WORD, 0, NULL, 0},
    {"nocompress_extension", S_WORD, 0, NULL, 0},
    {"compress_chksum", S_NONE, 0, NULL, 0},
    {"compress_mode", S_CHOICE, 0, (const char *const[]){"fs", "user", NULL}, 0},
    {"compress_cache", S_NONE, 0, NULL, 0},
    {"atgc", S_NONE, 0, NULL, 0},
    {"discard_unit", S_CHOICE, 0, (const char *const[]){"block", "segment", "section", NULL}, 0},
    {"memory", S_CHOICE, 0, (const char *const[]){"normal", "low", NULL}, 0},
    {"age_extent_cache", S_NONE, 0, NULL, 0},
    {"errors", S_CHOICE, 0, w_errors, 0},
    {"usrjquota", S_REFUSED, 0, R_QUOTAFILE, 0},
    {"grpjquota", S_REFUSED, 0, R_QUOTAFILE, 0},
    {"prjjquota", S_REFUSED, 0, R_QUOTAFILE, 0},
    {NULL, S_NONE, 0, NULL, 0},
};

/* ---- vfat, msdos (mkfs.fat) and exfat (mkfs.exfat) ---- */

static const struct opt fat_mkfs[] = {
    {"-a", S_NONE, 0, NULL, 0},
    {"-A", S_NONE, 0, NULL, 0},
    {"-b", S_UINT, 0, NULL, 0},
    {"-D", S_HEX, 0, NULL, 0},
    {"-f", S_UINT, 0, NULL, 0},
    {"-F", S_CHOICE, 0, (const char *const[]){"12", "16", "32", NULL}, 0},
    {"-h", S_UINT, 0, NULL, 0},
    {"-i", S_HEX, 0, NULL, 0},
    {"-M", S_HEX, 0, NULL, 0},
    {"-n", S_LABEL, 0, NULL, 11},
    {"-r", S_UINT, 0, NULL, 0},
    {"-R", S_UINT, 0, NULL, 0},
    {"-s", S_UINT, 0, NULL, 0},
    {"-S", S_UINT, 0, NULL, 0},
    {"-v", S_NONE, 0, NULL, 0},
    {"--codepage", S_UINT, 0, NULL, 0},
    {"--variant", S_CHOICE, 0, (const char *const[]){"standard", "atari", NULL}, 0},
    {"-c", S_REFUSED, 0, R_WHOLE " (a bad-block scan)", 0},
    {"-C", S_REFUSED, 0, R_PATH " (it creates the file it formats)", 0},
    {"-l", S_REFUSED, 0, R_PATH " (a bad-block list)", 0},
    {"-m", S_REFUSED, 0, R_PATH " (a boot message file)", 0},
    {"-I", S_REFUSED, 0, R_SAFETY, 0},
    {"-g", S_REFUSED, 0, "its value holds a '/' (heads/sectors), which fsbench never passes on", 0},
    {"--offset", S_REFUSED, 0, "it moves the file system away from the start of the device", 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt fat_mount[] = {
    {"uid", S_UINT, 0, NULL, 0},
    {"gid", S_UINT, 0, NULL, 0},
    {"umask", S_OCTAL, 0, NULL, 0},
    {"dmask", S_OCTAL, 0, NULL, 0},
    {"fmask", S_OCTAL, 0, NULL, 0},
    {"allow_utime", S_OCTAL, 0, NULL, 0},
    {"check", S_CHOICE, 0,
     (const char *const[]){"relaxed", "normal", "strict", "r", "n", "s", NULL}, 0},
    {"codepage", S_UINT, 0, NULL, 0},
    {"iocharset", S_WORD, 0, NULL, 0},
    {"debug", S_NONE, 0, NULL, 0},
    {"discard", S_NONE, 0, NULL, 0},
    {"dos1xfloppy", S_NONE, 0, NULL, 0},
    {"errors", S_CHOICE, 0, w_errors, 0},
    {"fat", S_CHOICE, 0, (const char *const[]){"12", "16", "32", NULL}, 0},
    {"nfs", S_CHOICE, 0, (const char *const[]){"stale_rw", "nostale_ro", NULL}, 0},
    {"tz", S_CHOICE, 0, (const char *const[]){"UTC", NULL}, 0},
    {"time_offset", S_INT, 0, NULL, 0},
    {"quiet", S_NONE, 0, NULL, 0},
    {"rodir", S_NONE, 0, NULL, 0},
    {"showexec", S_NONE, 0, NULL, 0},
    {"sys_immutable", S_NONE, 0, NULL, 0},
    {"flush", S_NONE, 0, NULL, 0},
    {"usefree", S_NONE, 0, NULL, 0},
    {"dots", S_NONE, 0, NULL, 0},
    {"nodots", S_NONE, 0, NULL, 0},
    {"dotsOK", S_CHOICE, 0, (const char *const[]){"yes", "no", NULL}, 0},
    {"shortname", S_CHOICE, 0, (const char *const[]){"lower", "win95", "winnt", "mixed", NULL}, 0},
    {"utf8", S_BOOL, F_OPTIONAL, NULL, 0},
    {"uni_xlate", S_NONE, 0, NULL, 0},
    {"posix", S_NONE, 0, NULL, 0},
    {"nonumtail", S_BOOL, F_OPTIONAL, NULL, 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt exfat_mkfs[] = {
    {"-b", S_SIZE, 0, NULL, 0},
    {"--boundary-align", S_SIZE, 0, NULL, 0},
    {"-c", S_SIZE, 0, NULL, 0},
    {"--cluster-size", S_SIZE, 0, NULL, 0},
    {"-f", S_NONE, 0, NULL, 0},
    {"--full-format", S_NONE, 0, NULL, 0},
    {"-L", S_LABEL, 0, NULL, 11},
    {"--volume-label", S_LABEL, 0, NULL, 11},
    {"--pack-bitmap", S_NONE, 0, NULL, 0},
    {"-v", S_NONE, 0, NULL, 0},
    {"--verbose", S_NONE, 0, NULL, 0},
    {"-V", S_REFUSED, 0, R_NOFS, 0},
    {"--version", S_REFUSED, 0, R_NOFS, 0},
    {"-h", S_REFUSED, 0, R_NOFS, 0},
    {"--help", S_REFUSED, 0, R_NOFS, 0},
    {NULL, S_NONE, 0, NULL, 0},
};
static const struct opt exfat_mount[] = {
    {"uid", S_UINT, 0, NULL, 0},       {"gid", S_UINT, 0, NULL, 0},
    {"umask", S_OCTAL, 0, NULL, 0},    {"dmask", S_OCTAL, 0, NULL, 0},
    {"fmask", S_OCTAL, 0, NULL, 0},    {"allow_utime", S_OCTAL, 0, NULL, 0},
    {"iocharset", S_WORD, 0, NULL, 0}, {"errors", S_CHOICE, 0, w_errors, 0},
    {"discard", S_NONE, 0, NULL, 0},   {"keep_last_dots", S_NONE, 0, NULL, 0},
    {"sys_tz", S_NONE, 0, NULL, 0},    {"time_offset", S_INT, 0, NULL, 0},
    {NULL, S_NONE, 0, NULL, 0},
};

static const struct fsdef fsdefs[] = {
    {(const char *const[]){"ext2", "ext3", "ext4", NULL}, ext_mkfs, ext_mount},
    {(const char *const[]){"xfs", NULL}, xfs_mkfs, xfs_mount},
    {(const char *const[]){"btrfs", NULL}, btrfs_mkfs, btrfs_mount},
    {(const char *const[]){"f2fs", NULL}, f2fs_mkfs, f2fs_mount},
    {(const char *const[]){"vfat", "msdos", NULL}, fat_mkfs, fat_mount},
    {(const char *const[]){"exfat", NULL}, exfat_mkfs, exfat_mount},
    {NULL, NULL, NULL},
};

/* The flag words mount(2) takes (os/mount.h turns them into MS_* bits), for every type. */
const char *const fsopts_mount_flags[] = {
    "defaults", "ro",         "rw",       "sync",     "async",      "dirsync",     "noatime",
    "atime",    "nodiratime", "diratime", "relatime", "norelatime", "strictatime", "nostrictatime",
    "lazytime", "nolazytime", "nodev",    "dev",      "nosuid",     "suid",        "noexec",
    "exec",     "mand",       "nomand",   "iversion", "noiversion", "silent",      "loud",
    NULL,
};

/* Mount keys no type gets, whatever its table says: they would name what is mounted. */
static const struct opt mount_never[] = {
    {"source", S_REFUSED, 0, "it would name what is mounted (fsbench mounts its own target)", 0},
    {"loop", S_REFUSED, 0, "fsbench attaches its own loop device", 0},
    {"offset", S_REFUSED, 0, "fsbench attaches its own loop device", 0},
    {"sizelimit", S_REFUSED, 0, "fsbench attaches its own loop device", 0},
    {"bind", S_REFUSED, 0, "fsbench mounts a file system, not a bind mount", 0},
    {"rbind", S_REFUSED, 0, "fsbench mounts a file system, not a bind mount", 0},
    {"remount", S_REFUSED, 0, "fsbench mounts afresh", 0},
    {"move", S_REFUSED, 0, "fsbench mounts afresh", 0},
    {NULL, S_NONE, 0, NULL, 0},
};

/* ---- helpers ---- */

static const struct fsdef *fsdef_find(const char *fstype)
{
    for (const struct fsdef *d = fsdefs; fstype && d->types; d++)
        for (size_t i = 0; d->types[i]; i++)
            if (!strcmp(d->types[i], fstype))
                return d;
    return NULL;
}

/* The entry of table named by the n bytes at name, or NULL. */
static const struct opt *opt_find(const struct opt *table, const char *name, size_t n)
{
    for (const struct opt *o = table; o && o->name; o++)
        if (strlen(o->name) == n && !strncmp(o->name, name, n))
            return o;
    return NULL;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_xdigit(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_alnum(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* n >= 1 digits from s; returns the length. */
static size_t digits(const char *s)
{
    size_t n = 0;
    while (is_digit(s[n]))
        n++;
    return n;
}

/* Printable ASCII only: no control characters, no bytes above 0x7e. */
static bool printable(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
            return false;
    return true;
}

/* Whether the n bytes at s are one of words. */
static bool in_words(const char *const *words, const char *s, size_t n, bool ci)
{
    for (size_t i = 0; words && words[i]; i++)
        if (strlen(words[i]) == n && (ci ? !strncasecmp(words[i], s, n) : !strncmp(words[i], s, n)))
            return true;
    return false;
}

/* "a, b or c" of words, into buf. */
static const char *join_words(const char *const *words, const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; words && words[i] && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? sep : "", words[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

/* The names of a table's entries that are not refused, blank separated. */
static const char *join_names(const struct opt *table, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const struct opt *o = table; o && o->name && used < len; o++) {
        if (o->shape == S_REFUSED)
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? " " : "", o->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

/* Whether the n bytes at v have shape o (not S_SUBOPTS, S_NONE or S_REFUSED). */
static bool shape_ok(const struct opt *o, const char *v, size_t n)
{
    size_t d;
    switch (o->shape) {
    case S_UINT:
        return n && digits(v) == n;
    case S_INT:
        if (n && v[0] == '-')
            v++, n--;
        return n && digits(v) == n;
    case S_REAL:
        d = digits(v);
        if (d && d < n && v[d] == '.')
            return n > d + 1 && digits(v + d + 1) == n - d - 1;
        return d && d == n;
    case S_SIZE:
        d = digits(v);
        return d && (d == n || (d + 1 == n && strchr("kKmMgGtTpPeEsSbB", v[d])));
    case S_BOOL:
        return n == 1 && (v[0] == '0' || v[0] == '1');
    case S_HEX:
        if (n > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
            v += 2, n -= 2;
        for (d = 0; d < n && is_xdigit(v[d]); d++)
            ;
        return n && d == n;
    case S_OCTAL:
        for (d = 0; d < n && v[d] >= '0' && v[d] <= '7'; d++)
            ;
        return n && d == n;
    case S_LABEL:
        if (!n || n > o->max || v[0] == '-')
            return false;
        for (d = 0; d < n; d++)
            if (!is_alnum(v[d]) && !strchr("_.+:@-", v[d]))
                return false;
        return true;
    case S_UUID: {
        static const size_t group[] = {8, 4, 4, 4, 12};
        if (in_words(o->arg, v, n, false))
            return true;
        size_t p = 0;
        for (int g = 0; g < 5; g++) {
            for (d = 0; d < group[g]; d++, p++)
                if (p >= n || !is_xdigit(v[p]))
                    return false;
            if (g < 4 && (p >= n || v[p++] != '-'))
                return false;
        }
        return p == n;
    }
    case S_OWNER:
        d = digits(v);
        return d && d + 1 < n && v[d] == ':' && digits(v + d + 1) == n - d - 1;
    case S_WORD:
        if (!n || v[0] == '-')
            return false;
        for (d = 0; d < n; d++)
            if (!is_alnum(v[d]) && !strchr("_.-", v[d]))
                return false;
        return true;
    case S_CHOICE: {
        size_t w = n;
        const char *colon = o->flags & F_LEVEL ? memchr(v, ':', n) : NULL;
        if (colon) {
            w = (size_t)(colon - v);
            if (digits(colon + 1) != n - w - 1 || n - w - 1 == 0)
                return false;
        }
        return in_words(o->arg, v, w, o->flags & F_CI);
    }
    case S_LIST:
    case S_COLONS:
    case S_WORDS: {
        char sep = o->shape == S_COLONS ? ':' : ',';
        struct opt word = {NULL, S_WORD, 0, NULL, 0};
        size_t i = 0;
        if (!n)
            return false;
        while (i <= n) {
            size_t j = i;
            while (j < n && v[j] != sep)
                j++;
            const char *item = v + i;
            size_t len = j - i;
            if (o->shape == S_LIST && len && item[0] == '^')
                item++, len--;
            if (!len)
                return false;
            if (o->shape == S_WORDS ? !shape_ok(&word, item, len)
                                    : !in_words(o->arg, item, len, o->flags & F_CI))
                return false;
            i = j + 1;
        }
        return true;
    }
    case S_NONE:
    case S_REFUSED:
    case S_SUBOPTS:
        break;
    }
    return false;
}

/* What shape o asks for, for a message. */
static const char *shape_text(const struct opt *o, char *buf, size_t len)
{
    char w[512];
    switch (o->shape) {
    case S_UINT:
        return "a whole number";
    case S_INT:
        return "a whole number, optionally negative";
    case S_REAL:
        return "a number (digits, optionally with a fraction)";
    case S_SIZE:
        return "a size (digits with an optional unit: 4096, 64k, 1g)";
    case S_BOOL:
        return "0 or 1";
    case S_HEX:
        return "a hexadecimal number";
    case S_OCTAL:
        return "an octal number";
    case S_LABEL:
        snprintf(buf, len,
                 "a label of 1 to %u characters from A-Z a-z 0-9 _ . + : @ - "
                 "(not starting with -)",
                 o->max);
        return buf;
    case S_UUID:
        snprintf(buf, len, "a UUID (8-4-4-4-12 hexadecimal digits)%s%s",
                 o->arg ? " or one of " : "", o->arg ? join_words(o->arg, ", ", w, sizeof w) : "");
        return buf;
    case S_OWNER:
        return "UID:GID (two whole numbers)";
    case S_WORD:
        return "one word of A-Z a-z 0-9 _ . -";
    case S_WORDS:
        return "a comma-separated list of words of A-Z a-z 0-9 _ . -";
    case S_CHOICE:
        snprintf(buf, len, "one of %s%s", join_words(o->arg, ", ", w, sizeof w),
                 o->flags & F_LEVEL ? " (optionally :LEVEL)" : "");
        return buf;
    case S_LIST:
        snprintf(buf, len, "a comma-separated list of %s (each optionally after ^)",
                 join_words(o->arg, ", ", w, sizeof w));
        return buf;
    case S_COLONS:
        snprintf(buf, len, "a colon-separated list of %s", join_words(o->arg, ", ", w, sizeof w));
        return buf;
    case S_NONE:
    case S_REFUSED:
    case S_SUBOPTS:
        break;
    }
    return "a value";
}

/* Checks one key[=value] item (a sub-option of opt, or a mount option: opt NULL) against
 * table. 0, or -1 with why: "'WHAT' is refused for FS: ...". */
static int check_item(const struct opt *table, const char *item, size_t n, const char *what,
                      const char *fs, const char *optname, char *why, size_t len)
{
    const char *eq = memchr(item, '=', n);
    size_t klen = eq ? (size_t)(eq - item) : n;
    const char *val = eq ? eq + 1 : NULL;
    size_t vlen = eq ? n - klen - 1 : 0;
    char names[2048], shape[768];
    const struct opt *o = optname ? NULL : opt_find(mount_never, item, klen);
    if (!o)
        o = opt_find(table, item, klen);
    if (!o) {
        if (optname)
            snprintf(why, len,
                     "'%s' is refused for %s: '%.*s' is not a %s sub-option fsbench "
                     "allows (it allows: %s)",
                     what, fs, (int)klen, item, optname, join_names(table, names, sizeof names));
        else
            snprintf(why, len,
                     "'%s' is refused for %s: '%.*s' is not among the %s mount options fsbench "
                     "allows (see fsbench(1), MKFS AND MOUNT OPTIONS)",
                     what, fs, (int)klen, item, fs);
        return -1;
    }
    if (o->shape == S_REFUSED) {
        snprintf(why, len, "'%s' is refused for %s: %s", what, fs, (const char *)o->arg);
        return -1;
    }
    if (o->shape == S_NONE) {
        if (eq) {
            snprintf(why, len, "'%s' is refused for %s: %.*s takes no value", what, fs, (int)klen,
                     item);
            return -1;
        }
        return 0;
    }
    if (!eq) {
        if (o->flags & F_OPTIONAL)
            return 0;
        snprintf(why, len, "'%s' is refused for %s: %.*s needs a value (%.*s=...)", what, fs,
                 (int)klen, item, (int)klen, item);
        return -1;
    }
    if (!shape_ok(o, val, vlen)) {
        snprintf(why, len, "'%s' is refused for %s: the value of %.*s is not %s", what, fs,
                 (int)klen, item, shape_text(o, shape, sizeof shape));
        return -1;
    }
    return 0;
}

/* A value holding '/' or a character that is not printable ASCII: the message, else NULL. */
static const char *bad_word(const char *s, size_t n)
{
    if (!printable(s, n))
        return "it holds a blank, a control character or a byte that is not ASCII";
    if (memchr(s, '/', n))
        return "it names a path or device (fsbench makes and mounts a file system only on its "
               "own target)";
    return NULL;
}

/* Checks the value v of mkfs option o (given as word w). */
static int check_value(const struct opt *o, const char *w, const char *v, const char *fs, char *why,
                       size_t len)
{
    char what[512], shape[768];
    snprintf(what, sizeof what, "%s%s%s", w, w[1] == '-' && strchr(w, '=') ? "" : " ",
             w[1] == '-' && strchr(w, '=') ? "" : v);
    const char *bad = bad_word(v, strlen(v));
    if (bad) {
        snprintf(why, len, "'%s' is refused for %s: %s", what, fs, bad);
        return -1;
    }
    if (o->shape != S_SUBOPTS) {
        if (shape_ok(o, v, strlen(v)))
            return 0;
        snprintf(why, len, "'%s' is refused for %s: the value of %s is not %s", what, fs, o->name,
                 shape_text(o, shape, sizeof shape));
        return -1;
    }
    size_t n = strlen(v);
    if (!n) {
        snprintf(why, len, "'%s' is refused for %s: %s needs a value", what, fs, o->name);
        return -1;
    }
    for (size_t i = 0; i <= n;) {
        size_t j = i;
        while (j < n && v[j] != ',')
            j++;
        if (j == i) {
            snprintf(why, len,
                     "'%s' is refused for %s: an empty sub-option (two commas, or one "
                     "at an end)",
                     what, fs);
            return -1;
        }
        if (check_item(o->arg, v + i, j - i, what, fs, o->name, why, len) < 0)
            return -1;
        i = j + 1;
    }
    return 0;
}

/* ---- the checks ---- */

int fsopts_check_mkfs(const char *fstype, const char *opts, char *why, size_t len)
{
    if (!opts || !opts[strspn(opts, FSOPTS_BLANKS)])
        return 0;
    const char *fs = fstype ? fstype : "?";
    const struct fsdef *d = fsdef_find(fstype);
    char buf[4096], names[1024];
    if (strlen(opts) >= sizeof buf) {
        snprintf(why, len, "mkfs options too long for %s (at most %zu characters)", fs,
                 sizeof buf - 1);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", opts);
    char *w[sizeof buf / 2 + 1];
    size_t nw = 0;
    for (char *save = NULL, *t = strtok_r(buf, FSOPTS_BLANKS, &save); t;
         t = strtok_r(NULL, FSOPTS_BLANKS, &save))
        w[nw++] = t;
    if (!nw)
        return 0;
    if (!d) {
        snprintf(why, len,
                 "'%s' is refused for %s: fsbench knows no mkfs.%s options (it passes "
                 "mkfs options for ext2, ext3, ext4, xfs, btrfs, f2fs, vfat, msdos and "
                 "exfat)",
                 w[0], fs, fs);
        return -1;
    }
    for (size_t i = 0; i < nw; i++) {
        const char *word = w[i], *bad = bad_word(word, strlen(word));
        if (bad) {
            snprintf(why, len, "'%s' is refused for %s: %s", word, fs, bad);
            return -1;
        }
        if (word[0] != '-') {
            snprintf(why, len,
                     "'%s' is refused for %s: it is not an option, and mkfs.%s would "
                     "take a word without a leading '-' for another device or a size "
                     "(only the value of the option before it may lack one)",
                     word, fs, fs);
            return -1;
        }
        if (!word[1] || !strcmp(word, "--")) {
            snprintf(why, len,
                     "'%s' is refused for %s: it would end the options, and mkfs.%s "
                     "would take what follows for devices",
                     word, fs, fs);
            return -1;
        }
        const char *eq = word[1] == '-' ? strchr(word, '=') : NULL;
        size_t nlen = eq ? (size_t)(eq - word) : strlen(word);
        const struct opt *o = opt_find(d->mkfs, word, nlen);
        if (!o) {
            const struct opt *s = word[1] != '-' ? opt_find(d->mkfs, word, 2) : NULL;
            if (s && s->shape != S_NONE && s->shape != S_REFUSED)
                snprintf(why, len,
                         "'%s' is refused for %s: give the value of %s as its own word "
                         "('%s %s')",
                         word, fs, s->name, s->name, word + 2);
            else
                snprintf(why, len,
                         "'%s' is refused for %s: it is not an mkfs.%s option fsbench "
                         "allows (it allows: %s)",
                         word, fs, fs, join_names(d->mkfs, names, sizeof names));
            return -1;
        }
        if (o->shape == S_REFUSED) {
            snprintf(why, len, "'%s' is refused for %s: %s", o->name, fs, (const char *)o->arg);
            return -1;
        }
        if (o->shape == S_NONE) {
            if (eq) {
                snprintf(why, len, "'%s' is refused for %s: %s takes no value", word, fs, o->name);
                return -1;
            }
            continue;
        }
        const char *val = eq ? eq + 1 : i + 1 < nw ? w[++i] : NULL;
        if (!val) {
            snprintf(why, len, "'%s' is refused for %s: %s needs a value", word, fs, o->name);
            return -1;
        }
        if (check_value(o, word, val, fs, why, len) < 0)
            return -1;
    }
    return 0;
}

int fsopts_check_mount(const char *fstype, const char *opts, char *why, size_t len)
{
    const char *fs = fstype ? fstype : "?";
    const struct fsdef *d = fsdef_find(fstype);
    for (const char *p = opts; p && *p;) {
        size_t n = strcspn(p, ",");
        char item[512];
        snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item ? n : sizeof item - 1), p);
        const char *bad = n ? bad_word(p, n) : NULL;
        if (bad) {
            snprintf(why, len, "'%s' is refused for %s: %s", item, fs, bad);
            return -1;
        }
        if (n >= sizeof item) {
            snprintf(why, len, "'%.40s...' is refused for %s: a mount option that long is none",
                     item, fs);
            return -1;
        }
        if (n && !in_words(fsopts_mount_flags, p, n, false)) {
            const char *eq = memchr(p, '=', n);
            size_t klen = eq ? (size_t)(eq - p) : n;
            if (!d && !opt_find(mount_never, p, klen)) {
                snprintf(why, len,
                         "'%s' is refused for %s: fsbench knows no %s mount options, "
                         "only the generic ones (ro, noatime, relatime, sync, ...)",
                         item, fs, fs);
                return -1;
            }
            if (check_item(d ? d->mount : NULL, p, n, item, fs, NULL, why, len) < 0)
                return -1;
        }
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

const char *fsopts_mkfs_names(const char *fstype, char *buf, size_t len)
{
    const struct fsdef *d = fsdef_find(fstype);
    if (!d) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    return join_names(d->mkfs, buf, len);
}

const char *fsopts_mount_names(const char *fstype, char *buf, size_t len)
{
    const struct fsdef *d = fsdef_find(fstype);
    if (!d) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    return join_names(d->mount, buf, len);
}
