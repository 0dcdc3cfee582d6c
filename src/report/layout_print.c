/* layout_print.c — what `fsbench layout` prints: where a tree's blocks lie (extents per
 * file, the layout score, directory locality) as a short table, the free space's
 * fragmentation under it, and the same figures as a JSON file. Presents only:
 * measure/layout.c and measure/freefrag.c compute.
 */
#include "report/layout_print.h"

#include <jansson.h>
#include <stdio.h>

#include "base/err.h"
#include "base/outfile.h"
#include "base/units.h"

/* "%.<prec>f <unit>" into buf, or "n/a" for a negative (unknown) value. */
static const char *layout_num(char *buf, size_t len, double v, int prec, const char *unit)
{
    if (v < 0)
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, "%.*f%s%s", prec, v, unit[0] ? " " : "", unit);
    return buf;
}

void layout_print_text(const char *dir, const struct layout_result *r)
{
    static const char *const hist_label[LAYOUT_HIST_N] = {"1 extent", "2-4 extents", "5-16 extents",
                                                          ">16 extents"};
    char a[64], b[64];
    printf("layout of %s (%s, %llu-byte blocks)\n", dir, r->fstype,
           (unsigned long long)r->fs_block_size);
    printf("  files            %14llu  (%llu empty, %llu single-block, %llu not located, "
           "%llu unreadable)\n",
           (unsigned long long)r->files, (unsigned long long)r->files_empty,
           (unsigned long long)r->files_single_block, (unsigned long long)r->files_excluded,
           (unsigned long long)r->files_unreadable);
    printf("  extents          %14llu  (%.2f per file, %llu not located)\n",
           (unsigned long long)r->extents, r->extents_per_file,
           (unsigned long long)r->extents_excluded);
    for (unsigned i = 0; i < LAYOUT_HIST_N; i++)
        printf("    %-14s %14llu files\n", hist_label[i], (unsigned long long)r->extents_hist[i]);
    printf("  blocks           %14llu\n", (unsigned long long)r->blocks);
    if (r->extents_unwritten)
        printf("  unwritten        %14llu  extents (%llu files, %llu blocks; preallocated)\n",
               (unsigned long long)r->extents_unwritten, (unsigned long long)r->files_unwritten,
               (unsigned long long)r->blocks_unwritten);
    printf("  layout score     %14s  (%llu of %llu block pairs contiguous)\n",
           layout_num(a, sizeof a, r->score, 4, ""), (unsigned long long)r->contiguous,
           (unsigned long long)r->pairs);
    printf("  directories      %14llu  (%llu with 2+ located files%s)\n",
           (unsigned long long)r->dirs, (unsigned long long)r->dirs_measured,
           r->mounts_skipped ? ", other file systems skipped" : "");
    printf("  dir spread       %14s  (median of max - min first block)\n",
           layout_num(a, sizeof a, r->dir_spread_median_blocks, 0, "blocks"));
    printf("  dir gaps         %14s  (median of mean distance between consecutive files)\n",
           layout_num(a, sizeof a, r->dir_gap_median_blocks, 1, "blocks"));
    if (r->group_blocks)
        snprintf(b, sizeof b, "%llu-block groups, %s", (unsigned long long)r->group_blocks,
                 r->group_source);
    else
        snprintf(b, sizeof b, "group size n/a on %s", r->fstype);
    printf("  groups spanned   %14s  (median per directory; %s)\n",
           layout_num(a, sizeof a, r->dir_groups_median, 1, ""), b);
}

/* The free space's fragmentation: the summary, then the histogram's non-empty buckets. */
void layout_print_freefrag(const struct freefrag *f)
{
    char buf[300], lo[32];
    printf("  free space       %s\n", freefrag_summary(f, buf, sizeof buf));
    for (unsigned b = 0; f->known && b < FREEFRAG_BUCKETS; b++)
        if (f->count[b])
            printf("    from %-9s %14llu extents, %s\n",
                   units_bytes(lo, sizeof lo, b ? (double)(4096ull << b) : 0),
                   (unsigned long long)f->count[b], units_bytes(buf, sizeof buf, (double)f->bytes_in[b]));
}

/* The free-space histogram as JSON (null when unknown). */
static json_t *freefrag_json(const struct freefrag *f)
{
    if (!f->known)
        return json_null();
    json_t *hist = json_array();
    for (unsigned b = 0; b < FREEFRAG_BUCKETS; b++)
        if (f->count[b])
            json_array_append_new(hist, json_pack("{sIsIsI}", "from", (json_int_t)(b ? 4096ull << b : 0),
                                                  "extents", (json_int_t)f->count[b], "bytes",
                                                  (json_int_t)f->bytes_in[b]));
    return json_pack("{sssIsIsIso}", "source", f->source, "extents", (json_int_t)f->extents,
                     "bytes", (json_int_t)f->bytes, "largest", (json_int_t)f->largest,
                     "histogram", hist);
}

/* v, or JSON null for a negative (unknown) value. */
static json_t *layout_json_num(double v)
{
    return v < 0 ? json_null() : json_real(v);
}

/* Writes r as a JSON object to path: 0 or -1 after error(). */
int layout_print_json(const char *path, const char *dir, const struct layout_result *r,
                      const struct freefrag *ff)
{
    json_t *hist = json_pack("{sIsIsIsI}", "1", (json_int_t)r->extents_hist[0], "2-4",
                             (json_int_t)r->extents_hist[1], "5-16", (json_int_t)r->extents_hist[2],
                             ">16", (json_int_t)r->extents_hist[3]);
    json_t *o = json_pack(
        "{ss ss sI sb sI sI sI sI sI sI sI sI sI sI so sf sI sI sI so sI sI sI so so so sI ss}", "dir", dir,
        "fstype", r->fstype, "fs_block_size", (json_int_t)r->fs_block_size, "supported",
        r->supported, "files", (json_int_t)r->files, "files_empty", (json_int_t)r->files_empty,
        "files_single_block", (json_int_t)r->files_single_block, "files_excluded",
        (json_int_t)r->files_excluded, "files_unreadable", (json_int_t)r->files_unreadable,
        "extents", (json_int_t)r->extents, "extents_excluded", (json_int_t)r->extents_excluded,
        "extents_unwritten", (json_int_t)r->extents_unwritten, "blocks_unwritten",
        (json_int_t)r->blocks_unwritten, "files_unwritten", (json_int_t)r->files_unwritten,
        "extents_hist", hist, "extents_per_file", r->extents_per_file, "blocks",
        (json_int_t)r->blocks, "pairs", (json_int_t)r->pairs, "contiguous",
        (json_int_t)r->contiguous, "score", layout_json_num(r->score), "dirs", (json_int_t)r->dirs,
        "dirs_measured", (json_int_t)r->dirs_measured, "mounts_skipped",
        (json_int_t)r->mounts_skipped, "dir_spread_median_blocks",
        layout_json_num(r->dir_spread_median_blocks), "dir_gap_median_blocks",
        layout_json_num(r->dir_gap_median_blocks), "dir_groups_median",
        layout_json_num(r->dir_groups_median), "group_blocks", (json_int_t)r->group_blocks,
        "group_source", r->group_source);
    if (!o)
        return error("layout: cannot build the JSON document");
    json_object_set_new(o, "free_space", freefrag_json(ff));
    struct outfile of;
    if (outfile_open(&of, path, "layout") < 0) {
        json_decref(o);
        return -1;
    }
    int rc = json_dumpf(o, of.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (rc < 0) {
        outfile_discard(&of);
        return error("layout: cannot write %s", path);
    }
    fputc('\n', of.f);
    return outfile_commit(&of);
}
