/* cmd_tree.c — `fsbench tree make PROFILE DIR` writes a tree without timing it (to tar it, or
 * to compare with other tools); `fsbench tree stats PROFILE` streams a tree without writing
 * anything and prints its files, directories, bytes and size histogram.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "err.h"
#include "measure.h"
#include "phase.h"
#include "tree.h"

static void tree_usage(FILE *out)
{
    fprintf(out, "usage: fsbench tree make PROFILE DIR [--scale X] [--seed N]\n"
                 "       fsbench tree stats PROFILE [--scale X] [--seed N]\n");
}

/* Parses "PROFILE [DIR] --scale --seed" after the verb; 0 or an exit status. */
static int parse_spec(int argc, char **argv, struct tree_spec *spec, const char **pos,
                      int npos)
{
    static const struct option opts[] = {
        {"scale", required_argument, NULL, 's'},
        {"seed", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    unsigned long long seed = 1;
    double scale = 1;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            if (cli_parse_positive(optarg, &scale) < 0)
                return error("--scale: '%s' is not a positive number", optarg), EXIT_USAGE;
            break;
        case 'S':
            if (cli_parse_u64(optarg, &seed) < 0)
                return error("--seed: '%s' is not a whole number", optarg), EXIT_USAGE;
            break;
        case 'h': tree_usage(stdout); return -1;
        default: tree_usage(stderr); return EXIT_USAGE;
        }
    }
    if (argc - optind != npos) {
        tree_usage(stderr);
        return EXIT_USAGE;
    }
    for (int i = 0; i < npos; i++)
        pos[i] = argv[optind + i];
    spec->prof = profile_find(pos[0]);
    if (!spec->prof)
        return error("unknown profile '%s' (see 'fsbench list')", pos[0]), EXIT_USAGE;
    spec->scale = scale;
    spec->seed = seed;
    return 0;
}

static int tree_make(int argc, char **argv)
{
    struct tree_spec spec;
    const char *pos[2];
    int rc = parse_spec(argc, argv, &spec, pos, 2);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const char *dir = pos[1];
    if (mkdir(dir, 0755) < 0 && errno != EEXIST)
        return error_errno("cannot create %s", dir), EXIT_RUN_FAILED;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return error_errno("cannot open %s", dir), EXIT_RUN_FAILED;
    /* An empty directory has link count 2 on most file systems; check by reading it. */
    int dfd = dup(fd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    int entries = 0;
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)))
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                entries++;
        closedir(d);
    }
    if (entries) {
        close(fd);
        return error("directory %s is not empty", dir), EXIT_USAGE;
    }
    struct opstats *ops = calloc(1, sizeof *ops);
    if (!ops) {
        close(fd);
        return error("out of memory"), EXIT_RUN_FAILED;
    }
    struct eng_worker w = {.st = ops};
    struct phase_result res = {0};
    struct phase_ctx ctx = {.eng = &engine_posix, .w = &w, .ws_fd = fd, .tree = &spec,
                            .res = &res};
    uint64_t t0 = meas_now_ns();
    rc = phase_extract_into(&ctx, fd);
    double secs = (double)(meas_now_ns() - t0) / 1e9;
    close(fd);
    free(ops);
    if (rc < 0)
        return error("tree make: %s", res.note), EXIT_RUN_FAILED;
    printf("wrote %llu files, %llu dirs, %llu symlinks to %s in %.2f s\n",
           (unsigned long long)res.files, (unsigned long long)res.dirs,
           (unsigned long long)res.symlinks, dir, secs);
    return EXIT_OK;
}

static void print_bucket_label(char *buf, size_t len, unsigned i)
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

static int tree_stats(int argc, char **argv)
{
    struct tree_spec spec;
    const char *pos[1];
    int rc = parse_spec(argc, argv, &spec, pos, 1);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    struct tree_totals t;
    if (tree_measure(&spec, &t) < 0)
        return EXIT_RUN_FAILED;
    printf("profile    %s x%g seed %llu\n", spec.prof->name, spec.scale,
           (unsigned long long)spec.seed);
    printf("files      %llu\n", (unsigned long long)t.files);
    printf("dirs       %llu\n", (unsigned long long)t.dirs);
    printf("symlinks   %llu\n", (unsigned long long)t.symlinks);
    printf("bytes      %llu (%.1f MB)\n", (unsigned long long)t.bytes, (double)t.bytes / 1e6);
    printf("max depth  %u\n", t.max_depth);
    printf("largest    %llu bytes\n", (unsigned long long)t.max_file_size);
    printf("mean size  %.0f bytes\n", t.files ? (double)t.bytes / (double)t.files : 0.0);
    printf("file sizes:\n");
    uint64_t most = 1;
    for (unsigned i = 0; i < TREE_HIST_BUCKETS; i++)
        if (t.size_hist[i] > most)
            most = t.size_hist[i];
    for (unsigned i = 0; i < TREE_HIST_BUCKETS; i++) {
        if (!t.size_hist[i])
            continue;
        char label[48], bar[41];
        print_bucket_label(label, sizeof label, i);
        size_t w = (size_t)((double)t.size_hist[i] * 40 / (double)most + 0.5);
        memset(bar, '#', w);
        bar[w] = '\0';
        printf("  %-19s %10llu %6.2f%% %s\n", label, (unsigned long long)t.size_hist[i],
               100.0 * (double)t.size_hist[i] / (double)(t.files ? t.files : 1), bar);
    }
    return EXIT_OK;
}

int cmd_tree(int argc, char **argv)
{
    if (argc < 2) {
        tree_usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "make"))
        return tree_make(argc - 1, argv + 1);
    if (!strcmp(argv[1], "stats"))
        return tree_stats(argc - 1, argv + 1);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        tree_usage(stdout);
        return EXIT_OK;
    }
    return error("tree: unknown verb '%s' (make, stats)", argv[1]), EXIT_USAGE;
}
