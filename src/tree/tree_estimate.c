/* tree_estimate.c — a tree's totals without streaming it (see tree_estimate.h).
 *
 * Files: a systematic sample of ordinals g_i = floor((i + u) N / m), i < m, with one offset u
 * drawn from the seed. Sizes and symlinks are hash draws of the ordinal, so the sample behaves
 * as a simple random one and its spread gives the half-width (1.96 standard errors). The large
 * files (a lattice of their own, spread evenly) are added up exactly, so their few huge sizes
 * add no sampling error; the sample stands for the body files only.
 *
 * Directories: a subtree's directory count depends on its budget, first ordinal and depth
 * alone. The levels below the root are expanded breadth first (budgets by the generator's own
 * split, no names) until a level holds EST_FRONTIER_MIN subtrees or the next would pass
 * EST_FRONTIER_MAX; directories above that frontier are counted exactly. Of the frontier's
 * subtrees, TREE_ESTIMATE_SUBTREES are drawn systematically in proportion to their budgets
 * (files) and walked whole, depth first; with B the frontier's files and r_i a drawn subtree's
 * directories per file, the frontier holds B x mean(r) directories (the Hansen-Hurwitz
 * estimator), its half-width 1.96 B sd(r) / sqrt(n). A frontier of fewer subtrees is walked
 * whole: the count is then exact.
 */
#include "tree/tree_estimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "tree/tree_internal.h"

#define EST_FRONTIER_MIN 65536u
#define EST_FRONTIER_MAX (1u << 20)
#define EST_LARGE_EXACT (1u << 22) /* large files added up one by one up to this many */
#define EST_PILOT 32               /* subtrees drawn first, to learn what one costs */
#define EST_WALK_SHAPES 2e6        /* directory shapes computed for the draws, about */
#define Z95 1.959963984540054

struct node {
    uint64_t budget, gbase;
    unsigned depth;
};

/* Welford's running mean and sum of squared deviations. */
struct run {
    double n, mean, m2;
};

static void run_add(struct run *r, double x)
{
    r->n += 1;
    double d = x - r->mean;
    r->mean += d / r->n;
    r->m2 += d * (x - r->mean);
}

/* 1.96 standard errors of the mean. */
static double run_hw(const struct run *r)
{
    return r->n > 1 ? Z95 * sqrt(r->m2 / (r->n - 1) / r->n) : 0;
}

/* A uniform offset in [0, 1) from the seed (splitmix64's finaliser). */
static double seed_offset(uint64_t seed, uint64_t what)
{
    uint64_t x = seed ^ what;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return (double)(x >> 11) * 0x1p-53;
}

static uint64_t round_up(uint64_t v, uint64_t block)
{
    return (v + block - 1) / block * block;
}

/* Streams the tree once: every figure exact. */
static int stream(const struct tree_spec *spec, uint64_t block, struct tree_estimate *e)
{
    struct tree_gen *g = tree_open(spec);
    if (!g)
        return -1;
    struct tree_entry en;
    e->disk = block; /* the root */
    while (tree_next(g, &en)) {
        if (en.kind == TREE_FILE) {
            e->files++;
            e->bytes += en.size;
            e->disk += round_up(en.size, block);
        } else if (en.kind == TREE_DIR) {
            e->dirs++;
            e->disk += block;
        } else if (en.kind == TREE_SYMLINK) {
            e->symlinks++;
        }
    }
    tree_close(g);
    e->exact = true;
    return 0;
}

/* The cost of the directory walks, in directory shapes computed. */
struct walk {
    const struct tree_gen *g;
    uint64_t shapes;
};

static void shape(struct walk *w, uint64_t budget, uint64_t gbase, unsigned depth,
                  struct tree_dir_shape *sh)
{
    w->shapes++;
    tree_dir_shape(w->g, budget, gbase, depth, sh);
}

/* Directories in the subtree rooted at n (n itself included), walked depth first. A directory
 * one level above max_depth has subdirectories that have none: they are counted from its
 * shape, never visited. */
static uint64_t subtree_dirs(struct walk *w, const struct node *n)
{
    struct {
        uint64_t key, nchild, c, rem, child_g;
        unsigned depth;
    } st[TREE_MAX_DEPTH + 2];
    const unsigned leaf_parent = w->g->max_depth ? w->g->max_depth - 1 : 0;
    struct tree_dir_shape sh;
    shape(w, n->budget, n->gbase, n->depth, &sh);
    uint64_t count = 1;
    if (n->depth >= leaf_parent)
        return count + sh.nchild;
    int top = 0;
    st[0].key = sh.key;
    st[0].nchild = sh.nchild;
    st[0].c = 0;
    st[0].rem = n->budget - sh.nfiles;
    st[0].child_g = n->gbase + sh.nfiles;
    st[0].depth = n->depth;
    while (top >= 0) {
        if (st[top].c == st[top].nchild) {
            top--;
            continue;
        }
        uint64_t c = st[top].c++;
        uint64_t b = tree_child_budget(st[top].key, c, st[top].nchild - c, st[top].rem);
        uint64_t gb = st[top].child_g;
        st[top].rem -= b;
        st[top].child_g += b;
        count++;
        unsigned d = st[top].depth + 1;
        shape(w, b, gb, d, &sh);
        if (!sh.nchild)
            continue;
        if (d >= leaf_parent) {
            count += sh.nchild;
            continue;
        }
        top++;
        st[top].key = sh.key;
        st[top].nchild = sh.nchild;
        st[top].c = 0;
        st[top].rem = b - sh.nfiles;
        st[top].child_g = gb + sh.nfiles;
        st[top].depth = d;
    }
    return count;
}

