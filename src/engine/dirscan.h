/* dirscan.h — reading directory entries through the engine's getdents, for the phases that
 * walk an existing tree (walk, statwalk, read, copy, delete).
 *
 * A dirscan_stack keeps one getdents buffer per depth, so a walker can descend while a
 * parent's buffer (and the names pointing into it) stays intact. Names of the current path
 * are kept per level so a failure can name the full path without building it on every entry.
 */
#ifndef FSBENCH_DIRSCAN_H
#define FSBENCH_DIRSCAN_H

#include <stddef.h>

#include "engine/engine.h"

#define DIRSCAN_BUF (32 * 1024)

struct dirscan {
    char *buf;
    int filled;         /* bytes returned by the last getdents */
    int pos;            /* next record */
    int fd;
    const char *name;   /* this directory's name within its parent (for paths) */
};

struct dirscan_ent {
    const char *name;
    unsigned char type; /* DT_REG, DT_DIR, DT_LNK, ..., DT_UNKNOWN */
};

struct dirscan_stack {
    struct dirscan *lv;
    size_t n, cap;
};

/* Pushes a level reading directory fd `fd` named `name`; NULL after error() (no memory). */
struct dirscan *dirscan_push(struct dirscan_stack *s, int fd, const char *name);
void dirscan_pop(struct dirscan_stack *s);
void dirscan_free(struct dirscan_stack *s);

/* Next entry other than "." and "..": 1, 0 at the end, or -errno. */
int dirscan_next(const struct engine *e, struct eng_worker *w, struct dirscan *d,
                 struct dirscan_ent *out);

/* "root/a/b/name" from the names of the levels 0..n-1 and a final name (may be NULL). */
const char *dirscan_path(const struct dirscan_stack *s, const char *last, char *buf,
                         size_t len);

#endif
