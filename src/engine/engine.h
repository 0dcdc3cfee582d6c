/* engine.h — how phases reach the file system: a table of operations.
 *
 * An engine is a const struct of function pointers with a name and capability flags,
 * chosen once per run. Phases call only these operations, so the same phase runs on the
 * posix engine (plain system calls), the null engine (does nothing: measures the harness
 * itself) and later batched engines (io_uring).
 *
 * Contract for every operation:
 *  - returns >= 0 on success and -errno on failure; never prints;
 *  - a `name` is one name in directory dirfd (opendir alone also takes a path of several,
 *    resolved beneath dirfd): a multi-component path handed to an *at call would follow
 *    symlinks in its leading components, so callers resolve the parent first (phase/
 *    longpath.h) and act on the last name;
 *  - counts itself (and its latency) in w->st, so phases never time single calls;
 *  - directory fds returned by opendir are only ever passed back to the same engine.
 * Asynchronous engines may queue an operation and report its failure from a later call
 * or from drain(); phases call drain() before they depend on earlier results.
 */
#ifndef FSBENCH_ENGINE_H
#define FSBENCH_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "measure/measure.h"

enum {
    ENG_CAP_REAL = 1u << 0,  /* touches the file system (the null engine does not) */
    ENG_CAP_ASYNC = 1u << 1, /* queues operations; drain() completes them */
    /* copy_file copies a file's data in one call where the file system takes it
     * (copy_file_range), else through read and write calls */
    ENG_CAP_COPY_OFFLOAD = 1u << 2,
};

/* Flags for create_file. */
enum { ENG_CREATE_FSYNC = 1u << 0, ENG_CREATE_EXCL = 1u << 1 };

struct eng_worker {
    struct opstats *st;     /* where operations are counted */
    void *priv;             /* the engine's per-worker state */
};

struct engine {
    const char *name;
    const char *desc;
    unsigned caps;
    /* 0 when the engine can run here; else -1 with a one-line reason in why (no "fsbench:"
     * prefix). NULL: always available. Asked once, when the engine is chosen. */
    int (*available)(char *why, size_t len);

    /* Per-worker set-up and tear-down (NULL: nothing to do). */
    int (*worker_init)(struct eng_worker *w);
    void (*worker_fini)(struct eng_worker *w);

