/* cmd_layout.c — `fsbench layout DIR [--json FILE]`: where an existing tree's blocks lie
 * (extents per file, the Smith & Seltzer layout score, directory locality) as a short
 * table, and optionally as JSON. The numbers come from layout_scan(), report/layout_print.c
 * prints them; this file parses the command line and opens DIR. Exit 1 where FIEMAP is unsupported (tmpfs), saying so.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "base/err.h"
#include "measure/freefrag.h"
#include "measure/layout.h"
#include "report/layout_print.h"

static void layout_usage(FILE *out)
{
    fprintf(out, "usage: fsbench layout DIR [--json FILE] [--device DEV]\n"
                 "  extents per file, layout score (Smith & Seltzer 1997: share of each\n"
                 "  file's blocks right after its previous block; 1.0 is perfect) and\n"
                 "  directory locality of the regular files below DIR (FIEMAP; one file\n"
                 "  system, symlinks not followed)\n"
                 "  --json FILE  also write the figures as JSON to FILE (- for stdout)\n"
                 "  --device DEV the block device DIR's file system is on: where the kernel\n"
                 "               has no free-space map (GETFSMAP) for it, its own tool\n"
                 "               (e2freefrag, xfs_db) reads DEV, read-only\n");
}

/* layout's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_layout = {
    "layout", ":h",
    (const struct option[]){
        {"json", required_argument, NULL, 'j'},
        {"device", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_layout(int argc, char **argv)
{
    const char *json = NULL, *dev = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_layout.shortopts, cli_opts_layout.longopts,
                            NULL)) != -1) {
        switch (c) {
        case 'j':
            json = optarg;
            break;
        case 'd':
            dev = optarg;
            break;
        case 'h':
            layout_usage(stdout);
            return EXIT_OK;
        default:
            return cli_bad_option("layout", c, argv);
        }
    }
    if (argc - optind != 1)
        return error("layout: expected one directory; try 'fsbench layout --help'"),
               EXIT_USAGE;
    const char *dir = argv[optind];
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return error_errno("layout: cannot open directory %s", dir), EXIT_RUN_FAILED;
    struct stat ds, fs;
    if (dev && (stat(dev, &ds) < 0 || !S_ISBLK(ds.st_mode) || fstat(fd, &fs) < 0 ||
                ds.st_rdev != fs.st_dev)) {
        close(fd);
        return error("layout: --device %s is not the block device %s is on", dev, dir),
               EXIT_USAGE;
    }
    struct layout_result r;
    int rc = layout_scan(fd, &r);
    struct freefrag ff;
    freefrag_measure_dev(fd, dev, &ff);
    close(fd);
    if (rc < 0)
        return EXIT_RUN_FAILED;
    if (!r.supported)
        return error("layout: FIEMAP is not supported by %s at %s", r.fstype, dir), EXIT_RUN_FAILED;
    layout_print_text(dir, &r);
    layout_print_freefrag(&ff);
    if (json && layout_print_json(json, dir, &r, &ff) < 0)
        return EXIT_RUN_FAILED;
    return EXIT_OK;
}
