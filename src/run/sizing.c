/* sizing.c — a tree's scale from a size in bytes (--size 10G) or from the machine
 * (--size auto); see sizing.h for the precision.
 *
 * Bytes grow with the file count (tree.c widens every level as the scale grows), so the
 * scale is found by proportion: measure the tree at a scale, multiply the scale by
 * target / measured, and repeat until within 1% (at most SIZE_ITER times). Measuring
 * streams the tree without writing it; a tree over TREE_ESTIMATE_EXACT files is not
 * streamed but estimated from samples of itself (tree_estimate.h), so sizing a 1 TB tree
 * costs a second, not the minutes streaming 130 million entries would.
 *
 * The --size auto rule: the question the seeds ask ("test set size vs physmem?") has two
 * answers. If cold-read phases (walk, statwalk, read, copy) run and the caches can be
 * dropped before them (root, and a dropcaches, umount or remount phase in the scenario),
 * the page cache holds nothing of the tree when it is read, so the tree only needs to make
 * the phases long enough to time: max(256 MiB, RAM/16). If they cannot be dropped, only a
 * tree well over RAM keeps the reads cold: 2 x RAM, so at least half of it cannot be
 * cached. Without cold reads, the modest size is enough. Whatever the rule asks, the
 * tree's on-disk estimate (blocks of 4 KiB; twice that with a copy phase) is capped at the
 * target's free space less a margin of max(10%, min(256 MiB, half)), and the reasoning
 * says so.
 */
#include "run/sizing.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/err.h"
#include "os/machine.h"
#include "phase/workload.h"
#include "target/target.h"
#include "tree/tree_estimate.h"

#define SIZE_ITER 8
#define SIZE_CLOSE 0.01
#define SIZE_MAX_FILES 1e12 /* below tree.c's limit of 2^40 files */

int sizing_measure(const struct tree_spec *base, uint64_t *bytes, uint64_t *disk)
{
    struct tree_gen *g = tree_open(base);
    if (!g)
        return -1;
    uint64_t b = 0, d = SIZING_BLOCK; /* the root */
    struct tree_entry e;
    while (tree_next(g, &e)) {
        if (e.kind == TREE_FILE) {
            b += e.size;
            d += (e.size + SIZING_BLOCK - 1) / SIZING_BLOCK * SIZING_BLOCK;
        } else if (e.kind == TREE_DIR) {
            d += SIZING_BLOCK;
        }
    }
    tree_close(g);
    *bytes = b;
    *disk = d;
    return 0;
}

/* Bytes and disk estimate at a scale: measured (streamed) up to TREE_ESTIMATE_EXACT files,
 * estimated from samples of that very tree above (tree_estimate.h), in bounded time. */
static int estimate(const struct tree_spec *base, double scale, double *bytes, double *disk)
{
    double files = (double)base->prof->files * scale;
    if (files > SIZE_MAX_FILES)
        return error("tree %s: scale %g exceeds %g files", base->prof->name, scale,
                     SIZE_MAX_FILES);
    struct tree_spec sp = {.prof = base->prof, .scale = scale, .seed = base->seed};
    struct tree_estimate e;
    if (tree_estimate(&sp, SIZING_BLOCK, &e) < 0)
        return -1;
    *bytes = (double)e.bytes;
    *disk = (double)e.disk;
    return 0;
}

int sizing_scale_for_bytes(const struct tree_spec *base, uint64_t bytes, double *scale)
{
    if (!base || !base->prof)
        return error("--size needs a tree profile (not an archive)");
    if (bytes == 0)
        return error("--size must be more than 0 bytes");
    double target = (double)bytes, nf = (double)base->prof->files;
    double s = nf > 200000 ? 200000 / nf : 1.0, best = s, best_err = INFINITY;
    for (int i = 0; i < SIZE_ITER; i++) {
        double b, d;
        if (estimate(base, s, &b, &d) < 0)
            return -1;
        if (b <= 0)
            return error("tree %s makes no bytes at scale %g: --size cannot size it",
                         base->prof->name, s);
        double err = fabs(b / target - 1);
        if (err < best_err) {
            best_err = err;
            best = s;
        }
        if (err <= SIZE_CLOSE || (nf * s <= 1 && b > target))
            break;
        s *= target / b;
        if (nf * s < 1)
            s = 1 / nf; /* one file is the least a tree has */
    }
    *scale = best;
    return 0;
}

