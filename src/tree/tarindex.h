/* tarindex.h — the index of an archive, built by tarsrc_open's one pass over the headers
 * (untimed): what the extraction will make, decided in advance, so that the extract phase
 * can run on N threads with no shared lookup and the same result as the streaming one.
 *
 * The pass replays the streaming extraction (phase_tarextract.c) on a model of the
 * namespace it builds (every path made so far: directory or not), so it knows exactly
 * which entries are refused (and why), which parent directories are made implicitly, and
 * the totals. Accepted entries go into the index in archive order, each directory before
 * its first child (implicit parents as directory entries of their own): normalised path,
 * kind, mode, times, size, link target, and for a file the place of its data in the
 * archive file as segments (archive offset, file offset, length; several for sparse files).
 *
 * An index can be extracted in parallel only when order across directories does not
 * matter. It is not (ix->why_serial says why, and the entries are dropped) when:
 *  - a path is made twice (a later entry replaces an earlier one, or is refused because the
 *    name exists): which one wins depends on the order;
 *  - a data block of the archive is not a plain slice of the archive file (a compressed or
 *    encrypted zip entry, ...): the reader must decode it;
 *  - the archive could not be mapped, or is too big for 32-bit indexes.
 * Hard links are kept in a list of their own: made after every file, in archive order.
 *
 * Work units: the files and symlinks of one directory, in archive order, cut in chunks of at
 * most ix->chunk entries (a huge directory is shared by several threads), sorted largest
 * first. Units depend only on the archive, never on the thread count, so every count and
 * operation is the same for any -j. Each directory also counts what must finish before its
 * mode and times can be set: its units and its subdirectories (pending0).
 *
 * Memory: the normalised path and link target plus about 90 bytes per entry (64 for the
 * entry, 24 per data segment, 4 for its place in a unit), kept from tarsrc_open to
 * tarsrc_close: 12 MB for linux-source-6.1's 83,731 entries. About as much again while the
 * pass runs (the model's set of paths). Nothing is kept when the archive is extracted
 * serially.
 */
#ifndef FSBENCH_TARINDEX_H
#define FSBENCH_TARINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "tree/tarentry.h"

struct archive;

enum tix_kind { TIX_DIR, TIX_FILE, TIX_SYMLINK, TIX_HARDLINK };

enum {
    TIX_TIMES = 1u << 0,    /* times[] is set (each half may still be UTIME_OMIT) */
    TIX_SIZE_SET = 1u << 1, /* the archive gives the size (a trailing hole is truncated) */
    TIX_LISTED = 1u << 2,   /* directory: the archive lists it (mode and times set at the end) */
    TIX_EXPLICIT = 1u << 3, /* directory: made by its own entry (0700), not as a parent (0777) */
};

/* "The extraction root" as a directory number. */
#define TIX_ROOT UINT32_MAX
/* Refusals kept with their reason (the streaming extraction prints as many). */
#define TIX_REFUSE_LINES 10

/* Data of a file: len bytes at arc_off in the archive file go to file_off in the file. */
struct tix_seg {
    uint64_t arc_off, file_off, len;
};

struct tix_ent {
    uint64_t size;          /* files and hard links: the size the archive gives */
    uint32_t path;          /* normalised name: offset in names */
    uint32_t link;          /* symlink target (as archived) or hard-link target (normalised) */
    uint32_t parent;        /* directory number of the parent, TIX_ROOT at the top */
    uint32_t seg, nseg;     /* data: segs[seg, seg + nseg) */
    uint16_t mode;          /* permission bits */
    uint32_t uid, gid;      /* the archived owner (tar -x as root restores it) */
    uint8_t kind;           /* enum tix_kind */
    uint8_t flags;          /* TIX_* */
    struct timespec times[2]; /* atime, mtime (UTIME_OMIT: not in the archive) */
};

/* Files and symlinks of directory dir: ents[order[first + i]] for i < n. */
struct tix_unit {
    uint32_t dir;           /* directory number, TIX_ROOT for the root */
    uint32_t first, n;
    uint64_t weight;        /* estimated cost: entries and bytes (sort key, largest first) */
};

struct tix_refusal {
    char name[512];         /* printable raw name */
    const char *why;
};

struct tarindex {
    struct tarent_totals totals;
    /* refusals, in archive order */
    uint64_t nrefused;
    struct tix_refusal refusal[TIX_REFUSE_LINES];
    /* the root's own entry ("./"): mode and times applied at the end */
    bool root_listed;
    uint16_t root_mode;
    uint32_t root_uid, root_gid;
    struct timespec root_times[2];
    /* NULL: the index below is complete and can be extracted in parallel; else why not */
    const char *why_serial;
    uint64_t arc_size;      /* size of the archive file the offsets refer to */
    /* entries in archive order (parents first) */
    struct tix_ent *ents;
    uint32_t nents;
    char *names;
    size_t names_len;
    struct tix_seg *segs;
    uint32_t nsegs;
    /* directories in index order: entry index of each, what must finish before its fix-up */
    uint32_t *dir_ent, *pending0;
    uint32_t ndirs;
    /* hard links, in archive order (entry indexes) */
    uint32_t *links;
    uint32_t nlinks;
    /* work units, largest first */
    uint32_t *order;
    struct tix_unit *units;
    uint32_t nunits;
    uint32_t chunk;         /* most entries in one unit */
};

/* Runs the pass over a (a reader just opened, at the first header) and returns the index in
 * *out (always, when 0 is returned). map[0..maplen) is the archive file as mapped in memory
 * and the memory a reads from, so data blocks inside it give file offsets; map NULL: no
 * index, the archive is extracted serially. name is for messages. 0, or -1 after error()
 * "tar:NAME: <reason>" (a corrupt or truncated archive, out of memory). */
int tarindex_scan(struct archive *a, const void *map, size_t maplen, const char *name,
                  struct tarindex **out);

void tarindex_free(struct tarindex *ix);

/* The name of entry e, and of the link target. */
static inline const char *tix_path(const struct tarindex *ix, const struct tix_ent *e)
{
    return ix->names + e->path;
}
static inline const char *tix_link(const struct tarindex *ix, const struct tix_ent *e)
{
    return ix->names + e->link;
}

#endif
