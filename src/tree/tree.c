/* tree.c — the deterministic synthetic tree generator: profile + scale + seed -> a stream
 * of directories, files and symlinks (see tree.h for the order and the content contract).
 *
 * Randomness is counter based: every draw is a pure function of (seed, what, index),
 * mixed with the splitmix64 finaliser, never a stateful PRNG. Directory draws are keyed
 * by the directory's id, file draws by the file's global ordinal g (0 <= g < N, the order
 * in which files are emitted). So a subtree's contents depend only on the seed and its id,
 * and a thread could later generate a disjoint subtree on its own.
 *
 * The exact file count comes from budget splitting. The root gets all N files. A directory
 * with budget b keeps f = min(b, draw) files (lognormal, files_per_dir_*) and hands the
 * rest r to k >= 1 subdirectories, k = r / capacity of a child times lognormal noise of
 * mean 1 (capacity: expected files of a subtree at that depth, see below); each child
 * gets 1 file plus a share of the rest by sequential stick breaking (Beta(1, n-1) draws,
 * i.e. a flat Dirichlet split), the last child the remainder. Files of a directory are
 * the ordinals [gbase, gbase + f), its children follow in order, so a directory's id is
 * (gbase, depth): unique because every directory has budget >= 1 (no empty directories).
 * At max_depth a directory keeps its whole budget. State is one frame per level.
 *
 * Capacity: cap(max_depth) = files_per_dir_mean, cap(d) = files_per_dir_mean + fan *
 * cap(d + 1), with fan = subdirs_mean times one factor found by bisection so that cap(0)
 * = N. So scaling a profile up makes every level wider, not only the root, and the tree
 * keeps its depth. Because directories near the leaves get remainders smaller than their
 * draw, the realised files per directory come out ~10% below files_per_dir_mean.
 *
 * Names are unique by construction: a generated name is stem '_' index [suffix], where
 * the stem is [a-z] only and the index (base 36) is 2i for file i, 2i+1 for the symlink
 * after it and 2f+c for subdirectory c; the first '_' ends the stem and the index runs to
 * the first '.', so two generated names are equal only if the indices are. Templates
 * ("patch-*") and fixed names contain no '_' (profile_check), fixed names no '-' either.
 *
 * Content: a 2 MiB pattern of splitmix64 bytes made from the seed (by tree_open(), or once
 * by tree_pattern_new() and shared through the spec); a file's data starts at an offset
 * drawn from its ordinal, data_len = min(size, TREE_DATA_LEN), at least 1, so writing
 * costs no per-byte generation.
 *
 * Captured shapes (profile.size_cdf, files_per_dir_cdf; NULL in the built-in profiles, whose
 * output is unchanged): a file's size is the empirical quantile at a stratified point,
 * u = (perm(g) + phi) / N, where perm is a seeded bijection of [0, N) (a 4-round Feistel
 * network on the next even power of two, cycle-walked into range) and phi in [0.05, 0.95]
 * is drawn per file. The N points fill the N strata of [0, 1) once each, so at scale 1
 * every size bucket holds exactly its captured count and at other scales within one file
 * of its share; which file gets which stratum is random. Inside a bucket the offset
 * follows size_tilt. Files per directory are drawn from their table with an independent u.
 *
 * Determinism across machines rests on IEEE-754 doubles (no -ffast-math) and on libm:
 * a last-bit difference in exp/log changes a size or count only if it straddles an
 * integer, ~1e-12 per draw. test_tree's golden hashes pin the output (same under gcc and
 * clang, -O1 to -O3 -march=native).
 */
#include "tree/tree.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "tree/tree_internal.h"

_Static_assert(TREE_HIST_BUCKETS == PROFILE_HIST_BUCKETS, "one bucket layout");

#define PATTERN_LEN ((size_t)2 << 20)
#define DATA_OFFSET_RANGE ((uint64_t)1 << 20)
/* Lognormal sigma of the fan-out noise, chosen so that the directory count varies ~5%
 * between seeds. */
#define FANOUT_SIGMA 0.5
#define GOLDEN 0x9e3779b97f4a7c15ull


/* splitmix64's finaliser: a bijection on 64 bits with good avalanche. */
static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/* A uniform double in (0, 1), never 0 or 1. */
static inline double u01(uint64_t h)
{
    return ((double)(h >> 11) + 0.5) * 0x1p-53;
}

