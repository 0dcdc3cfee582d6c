/* cmd_tree.c — `fsbench tree make PROFILE DIR [-j N]` writes a tree (or extracts an archive,
 * tar:FILE) without timing it (to tar it, or to compare with other tools), on N threads as
 * the extract phase would; `fsbench tree stats PROFILE` streams a tree without writing
 * anything and prints its files, directories, bytes and size histogram; `fsbench tree
 * capture DIR -o FILE.ini` records a real tree's shape (tree/shape*.c) in a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "base/err.h"
#include "measure/measure.h"
#include "phase/phase.h"
#include "report/tree_print.h"
#include "tree/ageprof.h"
#include "tree/shape.h"
#include "run/sizing.h"
#include "tree/tarsrc.h"
#include "tree/tree.h"

/* tree make -j: at most this many threads, each with an I/O buffer of TREE_MAKE_BUF. */
#define TREE_MAKE_MAX_THREADS 64
#define TREE_MAKE_BUF ((size_t)128 * 1024)

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

/* Entries in directory path other than . and ..: count, 0 if it does not exist, -1 error. */
static int count_entries(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static int tree_make(int argc, char **argv)
{
    struct tree_spec spec;
    const char *pos[2];
    unsigned nthreads = 1;
    int rc = parse_spec(argc, argv, &spec, pos, 2, &nthreads);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const char *dir = pos[1];
    int n = count_entries(dir);
    if (n < 0)
        return error_errno("cannot read %s", dir), EXIT_RUN_FAILED;
    if (n > 0)
        return error("directory %s is not empty", dir), EXIT_USAGE;
    /* An archive is opened (and decompressed) before anything is written. */
    struct tarsrc *tar = NULL;
    if (!spec.prof && !(tar = tarsrc_open(pos[0] + 4, NULL)))
        return EXIT_RUN_FAILED;
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
        tarsrc_close(tar);
        return error_errno("cannot create %s", dir), EXIT_RUN_FAILED;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    /* One posix worker per thread, each with its own counters and buffer (phase_par). */
    struct opstats ops[TREE_MAKE_MAX_THREADS];
    struct eng_worker w[TREE_MAKE_MAX_THREADS];
    void *bufs[TREE_MAKE_MAX_THREADS] = {0};
    int nobuf = 0;
    for (unsigned i = 0; i < nthreads; i++) {
        memset(&ops[i], 0, sizeof ops[i]);
        w[i] = (struct eng_worker){.st = &ops[i]};
        nobuf |= !(bufs[i] = malloc(TREE_MAKE_BUF));
    }
    if (fd < 0 || nobuf) {
        rc = fd < 0 ? error_errno("cannot open %s", dir) : error("out of memory");
    } else {
        struct phase_result res = {0};
        struct phase_ctx ctx = {.eng = &engine_posix, .w = &w[0], .ws_fd = fd, .tree = &spec,
                                .tar = tar, .res = &res, .buf = bufs[0], .buflen = TREE_MAKE_BUF,
                                .workers = w, .bufs = bufs, .nworkers = nthreads};
        uint64_t t0 = meas_now_ns();
        rc = phase_extract_tree(&ctx, fd);
        double secs = (double)(meas_now_ns() - t0) / 1e9;
        if (rc < 0) {
            /* Leave the directory as it was: empty (by names below its fd, as delete does:
             * nothing outside it is removed, whatever replaced a directory meanwhile). */
            struct phase_result cres = {0};
            struct phase_ctx clean = ctx;
            clean.res = &cres;
            clean.workers = NULL;
            clean.nworkers = 0;
            if (phase_delete_below(&clean, fd, dir) < 0)
                error("tree make: %s; %s not emptied again: %s", res.note, dir, cres.note);
            else
                error("tree make: %s", res.note);
        } else {
            printf("wrote %llu files, %llu dirs, %llu symlinks to %s in %.2f s\n",
                   (unsigned long long)res.files, (unsigned long long)res.dirs,
                   (unsigned long long)res.symlinks, dir, secs);
        }
    }
    if (fd >= 0)
        close(fd);
    for (unsigned i = 0; i < nthreads; i++)
        free(bufs[i]);
    tarsrc_close(tar);
    return rc < 0 ? EXIT_RUN_FAILED : EXIT_OK;
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
    const char *dir = argv[optind];
    if (agepath) {
        struct ageprof ap;
        const char *base = strrchr(agepath, '/') ? strrchr(agepath, '/') + 1 : agepath;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(base, "."), base);
        if (ageprof_capture(dir, name[0] ? name : "captured", &ap) < 0 ||
            ageprof_write_file(&ap, agepath) < 0)
            return EXIT_RUN_FAILED;
        fprintf(strcmp(agepath, "-") ? stdout : stderr,
                "wrote the aging profile of %s to %s (sizes, depths, ages from mtimes)\n", dir,
                strcmp(agepath, "-") ? agepath : "stdout");
        if (!outpath)
            return EXIT_OK;
    }
    struct shape *s = malloc(sizeof *s);
    if (!s)
        return error("out of memory"), EXIT_RUN_FAILED;
    int rc = shape_capture(dir, s);
    if (rc == 0 && s->files == 0) {
        rc = error("capture: %s holds no regular files: nothing to shape a tree on", dir);
    }
    if (rc == 0)
        rc = shape_write_ini(s, outpath);
    if (rc == 0) {
        FILE *out = strcmp(outpath, "-") ? stdout : stderr;
        fprintf(out, "captured %s: %" PRIu64 " files, %" PRIu64 " dirs, %" PRIu64
                     " symlinks, %" PRIu64 " bytes (%.1f MB), max depth %u\n",
                dir, s->files, s->dirs, s->symlinks, s->bytes, (double)s->bytes / 1e6,
                s->max_depth);
        if (s->skipped_mounts || s->unreadable || s->other)
            fprintf(out, "not recorded: %" PRIu64 " mount points, %" PRIu64
                         " unreadable directories; not reproduced: %" PRIu64
                         " special files\n", s->skipped_mounts, s->unreadable, s->other);
        fprintf(out, "wrote the shape to %s (no names, no content)\n",
                strcmp(outpath, "-") ? outpath : "stdout");
    }
    free(s);
    return rc == 0 ? EXIT_OK : EXIT_RUN_FAILED;
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
