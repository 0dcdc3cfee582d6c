/* cb_listing.h — compilebench's data set: four listings of a kernel tree (names and sizes)
 * and what the operations take from them.
 *
 * compilebench describes a Linux 2.6.20 tree in four states, one listing file each, one
 * entry a line, "path size": clean (dataset-unpatched), patched to 2.6.21
 * (dataset-patched), clean and compiled (dataset-unpatched-compiled), patched and compiled
 * (dataset-patched-compiled). Its operations use them reduced as its documentation says:
 *  - CB_LIST_CLEAN: every file of the clean tree (create writes them all);
 *  - CB_LIST_PATCH: the patched tree's files that are new or changed size (patch rewrites
 *    them; a compiled tree is patched with CB_LIST_PATCH_OBJS instead);
 *  - CB_LIST_OBJS: the compiled tree's files that the clean one lacks (compile writes
 *    them, clean removes them);
 *  - CB_LIST_PATCH_OBJS: the patched compiled tree's files that the patched one lacks,
 *    less those of CB_LIST_OBJS with the same size.
 * Without a data set (no --cb-dataset), cb_dataset_model() makes the four from the run's
 * tree spec: an approximation whose ratios follow 2.6.20's listings.
 *
 * Listing files are hostile input: each at most CB_LISTING_MAX bytes and CB_ENTRIES_MAX
 * entries; a path is relative, of names (no "", "." or ".." component, no control
 * character), at most CB_PATH_MAX bytes; a size a whole number up to CB_SIZE_MAX; no path
 * both a file and a directory of another. Errors name file:line.
 */
#ifndef FSBENCH_CB_LISTING_H
#define FSBENCH_CB_LISTING_H

#include <stddef.h>
#include <stdint.h>

#include "tree/tree.h"

#define CB_LISTING_MAX ((size_t)64 << 20)
#define CB_ENTRIES_MAX 1000000u
#define CB_PATH_MAX 1024u
#define CB_SIZE_MAX ((uint64_t)16 << 30)

struct cb_entry {
    size_t path_off; /* into cb_listing.names */
    uint64_t size;
    unsigned line; /* line in its file (0: made here) */
};

struct cb_listing {
    struct cb_entry *e;
    size_t n, cap;
    char *names;
    size_t used, ncap;
};

static inline const char *cb_path(const struct cb_listing *l, size_t i)
{
    return l->names + l->e[i].path_off;
}

enum cb_list { CB_LIST_CLEAN, CB_LIST_PATCH, CB_LIST_OBJS, CB_LIST_PATCH_OBJS, CB_LISTS };

struct cb_dataset {
    struct cb_listing l[CB_LISTS];
    uint64_t bytes[CB_LISTS];
};

/* compilebench's file names of the four listings, in enum cb_list's order. */
extern const char *const cb_listing_files[CB_LISTS];

/* Appends (path, size): 0 or -ENOMEM. */
int cb_listing_add(struct cb_listing *l, const char *path, size_t plen, uint64_t size,
                   unsigned line);
void cb_listing_free(struct cb_listing *l);
void cb_dataset_free(struct cb_dataset *d);
/* Whether path (len bytes) is a path a listing may hold (see above). */
int cb_path_ok(const char *path, size_t len);

/* Parses one listing file's text (len bytes; `file` names it in messages) into *out,
 * replacing an earlier entry of the same path as compilebench does. 0, or -1 after
 * error("FILE:LINE: ..."). */
int cb_listing_parse(const char *text, size_t len, const char *file, struct cb_listing *out);

/* Reads the four listing files of directory dir and reduces them (above). 0 or -1 after
 * error(). */
int cb_dataset_load(const char *dir, struct cb_dataset *d);
/* Reduces four whole listings (clean, patched, compiled, patched compiled) in place to
 * what the operations take; `where` names them in messages. 0 or -1 after error(). */
int cb_dataset_reduce(struct cb_dataset *d, const char *where);
/* The built-in model: the tree of spec as the clean listing, and the other three made from
 * it by rules sized on 2.6.20's listings. 0 or -1 after error(). */
int cb_dataset_model(const struct tree_spec *spec, struct cb_dataset *d);

/* Sorts l by path (file order of directories first does not matter: by bytes). */
void cb_listing_sort(struct cb_listing *l);
/* Index of path in l sorted by cb_listing_sort, or (size_t)-1. */
size_t cb_listing_find(const struct cb_listing *l, const char *path);

#endif
