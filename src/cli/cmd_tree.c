/* cmd_tree.c — `fsbench tree make PROFILE DIR [-j N]` writes a tree (or extracts an archive,
 * tar:FILE) without timing it (to tar it, or to compare with other tools), on N threads as
 * the extract phase would; `fsbench tree stats PROFILE` streams a tree without writing
 * anything and prints its files, directories, bytes and size histogram; `fsbench tree
 * capture DIR -o FILE.ini` records a real tree's shape (tree/shape*.c) in a file. This file
 * reads their arguments (the profile, its scale, size and seed: parse_spec); the making and
 * the capturing are run/run_tree.c's, what stats prints report/tree_print.c's.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "base/err.h"
#include "report/tree_print.h"
#include "tree/shape.h"
#include "run/sizing.h"
#include "tree/tarsrc.h"
#include "tree/tree.h"
#include "run/run_tree.h"

static void tree_usage(FILE *out)
{
    fprintf(out, "usage: fsbench tree make PROFILE DIR [--scale X | --size SIZE] [--seed N] [-j N]\n"
                 "       fsbench tree stats PROFILE [--scale X | --size SIZE] [--seed N]\n"
                 "       fsbench tree capture DIR ...\n"
                 "  make: writes the tree into DIR (new or empty), untimed\n"
                 "  stats: its file count, sizes and depth, without writing it\n"
                 "  capture: the shape of the real tree DIR, as a profile file (its options:\n"
                 "  fsbench tree capture -h)\n"
                 "  PROFILE      a built-in profile (fsbench list), a captured SHAPE.ini, or\n"
                 "               tar:FILE (the tree an archive holds)\n"
                 "  --scale X    multiply the profile's file count by X (default 1)\n"
                 "  --size SIZE  scale the profile to about SIZE bytes of data (like 2G)\n"
                 "  --seed N     the seed of the tree's names and sizes (default 1): the\n"
                 "               same seed makes the same tree\n"
                 "  -j, --threads N  make: write with N threads (default 1, at most 64)\n");
}

/* tree make's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_tree = {
    "tree make", ":hj:",
    (const struct option[]){
        {"threads", required_argument, NULL, 'j'},
        {"scale", required_argument, NULL, 's'},
        {"seed", required_argument, NULL, 'S'},
        {"size", required_argument, NULL, 'z'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

/* Parses "PROFILE [DIR] --scale --seed [-j N]" after the verb (-j only where threads is
 * given); 0 or an exit status. */
static int parse_spec(int argc, char **argv, struct tree_spec *spec, const char **pos,
                      int npos, unsigned *threads)
{
    unsigned long long seed = 1;
    double scale = 1;
    const char *size = NULL;
    const char *scale_arg = NULL;
    int c, scaled = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_tree.shortopts, cli_opts_tree.longopts, NULL)) !=
           -1) {
        switch (c) {
        case 'j': {
            static const struct num_range jr = {1, TREE_MAKE_MAX_THREADS, NUM_WHOLE, NULL, NULL};
            double d;
            if (!threads)
                return error("tree %s: -j is for tree make", argv[0]), EXIT_USAGE;
            if (num_option("--threads", optarg, &jr, &d) < 0)
                return EXIT_USAGE;
            *threads = (unsigned)d;
            break;
        }
        case 's': {
            static const struct num_range sr = {0, INFINITY, NUM_LO_OPEN, NULL, NULL};
            if (num_option("--scale", optarg, &sr, &scale) < 0)
                return EXIT_USAGE;
            scale_arg = optarg;
            scaled = 1;
            break;
        }
        case 'S':
            if (num_parse_u64(optarg, &seed) < 0)
                return error("--seed: '%s' is not a whole number", optarg), EXIT_USAGE;
            break;
        case 'z': size = optarg; break;
        case 'h': tree_usage(stdout); return -1;
        default: return cli_bad_option("tree", c, argv);
        }
    }
    if (argc - optind != npos)
        return error("tree %s: expected %s; try 'fsbench tree --help'", argv[0],
                     npos == 2 ? "PROFILE DIR" : "PROFILE"), EXIT_USAGE;
    for (int i = 0; i < npos; i++)
        pos[i] = argv[optind + i];
    *spec = (struct tree_spec){0};
    if (!strncmp(pos[0], "tar:", 4)) {
        if (!pos[0][4])
            return error("tar: needs a file name (tar:FILE)"), EXIT_USAGE;
    } else if (shape_is_path(pos[0])) {
        /* a shape captured from a real tree (fsbench tree capture) */
        static struct shape_model model;
        if (shape_model_load(pos[0], &model) < 0)
            return EXIT_USAGE;
        spec->prof = &model.prof;
    } else if (!(spec->prof = profile_find(pos[0]))) {
        return error("unknown profile '%s' (see 'fsbench list')", pos[0]), EXIT_USAGE;
    }
    if (scaled && spec->prof && tree_check_scale(scale_arg, spec->prof, scale) < 0)
        return EXIT_USAGE;
    spec->scale = scale;
    spec->seed = seed;
    if (size) {
        if (scaled)
            return error("--size and --scale exclude each other"), EXIT_USAGE;
        if (!spec->prof)
            return error("--size needs a profile, not an archive"), EXIT_USAGE;
        return sizing_apply(size, spec, NULL, 0, NULL, 0);
    }
    return 0;
}

