/* freefrag_tool.c — the free-extent histogram from the file system's own tool, where the
 * kernel has no GETFSMAP for it (freefrag.h): e2freefrag (e2fsprogs) for ext2/3/4, xfs_db
 * -r 'freesp -s -d' (xfsprogs) for xfs. Both only read, and only the block device the
 * caller names, and only when that device is the one the measured file system is on (its
 * device number is fd's st_dev). Their text is parsed into the same buckets; the parsers are
 * separate so that tests feed them the tools' real output. freefrag_measure_dev, here too,
 * chooses between GETFSMAP and the tool.
 *
 * How they differ from GETFSMAP: e2freefrag on a mounted file system asks the kernel's
 * GETFSMAP itself where there is one, else reads the block bitmaps, as current as the last
 * journal checkpoint (a syncfs comes first); xfs_db reads the free-space btrees as written
 * back and counts the blocks of each allocation group's free list (a few one-block extents
 * a group) as free, where GETFSMAP gives them to the file system.
 */
#include "measure/freefrag.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/prog.h"
#include "os/extents.h"
#include "os/rawsys.h"

#define FREEFRAG_TOOL_MAX (64u << 20) /* the most output kept (xfs_db -d: a line an extent) */

/* "128K" -> 131072 (units K M G T as e2freefrag writes them). 0 when not a size. */
static uint64_t e2ff_size(const char *s, const char **end)
{
    char *e;
    unsigned long long v = strtoull(s, &e, 10);
    if (e == s)
        return 0;
    unsigned shift = *e == 'K' ? 10 : *e == 'M' ? 20 : *e == 'G' ? 30 : *e == 'T' ? 40 : 0;
    if (!shift)
        return 0;
    *end = e + 1;
    return (uint64_t)v << shift;
}

/* Reads "Key: <number>" at the start of line into *v. true when it is that key. */
static bool line_key(const char *line, const char *key, uint64_t *v)
{
    size_t k = strlen(key);
    if (strncmp(line, key, k))
        return false;
    *v = strtoull(line + k, NULL, 10);
    return true;
}

/* The line of a tool's text that starts at line, without its newline, into l (cut to
 * len - 1 bytes): where the next one starts, or NULL after the last. */
static const char *next_line(const char *line, char *l, size_t len)
{
    const char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line) : strlen(line);
    snprintf(l, len, "%.*s", (int)(n < len ? n : len - 1), line);
    return nl ? nl + 1 : NULL;
}

int freefrag_parse_e2freefrag(const char *text, struct freefrag *f)
{
    freefrag_init(f);
    snprintf(f->source, sizeof f->source, "e2freefrag");
    uint64_t bs = 0, num = 0, max_kb = 0, free_blocks = 0, v;
    bool in_hist = false, have_num = false, have_free = false;
    for (const char *line = text; line && *line;) {
        char l[256];
        line = next_line(line, l, sizeof l);
        if (line_key(l, "Blocksize: ", &v))
            bs = v;
        else if (line_key(l, "Free blocks: ", &v))
            free_blocks = v, have_free = true;
        else if (line_key(l, "Max. free extent: ", &v))
            max_kb = v;
        else if (line_key(l, "Num. free extent: ", &v))
            num = v, have_num = true;
        else if (!strncmp(l, "Extent Size Range", 17))
            in_hist = true;
        else if (in_hist) {
            /* "  128K...  256K-  :             1           208    0.18%" */
            const char *p = l, *e = NULL;
            while (isspace((unsigned char)*p))
                p++;
            if (!*p)
                continue;
            uint64_t lo = e2ff_size(p, &e);
            const char *colon = strchr(p, ':');
            unsigned long long cnt, blocks;
            if (!lo || !colon || sscanf(colon + 1, "%llu %llu", &cnt, &blocks) != 2 || !bs)
                return snprintf(f->why, sizeof f->why, "e2freefrag: a line not understood: '%s'",
                                l), f->known = false, -1;
            unsigned b = freefrag_bucket(lo);
            f->count[b] += cnt;
            f->bytes_in[b] += blocks * bs;
            f->extents += cnt;
            f->bytes += blocks * bs;
        }
    }
    f->largest = max_kb << 10;
    if (!bs || !have_num || !have_free || num != f->extents || free_blocks * bs != f->bytes ||
        (f->extents && !f->largest)) {
        f->known = false;
        snprintf(f->why, sizeof f->why, "e2freefrag: output not understood");
        return -1;
    }
    return 0;
}

