/* shape_fit.c — a profile made of a captured shape (shape_to_profile, see shape.h).
 *
 * Sizes and files per directory become the profile's empirical tables (tree.c samples
 * them); size_tilt is solved by bisection so that the expected total of the tables'
 * quantiles equals the captured bytes; max_depth is chosen among the candidate depths by
 * generating each candidate tree (at most FIT_FILES files) and keeping the one whose
 * file-depth histogram and directory count come closest.
 */
#include "tree/shape.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/units.h"
#include "base/text.h"
#include "tree/tree.h"


#define FIT_FILES 200000.0 /* largest tree generated per max_depth candidate */

/* --- profile --------------------------------------------------------------------------- */

static const char *const shape_suffixes[] = {"", NULL};

/* Integral of exp(b t) over [0, 1). */
static double int_exp(double b)
{
    return fabs(b) < 1e-12 ? 1.0 : expm1(b) / b;
}

/* Expected files drawn from power-of-two bucket i with a log-uniform offset (tree.c). */
static double bucket_mean_count(unsigned i)
{
    if (i <= 1)
        return i;
    double lo = ldexp(1.0, (int)i - 1);
    if (lo >= 16)
        return lo / M_LN2 - 0.5;
    double m = 0;
    for (double n = lo; n < 2 * lo; n++)
        m += n * log2((n + 1) / n);
    return m;
}

/* Solves size_tilt: the expected bytes of the table's quantiles equal the captured bytes. */
static double fit_tilt(const struct shape *s)
{
    double target = (double)s->bytes - (double)s->file_sizes[1], base = 0, half = 0;
    for (unsigned i = 2; i < SHAPE_BUCKETS; i++) {
        base += (double)s->file_sizes[i] * ldexp(1.0, (int)i - 1);
        half += 0.5 * (double)s->file_sizes[i]; /* flooring to whole bytes */
    }
    if (base <= 0)
        return 0;
    double lo = -64, hi = 64;
    for (int k = 0; k < 200; k++) {
        double a = 0.5 * (lo + hi);
        double got = base * int_exp(a + M_LN2) / int_exp(a) - half;
        if (got < target)
            lo = a;
        else
            hi = a;
    }
    return 0.5 * (lo + hi);
}

/* Generates the candidate tree at a fit scale; distance of its file-depth histogram to
 * the captured one (L1 of shares) plus the log ratio of the directory counts. */
static double depth_distance(const struct shape *s, struct profile *p, double scale)
{
    struct tree_spec spec = {.prof = p, .scale = scale, .seed = 1};
    struct tree_gen *g = tree_open(&spec);
    if (!g)
        return INFINITY;
    uint64_t depth[SHAPE_DEPTH_MAX + 1] = {0}, files = 0, dirs = 0;
    struct tree_entry e;
    while (tree_next(g, &e)) {
        if (e.kind == TREE_FILE) {
            depth[e.depth < SHAPE_DEPTH_MAX ? e.depth : SHAPE_DEPTH_MAX]++;
            files++;
        } else if (e.kind == TREE_DIR) {
            dirs++;
        }
    }
    tree_close(g);
    double d = 0;
    for (unsigned i = 1; i <= SHAPE_DEPTH_MAX; i++)
        d += fabs((double)depth[i] / (double)files - (double)s->depth[i] / (double)s->files);
    double want_dirs = ((double)s->dirs + 1) * (double)files / (double)s->files;
    return d + fabs(log(((double)dirs + 1) / want_dirs));
}

