/* tarentry.h — what reading an archive's entries needs, whoever reads them: the totals of
 * an archive, entry names (normalised, printable), a set of paths, the mode a file is
 * created with, and libarchive's reason for a failure. Shared by the header pass
 * (tarindex.c), the archive source (tarsrc.c) and the extract phase, below all three.
 */
#ifndef FSBENCH_TARENTRY_H
#define FSBENCH_TARENTRY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct archive;

/* Longest entry name accepted; longer names are refused with a warning naming the limit.
 * Names of PATH_MAX bytes or more are created piece by piece (phase/longpath.h). */
#define TARENT_PATH_MAX 65536

/* What the archive will make (as tarsrc_open's pass counted it). */
struct tarent_totals {
    uint64_t entries; /* headers in the archive, the root "./" and refused ones included */
    uint64_t files;   /* regular files (hard links not included) */
    uint64_t dirs;    /* directories, including parents the archive does not list */
    uint64_t symlinks;
    uint64_t hardlinks; /* hard-link entries (extract counts them as files) */
    uint64_t bytes;     /* logical size of the regular files (hard links not included) */
    uint64_t refused;   /* entries that will be refused (see the safety rules above) */
};

/* Normalises an entry name into out: "./a//b/" -> "a/b", "./" -> "" (the root). 0, or 1
 * when the name must be refused, with *why set (absolute, '..', empty, too long). */
int tarent_norm_path(const char *in, char *out, size_t outlen, const char **why);
/* Copies in for a one-line message: control characters become '?', long names are cut. */
void tarent_printable(const char *in, char *out, size_t outlen);

/* A set of paths with a value each (owned copies of the keys). */
struct tarent_slot {
    char *key;
    size_t val;
};
struct tarent_set {
    struct tarent_slot *slot;
    size_t cap, n;
};
/* The slot of the first len bytes of key, or NULL. */
struct tarent_slot *tarent_set_find(const struct tarent_set *s, const char *key, size_t len);
/* The slot of key, added (val 0) if new; NULL when out of memory. */
struct tarent_slot *tarent_set_add(struct tarent_set *s, const char *key, size_t len);
void tarent_set_free(struct tarent_set *s);

/* How a regular file of the archive is created, as tar does: with its permission bits when
 * the umask keeps them all and it has no set-id or sticky bit, so that only the mode
 * fsetattr sets afterwards is skipped; else 0600 (nobody else can open it while it is
 * written) and the mode set once the data is in. Returns the mode for open(O_CREAT);
 * *fix gets the mode for fsetattr, or (mode_t)-1 when none is needed. */
mode_t tarent_create_mode(mode_t want, mode_t umask_now, mode_t *fix);
/* The process umask, read without leaving it changed (call while no other thread of ours
 * creates files). */
mode_t tarent_umask(void);

/* libarchive's reason for the last failure on a, never empty. */
const char *tarent_arch_reason(struct archive *a);

/* tarent_each_block: libarchive could not read a block (tarent_arch_reason says why). */
#define TARENT_READ_FAILED (-2)
/* Calls each(arg, buf, n, off) on the data blocks of a's current entry, in order (off: the
 * block's offset in the entry, or -1 where the format does not say). each returns 0 to go
 * on, > 0 to stop (0 is returned), < 0 to fail (returned as it is). 0 at the entry's end,
 * or TARENT_READ_FAILED. */
int tarent_each_block(struct archive *a,
                      int (*each)(void *arg, const void *buf, size_t n, int64_t off), void *arg);

#endif
