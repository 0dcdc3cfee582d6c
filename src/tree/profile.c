/* profile.c — the built-in tree profiles and the check of a profile's parameters.
 *
 * A profile is pure data; tree.c turns it into a stream of entries. Every profile names
 * where its numbers come from in `source`, and says there (and in a comment here) where a
 * parameter was adapted rather than taken as published.
 *
 * File sizes by count follow a lognormal body, as measured by Agrawal, Bolosky, Douceur
 * and Lorch, "A Five-Year Study of File-System Metadata" (FAST 2007), and as used by
 * Agrawal, Arpaci-Dusseau and Arpaci-Dusseau, "Generating Realistic Impressions for
 * File-System Benchmarking" (FAST 2009): mu = 9.48, sigma = 2.46 (bytes). Those are whole
 * desktop file systems; source trees are narrower, so pkgsrc and kernel keep the lognormal
 * form with parameters fitted to those trees. Impressions models files per directory with
 * an inverse polynomial; adapted, we draw it lognormal (mean, sigma per profile), which
 * with budget splitting gives the same many-small, few-large picture.
 */
#include "tree/profile.h"

#include <math.h>
#include <string.h>

#include "base/err.h"

/* --- pkgsrc -------------------------------------------------------------------------- */

/* pkgsrc: category/package/{Makefile,DESCR,PLIST,distinfo,patches/patch-*}. Adapted: the
 * four package files are "fixed names" present in most directories; patches and *.mk are
 * weighted suffixes; sizes are lognormal with median 1.5 KB (exp(7.31)) and sigma 1.0, so
 * about two thirds of the files fall in 0.5-4 KB, fitted to the tarball's listing rather
 * than taken from the papers. Shape: max_depth 3 (category/package/patches); realised
 * ~10,500 directories of ~4.9 files. The generator does not know which level is a
 * category, so every directory draws from the same mix. */
static const char *const pkgsrc_suffixes[] = {
    "patch-*", ".mk", "", ".c", ".h", ".sh", ".txt", ".in", ".1", NULL,
};
static const unsigned pkgsrc_weights[] = {55, 8, 12, 5, 3, 3, 5, 6, 3};
static const struct profile_name pkgsrc_fixed[] = {
    {"Makefile", 0.90}, {"DESCR", 0.60}, {"PLIST", 0.55}, {"distinfo", 0.55}, {NULL, 0},
};

/* --- kernel -------------------------------------------------------------------------- */

/* Linux source tree: about 80,000 files in about 5,000 directories (16 per directory;
 * files_per_dir_mean is the draw's mean, the realised mean comes out ~10% lower), depth
 * up to 8 (max_depth 7 for directories, their files one deeper). Adapted: median
 * 5 KB (exp(8.52)) and sigma 1.45 give a mean of ~14 KB and 1.1-1.2 GB in all, as a
 * Linux 6.x checkout roughly has; the FAST 2009 sigma of 2.46 would give a far heavier tail
 * than source files have. The suffix mix approximates a 6.x tree (.c ~45%, .h ~32%, then
 * device trees, YAML bindings, .rst documentation): an estimate, not a fresh count. */
static const char *const kernel_suffixes[] = {
    ".c",    ".h",   ".S",  "",    ".rst", ".yaml", ".dts",
    ".dtsi", ".txt", ".sh", ".py", ".pl",  ".json", NULL,
};
static const unsigned kernel_weights[] = {
    420, 300, 15, 25, 45, 60, 30, 25, 10, 8, 4, 2, 6,
};
static const struct profile_name kernel_fixed[] = {
    {"Makefile", 0.70},
    {"Kconfig", 0.25},
    {NULL, 0},
};

/* --- mixed --------------------------------------------------------------------------- */