int shape_to_profile(const struct shape *s, const char *name, struct shape_model *m)
{
    memset(m, 0, sizeof *m);
    if (s->files == 0)
        return error("shape %s: no files", name);
    snprintf(m->name, sizeof m->name, "%s", name);
    struct profile *p = &m->prof;
    p->name = m->name;

    /* sizes: the empirical table; mu, sigma and the bounds describe it (for the check) */
    uint64_t cum = 0;
    double lsum = 0, lsq = 0;
    unsigned top = 0;
    for (unsigned i = 0; i < SHAPE_BUCKETS; i++) {
        cum += s->file_sizes[i];
        m->size_cdf[i] = (double)cum / (double)s->files;
        if (s->file_sizes[i]) {
            top = i;
            double l = i ? log(1.5 * ldexp(1.0, (int)i - 1)) : 0;
            lsum += (double)s->file_sizes[i] * l;
            lsq += (double)s->file_sizes[i] * l * l;
        }
    }
    m->size_cdf[SHAPE_BUCKETS - 1] = 1;
    p->size_cdf = m->size_cdf;
    p->size_tilt = fit_tilt(s);
    p->size_mu = lsum / (double)s->files;
    double var = lsq / (double)s->files - p->size_mu * p->size_mu;
    p->size_sigma = var > 0 ? fmin(sqrt(var), 9.0) : 0;
    p->size_min = 0;
    p->size_max = top ? ((uint64_t)1 << top) - 1 : 0;

    /* files per directory: the empirical table and its mean */
    uint64_t ndirs = s->dirs + 1;
    double mean = 0;
    cum = 0;
    for (unsigned i = 0; i < SHAPE_BUCKETS; i++) {
        cum += s->files_per_dir[i];
        m->fpd_cdf[i] = (double)cum / (double)ndirs;
        mean += (double)s->files_per_dir[i] / (double)ndirs * bucket_mean_count(i);
    }
    m->fpd_cdf[SHAPE_BUCKETS - 1] = 1;
    p->files_per_dir_cdf = m->fpd_cdf;
    p->files_per_dir_mean = fmin(fmax(mean, 1.0), 999999.0);
    p->files_per_dir_sigma = 1.0; /* unused with the table */
    uint64_t parents = ndirs - s->subdirs_per_dir[0];
    p->subdirs_mean = parents ? fmin(fmax((double)s->dirs / (double)parents, 1.0), 9999.0) : 1.0;

    double sym = (double)s->symlinks / (double)s->files;
    p->symlink_share = sym < 0.95 ? sym : 0.95;
    p->suffixes = shape_suffixes;

    /* name lengths: the 5th to the 95th percentile, within what profiles allow */
    uint64_t nnames = shape_hist_sum(s->name_length, SHAPE_NAME_MAX + 1), seen = 0;
    unsigned p5 = 0, p95 = 0;
    for (unsigned i = 0; i <= SHAPE_NAME_MAX && nnames; i++) {
        seen += s->name_length[i];
        if (!p5 && (double)seen >= 0.05 * (double)nnames)
            p5 = i;
        if (!p95 && (double)seen >= 0.95 * (double)nnames)
            p95 = i;
    }
    p->name_len_min = p5 < 3 ? 3 : p5 > PROFILE_NAME_LEN_MAX ? PROFILE_NAME_LEN_MAX : p5;
    p->name_len_max = p95 < p->name_len_min ? p->name_len_min
                      : p95 > PROFILE_NAME_LEN_MAX ? PROFILE_NAME_LEN_MAX : p95;

    p->files = s->files;
    char size[32];
    snprintf(m->summary, sizeof m->summary,
             "captured shape: %" PRIu64 " files, %" PRIu64 " dirs, %s", s->files, s->dirs,
             units_bytes(size, sizeof size, (double)s->bytes));
    p->summary = m->summary;

    /* depth: directories go one level above the deepest file; try each depth from the
     * median file depth down there and keep the closest */
    unsigned fmax_depth = 0, median = 0;
    seen = 0;
    for (unsigned i = 1; i <= SHAPE_DEPTH_MAX; i++) {
        if (s->depth[i])
            fmax_depth = i;
        seen += s->depth[i];
        if (!median && 2 * seen >= s->files)
            median = i;
    }
    unsigned dmax = fmax_depth ? fmax_depth - 1 : 0;
    if (dmax > TREE_MAX_DEPTH)
        dmax = TREE_MAX_DEPTH;
    unsigned dmin = median > 1 ? median - 1 : 0;
    if (dmin > dmax)
        dmin = dmax;
    double fit_scale = (double)s->files > FIT_FILES ? FIT_FILES / (double)s->files : 1.0;
    p->source = "fsbench tree capture";
    double best = INFINITY;
    unsigned best_depth = dmax;
    for (unsigned d = dmin; d <= dmax; d++) {
        p->max_depth = d;
        if (profile_check(p) < 0)
            return -1;
        double dist = depth_distance(s, p, fit_scale);
        if (dist < best) {
            best = dist;
            best_depth = d;
        }
    }
    p->max_depth = best_depth;
    snprintf(m->source, sizeof m->source,
             "captured shape (fsbench tree capture, version %d): empirical file-size and "
             "files-per-directory histograms, size tilt %.3f, max_depth %u fitted to the "
             "depth histogram", SHAPE_VERSION, p->size_tilt, p->max_depth);
    p->source = m->source;
    return profile_check(p);
}

int shape_model_load(const char *path, struct shape_model *m)
{
    struct shape *s = malloc(sizeof *s);
    if (!s)
        return error("out of memory");
    int rc = shape_load_ini(path, s);
    if (rc == 0)
        rc = shape_to_profile(s, path, m);
    free(s);
    return rc;
}

int shape_is_path(const char *arg)
{
    size_t n = arg ? strlen(arg) : 0;
    return n > 4 && !strcmp(arg + n - 4, ".ini");
}
