/* run_tree.c — `fsbench tree make`'s and `fsbench tree capture`'s work (see run_tree.h): the
 * tree written through the extract phase on posix workers, one a thread, and emptied again
 * when it fails; a real tree's shape and aging profile captured and written.
 */
#include "run/run_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "measure/measure.h"
#include "phase/phase.h"
#include "tree/ageprof.h"
#include "tree/shape.h"
#include "tree/tarsrc.h"

/* tree make's I/O buffer, one a thread. */
#define TREE_MAKE_BUF ((size_t)128 * 1024)

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

int run_tree_make(struct tree_spec *spec, const char *profile, const char *dir,
                  unsigned nthreads)
{
    int rc;
    int n = count_entries(dir);
    if (n < 0)
        return error_errno("cannot read %s", dir), EXIT_RUN_FAILED;
    if (n > 0)
        return error("directory %s is not empty", dir), EXIT_USAGE;
    /* An archive is opened (and decompressed) before anything is written. */
    struct tarsrc *tar = NULL;
    if (!spec->prof && !(tar = tarsrc_open(profile + 4, NULL)))
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
        struct phase_ctx ctx = {.eng = &engine_posix, .w = &w[0], .ws_fd = fd, .tree = spec,
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

/* `fsbench tree capture DIR -o FILE`'s work once its options are read. */
int run_tree_capture(const char *dir, const char *outpath, const char *agepath)
{
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

