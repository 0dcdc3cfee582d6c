/* extents.h — where a file's data lies on the device (Linux's FIEMAP), and the geometry of
 * the file system that places it (block size, allocation groups), for the layout score and
 * directory locality (measure/layout.c).
 *
 * Extent flags keep FIEMAP's bit values, so the Linux build passes them through as they
 * are. The POSIX fallback has no extent map: every file system reads as unsupported, and
 * the layout phase is skipped saying so.
 */
#ifndef FSBENCH_OS_EXTENTS_H
#define FSBENCH_OS_EXTENTS_H

#include <stdint.h>
#include <sys/types.h>

#define OS_EXTENT_LAST 0x00000001u
#define OS_EXTENT_UNKNOWN 0x00000002u        /* location not known yet */
#define OS_EXTENT_DELALLOC 0x00000004u       /* delayed allocation: no location yet */
#define OS_EXTENT_ENCODED 0x00000008u        /* compressed or otherwise encoded */
#define OS_EXTENT_DATA_ENCRYPTED 0x00000080u
#define OS_EXTENT_NOT_ALIGNED 0x00000100u
#define OS_EXTENT_DATA_INLINE 0x00000200u    /* data lives in the metadata */
#define OS_EXTENT_DATA_TAIL 0x00000400u      /* packed with other files' tails */
#define OS_EXTENT_UNWRITTEN 0x00000800u      /* allocated, never written */
#define OS_EXTENT_MERGED 0x00001000u
#define OS_EXTENT_SHARED 0x00002000u

/* One extent: byte offsets in the file and on the device, its length, OS_EXTENT_* flags. */
struct os_extent {
    uint64_t logical, physical, length;
    uint32_t flags;
};

struct os_extent_reader;

/* A reader with room for a batch of extents; NULL when out of memory. */
struct os_extent_reader *os_extent_reader_new(void);
void os_extent_reader_free(struct os_extent_reader *r);

/* Calls fn(arg, extent) for every extent of open regular file fd, in file order, after
 * flushing delayed allocation once. 0; 1 when the file system (or the system) has no
 * extent map; or -errno. */
int os_extents_read(struct os_extent_reader *r, int fd,
                    void (*fn)(void *arg, const struct os_extent *e), void *arg);

/* The geometry of the file system holding directory dirfd. */
struct os_fs_geometry {
    char type[32];             /* from the file system's magic number, or "unknown" */
    uint64_t block_size;       /* allocation block size (4096 where unknown) */
    uint64_t group_blocks;     /* blocks per allocation group (0: no groups known) */
    uint64_t first_data_block; /* block where group 0 starts */
    char group_source[32];     /* "superblock", "mke2fs default", "xfs geometry", "n/a" */
};

/* Fills *g for the file system of dirfd, whose device number is dev and mount source
 * `source` ("" when unknown; an ext superblock is read from it when it is that device). */
void os_fs_geometry(int dirfd, dev_t dev, const char *source, struct os_fs_geometry *g);

#endif