    /* Opens directory `name` under dirfd: fd or -errno. name is one name ("." for dirfd
     * itself) or a relative path of several, resolved beneath dirfd as os/beneath.h says:
     * no symlink followed at any component (-ELOOP), no mount point crossed (-EXDEV), no
     * absolute path or ".." component (-EXDEV), a non-directory on the way -ENOTDIR. One
     * system call either way (openat2 on Linux). The name ".." alone is dirfd's parent,
     * unchecked: only for callers that check it is the directory they left (dirscan). */
    int (*opendir)(struct eng_worker *w, int dirfd, const char *name);
    int (*close)(struct eng_worker *w, int fd);
    int (*mkdir)(struct eng_worker *w, int dirfd, const char *name, mode_t mode);
    /* Creates `name` and writes `size` bytes: `data` (len bytes) repeated. */
    int (*create_file)(struct eng_worker *w, int dirfd, const char *name, mode_t mode,
                       const void *data, size_t len, uint64_t size, unsigned flags);
    /* Opens, reads to EOF through buf, closes; *bytes gets the bytes read. */
    int (*read_file)(struct eng_worker *w, int dirfd, const char *name, void *buf,
                     size_t buflen, uint64_t *bytes);
    int (*stat)(struct eng_worker *w, int dirfd, const char *name, struct stat *st);
    /* One os_getdents call into buf (records laid out as os/dirent.h says): bytes filled, 0
     * at the end, or -errno. */
    int (*getdents)(struct eng_worker *w, int dirfd, void *buf, size_t len);
    /* unlinkat; flags AT_REMOVEDIR removes a directory (counted as rmdir). */
    int (*unlink)(struct eng_worker *w, int dirfd, const char *name, int flags);
    int (*rename)(struct eng_worker *w, int olddirfd, const char *oldname, int newdirfd,
                  const char *newname);
    int (*symlink)(struct eng_worker *w, const char *target, int dirfd, const char *name);
    /* readlinkat into buf (NUL-terminated): length or -errno. */
    int (*readlink)(struct eng_worker *w, int dirfd, const char *name, char *buf, size_t len);
    int (*link)(struct eng_worker *w, int olddirfd, const char *oldname, int newdirfd,
                const char *newname);
    /* Copies a regular file's data into a new file with the given mode and times
     * (cp -a): copy_file_range, falling back to read/write through buf. */
    int (*copy_file)(struct eng_worker *w, int sdirfd, const char *sname, int ddirfd,
                     const char *dname, mode_t mode, const struct timespec times[2], void *buf,
                     size_t buflen, uint64_t *bytes);
    /* Sets times of an entry without following links (utimensat AT_SYMLINK_NOFOLLOW). */
    int (*set_times)(struct eng_worker *w, int dirfd, const char *name,
                     const struct timespec times[2]);
    int (*fsync)(struct eng_worker *w, int fd);
    /* syncfs of the file system holding fd. */
    int (*syncfs)(struct eng_worker *w, int fd);
    /* Primitives for phases that shape files themselves (archives, churn, fsync storms). */
    /* openat with open(2) flags; O_CREAT counts as create, else open: fd or -errno. */
    int (*open)(struct eng_worker *w, int dirfd, const char *name, int flags, mode_t mode);
    /* One write() at the current offset: bytes written or -errno. */
    long (*write)(struct eng_worker *w, int fd, const void *buf, size_t len);
    /* One pwrite() at offset: bytes written or -errno. */
    long (*pwrite)(struct eng_worker *w, int fd, const void *buf, size_t len, uint64_t off);
    /* One read(): bytes read, 0 at the end, or -errno. */
    long (*read)(struct eng_worker *w, int fd, void *buf, size_t len);
    int (*ftruncate)(struct eng_worker *w, int fd, uint64_t len);
    /* fchmod (mode != (mode_t)-1) and futimens (times != NULL) of an open file. */
    int (*fsetattr)(struct eng_worker *w, int fd, mode_t mode, const struct timespec times[2]);
    /* The single metadata calls tar -x makes on each entry (phase/tarcalls.h), each one
     * system call counted as setattr: futimens, fchown and fchmod of an open file or
     * directory, and fchownat(AT_SYMLINK_NOFOLLOW) of a name (lchown of a symlink). */
    int (*futimens)(struct eng_worker *w, int fd, const struct timespec times[2]);
    int (*fchown)(struct eng_worker *w, int fd, uid_t uid, gid_t gid);
    int (*fchmod)(struct eng_worker *w, int fd, mode_t mode);
    int (*lchown)(struct eng_worker *w, int dirfd, const char *name, uid_t uid, gid_t gid);
    /* Completes every queued operation: 0 or the first failure's -errno. */
    int (*drain)(struct eng_worker *w);
};

/* A phase's own bookkeeping through the engine (reopening a directory it had closed, the
 * parent of a directory it removes by path): its time is in the phase's wall time, but its
 * operations are counted into scratch between these two calls, not into the worker's, so
 * a phase counts the same operations however deep the tree and however many threads.
 * scratch NULL: counted as usual. Returns the worker's own counters, for _end. */
static inline struct opstats *eng_uncounted_begin(struct eng_worker *w, struct opstats *scratch)
{
    struct opstats *own = w->st;
    if (scratch)
        w->st = scratch;
    return own;
}

static inline void eng_uncounted_end(struct eng_worker *w, struct opstats *own)
{
    w->st = own;
}

/* The registry; NULL-terminated. */
extern const struct engine *const engine_table[];
const struct engine *engine_find(const char *name);

extern const struct engine engine_posix;
extern const struct engine engine_null;
#ifndef FSBENCH_OS_POSIX_ONLY
extern const struct engine engine_uring; /* Linux only: io_uring */
#endif

/* Queue depth for asynchronous engines: the most operations one worker keeps queued or in
 * flight (clamped to 1..ENG_MAX_QUEUE_DEPTH). Set before the workers start. */
#define ENG_DEFAULT_QUEUE_DEPTH 64u
#define ENG_MAX_QUEUE_DEPTH 4096u
void eng_set_queue_depth(unsigned qd);
unsigned eng_queue_depth(void);

#endif
