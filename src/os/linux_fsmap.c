/* linux_fsmap.c — fsmap.h with GETFSMAP: the file system's own map of its space, read in
 * batches; the records owned by FMR_OWN_FREE are the free extents. A file system may split
 * one free run at an allocation-group boundary; adjacent free records on the same device
 * are merged, so a run counts once, at its whole length.
 */
#include "os/fsmap.h"

#include <errno.h>
#include <linux/fsmap.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#define FSMAP_BATCH 512

int os_free_extents(int fd, void (*fn)(void *arg, uint64_t len), void *arg)
{
    struct fsmap_head *h = calloc(1, fsmap_sizeof(FSMAP_BATCH));
    if (!h)
        return -ENOMEM;
    h->fmh_count = FSMAP_BATCH;
    /* the high key: everything (its reserved fields stay zero, or the call is refused) */
    h->fmh_keys[1].fmr_device = UINT32_MAX;
    h->fmh_keys[1].fmr_flags = UINT32_MAX;
    h->fmh_keys[1].fmr_physical = UINT64_MAX;
    h->fmh_keys[1].fmr_owner = UINT64_MAX;
    h->fmh_keys[1].fmr_offset = UINT64_MAX;
    uint64_t run_dev = 0, run_start = 0, run_len = 0;
    int rc = 0;
    for (;;) {
        if (ioctl(fd, FS_IOC_GETFSMAP, h) < 0) {
            rc = -errno;
            break;
        }
        if (!h->fmh_entries)
            break;
        for (unsigned i = 0; i < h->fmh_entries; i++) {
            const struct fsmap *r = &h->fmh_recs[i];
            if (!(r->fmr_flags & FMR_OF_SPECIAL_OWNER) || r->fmr_owner != FMR_OWN_FREE)
                continue;
            if (run_len && r->fmr_device == run_dev && r->fmr_physical == run_start + run_len) {
                run_len += r->fmr_length;
                continue;
            }
            if (run_len)
                fn(arg, run_len);
            run_dev = r->fmr_device;
            run_start = r->fmr_physical;
            run_len = r->fmr_length;
        }
        const struct fsmap *last = &h->fmh_recs[h->fmh_entries - 1];
        if (last->fmr_flags & FMR_OF_LAST)
            break;
        fsmap_advance(h);
    }
    if (rc == 0 && run_len)
        fn(arg, run_len);
    free(h);
    return rc;
}