/* Draw for a directory: distinct (purpose, idx) give distinct values for one key. */
static inline uint64_t dir_draw(uint64_t key, enum purpose p, uint64_t idx)
{
    return mix(key + (((uint64_t)p << 48) | idx) * GOLDEN);
}

/* Key of the file with ordinal gidx; file_draw() derives its draws from it. */
static inline uint64_t file_key(const struct tree_gen *g, uint64_t gidx)
{
    return mix(g->file_seed ^ (gidx * 0xd6e8feb86659fd93ull));
}

static inline uint64_t file_draw(uint64_t fkey, enum purpose p)
{
    return mix(fkey + (uint64_t)p * GOLDEN);
}

/* Truncated lognormal by inverse CDF; the result is clamped in double first, so an
 * infinite or huge draw never reaches the integer conversion. */
static inline uint64_t lognormal_size(double mu, double sigma, double lo, double span, double minv,
                                      double maxv, double u)
{
    double x = exp(mu + sigma * gsl_cdf_ugaussian_Pinv(lo + u * span));
    if (!(x < maxv))
        return (uint64_t)maxv;
    if (x < minv)
        return (uint64_t)minv;
    return (uint64_t)x;
}

/* Bucket of u in a cumulative table (the first whose cumulative share exceeds u) and u's
 * place inside it, v in [0, 1). */
static unsigned cdf_bucket(const double *cdf, double u, double *v)
{
    unsigned i = 0;
    while (i < PROFILE_HIST_BUCKETS - 1 && !(u < cdf[i]))
        i++;
    double lo = i ? cdf[i - 1] : 0, w = cdf[i] - lo;
    double x = w > 0 ? (u - lo) / w : 0.5;
    if (x < 0)
        x = 0;
    if (x >= 1)
        x = 0x1.fffffffffffffp-1;
    *v = x;
    return i;
}

/* Value in power-of-two bucket i (0, 1, [2, 4), ...) at log2 offset t in [0, 1). */
static uint64_t bucket_value(unsigned i, double t)
{
    if (i <= 1)
        return i;
    double lo = ldexp(1.0, (int)i - 1), x = floor(lo * exp2(t));
    if (x < lo)
        x = lo;
    if (x > 2 * lo - 1)
        x = 2 * lo - 1;
    return (uint64_t)x;
}

/* The stratum of file gidx: a bijection of [0, N) keyed by the seed. */
static uint64_t perm_index(const struct tree_gen *g, uint64_t x)
{
    do {
        uint64_t l = x >> g->perm_half, r = x & g->perm_mask;
        for (int k = 0; k < 4; k++) {
            uint64_t t = l ^ (mix(r ^ g->perm_key[k]) & g->perm_mask);
            l = r;
            r = t;
        }
        x = (l << g->perm_half) | r;
    } while (x >= g->nfiles_total);
    return x;
}

/* Size of file gidx from the empirical table (see the file comment). */
static uint64_t empirical_size(const struct tree_gen *g, uint64_t gidx, uint64_t fkey)
{
    double phi = 0.05 + 0.9 * u01(file_draw(fkey, P_SIZE));
    double u = ((double)perm_index(g, gidx) + phi) / (double)g->nfiles_total, v;
    unsigned i = cdf_bucket(g->scdf, u, &v);
    double a = g->stilt, t = fabs(a) < 1e-9 ? v : log1p(v * expm1(a)) / a;
    return bucket_value(i, t);
}

