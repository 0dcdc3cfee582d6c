/* outfile.h — every file fsbench writes as output (--json, export -o, report -o, tree
 * capture -o, layout --json) is written here: to a temporary file beside it, renamed over
 * it only when everything was written, flushed and synced. So a failure (a full disk, an
 * interrupted run) leaves the old file as it was and removes nothing but fsbench's own
 * temporary; a reader never sees half a file.
 *
 * "-" is standard output. A path that exists and is not a regular file (/dev/stdout, a
 * FIFO, a terminal, /dev/null) is written in place, never replaced and never removed. A
 * symlink of the caller's own to a regular file is followed: the file it points to is
 * replaced, the link kept. Someone else's symlink (planted in /tmp) is not followed: the
 * rename would write where its target lives, past the kernel's protected_symlinks.
 * A replaced file keeps its permission bits; a new one gets 0666 less the umask.
 */
#ifndef FSBENCH_OUTFILE_H
#define FSBENCH_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct outfile {
    FILE *f;          /* write here */
    const char *what; /* message prefix ("export"), or NULL */
    char *path;       /* what is replaced (or written in place) */
    char *tmp;        /* the temporary beside it, NULL when writing in place */
    bool to_stdout;
    int mode; /* permission bits of the result */
};

/* Whether path may be written as an output, checked before any work: "-" always; else its
 * directory must exist and be writable, it must not be a directory, and a regular file
 * there must not be a SQLite database (a results store: its first bytes are SQLite's
 * header), a store's -wal, -shm or -journal file, nor a file in a store's spool (DB.spool/)
 * unless outfile_set_force(true) was called (--force on the command line). what prefixes
 * the message ("report: -o", "--json"; NULL: none). 0, or -1 after error(). */
int outfile_check(const char *path, const char *what);
/* Only the --db path's directory (the store itself is opened by the store). */
int outfile_check_dir(const char *path, const char *what);
/* --force given on this command line: outfile_check() lets a store be replaced. */
void outfile_set_force(bool force);

/* Opens path for writing as above (outfile_check() first). 0, or -1 after error() ("WHAT: cannot write PATH:
 * ..."); o is then closed. */
int outfile_open(struct outfile *o, const char *path, const char *what);

/* Finishes: checks every write, syncs, renames the temporary over the path. 0, or -1 after
 * error() ("WHAT: PATH: write failed: No space left on device") with the temporary removed
 * and the path untouched. o is closed either way. */
int outfile_commit(struct outfile *o);

/* Gives up (another step failed): removes the temporary, touches nothing else. */
void outfile_discard(struct outfile *o);

/* Whether paths a and b name the same file: the same inode when both exist, else the same
 * path once the directory is resolved (a file not made yet). */
bool outfile_same(const char *a, const char *b);

#endif
