/* dirscan.h — reading directory entries through the engine's getdents, for the phases that
 * walk an existing tree (walk, statwalk, read, copy, delete).
 *
 * A dirscan_stack keeps one getdents buffer per depth, so a walker can descend while a
 * parent's buffer stays intact; the walkers keep their descent on this stack, never on the
 * C stack, so a tree of any depth costs heap, not stack. Each level keeps its own copy of
 * its name, so a failure can name the full path without building it on every entry.
 *
 * Bounded descriptors: a stack with a window W (dirscan_window) keeps at most the W deepest
 * levels open. Pushing a level beyond the window drains the shallowest open level (reads
 * its remaining entries into memory) and closes its fds; leaving a level whose parent was
 * closed reopens the parent as ".." of the level being left, checked to be the same
 * directory (device and inode) as the one closed. So `ulimit -n 64` walks a tree 10,000
 * levels deep, with paths far longer than PATH_MAX, and a tree shallower than W (every
 * usual tree) costs exactly what it did before: no extra operation at all. On a deeper
 * tree the window's own opens and closes take time within the phase but are not counted
 * among its operations, so a phase counts the same operations for any depth and -j.
 *
 * Ownership: fds given to dirscan_enter belong to the stack; dirscan_leave and
 * dirscan_unwind close them. dirscan_push/dirscan_pop (no window, no closing) are for
 * callers that scan one directory they keep open themselves.
 */
#ifndef FSBENCH_DIRSCAN_H
#define FSBENCH_DIRSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "engine/engine.h"

#define DIRSCAN_BUF (32 * 1024)
/* Most levels a window keeps open (deeper trees reopen their ancestors). */
#define DIRSCAN_WINDOW_MAX 16
/* Longest workspace path handed to another thread (queue items are named by path). */
#define DIRSCAN_HANDOFF_MAX 2048

struct dirscan {
    char *buf;
    size_t cap;         /* bytes allocated at buf */
    int filled;         /* bytes returned by the last getdents (or drained) */
    int pos;            /* next record */
    int fd;             /* the directory; -1 while closed by the window */
    int fd2;            /* a second directory kept with it (copy: the copy); -1: none */
    bool drained;       /* every remaining entry is in buf: no more getdents */
    const char *ext;    /* the level's name when too long for own (the caller's string) */
    char own[256];      /* the level's name: this directory's name within its parent */
    dev_t dev, dev2;    /* identity of fd, fd2 while closed by the window */
    ino_t ino, ino2;
    /* Per-level state of the walker (the frame recursion used to keep). */
    struct timespec times[2];
    void *node;
    int pass;
};

/* The name of level d (dirscan_push copies it: it stays valid while the level is there). */
static inline const char *dirscan_name(const struct dirscan *d)
{
    return d->ext ? d->ext : d->own;
}

struct dirscan_ent {
    const char *name;   /* valid until the next dirscan call on this stack */
    unsigned char type; /* DT_REG, DT_DIR, DT_LNK, ..., DT_UNKNOWN */
};

struct dirscan_stack {
    struct dirscan *lv;
    size_t n, cap;
    size_t window;      /* levels kept open (dirscan_enter); 0: all */
    size_t first_open;  /* levels first_open..n-1 are open */
    const struct engine *e;
    struct eng_worker *w;
    bool check_ids;     /* the engine's fds are real: check reopened directories */
    struct opstats *scratch; /* where the window's own opens and closes are counted */
};

/* Sets the engine and window of a stack used with dirscan_enter. */
void dirscan_init(struct dirscan_stack *s, const struct engine *e, struct eng_worker *w,
                  size_t window);
/* A window for `threads` threads keeping `fds_per_level` fds per level, from the soft
 * RLIMIT_NOFILE: what is left after a reserve for the rest of fsbench and the work queue,
 * shared among the threads, between 2 and DIRSCAN_WINDOW_MAX. */
size_t dirscan_window(unsigned threads, unsigned fds_per_level);

/* Pushes a level reading directory fd `fd` named `name`; NULL after error() (no memory).
 * The fd stays the caller's. */
struct dirscan *dirscan_push(struct dirscan_stack *s, int fd, const char *name);
void dirscan_pop(struct dirscan_stack *s);
void dirscan_free(struct dirscan_stack *s);

/* Pushes a level the stack owns (fd, and fd2 or -1), then applies the window: 0, or
 * -errno (no memory: the fds were closed; a drain failed). */
int dirscan_enter(struct dirscan_stack *s, int fd, int fd2, const char *name);
/* Leaves the deepest level: reopens its parent if the window had closed it, closes the
 * level's fds. The level stays readable as s->lv[s->n] until the next push. 0 or -errno
 * (the parent could not be reopened, or is no longer the same directory: -ESTALE). */
int dirscan_leave(struct dirscan_stack *s);
/* Closes every level down to n levels (after a failure or at the end). */
void dirscan_unwind(struct dirscan_stack *s, size_t n);

/* Next entry other than "." and "..": 1, 0 at the end, or -errno. */
int dirscan_next(const struct engine *e, struct eng_worker *w, struct dirscan *d,
                 struct dirscan_ent *out);

/* "root/a/b/name" from the names of the levels 0..n-1 and a final name (may be NULL).
 * A path longer than len keeps its start and its end with "..." between. */
const char *dirscan_path(const struct dirscan_stack *s, const char *last, char *buf,
                         size_t len);

#endif
