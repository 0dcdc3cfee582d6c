/* ageprof_builtin.c — the built-in aging profiles, each with its published source.
 *
 * The tables are fsbench's own: bucket shares read off the figures of the papers named
 * (rounded, and for sizes and ages regrouped into fsbench's buckets), not copied tables.
 * "turnover" and the operation mix are fsbench's choices, stated as such: the studies
 * measure snapshots, not the operations between them.
 */
#include "tree/ageprof.h"

#define K 1024ull
#define M (1024ull * 1024)
#define DAY 86400ull

/* Agrawal, Bolosky, Douceur, Lorch, "A Five-Year Study of File-System Metadata", FAST 2007:
 * the 2004 snapshot of ~60,000 Windows desktop file systems. File sizes by count: a
 * log-normal-like hump centred near 4 KiB (few empty files, a long tail above 1 MiB);
 * modification ages: a median of some months, a fifth older than a year; files by namespace
 * depth: most between depth 3 and 8, the mode near 5-6. File systems about half full. */
static const struct ageprof agrawal =
    {
        .name = "agrawal",
        .source = "Agrawal et al., FAST 2007, 'A Five-Year Study of File-System Metadata' "
                  "(2004 snapshot: sizes, modification ages, depths by count; shares fsbench's "
                  "reading of its figures)",
        .dist =
            {
                [AGEPROF_SIZE] = {10,
                                  {0, 1, 512, 2 * K, 8 * K, 32 * K, 128 * K, 512 * K, 2 * M, 8 * M},
                                  {0.015, 0.085, 0.14, 0.22, 0.20, 0.15, 0.10, 0.06, 0.02, 0.01}},
                [AGEPROF_AGE] = {6,
                                 {0, DAY, 7 * DAY, 30 * DAY, 90 * DAY, 365 * DAY},
                                 {0.03, 0.07, 0.15, 0.20, 0.30, 0.25}},
                [AGEPROF_DEPTH] = {8,
                                   {1, 2, 3, 4, 5, 6, 7, 9},
                                   {0.02, 0.05, 0.10, 0.15, 0.18, 0.18, 0.17, 0.15}},
            },
        .mix = {0.36, 0.24, 0.14, 0.06, 0.06, 0.14},
        .utilization = 0.5,
        .fanout = 6,
        .files_per_dir = 48,
        .turnover_s = 90 * DAY,
};

/* Small files, as the Geriatrix paper ages with (Kadekodi, Nagarajan, Ganger, Gibson,
 * "Geriatrix: Aging what you see and what you don't see. A file system aging approach for
 * modern storage systems", USENIX ATC 2018): a utilization target held while the size,
 * age and depth distributions converge; here a profile where every file is below 64 KiB
 * (the mail-spool / source-tree case), shallow directories, ages within about a quarter
 * year. Shares are fsbench's choice in that spirit, not a table of the paper. */
static const struct ageprof smallfiles = {
    .name = "smallfiles",
    .source = "fsbench's small-file profile after the method of Kadekodi et al., ATC 2018 "
              "(Geriatrix: hold a utilization, converge sizes, ages and depths)",
    .dist =
        {
            [AGEPROF_SIZE] = {7,
                              {0, 1, 1 * K, 4 * K, 8 * K, 16 * K, 32 * K},
                              {0.02, 0.10, 0.25, 0.25, 0.18, 0.12, 0.08}},
            [AGEPROF_AGE] = {5,
                             {0, DAY, 7 * DAY, 30 * DAY, 90 * DAY},
                             {0.03, 0.15, 0.37, 0.30, 0.15}},
            [AGEPROF_DEPTH] = {4, {1, 2, 3, 4}, {0.10, 0.30, 0.40, 0.20}},
        },
    .mix = {0.40, 0.30, 0.10, 0.05, 0.05, 0.10},
    .utilization = 0.5,
    .fanout = 8,
    .files_per_dir = 64,
    .turnover_s = 30 * DAY,
};

/* The same small files without ages or depth to speak of: converges fastest; for tests
 * and quick checks. */
static const struct ageprof tiny = {
    .name = "tiny",
    .source = "fsbench's test profile: small files only, shallow, no source",
    .dist =
        {
            [AGEPROF_SIZE] = {4, {0, 1 * K, 4 * K, 16 * K}, {0.25, 0.35, 0.25, 0.15}},
            [AGEPROF_AGE] = {2, {0, 7 * DAY}, {0.5, 0.5}},
            [AGEPROF_DEPTH] = {2, {1, 2}, {0.3, 0.7}},
        },
    .mix = {0.40, 0.30, 0.10, 0.05, 0.05, 0.10},
    .utilization = 0.4,
    .fanout = 4,
    .files_per_dir = 64,
    .turnover_s = 14 * DAY,
};

const struct ageprof *const ageprof_builtins[] = {&agrawal, &smallfiles, &tiny, NULL};