/* The children of every node of level (n nodes) into *next (*nn), at most max of them, but
 * for a node one level above max_depth, whose children have no subdirectories: those are
 * added to *counted instead. 0, or 1 when they would be more than max (*next then holds a
 * part, *counted is unchanged), or -1 out of memory. */
static int expand(struct walk *w, const struct node *level, size_t n, struct node **next,
                  size_t *nn, size_t max, uint64_t *counted)
{
    const unsigned leaf_parent = w->g->max_depth ? w->g->max_depth - 1 : 0;
    size_t cap = 0;
    uint64_t leaves = 0;
    *nn = 0;
    for (size_t i = 0; i < n; i++) {
        struct tree_dir_shape sh;
        shape(w, level[i].budget, level[i].gbase, level[i].depth, &sh);
        if (level[i].depth >= leaf_parent) {
            leaves += sh.nchild;
            continue;
        }
        uint64_t rem = level[i].budget - sh.nfiles, gb = level[i].gbase + sh.nfiles;
        if (*nn + sh.nchild > max)
            return 1;
        if (*nn + sh.nchild > cap) {
            size_t ncap = cap ? cap : 4096;
            while (ncap < *nn + sh.nchild)
                ncap *= 2;
            struct node *p = realloc(*next, ncap * sizeof *p);
            if (!p)
                return -1;
            *next = p;
            cap = ncap;
        }
        for (uint64_t c = 0; c < sh.nchild; c++) {
            uint64_t b = tree_child_budget(sh.key, c, sh.nchild - c, rem);
            (*next)[(*nn)++] = (struct node){b, gb, level[i].depth + 1};
            rem -= b;
            gb += b;
        }
    }
    *counted += leaves;
    return 0;
}

/* Draws `draws` subtrees of level (n nodes, total files) in proportion to their files and
 * walks them: the frontier's estimated directories, and their half-width in *hw. */
static double draw_subtrees(struct walk *w, const struct node *level, size_t n, double total,
                            size_t draws, uint64_t seed, double *hw)
{
    struct run r = {0, 0, 0};
    double u = seed_offset(seed, 0x6a09e667f3bcc908ull), cum = 0;
    size_t j = 0;
    for (size_t k = 0; k < draws; k++) {
        double t = ((double)k + u) * total / (double)draws;
        while (j + 1 < n && cum + (double)level[j].budget <= t)
            cum += (double)level[j++].budget;
        run_add(&r, (double)subtree_dirs(w, &level[j]) / (double)level[j].budget);
    }
    *hw = total * run_hw(&r);
    return total * r.mean;
}

/* The directory count: exact above the frontier, sampled below it. */
static int estimate_dirs(const struct tree_gen *g, uint64_t seed, size_t frontier_min,
                         double walk_shapes, struct tree_estimate *e)
{
    struct walk w = {g, 0};
    struct node *level = malloc(sizeof *level), *next = NULL;
    if (!level)
        return error("tree: out of memory");
    size_t n = 1, nn;
    level[0] = (struct node){g->nfiles_total, 0, 0};
    uint64_t above = 0; /* directories counted exactly, the root excluded */
    bool root_level = true;
    while (n && n < frontier_min) {
        uint64_t counted = 0;
        int rc = expand(&w, level, n, &next, &nn, EST_FRONTIER_MAX, &counted);
        if (rc < 0) {
            free(level);
            free(next);
            return error("tree: out of memory");
        }
        if (rc > 0)
            break; /* the next level is too wide: this one is the frontier */
        above += counted + (root_level ? 0 : n);
        root_level = false;
        struct node *t = level;
        level = next;
        next = t;
        n = nn;
    }
    free(next);
    /* a pilot of a few draws tells what one costs; then as many as EST_WALK_SHAPES allow,
     * or every subtree (exact) when that is not more */
    double total = 0, frontier = 0, hw = 0;
    for (size_t i = 0; i < n; i++)
        total += (double)level[i].budget;
    size_t draws = n < EST_PILOT ? n : EST_PILOT;
    if (draws < n) {
        uint64_t before = w.shapes;
        frontier = draw_subtrees(&w, level, n, total, draws, seed, &hw);
        double per = (double)(w.shapes - before) / (double)draws;
        double more = walk_shapes / (per > 1 ? per : 1);
        if (more > (double)draws) {
            draws = more >= (double)n ? n : (size_t)more;
            if (draws < n)
                frontier = draw_subtrees(&w, level, n, total, draws, seed, &hw);
        }
    }
    if (draws >= n) {
        frontier = 0;
        hw = 0;
        for (size_t i = 0; i < n; i++)
            frontier += (double)subtree_dirs(&w, &level[i]);
        draws = n;
    }
    if (root_level && n)
        frontier -= 1; /* the frontier is the root itself, which is no directory */
    free(level);
    e->subtree_samples = draws;
    e->dirs = above + (uint64_t)llround(frontier);
    e->dirs_hw = hw;
    return 0;
}