/* Home directories: many small files plus a few ISOs. The body keeps the FAST 2009 median
 * (mu = 9.48, 13 KB) but, adapted, sigma 1.6 truncated at 8 MiB instead of 2.46: with
 * 2.46 the 20,000 files alone would exceed 2 GiB. The tail is carried instead by a large
 * mode of 0.025% of the files (exactly 5 at scale 1; 0.1% would be 20 ISOs, several GB),
 * lognormal with median ~100 MiB (exp(18.5)), sigma 0.5, truncated at 600 MiB. tree.c
 * spreads the large files over their distribution evenly, so the total is 1.4-1.8 GB
 * whatever the seed (60 seeds measured), under 2 GiB. */
static const char *const mixed_suffixes[] = {
    ".jpg", ".png", ".txt", ".pdf", ".html", ".mp3",    ".doc", ".c",
    ".h",   ".py",  ".sh",  "",     ".iso",  ".tar.gz", NULL,
};
static const unsigned mixed_weights[] = {20, 8, 12, 6, 10, 6, 5, 8, 5, 4, 2, 10, 1, 3};

/* --- tiny ---------------------------------------------------------------------------- */

/* For tests and smoke runs: 1,000 files of median 4 KB (exp(8.32)), sigma 1.2, truncated
 * at 1 MiB; about 8 MB in all. */
static const char *const tiny_suffixes[] = {".c", ".h", ".txt", "", ".sh", NULL};
static const unsigned tiny_weights[] = {40, 30, 15, 10, 5};
static const struct profile_name tiny_fixed[] = {{"Makefile", 0.5}, {NULL, 0}};

const struct profile profile_builtin[] = {
    {
        .name = "pkgsrc",
        .summary = "~52,000 small files in many small directories, like the NetBSD pkgsrc tarball",
        .source = "shape of the pkgsrc tarball (category/package/{Makefile,DESCR,PLIST,"
                  "distinfo,patches/patch-*}); lognormal sizes (Agrawal et al., FAST 2007) "
                  "adapted to median 1.5 KB, sigma 1.0",
        .files = 52000,
        .size_mu = 7.31,
        .size_sigma = 1.0,
        .size_min = 0,
        .size_max = 512 << 10,
        .files_per_dir_mean = 5.0,
        .files_per_dir_sigma = 0.8,
        .subdirs_mean = 8.0,
        .max_depth = 3,
        .symlink_share = 0,
        .suffixes = pkgsrc_suffixes,
        .suffix_weights = pkgsrc_weights,
        .fixed_names = pkgsrc_fixed,
        .name_len_min = 4,
        .name_len_max = 14,
    },
    {
        .name = "kernel",
        .summary = "~80,000 files in ~5,000 directories, shaped like a Linux source tree",
        .source = "Linux 6.x source tree (file count, directories, depth, suffix mix); "
                  "lognormal sizes (Agrawal et al., FAST 2007; Impressions, FAST 2009) "
                  "adapted to median 5 KB, sigma 1.45, mean ~14 KB",
        .files = 80000,
        .size_mu = 8.52,
        .size_sigma = 1.45,
        .size_min = 0,
        .size_max = 16 << 20,
        .files_per_dir_mean = 18.0,
        .files_per_dir_sigma = 1.0,
        .subdirs_mean = 4.0,
        .max_depth = 7,
        .symlink_share = 0.0005,
        .suffixes = kernel_suffixes,
        .suffix_weights = kernel_weights,
        .fixed_names = kernel_fixed,
        .name_len_min = 3,
        .name_len_max = 16,
    },
    {
        .name = "mixed",
        .summary = "~20,000 small files plus a few ISO-sized ones, under 2 GiB",
        .source = "Impressions (Agrawal et al., FAST 2009) size by count, mu 9.48, sigma "
                  "adapted from 2.46 to 1.6 and truncated at 8 MiB; large mode of 0.025% "
                  "of the files, median ~100 MiB (ISOs), for the tail",
        .files = 20000,
        .size_mu = 9.48,
        .size_sigma = 1.6,
        .size_min = 0,
        .size_max = 8 << 20,
        .large_share = 0.00025,
        .large_mu = 18.5,
        .large_sigma = 0.5,
        .large_max = 600ull << 20,
        .files_per_dir_mean = 12.0,
        .files_per_dir_sigma = 1.2,
        .subdirs_mean = 4.0,
        .max_depth = 6,
        .symlink_share = 0.002,
        .suffixes = mixed_suffixes,
        .suffix_weights = mixed_weights,
        .name_len_min = 4,
        .name_len_max = 20,
    },
    {
        .name = "tiny",
        .summary = "~1,000 files, ~8 MB: for tests and smoke runs",
        .source = "small kernel-like tree; lognormal sizes (Agrawal et al., FAST 2007) "
                  "adapted to median 4 KB, sigma 1.2, truncated at 1 MiB",
        .files = 1000,
        .size_mu = 8.32,
        .size_sigma = 1.2,
        .size_min = 0,
        .size_max = 1 << 20,
        .files_per_dir_mean = 10.0,
        .files_per_dir_sigma = 0.8,
        .subdirs_mean = 3.0,
        .max_depth = 4,
        .symlink_share = 0.01,
        .suffixes = tiny_suffixes,
        .suffix_weights = tiny_weights,
        .fixed_names = tiny_fixed,
        .name_len_min = 3,
        .name_len_max = 12,
    },
    {.name = NULL},
};

