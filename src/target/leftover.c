/* leftover.c — finding and releasing what a killed fsbench left of a managed target (see
 * leftover.h).
 *
 * Invariants: a candidate is only ever a path; everything done to it goes through its
 * directory's fd, opened with O_NOFOLLOW after the ownership checks, except the unmount (by
 * the mount point's path inside that root-only directory) and the loop detach (only of a
 * device the kernel says is backed by this directory's image). The owner lock is held
 * from the check to the end of the release, so two fsbench processes never release the
 * same leftover, and a live fsbench's target is never touched.
 */
#include "target/leftover.h"

#include "base/units.h"
#include "base/pidmark.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "os/lockfile.h"
#include "os/loop.h"
#include "os/mount.h"
#include "os/mounts.h"

#define LEFTOVER_MAX 256

struct cands {
    char (*dir)[PATH_MAX];
    size_t n;
};

/* Whether base is a target directory's name: the prefix and mkdtemp's six characters. */
static bool is_target_name(const char *base)
{
    size_t p = strlen(TARGET_DIR_PREFIX);
    return !strncmp(base, TARGET_DIR_PREFIX, p) && strlen(base) == p + 6 &&
           !strchr(base + p, '/');
}

/* Adds dir/ (a canonical path) once. */
static void cand_add(struct cands *c, const char *dir)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->dir[i], dir))
            return;
    if (c->n < LEFTOVER_MAX && strlen(dir) < PATH_MAX)
        snprintf(c->dir[c->n++], PATH_MAX, "%s", dir);
}

/* If path is DIR/fsbench-target.XXXXXX/leaf, adds that target directory. */
static void cand_from_path(struct cands *c, const char *path, const char *leaf)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return;
    char *slash = strrchr(buf, '/');
    if (!slash || strcmp(slash + 1, leaf))
        return;
    *slash = '\0';
    const char *base = strrchr(buf, '/');
    if (base && base != buf && is_target_name(base + 1))
        cand_add(c, buf);
}

static int from_mount(const struct os_mount *m, void *arg)
{
    cand_from_path(arg, m->mount_point, "mnt");
    return 0;
}

static int from_loop(const char *device, const char *backing, dev_t dev, ino_t ino, void *arg)
{
    (void)device, (void)dev, (void)ino;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", backing);
    size_t n = strlen(path), d = strlen(" (deleted)");
    if (n > d && !strcmp(path + n - d, " (deleted)"))
        path[n - d] = '\0';
    cand_from_path(arg, path, "image");
    return 0;
}

static void from_dir(struct cands *c, const char *dir)
{
    char real[PATH_MAX];
    if (!realpath(dir, real))
        return;
    DIR *d = opendir(real);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)))
        if (is_target_name(de->d_name)) {
            char path[PATH_MAX];
            if (snprintf(path, sizeof path, "%s/%s", strcmp(real, "/") ? real : "",
                         de->d_name) < (int)sizeof path)
                cand_add(c, path);
        }
    closedir(d);
}

/* What one release did, for its line. */
struct released {
    bool unmounted;
    char devices[256];
    unsigned long long image_bytes;
    bool image;
};

struct loop_match {
    const char *image;      /* DIR/image */
    struct released *r;
    bool dry_run;
    int rc;
};

static int detach_match(const char *device, const char *backing, dev_t dev, ino_t ino, void *arg)
{
    struct loop_match *m = arg;
    size_t n = strlen(m->image);
    if (strncmp(backing, m->image, n) || (backing[n] && strcmp(backing + n, " (deleted)")))
        return 0;
    if (!m->dry_run && os_loop_detach(device, dev, ino) < 0)
        m->rc = -1;
    size_t used = strlen(m->r->devices);
    snprintf(m->r->devices + used, sizeof m->r->devices - used, "%s%s", used ? ", " : "",
             device);
    return 0;
}

struct mount_match {
    const char *mnt;
    bool found;
};

static int is_mount_point(const struct os_mount *m, void *arg)
{
    struct mount_match *mm = arg;
    if (!strcmp(m->mount_point, mm->mnt))
        mm->found = true;
    return 0;
}

static bool mounted_at(const char *mnt)
{
    struct mount_match mm = {.mnt = mnt};
    os_mounts_each(is_mount_point, &mm);
    return mm.found;
}

/* Undoes what the target directory dir (fd dfd, its owner lock held) holds. 0 or -1 after
 * error(). */
