/* linux_extents.c — extents.h on Linux: the FS_IOC_FIEMAP ioctl in batches, fstatfs for the
 * file system's magic, FIGETBSZ for its block size, the ext2/3/4 superblock for its block
 * groups and XFS_IOC_FSGEOMETRY (where xfslibs-dev is installed) for xfs's allocation groups.
 */
#include "os/extents.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<xfs/xfs.h>)
#include <xfs/xfs.h>
#define HAVE_XFS_GEOMETRY 1
#endif
#endif

#ifndef XFS_SUPER_MAGIC
#define XFS_SUPER_MAGIC 0x58465342
#endif

_Static_assert(OS_EXTENT_LAST == FIEMAP_EXTENT_LAST && OS_EXTENT_UNKNOWN == FIEMAP_EXTENT_UNKNOWN &&
                   OS_EXTENT_DELALLOC == FIEMAP_EXTENT_DELALLOC &&
                   OS_EXTENT_ENCODED == FIEMAP_EXTENT_ENCODED &&
                   OS_EXTENT_DATA_ENCRYPTED == FIEMAP_EXTENT_DATA_ENCRYPTED &&
                   OS_EXTENT_NOT_ALIGNED == FIEMAP_EXTENT_NOT_ALIGNED &&
                   OS_EXTENT_DATA_INLINE == FIEMAP_EXTENT_DATA_INLINE &&
                   OS_EXTENT_DATA_TAIL == FIEMAP_EXTENT_DATA_TAIL &&
                   OS_EXTENT_UNWRITTEN == FIEMAP_EXTENT_UNWRITTEN &&
                   OS_EXTENT_MERGED == FIEMAP_EXTENT_MERGED &&
                   OS_EXTENT_SHARED == FIEMAP_EXTENT_SHARED,
               "OS_EXTENT_* keep FIEMAP's values");

#define BATCH 256 /* extents per ioctl */

struct os_extent_reader {
    struct fiemap *fm;
};

struct os_extent_reader *os_extent_reader_new(void)
{
    struct os_extent_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->fm = calloc(1, sizeof *r->fm + BATCH * sizeof(struct fiemap_extent));
    if (!r->fm) {
        free(r);
        return NULL;
    }
    return r;
}

void os_extent_reader_free(struct os_extent_reader *r)
{
    if (r)
        free(r->fm);
    free(r);
}

int os_extents_read(struct os_extent_reader *r, int fd,
                    void (*fn)(void *arg, const struct os_extent *e), void *arg)
{
    struct fiemap *fm = r->fm;
    uint64_t start = 0;
    uint32_t flags = FIEMAP_FLAG_SYNC; /* flush delayed allocation once, on the first call */
    for (;;) {
        memset(fm, 0, sizeof *fm);
        fm->fm_start = start;
        fm->fm_length = FIEMAP_MAX_OFFSET - start;
        fm->fm_flags = flags;
        fm->fm_extent_count = BATCH;
        if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
            int e = errno;
            if (e == EOPNOTSUPP || e == ENOTTY)
                return 1;
            if (e == EBADR && flags) { /* no FIEMAP_FLAG_SYNC here: flush by hand */
                if (fdatasync(fd) < 0)
                    return -errno;
                flags = 0;
                continue;
            }
            return -e;
        }
        flags = 0;
        uint32_t n = fm->fm_mapped_extents;
        if (n == 0)
            return 0;
        for (uint32_t i = 0; i < n; i++) {
            const struct fiemap_extent *fe = &fm->fm_extents[i];
            struct os_extent e = {fe->fe_logical, fe->fe_physical, fe->fe_length, fe->fe_flags};
            fn(arg, &e);
        }
        const struct fiemap_extent *last = &fm->fm_extents[n - 1];
        uint64_t next = last->fe_logical + last->fe_length;
        if ((last->fe_flags & FIEMAP_EXTENT_LAST) || n < BATCH || next <= start ||
            next >= FIEMAP_MAX_OFFSET)
            return 0;
        start = next;
    }
}

