/* cmd_cleanup.c — `fsbench cleanup`: releases what killed runs left. A run stopped by a
 * signal cleans up itself; one killed with SIGKILL, by a crash or by a power cut leaves its
 * managed target (a mounted file system, an attached loop device, an image file) and its
 * run directory's tree. Every run making a target already releases the targets' leftovers
 * first, and a run in the same --dir cleans that directory; this command does both on
 * demand, and for the temporary run directories (TMPDIR/fsbench.XXXXXX) too. A live run's
 * target or directory (its lock held) is never touched.
 */
#include <dirent.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "phase/workspace.h"
#include "target/leftover.h"

#define CLEANUP_MAX_DIRS 16

static void cleanup_usage(FILE *out)
{
    fprintf(out,
            "usage: fsbench cleanup [--image-dir DIR]... [--dir DIR]... [--dry-run]\n"
            "  releases what runs killed by SIGKILL, a crash or a power cut left: managed\n"
            "  targets (unmounted, loop devices detached, images removed: as root), the\n"
            "  temporary run directories under $TMPDIR (or /tmp), and the trees in each\n"
            "  --dir. A running fsbench's target or directory is left alone.\n"
            "  --image-dir DIR  also look for targets in DIR (as given to run --image-dir;\n"
            "                   $TMPDIR or /tmp always, and every target still mounted or\n"
            "                   attached wherever it is)\n"
            "  --dir DIR        also clean the run directory DIR (as given to run --dir)\n"
            "  --dry-run        say what would be released, release nothing\n");
}

/* The temporary run directories fsbench made in tmp (fsbench.XXXXXX). */
static int clean_temp_workspaces(const char *tmp, bool dry_run, unsigned *n)
{
    DIR *d = opendir(tmp);
    if (!d)
        return 0;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d))) {
        if (strncmp(de->d_name, "fsbench.", 8) || strlen(de->d_name) != 8 + 6)
            continue;
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", tmp, de->d_name) >= (int)sizeof path)
            continue;
        int r = ws_clean_leftover(path, true, dry_run);
        if (r < 0)
            rc = -1;
        else
            *n += (unsigned)r;
    }
    closedir(d);
    return rc;
}

/* cleanup's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_cleanup = {
    "cleanup", ":h",
    (const struct option[]){
        {"image-dir", required_argument, NULL, 'i'},
        {"dir", required_argument, NULL, 'd'},
        {"dry-run", no_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_cleanup(int argc, char **argv)
{
    const char *image_dirs[CLEANUP_MAX_DIRS + 1], *run_dirs[CLEANUP_MAX_DIRS];
    size_t nimage = 0, nrun = 0;
    bool dry_run = false;
    int c;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    image_dirs[nimage++] = tmp;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_cleanup.shortopts, cli_opts_cleanup.longopts,
                            NULL)) != -1) {
        switch (c) {
        case 'i':
            if (nimage > CLEANUP_MAX_DIRS)
                return error("cleanup: at most %d --image-dir", CLEANUP_MAX_DIRS), EXIT_USAGE;
            image_dirs[nimage++] = optarg;
            break;
        case 'd':
            if (nrun == CLEANUP_MAX_DIRS)
                return error("cleanup: at most %d --dir", CLEANUP_MAX_DIRS), EXIT_USAGE;
            run_dirs[nrun++] = optarg;
            break;
        case 'n': dry_run = true; break;
        case 'h': cleanup_usage(stdout); return EXIT_OK;
        default: return cli_bad_option("cleanup", c, argv);
        }
    }
    if (optind < argc)
        return error("cleanup: unexpected argument '%s' (see fsbench cleanup --help)",
                     argv[optind]),
               EXIT_USAGE;
    int rc = 0;
    struct leftover_counts k = {0};
    if (geteuid() == 0) {
        if (leftover_release(image_dirs, nimage, dry_run, false, &k) < 0)
            rc = -1;
    } else {
        inform("managed targets are made by root alone: run fsbench cleanup as root to "
               "release them");
    }
    unsigned ws = 0;
    if (clean_temp_workspaces(tmp, dry_run, &ws) < 0)
        rc = -1;
    for (size_t i = 0; i < nrun; i++) {
        int r = ws_clean_leftover(run_dirs[i], false, dry_run);
        if (r < 0)
            rc = -1;
        else
            ws += (unsigned)r;
    }
    printf("cleanup: %s %u target%s and %u run director%s left by killed runs%s\n",
           dry_run ? "would release" : "released", k.released, k.released == 1 ? "" : "s",
           ws, ws == 1 ? "y" : "ies", dry_run ? " (dry run: nothing was changed)" : "");
    return rc < 0 ? EXIT_RUN_FAILED : EXIT_OK;
}