/* Writes v in base 36, at least minw digits; returns the digit count. */
static inline size_t put_base36(char *out, uint64_t v, size_t minw)
{
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    char tmp[16];
    size_t n = 0;
    do {
        tmp[n++] = digits[v % 36];
        v /= 36;
    } while (v);
    while (n < minw)
        tmp[n++] = '0';
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

/* Writes a generated name "stem_index<suffix>" (or a template's "prefix-index") into out,
 * NUL-terminated; suf < 0 means no suffix. Returns its length. */
static size_t gen_name(const struct tree_gen *g, char *out, uint64_t hname, uint64_t hstem,
                       uint64_t serial, int suf)
{
    static const char cons[16] = "bcdfghklmnprstvz";
    static const char vow[8] = "aeiouaei";
    if (suf >= 0 && g->suf_tmpl[suf]) {
        size_t n = g->suf_len[suf] - 1u;
        memcpy(out, g->suf[suf], n);
        n += put_base36(out + n, serial, 2);
        out[n] = '\0';
        return n;
    }
    char idx[16];
    size_t nd = put_base36(idx, serial, 1);
    size_t len = g->len_min + (size_t)((hname >> 40) % g->len_range);
    size_t stem = len > nd + 2 ? len - nd - 1 : 1;
    size_t n = 0;
    /* consonant-vowel alternation reads like a name; 7 bits per pair, 9 pairs a hash */
    unsigned bits = 0;
    for (size_t i = 0; i < stem; i++) {
        if (bits < 4) {
            hstem = mix(hstem + GOLDEN);
            bits = 63;
        }
        if ((i + (hname & 1)) & 1) {
            out[n++] = vow[hstem & 7];
            hstem >>= 3;
            bits -= 3;
        } else {
            out[n++] = cons[hstem & 15];
            hstem >>= 4;
            bits -= 4;
        }
    }
    out[n++] = '_';
    memcpy(out + n, idx, nd);
    n += nd;
    if (suf >= 0) {
        memcpy(out + n, g->suf[suf], g->suf_len[suf]);
        n += g->suf_len[suf];
    }
    out[n] = '\0';
    return n;
}

/* Picks a suffix by weight from bits of h. */
static inline int pick_suffix(const struct tree_gen *g, uint64_t h)
{
    uint64_t r = (h & 0xffffffffffull) % g->suf_total;
    unsigned i = 0;
    while (r >= g->suf_cum[i])
        i++;
    return (int)i;
}

/* Writes the name of file j of directory fr into out; *suf gets the suffix index (-1 for a
 * fixed name). Returns the name's length. A pure function of (seed, directory, j). */
static size_t file_name(const struct tree_gen *g, const struct frame *fr, uint64_t j, char *out,
                        int *suf)
{
    if (j < fr->nfixed) {
        uint32_t m = fr->fixed_mask;
        for (uint64_t k = 0; k < j; k++)
            m &= m - 1;
        unsigned bit = (unsigned)__builtin_ctz(m);
        memcpy(out, g->fixed[bit], g->fixed_len[bit] + 1u);
        *suf = -1;
        return g->fixed_len[bit];
    }
    uint64_t fkey = file_key(g, fr->gbase + j);
    uint64_t h = file_draw(fkey, P_NAME);
    *suf = pick_suffix(g, h);
    return gen_name(g, out, h, file_draw(fkey, P_STEM), 2 * j, *suf);
}

void tree_dir_shape(const struct tree_gen *g, uint64_t budget, uint64_t gbase, unsigned depth,
                    struct tree_dir_shape *s)
{
    uint64_t key = mix(g->dir_seed ^ mix((gbase << 6) | depth));
    uint64_t f = budget, k = 0;
    if (depth < g->max_depth) {
        double d, z;
        if (g->fcdf) {
            double v;
            unsigned i = cdf_bucket(g->fcdf, u01(dir_draw(key, P_FILES, 0)), &v);
            d = (double)bucket_value(i, v);
        } else {
            z = gsl_cdf_ugaussian_Pinv(u01(dir_draw(key, P_FILES, 0)));
            d = exp(g->fpd_mu + g->fpd_sigma * z) + 0.5;
        }
        if (d < (double)budget)
            f = (uint64_t)d;
        uint64_t r = budget - f;
        if (r > 0) {
            z = gsl_cdf_ugaussian_Pinv(u01(dir_draw(key, P_FANOUT, 0)));
            double dk = (double)r / g->cap[depth + 1] *
                            exp(FANOUT_SIGMA * z - 0.5 * FANOUT_SIGMA * FANOUT_SIGMA) +
                        0.5;
            k = dk >= (double)r ? r : (uint64_t)dk;
            if (k == 0)
                k = 1;
        }
    }
    s->key = key;
    s->nfiles = f;
    s->nchild = k;
}

/* Sets up frame fr for the directory with the given budget, first ordinal and depth. */
static void enter_dir(struct tree_gen *g, struct frame *fr, uint64_t budget, uint64_t gbase,
                      unsigned depth)
{
    struct tree_dir_shape sh;
    tree_dir_shape(g, budget, gbase, depth, &sh);
    uint64_t key = sh.key, f = sh.nfiles, k = sh.nchild;
    uint32_t mask = 0, nfixed = 0;
    for (unsigned j = 0; j < 32 && g->fixed[j]; j++) {
        if (u01(dir_draw(key, P_FIXED, j)) < g->p->fixed_names[j].share) {
            mask |= (uint32_t)1 << j;
            nfixed++;
        }
    }
    fr->key = key;
    fr->gbase = gbase;
    fr->nfiles = f;
    fr->next_file = 0;
    fr->nchild = k;
    fr->next_child = 0;
    fr->child_rem = budget - f;
    fr->child_g = gbase + f;
    fr->fixed_mask = mask;
    fr->nfixed = nfixed < f ? nfixed : (uint32_t)f;
    fr->sym_pending = 0;
}

/* Expected files in a subtree rooted at each depth when the fan-out mean is fan. */
static void fill_capacity(struct tree_gen *g, double fan)
{
    double fpd = g->p->files_per_dir_mean;
    g->cap[g->max_depth] = fpd;
    g->cap[g->max_depth + 1] = fpd;
    for (int d = (int)g->max_depth - 1; d >= 0; d--)
        g->cap[d] = fpd + fan * g->cap[d + 1];
}

/* Chooses the fan-out mean (subdirs_mean times one factor) so that the root's expected
 * capacity is the file count, and fills g->cap with it. */
static void fit_fanout(struct tree_gen *g)
{
    double lo = 1e-3, hi = 1e6, n = (double)g->nfiles_total;
    for (int i = 0; i < 100; i++) {
        double mid = sqrt(lo * hi);
        fill_capacity(g, g->p->subdirs_mean * mid);
        if (g->cap[0] < n)
            lo = mid;
        else
            hi = mid;
    }
    fill_capacity(g, g->p->subdirs_mean * hi);
}

/* Fills the pattern with a splitmix64 stream, byte order fixed (little endian). */
static void fill_pattern(unsigned char *pat, uint64_t seed)
{
    uint64_t s = seed ^ 0x5bd1e9955bd1e995ull;
    for (size_t i = 0; i < PATTERN_LEN; i += 8) {
        s += GOLDEN;
        uint64_t v = mix(s);
        for (int b = 0; b < 8; b++)
            pat[i + (size_t)b] = (unsigned char)(v >> (8 * b));
    }
}

unsigned char *tree_pattern_new(uint64_t seed)
{
    unsigned char *pat = malloc(PATTERN_LEN);
    if (!pat) {
        error("tree: out of memory");
        return NULL;
    }
    fill_pattern(pat, seed);
    return pat;
}

/* Prepares suffix, fixed-name and distribution tables from the profile. */
void tree_gen_init(struct tree_gen *g, const struct tree_spec *spec)
{
    const struct profile *p = spec->prof;
    g->p = p;
    g->nfiles_total = tree_file_count(spec);
    g->dir_seed = mix(spec->seed ^ 0x243f6a8885a308d3ull);
    g->file_seed = mix(spec->seed ^ 0x13198a2e03707344ull);
    g->max_depth = p->max_depth;

    g->mu = p->size_mu;
    g->sigma = p->size_sigma;
    g->smin_d = (double)p->size_min;
    g->smax_d = (double)p->size_max;
    double plo = p->size_min > 0 && p->size_sigma > 0
                     ? gsl_cdf_ugaussian_P((log((double)p->size_min) - p->size_mu) / p->size_sigma)
                     : 0.0;
    double phi =
        p->size_sigma > 0
            ? gsl_cdf_ugaussian_P((log((double)p->size_max + 1) - p->size_mu) / p->size_sigma)
            : 1.0;
    g->lo = plo;
    g->span = phi > plo ? phi - plo : 0.0;
    if (g->span == 0) /* degenerate: everything at one bound; use the median */
        g->lo = 0.5;

    g->lshare = p->large_share;
    if (p->large_share > 0) {
        g->lmu = p->large_mu;
        g->lsigma = p->large_sigma;
        g->lmax_d = (double)p->large_max;
        g->llo = 0;
        g->lspan = p->large_sigma > 0
                       ? gsl_cdf_ugaussian_P((log(g->lmax_d + 1) - p->large_mu) / p->large_sigma)
                       : 1.0;
        g->lphase = u01(mix(spec->seed ^ 0xa4093822299f31d0ull));
        g->lweyl = u01(mix(spec->seed ^ 0x082efa98ec4e6c89ull));
        g->lcount = (uint64_t)floor((double)g->nfiles_total * g->lshare + g->lphase);
    }

    g->fcdf = p->files_per_dir_cdf;
    g->scdf = p->size_cdf;
    g->stilt = p->size_tilt;
    if (g->scdf) {
        unsigned bits = 1;
        while (bits < 64 && (g->nfiles_total - 1) >> bits)
            bits++;
        g->perm_half = (bits + 1) / 2;
        g->perm_mask = ((uint64_t)1 << g->perm_half) - 1;
        for (int k = 0; k < 4; k++)
            g->perm_key[k] = mix(spec->seed ^ (0x452821e638d01377ull + (uint64_t)k * GOLDEN));
    }
    g->fpd_sigma = p->files_per_dir_sigma;
    g->fpd_mu = log(p->files_per_dir_mean) - 0.5 * p->files_per_dir_sigma * p->files_per_dir_sigma;
    fit_fanout(g);
    g->sym_share = p->symlink_share;

    uint64_t cum = 0;
    for (unsigned i = 0; p->suffixes[i]; i++) {
        const char *s = p->suffixes[i];
        size_t n = strlen(s);
        g->suf[i] = s;
        g->suf_len[i] = (uint8_t)n;
        g->suf_tmpl[i] = n > 0 && s[n - 1] == '*';
        g->suf_exec[i] = !strcmp(s, ".sh") || !strcmp(s, ".pl") || !strcmp(s, ".py");
        cum += p->suffix_weights ? p->suffix_weights[i] : 1;
        g->suf_cum[i] = cum;
    }
    g->suf_total = cum;
    for (unsigned j = 0; p->fixed_names && p->fixed_names[j].name; j++) {
        g->fixed[j] = p->fixed_names[j].name;
        g->fixed_len[j] = (uint8_t)strlen(p->fixed_names[j].name);
    }
    g->len_min = p->name_len_min;
    g->len_range = p->name_len_max - p->name_len_min + 1;
}

int tree_spec_check(const struct tree_spec *spec)
{
    if (!spec || !spec->prof)
        return error("tree: no profile");
    if (profile_check(spec->prof) < 0)
        return -1;
    if (!(spec->scale > 0) || !isfinite(spec->scale))
        return error("tree: scale must be a positive number");
    if ((double)spec->prof->files * spec->scale > (double)TREE_FILES_MAX)
        return error("tree: profile %s at scale %g exceeds %llu files", spec->prof->name,
                     spec->scale, (unsigned long long)TREE_FILES_MAX);
    return 0;
}

struct tree_gen *tree_open(const struct tree_spec *spec)
{
    if (tree_spec_check(spec) < 0)
        return NULL;
    struct tree_gen *g = calloc(1, sizeof *g);
    if (g && !(g->pattern = spec->pattern))
        g->pattern = g->own_pattern = malloc(PATTERN_LEN);
    if (!g || !g->pattern) {
        free(g);
        error("tree: out of memory");
        return NULL;
    }
    tree_gen_init(g, spec);
    if (g->own_pattern)
        fill_pattern(g->own_pattern, spec->seed);
    enter_dir(g, &g->st[0], g->nfiles_total, 0, 0);
    return g;
}

bool tree_file_is_large(const struct tree_gen *g, uint64_t gidx)
{
    return g->lshare > 0 && floor((double)(gidx + 1) * g->lshare + g->lphase) >
                                floor((double)gidx * g->lshare + g->lphase);
}

uint64_t tree_large_size(const struct tree_gen *g, uint64_t k)
{
    /* the K large files take the K points of a randomly shifted lattice, in a scrambled
     * order: they cover their distribution evenly, so the total varies little with the seed
     * (the mixed profile must stay under 2 GiB) */
    uint64_t j = g->lcount % 7919 ? k * 7919 % g->lcount : k;
    double u = g->lweyl + (double)j / (double)g->lcount;
    u -= floor(u);
    if (u <= 0)
        u = 0x1p-53;
    return lognormal_size(g->lmu, g->lsigma, g->llo, g->lspan, 0, g->lmax_d, u);
}

/* The size of file gidx, whose key is fkey. */
static inline uint64_t file_size(const struct tree_gen *g, uint64_t gidx, uint64_t fkey)
{
    if (tree_file_is_large(g, gidx))
        return tree_large_size(g, (uint64_t)floor((double)gidx * g->lshare + g->lphase));
    if (g->scdf)
        return empirical_size(g, gidx, fkey);
    return lognormal_size(g->mu, g->sigma, g->lo, g->span, g->smin_d, g->smax_d,
                          u01(file_draw(fkey, P_SIZE)));
}

static inline bool has_symlink(const struct tree_gen *g, uint64_t fkey)
{
    return g->sym_share > 0 && u01(file_draw(fkey, P_SYM)) < g->sym_share;
}

uint64_t tree_file_size(const struct tree_gen *g, uint64_t gidx)
{
    return file_size(g, gidx, file_key(g, gidx));
}

bool tree_file_has_symlink(const struct tree_gen *g, uint64_t gidx)
{
    return has_symlink(g, file_key(g, gidx));
}

/* Fills e for file i of directory fr, whose name is already at g->path + pos. */
static void emit_file(struct tree_gen *g, struct frame *fr, struct tree_entry *e, size_t pos,
                      int suf)
{
    uint64_t gidx = fr->gbase + fr->next_file, fkey = file_key(g, gidx);
    uint64_t size = file_size(g, gidx, fkey);
    e->kind = TREE_FILE;
    e->name = g->path + pos;
    e->size = size;
    e->mode = suf >= 0 && g->suf_exec[suf] ? 0755 : 0644;
    e->data = g->pattern + file_draw(fkey, P_DATA) % DATA_OFFSET_RANGE;
    e->data_len = size == 0 ? 1 : size < TREE_DATA_LEN ? (size_t)size : TREE_DATA_LEN;
    e->target = NULL;
    if (has_symlink(g, fkey))
        fr->sym_pending = 1;
    fr->next_file++;
}

/* Fills e for the symlink that follows file next_file - 1: it points at that file or an
 * earlier one of the same directory, by a bare relative name. */
static void emit_symlink(struct tree_gen *g, struct frame *fr, struct tree_entry *e, size_t pos)
{
    uint64_t i = fr->next_file - 1, fkey = file_key(g, fr->gbase + i);
    uint64_t j = i - file_draw(fkey, P_SYMTARGET) % (i + 1);
    int suf;
    file_name(g, fr, j, g->target, &suf);
    uint64_t h = file_draw(fkey, P_SYMNAME);
    gen_name(g, g->path + pos, h, file_draw(fkey, P_SYMSTEM), 2 * i + 1, pick_suffix(g, h));
    e->kind = TREE_SYMLINK;
    e->name = g->path + pos;
    e->size = 0;
    e->mode = 0777;
    e->data = NULL;
    e->data_len = 0;
    e->target = g->target;
    fr->sym_pending = 0;
}

uint64_t tree_child_budget(uint64_t key, uint64_t c, uint64_t nleft, uint64_t rem)
{
    if (nleft == 1)
        return rem;
    uint64_t extra = rem - nleft; /* beyond the 1 file each child gets */
    double u = u01(dir_draw(key, P_SPLIT, c));
    double v = -expm1(log1p(-u) / (double)(nleft - 1)); /* Beta(1, n-1) quantile */
    uint64_t b = 1 + (uint64_t)((double)extra * v);
    return b > extra + 1 ? extra + 1 : b;
}

/* Emits the next subdirectory of fr: splits the budget, names it, pushes its frame. */
static void emit_dir(struct tree_gen *g, struct frame *fr, struct tree_entry *e, size_t pos)
{
    uint64_t c = fr->next_child;
    uint64_t b = tree_child_budget(fr->key, c, fr->nchild - c, fr->child_rem);
    uint64_t gbase = fr->child_g;
    fr->child_g += b;
    fr->child_rem -= b;
    fr->next_child++;

    unsigned depth = (unsigned)g->top + 1;
    struct frame *ch = &g->st[depth];
    enter_dir(g, ch, b, gbase, depth);
    size_t len = gen_name(g, g->path + pos, dir_draw(ch->key, P_DIRNAME, 0),
                          dir_draw(ch->key, P_DIRSTEM, 0), 2 * fr->nfiles + c, -1);
    ch->nameoff = (uint32_t)pos;
    ch->pathlen = (uint32_t)(pos + len);
    g->top = (int)depth;

    e->kind = TREE_DIR;
    e->name = g->path + pos;
    e->depth = depth;
    e->size = 0;
    e->mode = 0755;
    e->data = NULL;
    e->data_len = 0;
    e->target = NULL;
}

int tree_next(struct tree_gen *g, struct tree_entry *e)
{
    if (g->done)
        return 0;
    struct frame *fr = &g->st[g->top];
    size_t pos = fr->pathlen ? fr->pathlen + 1u : 0;
    if (fr->pathlen)
        g->path[fr->pathlen] = '/';
    if (fr->sym_pending) {
        emit_symlink(g, fr, e, pos);
        e->depth = (unsigned)g->top + 1;
        return 1;
    }
    if (fr->next_file < fr->nfiles) {
        int suf;
        file_name(g, fr, fr->next_file, g->path + pos, &suf);
        emit_file(g, fr, e, pos, suf);
        e->depth = (unsigned)g->top + 1;
        return 1;
    }
    if (fr->next_child < fr->nchild) {
        emit_dir(g, fr, e, pos);
        return 1;
    }
    if (g->top == 0) {
        g->path[0] = '\0';
        g->done = 1;
        return 0;
    }
    /* leave: the entry names the directory closed, tree_path() gives its path */
    g->path[fr->pathlen] = '\0';
    e->kind = TREE_LEAVE;
    e->name = g->path + fr->nameoff;
    e->depth = (unsigned)g->top;
    e->size = 0;
    e->mode = 0755;
    e->data = NULL;
    e->data_len = 0;
    e->target = NULL;
    g->top--;
    return 1;
}

const char *tree_path(const struct tree_gen *g)
{
    return g->path;
}

void tree_skip_subtree(struct tree_gen *g)
{
    if (g->done)
        return;
    if (g->top == 0) {
        g->path[0] = '\0';
        g->done = 1;
        return;
    }
    /* The parent's frame already accounts for this child's budget (emit_dir advanced
     * child_g and child_rem), so dropping the frame is all a skip takes. */
    struct frame *fr = &g->st[g->top];
    g->path[fr->pathlen] = '\0';
    g->top--;
}

void tree_close(struct tree_gen *g)
{
    if (!g)
        return;
    free(g->own_pattern);
    free(g);
}

int tree_measure(const struct tree_spec *spec, struct tree_totals *t)
{
    memset(t, 0, sizeof *t);
    struct tree_gen *g = tree_open(spec);
    if (!g)
        return -1;
    struct tree_entry e;
    while (tree_next(g, &e)) {
        if (e.depth > t->max_depth)
            t->max_depth = e.depth;
        switch (e.kind) {
        case TREE_DIR:
            t->dirs++;
            break;
        case TREE_SYMLINK:
            t->symlinks++;
            break;
        case TREE_FILE: {
            t->files++;
            t->bytes += e.size;
            if (e.size > t->max_file_size)
                t->max_file_size = e.size;
            unsigned b = e.size ? 64u - (unsigned)__builtin_clzll(e.size) : 0;
            t->size_hist[b < TREE_HIST_BUCKETS ? b : TREE_HIST_BUCKETS - 1]++;
            break;
        }
        case TREE_LEAVE:
            break;
        }
    }
    tree_close(g);
    return 0;
}

uint64_t tree_file_count(const struct tree_spec *spec)
{
    if (!spec || !spec->prof || !(spec->scale > 0) || !isfinite(spec->scale))
        return 0;
    double n = floor((double)spec->prof->files * spec->scale + 0.5);
    if (n < 1)
        return 1;
    if (n >= 0x1p63)
        return UINT64_MAX;
    return (uint64_t)n;
}

int tree_check_scale(const char *arg, const struct profile *p, double scale)
{
    double files = (double)p->files * scale;
    if (files <= (double)TREE_FILES_MAX)
        return 0;
    return error("--scale: '%s' would make the tree %s %.3g files, more than the %llu a tree "
                 "may hold (at most --scale %.6g)",
                 arg, p->name, files, (unsigned long long)TREE_FILES_MAX,
                 (double)TREE_FILES_MAX / (double)p->files);
}