static int tree_make(int argc, char **argv)
{
    struct tree_spec spec;
    const char *pos[2];
    unsigned nthreads = 1;
    int rc = parse_spec(argc, argv, &spec, pos, 2, &nthreads);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    return run_tree_make(&spec, pos[0], pos[1], nthreads);
}

static int tree_stats(int argc, char **argv)
{
    struct tree_spec spec;
    const char *pos[1];
    int rc = parse_spec(argc, argv, &spec, pos, 1, NULL);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (!spec.prof) {
        struct tarsrc *tar = tarsrc_open(pos[0] + 4, NULL);
        if (!tar)
            return EXIT_RUN_FAILED;
        struct tarent_totals tt;
        tarsrc_measure(tar, &tt);
        tree_print_archive(tarsrc_path(tar), &tt);
        tarsrc_close(tar);
        return EXIT_OK;
    }
    struct tree_totals t;
    if (tree_measure(&spec, &t) < 0)
        return EXIT_RUN_FAILED;
    tree_print_totals(&spec, &t);
    return EXIT_OK;
}

/* `fsbench tree capture DIR -o FILE`: argv[0] is "capture". Returns an exit status. */
static void capture_usage(FILE *out)
{
    fprintf(out, "usage: fsbench tree capture DIR -o FILE.ini [--age-profile AGE.ini]\n"
                 "  records the shape of the tree under DIR (sizes, files and subdirectories per\n"
                 "  directory, depth, name lengths; no names, no content) in FILE.ini ('-' for\n"
                 "  stdout); use it with 'fsbench run --tree FILE.ini'\n"
                 "  -o, --output FILE.ini      the profile file to write\n"
                 "  -a, --age-profile AGE.ini  also (or, without -o, only) an aging profile:\n"
                 "                             sizes, depths and ages (from mtimes) of DIR's\n"
                 "                             files, for 'fsbench run age --age-profile\n"
                 "                             AGE.ini'\n");
}

/* tree capture's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_tree_capture = {
    "tree capture", "ho:a:",
    (const struct option[]){
        {"output", required_argument, NULL, 'o'},
        {"age-profile", required_argument, NULL, 'a'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

static int tree_capture(int argc, char **argv)
{
    const char *outpath = NULL, *agepath = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, cli_opts_tree_capture.shortopts, cli_opts_tree_capture.longopts, NULL)) != -1) {
        switch (c) {
        case 'o': outpath = optarg; break;
        case 'a': agepath = optarg; break;
        case 'h': capture_usage(stdout); return EXIT_OK;
        default: capture_usage(stderr); return EXIT_USAGE;
        }
    }
    if (argc - optind != 1 || (!outpath && !agepath)) {
        capture_usage(stderr);
        return EXIT_USAGE;
    }
    return run_tree_capture(argv[optind], outpath, agepath);
}

int cmd_tree(int argc, char **argv)
{
    if (argc < 2)
        return error("tree: expected a verb (make, stats, capture); try 'fsbench tree --help'"),
               EXIT_USAGE;
    if (!strcmp(argv[1], "make"))
        return tree_make(argc - 1, argv + 1);
    if (!strcmp(argv[1], "stats"))
        return tree_stats(argc - 1, argv + 1);
    if (!strcmp(argv[1], "capture"))
        return tree_capture(argc - 1, argv + 1);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        tree_usage(stdout);
        return EXIT_OK;
    }
    return error("tree: unknown verb '%s' (make, stats)", argv[1]), EXIT_USAGE;
}
