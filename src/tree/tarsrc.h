/* tarsrc.h — a real archive (any format libarchive reads: tar, pax, cpio, zip, ...,
 * compressed or not) as the tree under test.
 *
 * tarsrc_open() does everything that must stay out of the timed extract phase: if the
 * archive is compressed it is decompressed once into a scratch file (the raw decompressed
 * bytes, so the inner format is kept exactly), and every header is read once (tarindex.c)
 * to check the archive is complete, count what it holds, decide every refusal, and index
 * the entries with the place of their data in that file. phase_extract_tar() then creates
 * every entry through the run's engine: from the index, on all the phase's threads, or, for
 * archives whose order matters (a name made twice) or whose data is not stored as plain
 * bytes, by streaming the copy on one thread with no decompression filter.
 *
 * Safety invariant: nothing is ever created outside the extraction root. An entry is
 * refused (with a warning, never a failure) when its name is absolute or has a ".."
 * component, when its directory is not a directory this extraction created (a symlink or
 * a file from the archive: nothing is followed), when it is a hard link whose target is
 * refused or outside, or when it is a device node, fifo or socket. Every directory used
 * as a parent is one this extraction made with mkdir, parent before child, and directories
 * are never removed, so the kernel's path walk only meets real directories. The threaded
 * extraction follows decisions made by the pass on an exact model of that namespace.
 *
 * Memory: the index holds every entry's name and link target plus about 90 bytes (see
 * tarindex.h; 12 MB for a Linux source tarball), from tarsrc_open to tarsrc_close, and the
 * pass briefly as much again; an archive extracted serially keeps none of it, and its
 * extraction grows only with the number of directories (the fix-up list of modes and
 * times, as tar keeps it). The archive file stays open (one fd) until tarsrc_close; it is
 * mapped read-only during the pass only (page cache, not anonymous memory).
 */
#ifndef FSBENCH_TARSRC_H
#define FSBENCH_TARSRC_H

#include <stdbool.h>
#include <stdint.h>

#include "tree/tarentry.h"

struct tarsrc;

/* Opens the archive at path. When libarchive reports a compression filter, the archive
 * is decompressed into a new file in scratch_dir (NULL: $TMPDIR or /tmp), removed again
 * by tarsrc_close(). Reads every header once to check the archive is whole and to count
 * its entries. Returns NULL after error() with one line "tar:PATH: <reason>" (libarchive's
 * reason where it has one) on a missing, unreadable, empty, corrupt, truncated or
 * non-archive file, or when the scratch copy cannot be written. */
struct tarsrc *tarsrc_open(const char *path, const char *scratch_dir);

/* Fills *t with what the archive holds (counted by tarsrc_open; no I/O): what
 * phase_extract_tar makes and refuses in an empty root, exactly. 0. */
int tarsrc_measure(struct tarsrc *src, struct tarent_totals *t);

/* Path given to tarsrc_open (for messages and the tree description). */
const char *tarsrc_path(const struct tarsrc *src);

/* Entries refused by the last phase_extract_tar() on src. */
uint64_t tarsrc_refused(const struct tarsrc *src);

/* Closes src and removes its decompressed copy, if it made one. NULL is a no-op. */
void tarsrc_close(struct tarsrc *src);

/* ---- internals shared by tarsrc.c and phase_tarextract.c (not for other callers) ---- */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct archive;

/* Read block size of the archive reader: data blocks come straight out of it. */
#define TARSRC_BLOCK ((size_t)128 * 1024)

/* A reader of src's (uncompressed) copy, opened; NULL after error(). */
struct archive *tarsrc_reader(const struct tarsrc *src);
void tarsrc_set_refused(struct tarsrc *src, uint64_t n);

struct tarindex;
/* The pass's result (never NULL for an open src): totals, refusals, maybe the index. */
const struct tarindex *tarsrc_index(const struct tarsrc *src);
/* The copy, open for reading (pread) from tarsrc_open to tarsrc_close. */
int tarsrc_fd(const struct tarsrc *src);
/* True the first time only: for a message said once per archive. */
bool tarsrc_say_serial(struct tarsrc *src);

#endif
