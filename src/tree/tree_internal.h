/* tree_internal.h — the generator's state, shared by the tree*.c family: tree.c streams the
 * tree; tree_estimate.c adds it up without streaming, from the same pure functions of the
 * seed (a file's size and symlink are functions of its ordinal alone, a directory's shape of
 * its budget, first ordinal and depth), so an estimate describes exactly the tree tree_next()
 * makes.
 */
#ifndef FSBENCH_TREE_INTERNAL_H
#define FSBENCH_TREE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tree/tree.h"

#define TREE_PATH_BUF 4096

/* What a draw is for; part of the counter so that draws never share a value. */
enum purpose {
    P_FILES = 1,
    P_FANOUT,
    P_FIXED,
    P_SPLIT,
    P_DIRNAME,
    P_DIRSTEM,
    P_SIZE,
    P_NAME,
    P_STEM,
    P_DATA,
    P_SYM,
    P_SYMNAME,
    P_SYMSTEM,
    P_SYMTARGET,
};

/* One directory being walked. */
struct frame {
    uint64_t key;        /* hash key of the directory (from seed and id) */
    uint64_t gbase;      /* ordinal of its first file */
    uint64_t nfiles;     /* files it holds itself */
    uint64_t next_file;  /* next file to emit */
    uint64_t nchild;     /* subdirectories */
    uint64_t next_child; /* next subdirectory to emit */
    uint64_t child_rem;  /* files left for subdirectories next_child.. */
    uint64_t child_g;    /* ordinal of the next subdirectory's first file */
    uint32_t fixed_mask; /* which fixed names are present */
    uint32_t nfixed;     /* files that carry fixed names (the first ones) */
    uint32_t pathlen;    /* length of this directory's path ("" for the root) */
    uint32_t nameoff;    /* where its own name starts in the path */
    int sym_pending;     /* a symlink follows file next_file - 1 */
};

struct tree_gen {
    const struct profile *p;
    uint64_t nfiles_total;
    uint64_t dir_seed, file_seed;
    unsigned max_depth;

    /* body and large-file size distributions (inverse CDF over [lo, lo + span]) */
    double mu, sigma, lo, span, smin_d, smax_d;
    double lmu, lsigma, llo, lspan, lmax_d;
    double lshare, lphase, lweyl;
    uint64_t lcount; /* large files in the whole tree */

    double fpd_mu, fpd_sigma;       /* files-per-directory lognormal */
    const double *fcdf;             /* ... or its empirical table (captured shapes) */
    const double *scdf;             /* empirical size table (captured shapes), or NULL */
    double stilt;                   /* its placement inside a bucket */
    uint64_t perm_key[4];           /* Feistel round keys of the size strata */
    unsigned perm_half;             /* bits of one Feistel half */
    uint64_t perm_mask;
    double cap[TREE_MAX_DEPTH + 2]; /* expected files in a subtree rooted at a depth */
    double sym_share;

    const char *suf[PROFILE_SUFFIXES_MAX];
    uint8_t suf_len[PROFILE_SUFFIXES_MAX];
    uint8_t suf_tmpl[PROFILE_SUFFIXES_MAX];
    uint8_t suf_exec[PROFILE_SUFFIXES_MAX];
    uint64_t suf_cum[PROFILE_SUFFIXES_MAX];
    uint64_t suf_total;
    const char *fixed[32];
    uint8_t fixed_len[32];
    unsigned len_min, len_range;

    const unsigned char *pattern; /* own_pattern or the spec's */
    unsigned char *own_pattern;
    int top, done;
    struct frame st[TREE_MAX_DEPTH + 1];
    char target[TREE_PATH_BUF];
    char path[TREE_PATH_BUF];
};

/* What tree_open() refuses: no profile, a profile that fails profile_check(), a scale that is
 * not a positive number or past TREE_FILES_MAX files. 0, or -1 after error(). */
int tree_spec_check(const struct tree_spec *spec);

/* Fills g's tables from spec (checked by the caller: a profile that passes profile_check, a
 * scale within TREE_FILES_MAX); no pattern, no frame. */
void tree_gen_init(struct tree_gen *g, const struct tree_spec *spec);

/* The shape of the directory with this budget, first ordinal and depth: its key, the files it
 * keeps and its subdirectories (what enter_dir() sets up). */
struct tree_dir_shape {
    uint64_t key, nfiles, nchild;
};
void tree_dir_shape(const struct tree_gen *g, uint64_t budget, uint64_t gbase, unsigned depth,
                    struct tree_dir_shape *s);
/* The budget of subdirectory c of a directory with key, when nleft of its subdirectories
 * (c included) share rem files (what emit_dir() gives it). */
uint64_t tree_child_budget(uint64_t key, uint64_t c, uint64_t nleft, uint64_t rem);

/* File ordinal gidx: whether it is one of the large files, its size, and whether a symlink
 * follows it. The size of large file k (0 <= k < g->lcount). */
bool tree_file_is_large(const struct tree_gen *g, uint64_t gidx);
uint64_t tree_file_size(const struct tree_gen *g, uint64_t gidx);
bool tree_file_has_symlink(const struct tree_gen *g, uint64_t gidx);
uint64_t tree_large_size(const struct tree_gen *g, uint64_t k);

/* tree_estimate() with its frontier at the first level of frontier_min subtrees and
 * walk_shapes directory shapes for the drawn ones, instead of its own figures (a test draws
 * few, to check the sampled count against the streamed one). */
struct tree_estimate;
int tree_estimate_with(const struct tree_spec *spec, uint64_t block, size_t frontier_min,
                       double walk_shapes, struct tree_estimate *e);

#endif
