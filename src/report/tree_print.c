/* tree_print.c — what `fsbench tree stats` prints: a tree profile's totals (files,
 * directories, symlinks, bytes, depth, sizes) with a histogram of file sizes, or an
 * archive's totals. Prints only: tree/ measures.
 */
#include "report/tree_print.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* "   4 KiB -    8 KiB": the sizes of bucket i of the histogram ("0 B" for i 0). */
static void bucket_label(char *buf, size_t len, unsigned i)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    if (i == 0) {
        snprintf(buf, len, "0 B");
        return;
    }
    unsigned lo = i - 1; /* [2^lo, 2^i) */
    snprintf(buf, len, "%4u %-3s - %4u %-3s", 1u << (lo % 10), unit[lo / 10], 1u << (i % 10),
             unit[i / 10]);
}

void tree_print_archive(const char *path, const struct tarent_totals *tt)
{
    printf("archive    %s\n", path);
    printf("entries    %llu\n", (unsigned long long)tt->entries);
    printf("files      %llu (and %llu hard links)\n", (unsigned long long)tt->files,
           (unsigned long long)tt->hardlinks);
    printf("dirs       %llu\n", (unsigned long long)tt->dirs);
    printf("symlinks   %llu\n", (unsigned long long)tt->symlinks);
    printf("bytes      %llu (%.1f MB)\n", (unsigned long long)tt->bytes,
           (double)tt->bytes / 1e6);
    printf("refused    %llu\n", (unsigned long long)tt->refused);
}

void tree_print_totals(const struct tree_spec *spec, const struct tree_totals *t)
{
    printf("profile    %s x%g seed %llu\n", spec->prof->name, spec->scale,
           (unsigned long long)spec->seed);
    printf("files      %llu\n", (unsigned long long)t->files);
    printf("dirs       %llu\n", (unsigned long long)t->dirs);
    printf("symlinks   %llu\n", (unsigned long long)t->symlinks);
    printf("bytes      %llu (%.1f MB)\n", (unsigned long long)t->bytes, (double)t->bytes / 1e6);
    printf("max depth  %u\n", t->max_depth);
    printf("largest    %llu bytes\n", (unsigned long long)t->max_file_size);
    printf("mean size  %.0f bytes\n", t->files ? (double)t->bytes / (double)t->files : 0.0);
    printf("file sizes:\n");
    uint64_t most = 1;
    for (unsigned i = 0; i < TREE_HIST_BUCKETS; i++)
        if (t->size_hist[i] > most)
            most = t->size_hist[i];
    for (unsigned i = 0; i < TREE_HIST_BUCKETS; i++) {
        if (!t->size_hist[i])
            continue;
        char label[48], bar[41];
        bucket_label(label, sizeof label, i);
        size_t w = (size_t)((double)t->size_hist[i] * 40 / (double)most + 0.5);
        memset(bar, '#', w);
        bar[w] = '\0';
        printf("  %-19s %10llu %6.2f%% %s\n", label, (unsigned long long)t->size_hist[i],
               100.0 * (double)t->size_hist[i] / (double)(t->files ? t->files : 1), bar);
    }
}