/* "2.0 TiB", "1.5 GiB", "300 MiB". */
static const char *human(double bytes, char *buf, size_t len)
{
    if (bytes >= (double)(1ull << 40))
        snprintf(buf, len, "%.1f TiB", bytes / (double)(1ull << 40));
    else if (bytes >= (double)(1ull << 30))
        snprintf(buf, len, "%.1f GiB", bytes / (double)(1ull << 30));
    else
        snprintf(buf, len, "%.0f MiB", bytes / (double)(1ull << 20));
    return buf;
}

int sizing_auto(const struct tree_spec *base, bool can_drop, bool has_dropcaches,
                bool cold_phases, uint64_t ram, uint64_t free_bytes, double *scale, char *why,
                size_t len)
{
    if (!base || !base->prof)
        return error("--size auto needs a tree profile (not an archive)");
    if (ram == 0)
        return error("--size auto: cannot tell how much RAM this machine has");
    char r[32], t[32], f[32], mg[32], cp[32];
    double modest = fmax((double)SIZING_MODEST_MIN, (double)ram / 16), want;
    const char *modest_why = (double)ram / 16 >= (double)SIZING_MODEST_MIN ? "RAM/16"
                                                                             : "the minimum";
    int n;
    bool need_big = cold_phases && !(can_drop && has_dropcaches);
    if (need_big) {
        want = 2.0 * (double)ram;
        n = snprintf(why, len, "RAM %s, cold reads but caches cannot be dropped (%s%s%s): "
                               "tree of %s (2 x RAM) so the page cache cannot hold it",
                     human((double)ram, r, sizeof r), can_drop ? "" : "not root",
                     !can_drop && !has_dropcaches ? ", " : "",
                     has_dropcaches ? "" : "no dropcaches in scenario",
                     human(want, t, sizeof t));
    } else if (cold_phases) {
        want = modest;
        n = snprintf(why, len, "RAM %s, caches can be dropped (root, dropcaches in scenario): "
                               "tree of %s (%s) is enough",
                     human((double)ram, r, sizeof r), human(want, t, sizeof t), modest_why);
    } else {
        want = modest;
        n = snprintf(why, len, "RAM %s, no phase reads the tree cold: tree of %s (%s) is enough",
                     human((double)ram, r, sizeof r), human(want, t, sizeof t), modest_why);
    }
    double s;
    if (sizing_scale_for_bytes(base, (uint64_t)want, &s) < 0)
        return -1;
    if (free_bytes) {
        double fr = (double)free_bytes;
        double margin = fmax(fr / 10, fmin((double)(256ull << 20), fr / 2));
        double avail = fr - margin, b = 0, d = 0;
        int capped = 0;
        for (int i = 0; i < 4; i++) {
            if (estimate(base, s, &b, &d) < 0)
                return -1;
            if (d <= avail * 1.001)
                break;
            s *= avail / d;
            capped = 1;
        }
        if (capped && n >= 0 && (size_t)n < len) {
            int m = snprintf(why + n, len - (size_t)n, "; capped at %s (%s on disk) by the free "
                             "space for it on the target (%s less a %s margin)",
                             human(b, t, sizeof t), human(d, cp, sizeof cp),
                             human(fr, f, sizeof f), human(margin, mg, sizeof mg));
            if (m > 0)
                n += m;
            if (need_big && b < (double)ram && n >= 0 && (size_t)n < len)
                snprintf(why + n, len - (size_t)n,
                         ": smaller than RAM, cold reads will partly come from the page cache");
        }
    }
    *scale = s;
    return 0;
}

void sizing_age(const struct phase_params *p, uint64_t fs_bytes, uint64_t avail_bytes,
                struct sizing_age *a)
{
    double want = p ? p->age_written : WL_DEFAULT_AGE_WRITTEN;
    double full = p ? p->age_fullness : WL_DEFAULT_AGE_FULLNESS;
    memset(a, 0, sizeof *a);
    a->fs_bytes = fs_bytes;
    a->avail_bytes = avail_bytes;
    a->safety = !(want > 0 && want < WL_AGE_SAFETY);
    a->written_x = a->safety ? WL_AGE_SAFETY : want;
    a->written = (uint64_t)(a->written_x * (double)fs_bytes);
    a->fullness = full > 0 && full < 1 ? full : 0;
    /* phase_age stops once less than (1 - fullness) x the size is free */
    double floor_free = a->fullness > 0 ? (1 - a->fullness) * (double)fs_bytes : 0;
    double peak = (double)avail_bytes - floor_free;
    a->peak = peak > 0 ? (uint64_t)peak : 0;
    if (a->peak > a->written)
        a->peak = a->written;
}