int tree_estimate(const struct tree_spec *spec, uint64_t block, struct tree_estimate *e)
{
    return tree_estimate_with(spec, block, EST_FRONTIER_MIN, EST_WALK_SHAPES, e);
}

int tree_estimate_with(const struct tree_spec *spec, uint64_t block, size_t frontier_min,
                       double walk_shapes, struct tree_estimate *e)
{
    memset(e, 0, sizeof *e);
    if (block == 0)
        return error("tree: an on-disk estimate needs a block size");
    if (tree_spec_check(spec) < 0)
        return -1;
    uint64_t nfiles = tree_file_count(spec);
    if (nfiles <= TREE_ESTIMATE_EXACT)
        return stream(spec, block, e);
    struct tree_gen *g = calloc(1, sizeof *g);
    if (!g)
        return error("tree: out of memory");
    tree_gen_init(g, spec);
    e->files = nfiles;

    /* the large files, one by one (or, past EST_LARGE_EXACT of them, a sample) */
    double lbytes = 0, ldisk = 0, lbytes_hw = 0, ldisk_hw = 0;
    if (g->lcount <= EST_LARGE_EXACT) {
        for (uint64_t k = 0; k < g->lcount; k++) {
            uint64_t s = tree_large_size(g, k);
            lbytes += (double)s;
            ldisk += (double)round_up(s, block);
        }
    } else {
        struct run rb = {0, 0, 0}, rd = {0, 0, 0};
        double u = seed_offset(spec->seed, 0xbb67ae8584caa73bull);
        for (unsigned i = 0; i < TREE_ESTIMATE_SAMPLES; i++) {
            uint64_t k = (uint64_t)(((double)i + u) * (double)g->lcount / TREE_ESTIMATE_SAMPLES);
            uint64_t s = tree_large_size(g, k);
            run_add(&rb, (double)s);
            run_add(&rd, (double)round_up(s, block));
        }
        lbytes = rb.mean * (double)g->lcount;
        ldisk = rd.mean * (double)g->lcount;
        lbytes_hw = run_hw(&rb) * (double)g->lcount;
        ldisk_hw = run_hw(&rd) * (double)g->lcount;
    }

    /* the body files and the symlinks, from the sample */
    struct run rb = {0, 0, 0}, rd = {0, 0, 0}, rs = {0, 0, 0};
    double u = seed_offset(spec->seed, 0x3c6ef372fe94f82bull);
    for (unsigned i = 0; i < TREE_ESTIMATE_SAMPLES; i++) {
        uint64_t gidx = (uint64_t)(((double)i + u) * (double)nfiles / TREE_ESTIMATE_SAMPLES);
        if (gidx >= nfiles)
            gidx = nfiles - 1;
        run_add(&rs, tree_file_has_symlink(g, gidx) ? 1 : 0);
        if (tree_file_is_large(g, gidx))
            continue;
        uint64_t s = tree_file_size(g, gidx);
        run_add(&rb, (double)s);
        run_add(&rd, (double)round_up(s, block));
    }
    double body = (double)(nfiles - g->lcount);
    e->bytes = (uint64_t)llround(rb.mean * body + lbytes);
    e->bytes_hw = hypot(run_hw(&rb) * body, lbytes_hw);
    if (g->sym_share > 0) {
        e->symlinks = (uint64_t)llround(rs.mean * (double)nfiles);
        e->symlinks_hw = run_hw(&rs) * (double)nfiles;
    }
    e->file_samples = TREE_ESTIMATE_SAMPLES;

    int rc = estimate_dirs(g, spec->seed, frontier_min, walk_shapes, e);
    if (rc == 0) {
        double files_disk = rd.mean * body + ldisk;
        e->disk = (uint64_t)llround((double)block * (1 + (double)e->dirs) + files_disk);
        e->disk_hw = hypot(hypot(run_hw(&rd) * body, ldisk_hw), (double)block * e->dirs_hw);
    }
    free(g);
    return rc;
}
