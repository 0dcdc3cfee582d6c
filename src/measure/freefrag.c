/* freefrag.c — the free-extent histogram (see freefrag.h). */
#include "measure/freefrag.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "os/fsmap.h"

unsigned freefrag_bucket(uint64_t len)
{
    unsigned b = 0;
    while (b + 1 < FREEFRAG_BUCKETS && len >= (8192ull << b))
        b++;
    return b;
}

void freefrag_init(struct freefrag *f)
{
    memset(f, 0, sizeof *f);
    f->known = true;
}

void freefrag_add(struct freefrag *f, uint64_t len)
{
    unsigned b = freefrag_bucket(len);
    f->count[b]++;
    f->bytes_in[b] += len;
    f->extents++;
    f->bytes += len;
    if (len > f->largest)
        f->largest = len;
}

static void add_cb(void *arg, uint64_t len)
{
    freefrag_add(arg, len);
}

int freefrag_measure(int fd, struct freefrag *f)
{
    freefrag_init(f);
    snprintf(f->source, sizeof f->source, "GETFSMAP");
    int rc = os_free_extents(fd, add_cb, f);
    if (rc == 0)
        return 0;
    freefrag_init(f);
    f->known = false;
    snprintf(f->why, sizeof f->why, "GETFSMAP: %s",
             rc == -ENOTTY || rc == -EOPNOTSUPP ? "not offered by this file system"
                                                : strerror(-rc));
    return -1;
}

double freefrag_share_below(const struct freefrag *f, uint64_t below)
{
    if (!f->bytes)
        return 0;
    uint64_t sum = 0;
    for (unsigned b = 0; b < FREEFRAG_BUCKETS && (4096ull << b) < below; b++)
        sum += f->bytes_in[b];
    return (double)sum / (double)f->bytes;
}

char *freefrag_summary(const struct freefrag *f, char *buf, size_t len)
{
    if (!f->known) {
        snprintf(buf, len, "unknown (%s)", f->why);
        return buf;
    }
    char big[32];
    snprintf(buf, len,
             "%llu free extents, largest %s, %.0f%% of free space in extents under 1 MiB "
             "(source: %s)",
             (unsigned long long)f->extents, units_bytes(big, sizeof big, (double)f->largest),
             100 * freefrag_share_below(f, 1 << 20), f->source[0] ? f->source : "GETFSMAP");
    return buf;
}
