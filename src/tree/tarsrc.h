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

#include <stdint.h>

struct phase_ctx;
struct tarsrc;

/* What the archive will make (as tarsrc_open's pass counted it). */
struct tarsrc_totals {
    uint64_t entries; /* headers in the archive, the root "./" and refused ones included */
    uint64_t files;   /* regular files (hard links not included) */
    uint64_t dirs;    /* directories, including parents the archive does not list */
    uint64_t symlinks;
    uint64_t hardlinks; /* hard-link entries (extract counts them as files) */
    uint64_t bytes;     /* logical size of the regular files (hard links not included) */
    uint64_t refused;   /* entries that will be refused (see the safety rules above) */
};

/* Opens the archive at path. When libarchive reports a compression filter, the archive
 * is decompressed into a new file in scratch_dir (NULL: $TMPDIR or /tmp), removed again
 * by tarsrc_close(). Reads every header once to check the archive is whole and to count
 * its entries. Returns NULL after error() with one line "tar:PATH: <reason>" (libarchive's
 * reason where it has one) on a missing, unreadable, empty, corrupt, truncated or
 * non-archive file, or when the scratch copy cannot be written. */
struct tarsrc *tarsrc_open(const char *path, const char *scratch_dir);

/* Fills *t with what the archive holds (counted by tarsrc_open; no I/O): what
 * phase_extract_tar makes and refuses in an empty root, exactly. 0. */
int tarsrc_measure(struct tarsrc *src, struct tarsrc_totals *t);

/* Path given to tarsrc_open (for messages and the tree description). */
const char *tarsrc_path(const struct tarsrc *src);

/* Entries refused by the last phase_extract_tar() on src. */
uint64_t tarsrc_refused(const struct tarsrc *src);

/* The extract phase for an archive: creates each entry through ctx->eng below root_fd (an
 * fd of ctx->eng's, owned by the caller, an empty directory): mkdir, open(O_CREAT|O_EXCL)
 * + write of the data (pwrite for sparse parts, ftruncate for a trailing hole) + fsetattr
 * (mode, mtime) + close, symlink + set_times, link; with ENG_CREATE_FSYNC in
 * ctx->create_flags an fsync before each file's close. Modes are the archive's exactly
 * (like tar -p, no umask); directories get their modes and times after all their contents,
 * and root_fd's own from a "./" entry. An indexed archive runs on phase_threads(ctx)
 * threads (phase_tarextract_par.c), else it is streamed on one, saying so once in a warning
 * when more were asked for. Counts ctx->res->files (regular files and hard links), dirs and
 * symlinks. Refused entries each get a warning (the first 10; then one "N more entries
 * refused"). Returns 0, or -1 after phase_fail() (an engine error, a signal, or a read
 * error of the archive with the reason in res->note as "read tar:PATH: ..."); what was
 * created so far is left for the caller to remove. */
int phase_extract_tar(struct phase_ctx *ctx, struct tarsrc *src, int root_fd);

/* Closes src and removes its decompressed copy, if it made one. NULL is a no-op. */
void tarsrc_close(struct tarsrc *src);

/* ---- internals shared by tarsrc.c and phase_tarextract.c (not for other callers) ---- */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct archive;

/* Read block size of the archive reader: data blocks come straight out of it. */
#define TARSRC_BLOCK ((size_t)128 * 1024)
/* Longest entry name accepted; longer names are refused with a warning naming the limit.
 * Names of PATH_MAX bytes or more are created piece by piece (phase/longpath.h). */
#define TARSRC_PATH_MAX 65536

/* Normalises an entry name into out: "./a//b/" -> "a/b", "./" -> "" (the root). 0, or 1
 * when the name must be refused, with *why set (absolute, '..', empty, too long). */
int tarsrc_norm_path(const char *in, char *out, size_t outlen, const char **why);
/* Copies in for a one-line message: control characters become '?', long names are cut. */
void tarsrc_printable(const char *in, char *out, size_t outlen);

/* A set of paths with a value each (owned copies of the keys). */
struct tarsrc_slot {
    char *key;
    size_t val;
};
struct tarsrc_set {
    struct tarsrc_slot *slot;
    size_t cap, n;
};
/* The slot of the first len bytes of key, or NULL. */
struct tarsrc_slot *tarsrc_set_find(const struct tarsrc_set *s, const char *key, size_t len);
/* The slot of key, added (val 0) if new; NULL when out of memory. */
struct tarsrc_slot *tarsrc_set_add(struct tarsrc_set *s, const char *key, size_t len);
void tarsrc_set_free(struct tarsrc_set *s);

/* How a regular file of the archive is created, as tar does: with its permission bits when
 * the umask keeps them all and it has no set-id or sticky bit, so that only the mode
 * fsetattr sets afterwards is skipped; else 0600 (nobody else can open it while it is
 * written) and the mode set once the data is in. Returns the mode for open(O_CREAT);
 * *fix gets the mode for fsetattr, or (mode_t)-1 when none is needed. */
mode_t tarsrc_create_mode(mode_t want, mode_t umask_now, mode_t *fix);
/* The process umask, read without leaving it changed (call while no other thread of ours
 * creates files). */
mode_t tarsrc_umask(void);

/* libarchive's reason for the last failure on a, never empty. */
const char *tarsrc_arch_reason(struct archive *a);

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

/* The two ways phase_extract_tar extracts (the tests compare them): from the index on
 * phase_threads(ctx) threads (phase_tarextract_par.c; only for an indexed archive), and
 * streaming on the calling thread (phase_tarextract.c; any archive). */
int phase_extract_tar_par(struct phase_ctx *ctx, struct tarsrc *src, int root_fd);
int phase_extract_tar_stream(struct phase_ctx *ctx, struct tarsrc *src, int root_fd);

#endif
