/* posix_extents.c — extents.h with plain POSIX: no extent map (every file system reads as
 * unsupported) and only the block size statvfs reports. */
#include "os/extents.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

struct os_extent_reader {
    int unused;
};

struct os_extent_reader *os_extent_reader_new(void)
{
    return calloc(1, sizeof(struct os_extent_reader));
}

void os_extent_reader_free(struct os_extent_reader *r)
{
    free(r);
}

int os_extents_read(struct os_extent_reader *r, int fd,
                    void (*fn)(void *arg, const struct os_extent *e), void *arg)
{
    (void)r, (void)fd, (void)fn, (void)arg;
    return 1;
}

void os_fs_geometry(int dirfd, dev_t dev, const char *source, struct os_fs_geometry *g)
{
    (void)dev, (void)source;
    memset(g, 0, sizeof *g);
    snprintf(g->type, sizeof g->type, "unknown");
    snprintf(g->group_source, sizeof g->group_source, "n/a");
    struct statvfs sv;
    g->block_size = fstatvfs(dirfd, &sv) == 0 && sv.f_frsize > 0 ? (uint64_t)sv.f_frsize : 4096;
}