/* ---- the file system ---- */

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Reads s_blocks_per_group and s_first_data_block from the ext2/3/4 superblock of block
 * device dev (via /dev/block/M:m, else the mount source if it is that device). 0, or -1
 * when it cannot be read (not root, no node): the caller falls back to the default. */
static int ext_superblock(dev_t dev, const char *source, uint64_t bs, uint64_t *bpg,
                                 uint64_t *first_data)
{
    char node[64];
    snprintf(node, sizeof node, "/dev/block/%u:%u", major(dev), minor(dev));
    int fd = open(node, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && source[0] == '/') {
        struct stat st;
        if (stat(source, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev)
            fd = open(source, O_RDONLY | O_CLOEXEC);
    }
    if (fd < 0)
        return -1;
    unsigned char sb[1024];
    ssize_t got = pread(fd, sb, sizeof sb, 1024);
    close(fd);
    if (got != (ssize_t)sizeof sb || sb[56] != 0x53 || sb[57] != 0xEF) /* s_magic 0xEF53 */
        return -1;
    uint32_t log_bs = le32(sb + 24);
    uint32_t per_group = le32(sb + 32);
    if (log_bs > 16 || (1024ull << log_bs) != bs || per_group == 0)
        return -1;
    *bpg = per_group;
    *first_data = le32(sb + 20);
    return 0;
}

/* Name of a file-system magic. */
static const char *magic_name(unsigned long magic)
{
    switch (magic) {
    case EXT4_SUPER_MAGIC:
        return "ext2/3/4";
    case XFS_SUPER_MAGIC:
        return "xfs";
    case BTRFS_SUPER_MAGIC:
        return "btrfs";
    case TMPFS_MAGIC:
        return "tmpfs";
    case F2FS_SUPER_MAGIC:
        return "f2fs";
    case NFS_SUPER_MAGIC:
        return "nfs";
    case OVERLAYFS_SUPER_MAGIC:
        return "overlay";
    default:
        return "unknown";
    }
}

void os_fs_geometry(int dirfd, dev_t dev, const char *source, struct os_fs_geometry *g)
{
    memset(g, 0, sizeof *g);
    struct statfs sfs;
    bool have_sfs = fstatfs(dirfd, &sfs) == 0;
    snprintf(g->type, sizeof g->type, "%s",
             have_sfs ? magic_name((unsigned long)sfs.f_type) : "unknown");

    int bsz = 0;
    if (ioctl(dirfd, FIGETBSZ, &bsz) == 0 && bsz > 0)
        g->block_size = (uint64_t)bsz;
    else if (have_sfs && sfs.f_bsize > 0)
        g->block_size = (uint64_t)sfs.f_bsize;
    else
        g->block_size = 4096;

    snprintf(g->group_source, sizeof g->group_source, "n/a");
    if (have_sfs && (unsigned long)sfs.f_type == EXT4_SUPER_MAGIC) {
        uint64_t bpg, first;
        if (ext_superblock(dev, source, g->block_size, &bpg, &first) == 0) {
            g->group_blocks = bpg;
            g->first_data_block = first;
            snprintf(g->group_source, sizeof g->group_source, "superblock");
        } else {
            /* mke2fs: one block bitmap block per group, so 8 * block size blocks; the first
             * data block is 1 with 1 KiB blocks (the boot block), else 0. */
            g->group_blocks = 8 * g->block_size;
            g->first_data_block = g->block_size == 1024 ? 1 : 0;
            snprintf(g->group_source, sizeof g->group_source, "mke2fs default");
        }
    }
#ifdef HAVE_XFS_GEOMETRY
    if (have_sfs && (unsigned long)sfs.f_type == XFS_SUPER_MAGIC) {
        struct xfs_fsop_geom geo;
        memset(&geo, 0, sizeof geo);
        if (ioctl(dirfd, XFS_IOC_FSGEOMETRY, &geo) == 0 && geo.agblocks > 0 &&
            geo.blocksize == g->block_size) {
            /* FIEMAP's physical addresses on xfs are linear: AG g starts at g * agblocks. */
            g->group_blocks = geo.agblocks;
            g->first_data_block = 0;
            snprintf(g->group_source, sizeof g->group_source, "xfs geometry");
        }
    }
#endif
}