static int release(const char *dir, int dfd, bool dry_run, struct released *r)
{
    char mnt[PATH_MAX + 8], image[PATH_MAX + 8];
    snprintf(mnt, sizeof mnt, "%s/mnt", dir);
    snprintf(image, sizeof image, "%s/image", dir);
    /* stacked mounts come off one at a time; a busy one is detached lazily */
    for (int i = 0; i < 16 && mounted_at(mnt); i++) {
        r->unmounted = true;
        if (dry_run)
            break;
        if (os_umount(mnt, false) < 0 && (errno != EBUSY || os_umount(mnt, true) < 0))
            return error_errno("cannot unmount %s", mnt);
    }
    struct loop_match lm = {.image = image, .r = r, .dry_run = dry_run};
    os_loop_each(detach_match, &lm);
    if (lm.rc < 0)
        return -1;
    struct stat st;
    if (fstatat(dfd, "image", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode)) {
        r->image = true;
        r->image_bytes = (unsigned long long)st.st_blocks * 512;
        if (!dry_run && unlinkat(dfd, "image", 0) < 0)
            return error_errno("cannot remove %s", image);
    }
    if (dry_run)
        return 0;
    if (unlinkat(dfd, "mnt", AT_REMOVEDIR) < 0 && errno != ENOENT)
        return error_errno("cannot remove %s", mnt);
    if (unlinkat(dfd, TARGET_OWNER, 0) < 0 && errno != ENOENT)
        return error_errno("cannot remove %s/%s", dir, TARGET_OWNER);
    if (rmdir(dir) < 0)
        return error_errno("cannot remove %s", dir);
    return 0;
}

static void say_released(const char *dir, long pid, bool dry_run, const struct released *r)
{
    char what[512] = "";
    size_t used = 0;
    if (r->unmounted)
        used += (size_t)snprintf(what + used, sizeof what - used, ", %s %s/mnt",
                                 dry_run ? "unmount" : "unmounted", dir);
    if (r->devices[0] && used < sizeof what)
        used += (size_t)snprintf(what + used, sizeof what - used, ", %s %s",
                                 dry_run ? "detach" : "detached", r->devices);
    char on_disk[32];
    if (r->image && used < sizeof what)
        used += (size_t)snprintf(what + used, sizeof what - used, ", %s its image (%s on disk)",
                                 dry_run ? "remove" : "removed",
                                 units_bytes(on_disk, sizeof on_disk, (double)r->image_bytes));
    char who[64] = "a killed fsbench";
    if (pid > 0)
        snprintf(who, sizeof who, "fsbench pid %ld (no longer running)", pid);
    inform("%s what %s left in %s%s%s", dry_run ? "would release" : "released", who, dir,
           what[0] ? ":" : "", what[0] ? what + 1 : "");
}

/* Checks and releases one candidate. 0 (released, or left alone and counted) or -1. */
static int one(const char *dir, bool dry_run, bool quiet, struct leftover_counts *k)
{
    struct stat st;
    if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & 07777) != 0700)
        return 0; /* not one fsbench made (as this user) */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return 0;
    int ofd = openat(dfd, TARGET_OWNER, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    struct stat os;
    if (ofd < 0 || fstat(ofd, &os) < 0 || !S_ISREG(os.st_mode) || os.st_uid != geteuid()) {
        if (ofd >= 0)
            close(ofd);
        close(dfd);
        k->unowned++;
        if (!quiet)
            inform("%s has no owner record (made by an older fsbench, or one starting now): "
                   "left alone",
                   dir);
        return 0;
    }
    int l = os_lock_try(ofd);
    if (l != 0) {
        long pid = pidmark_read(ofd, "pid ");
        close(ofd);
        close(dfd);
        if (l > 0) {
            k->live++;
            if (!quiet)
                inform("%s is in use by fsbench pid %ld: left alone", dir, pid);
            return 0;
        }
        return error_errno("cannot lock %s/%s", dir, TARGET_OWNER);
    }
    long pid = pidmark_read(ofd, "pid ");
    struct released r;
    memset(&r, 0, sizeof r);
    char why[1024] = "";
    err_capture_begin(why, sizeof why);
    int rc = release(dir, dfd, dry_run, &r);
    err_capture_end();
    close(ofd);
    close(dfd);
    if (rc == 0) {
        k->released++;
        say_released(dir, pid, dry_run, &r);
        return 0;
    }
    /* before a run: a warning (this run goes on); for fsbench cleanup: its failure */
    if (quiet)
        warning("cannot release what a killed fsbench left in %s: %s", dir, why);
    else
        error("cannot release what a killed fsbench left in %s: %s", dir, why);
    return -1;
}

int leftover_release(const char *const *dirs, size_t ndirs, bool dry_run, bool quiet,
                     struct leftover_counts *counts)
{
    struct leftover_counts scratch;
    struct leftover_counts *k = counts ? counts : &scratch;
    memset(k, 0, sizeof *k);
    struct cands c = {.dir = calloc(LEFTOVER_MAX, PATH_MAX)};
    if (!c.dir)
        return error("out of memory");
    for (size_t i = 0; i < ndirs; i++)
        if (dirs[i])
            from_dir(&c, dirs[i]);
    os_mounts_each(from_mount, &c); /* none where there is no mount table */
    os_loop_each(from_loop, &c);
    int rc = 0;
    for (size_t i = 0; i < c.n; i++)
        if (one(c.dir[i], dry_run, quiet, k) < 0)
            rc = -1;
    free(c.dir);
    return rc;
}