int sizing_age_at(const struct phase_params *p, const char *dir, struct sizing_age *a)
{
    struct statvfs sv;
    if (statvfs(dir, &sv) < 0)
        return -1;
    sizing_age(p, (uint64_t)sv.f_blocks * sv.f_frsize, (uint64_t)sv.f_bavail * sv.f_frsize, a);
    return 0;
}

const char *sizing_age_text(const struct sizing_age *a, char *buf, size_t len)
{
    char w[32], fs[32], pk[32], av[32];
    human((double)a->written, w, sizeof w);
    human((double)a->fs_bytes, fs, sizeof fs);
    human((double)a->peak, pk, sizeof pk);
    human((double)a->avail_bytes, av, sizeof av);
    if (a->fullness > 0)
        snprintf(buf, len,
                 "writes up to %s (%gx its %s%s) and fills it to %.0f%% full (up to %s of its %s "
                 "free)",
                 w, a->written_x, fs, a->safety ? ": the safety limit, age-written is 0" : "",
                 a->fullness * 100, pk, av);
    else
        snprintf(buf, len,
                 "writes up to %s (%gx its %s%s) and fills it until it is full (all of its %s "
                 "free: age-fullness is 0)",
                 w, a->written_x, fs, a->safety ? ": the safety limit, age-written is 0" : "", av);
    return buf;
}

void sizing_phases(const struct phase_def *const *phases, size_t n, bool *has_dropcaches,
                   bool *cold_phases, unsigned *copies)
{
    static const char *const drops[] = {"dropcaches", "umount", "remount", NULL};
    static const char *const cold[] = {"walk", "statwalk", "read", "copy", NULL};
    *has_dropcaches = *cold_phases = false;
    *copies = 1;
    for (size_t i = 0; phases && i < n; i++) {
        for (size_t j = 0; drops[j]; j++)
            if (!strcmp(phases[i]->name, drops[j]))
                *has_dropcaches = true;
        for (size_t j = 0; cold[j]; j++)
            if (!strcmp(phases[i]->name, cold[j]))
                *cold_phases = true;
        if (!strcmp(phases[i]->name, "copy"))
            *copies = 2;
    }
}

bool sizing_writes_tree(const struct phase_def *const *phases, size_t n)
{
    static const char *const writers[] = {"extract", "createsync", "fsyncstorm", NULL};
    for (size_t i = 0; phases && i < n; i++)
        for (size_t j = 0; writers[j]; j++)
            if (!strcmp(phases[i]->name, writers[j]))
                return true;
    return false;
}

uint64_t sizing_ram(void)
{
    return os_ram_usable();
}

int sizing_apply(const char *arg, struct tree_spec *spec, const struct phase_def *const *phases,
                 size_t nphases, const char *dir, uint64_t image_bytes)
{
    if (!spec->prof)
        return error("--size needs a tree profile or shape, not an archive"), EXIT_USAGE;
    if (strcmp(arg, "auto") != 0) {
        uint64_t bytes;
        if (target_parse_size(arg, &bytes) < 0)
            return error("--size: '%s' is not a size (e.g. 500M, 10G) or 'auto'", arg),
                   EXIT_USAGE;
        return sizing_scale_for_bytes(spec, bytes, &spec->scale) < 0 ? EXIT_USAGE : 0;
    }
    bool drops, cold;
    unsigned copies;
    sizing_phases(phases, nphases, &drops, &cold, &copies);
    uint64_t free_bytes = image_bytes;
    if (!free_bytes) {
        const char *d = dir ? dir : getenv("TMPDIR");
        if (!d || !*d)
            d = "/tmp";
        struct statvfs sv;
        if (statvfs(d, &sv) < 0)
            return error_errno("--size auto: cannot read the free space of %s", d),
                   EXIT_RUN_FAILED;
        free_bytes = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
    }
    char why[512];
    if (sizing_auto(spec, geteuid() == 0, drops, cold, sizing_ram(), free_bytes / copies,
                    &spec->scale, why, sizeof why) < 0)
        return EXIT_RUN_FAILED;
    inform("--size auto: %s (scale %.4g)", why, spec->scale);
    return 0;
}