const struct profile *profile_find(const char *name)
{
    if (!name)
        return NULL;
    for (const struct profile *p = profile_builtin; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

/* 1 if every character of s[0..n) is in [A-Za-z0-9.-] plus, if allow_us, '_'. */
static int name_chars_ok(const char *s, size_t n, int allow_us)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '-' || (allow_us && c == '_');
        if (!ok)
            return 0;
    }
    return 1;
}

/* Checks the suffix list: forms, characters, lengths, weights, and that no template's
 * literal prefix is a prefix of another's (which could make two names equal). */
static int check_suffixes(const struct profile *p)
{
    if (!p->suffixes || !p->suffixes[0])
        return error("profile %s: no suffixes", p->name);
    unsigned long total = 0;
    for (size_t i = 0; p->suffixes[i]; i++) {
        const char *s = p->suffixes[i];
        size_t n = strlen(s);
        if (i >= PROFILE_SUFFIXES_MAX)
            return error("profile %s: more than %d suffixes", p->name, PROFILE_SUFFIXES_MAX);
        if (n > PROFILE_SUFFIX_LEN_MAX)
            return error("profile %s: suffix \"%s\" is too long", p->name, s);
        const char *star = strchr(s, '*');
        if (star) {
            if (star != s + n - 1 || n < 2 || s[n - 2] != '-' || !name_chars_ok(s, n - 1, 0))
                return error("profile %s: template \"%s\" must be \"prefix-*\" without '_'",
                             p->name, s);
            for (size_t j = 0; p->suffixes[j]; j++) {
                const char *t = p->suffixes[j];
                if (j != i && strchr(t, '*') && strncmp(s, t, n - 1) == 0)
                    return error("profile %s: template \"%s\" is a prefix of \"%s\"", p->name, s,
                                 t);
            }
        } else if (n > 0 && (s[0] != '.' || !name_chars_ok(s, n, 1) || strchr(s, '/'))) {
            return error("profile %s: suffix \"%s\" must be empty or \".ext\"", p->name, s);
        }
        total += p->suffix_weights ? p->suffix_weights[i] : 1;
    }
    if (total == 0)
        return error("profile %s: suffix weights add up to 0", p->name);
    return 0;
}