int freefrag_parse_xfs_db(const char *text, struct freefrag *f)
{
    freefrag_init(f);
    snprintf(f->source, sizeof f->source, "xfs_db");
    uint64_t bs = 0, total = 0, v;
    bool in_dump = false, have_total = false;
    uint64_t *lens = NULL;
    size_t nlens = 0, cap = 0;
    for (const char *line = text; line && *line;) {
        char l[256];
        line = next_line(line, l, sizeof l);
        unsigned long long ag, agbno, len;
        char extra;
        if (line_key(l, "blocksize = ", &v))
            bs = v;
        else if (line_key(l, "total free extents ", &v))
            total = v, have_total = true;
        else if (strstr(l, "agno") && strstr(l, "agbno"))
            in_dump = true;
        else if (strstr(l, "from") && strstr(l, "extents"))
            in_dump = false;
        else if (in_dump && sscanf(l, "%llu %llu %llu %c", &ag, &agbno, &len, &extra) == 3) {
            if (nlens == cap) {
                size_t ncap = cap ? 2 * cap : 256;
                uint64_t *nl2 = realloc(lens, ncap * sizeof *lens);
                if (!nl2) {
                    free(lens);
                    f->known = false;
                    return snprintf(f->why, sizeof f->why, "xfs_db: out of memory"), -1;
                }
                lens = nl2, cap = ncap;
            }
            lens[nlens++] = len;
        }
    }
    int rc = 0;
    if (!bs || !have_total || total != nlens) {
        f->known = false;
        snprintf(f->why, sizeof f->why, "xfs_db: output not understood");
        rc = -1;
    } else {
        for (size_t i = 0; i < nlens; i++)
            freefrag_add(f, lens[i] * bs);
    }
    free(lens);
    return rc;
}

/* Whether the test-only environment asks to skip GETFSMAP (FSBENCH_FREE_SPACE_TOOL=1). */
static bool freefrag_tool_forced(void)
{
    const char *e = getenv("FSBENCH_FREE_SPACE_TOOL");
    return e && !strcmp(e, "1");
}

int freefrag_tool_measure(int fd, const char *dev, struct freefrag *f)
{
    freefrag_init(f);
    f->known = false;
    struct stat fs, ds;
    if (fstat(fd, &fs) < 0)
        return snprintf(f->why, sizeof f->why, "fstat: %s", strerror(errno)), -1;
    if (stat(dev, &ds) < 0 || !S_ISBLK(ds.st_mode) || ds.st_rdev != fs.st_dev)
        return snprintf(f->why, sizeof f->why, "%s is not the device this file system is on",
                        dev), -1;
    struct os_fs_geometry g;
    os_fs_geometry(fd, fs.st_dev, "", &g);
    bool ext = !strcmp(g.type, "ext2/3/4"), xfs = !strcmp(g.type, "xfs");
    if (!ext && !xfs)
        return snprintf(f->why, sizeof f->why, "no tool of fsbench's reads %s", g.type), -1;
    const char *prog = ext ? "e2freefrag" : "xfs_db";
    char path[4096], why[160];
    if (prog_find(prog, path, sizeof path) < 0)
        return snprintf(f->why, sizeof f->why, "%s not found: install the Debian package %s",
                        prog, ext ? "e2fsprogs" : "xfsprogs"), -1;
    /* what is still in memory goes to the device first (the tools read the device) */
    raw_syncfs(fd);
    char *const e2[] = {"e2freefrag", (char *)dev, NULL};
    char *const x[] = {"xfs_db", "-r", "-c", "sb 0", "-c", "p blocksize", "-c", "freesp -s -d",
                       (char *)dev, NULL};
    char *out;
    if (prog_capture(path, ext ? e2 : x, FREEFRAG_TOOL_MAX, &out, why, sizeof why) < 0)
        return snprintf(f->why, sizeof f->why, "%s: %s", prog, why), -1;
    int rc = ext ? freefrag_parse_e2freefrag(out, f) : freefrag_parse_xfs_db(out, f);
    free(out);
    return rc;
}

int freefrag_measure_dev(int fd, const char *dev, struct freefrag *f)
{
    if (dev && freefrag_tool_forced())
        return freefrag_tool_measure(fd, dev, f);
    if (freefrag_measure(fd, f) == 0 || !dev)
        return f->known ? 0 : -1;
    char getfsmap[sizeof f->why];
    snprintf(getfsmap, sizeof getfsmap, "%s", f->why);
    if (freefrag_tool_measure(fd, dev, f) == 0)
        return 0;
    char tool[sizeof f->why];
    snprintf(tool, sizeof tool, "%s", f->why);
    snprintf(f->why, sizeof f->why, "%.80s; %.100s", getfsmap, tool);
    return -1;
}