/* Checks fixed names: characters, no '_' or '-', distinct, at most 32 of them. */
static int check_fixed(const struct profile *p)
{
    if (!p->fixed_names)
        return 0;
    size_t i;
    for (i = 0; p->fixed_names[i].name; i++) {
        const struct profile_name *f = &p->fixed_names[i];
        size_t n = strlen(f->name);
        if (i >= 32)
            return error("profile %s: more than 32 fixed names", p->name);
        if (n == 0 || n > PROFILE_NAME_LEN_MAX || !name_chars_ok(f->name, n, 0) ||
            strchr(f->name, '-') || strcmp(f->name, ".") == 0 || strcmp(f->name, "..") == 0)
            return error("profile %s: bad fixed name \"%s\"", p->name, f->name);
        if (!(f->share >= 0 && f->share <= 1))
            return error("profile %s: share of \"%s\" not in [0, 1]", p->name, f->name);
        for (size_t j = 0; j < i; j++)
            if (strcmp(p->fixed_names[j].name, f->name) == 0)
                return error("profile %s: fixed name \"%s\" twice", p->name, f->name);
    }
    return 0;
}

/* A cumulative table: shares in [0, 1], non-decreasing, ending at 1. 0 or -1 (no message). */
static int check_cdf(const double *cdf)
{
    double prev = 0;
    for (int i = 0; i < PROFILE_HIST_BUCKETS; i++) {
        if (!(cdf[i] >= prev && cdf[i] <= 1))
            return -1;
        prev = cdf[i];
    }
    return prev == 1 ? 0 : -1;
}

int profile_check(const struct profile *p)
{
    if (!p || !p->name)
        return error("profile without a name");
    if (!p->summary || !p->source)
        return error("profile %s: summary and source are required", p->name);
    if (p->files == 0)
        return error("profile %s: files must be > 0", p->name);
    if (!isfinite(p->size_mu) || !(p->size_sigma >= 0 && p->size_sigma < 10))
        return error("profile %s: bad size_mu/size_sigma", p->name);
    if (p->size_max < p->size_min || p->size_max > (1ull << 50))
        return error("profile %s: bad size_min/size_max", p->name);
    if (!(p->large_share >= 0 && p->large_share < 1))
        return error("profile %s: large_share not in [0, 1)", p->name);
    if (p->large_share > 0 &&
        (!isfinite(p->large_mu) || !(p->large_sigma >= 0 && p->large_sigma < 10) ||
         p->large_max == 0 || p->large_max > (1ull << 50)))
        return error("profile %s: bad large-file mode", p->name);
    if (!(p->files_per_dir_mean >= 1 && p->files_per_dir_mean < 1e6) ||
        !(p->files_per_dir_sigma >= 0 && p->files_per_dir_sigma < 5))
        return error("profile %s: bad files-per-directory distribution", p->name);
    if (!(p->subdirs_mean >= 1 && p->subdirs_mean < 1e4))
        return error("profile %s: subdirs_mean must be in [1, 10000)", p->name);
    if (p->max_depth > PROFILE_MAX_DEPTH)
        return error("profile %s: max_depth over %d", p->name, PROFILE_MAX_DEPTH);
    if (!(p->symlink_share >= 0 && p->symlink_share < 1))
        return error("profile %s: symlink_share not in [0, 1)", p->name);
    if (p->name_len_min < 3 || p->name_len_max < p->name_len_min ||
        p->name_len_max > PROFILE_NAME_LEN_MAX)
        return error("profile %s: name lengths must be within [3, %d]", p->name,
                     PROFILE_NAME_LEN_MAX);
    if (check_suffixes(p) < 0 || check_fixed(p) < 0)
        return -1;
    if (p->size_cdf && p->large_share > 0)
        return error("profile %s: size_cdf and a large-file mode exclude each other", p->name);
    if (p->size_cdf && (check_cdf(p->size_cdf) < 0 || !(fabs(p->size_tilt) <= 64)))
        return error("profile %s: bad size_cdf or size_tilt", p->name);
    if (p->files_per_dir_cdf && check_cdf(p->files_per_dir_cdf) < 0)
        return error("profile %s: bad files_per_dir_cdf", p->name);
    return 0;
}
