/* target.c — a file system fsbench manages itself (see target.h): a sparse image on a loop
 * device or a real block device, mkfs'ed and mounted on a private mount point.
 *
 * Invariants:
 * - Everything a target owns lives in one mkdtemp directory (fsbench-target.XXXXXX) under the
 *   image directory: the image file and the mount point. Nothing else is ever removed.
 * - Targets live in a small static registry, not on the heap, and each records which steps of
 *   its set-up succeeded. target_destroy() undoes exactly those, in reverse order, clearing
 *   each flag as it goes, so it is idempotent, safe on a partial set-up, may be re-entered
 *   after a second signal, and needs no allocation (only umount, open, ioctl, close, unlink,
 *   rmdir and nanosleep; error() only when something cannot be released).
 * - The loop device is attached without LO_FLAGS_AUTOCLEAR: we detach it ourselves, and only
 *   if it is still backed by our image.
 * - Create and destroy are called from one thread; the registry has no lock.
 * - mkfs and mount options are data: target_mkfs() and target_mount() pass on only what
 *   fsopts.h allows for the file system (no path, no device, no stray operand), and mkfs runs
 *   in the empty mount point, so that not even a relative name could reach a file.
 * The safety checks for real devices, loop devices and mount calls are the system's:
 * os/devcheck.h, os/loop.h and os/mount.h.
 */
#include "target/target.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/prog.h"
#include "base/sig.h"
#include "os/devcheck.h"
#include "os/lockfile.h"
#include "os/loop.h"
#include "os/mount.h"
#include "os/pipe.h"
#include "target/fsopts.h"
#include "target/leftover.h"

#define TARGET_MAX 8
#define TARGET_DATA_MAX 4096 /* mount(2) data is at most a page */

struct target {
    bool in_use;
    bool dir_made, owner_made, image_made, mnt_made, loop_attached, mounted;
    int owner_fd; /* TARGET_OWNER, locked while this process lives (leftover.h) */
    dev_t image_dev; /* st_dev/st_ino of our image: LOOP_CLR_FD only if they match */
    ino_t image_ino;
    char fstype[32];
    char mkfs_opts[512];
    char dir[PATH_MAX];
    char image[PATH_MAX];
    char mnt[PATH_MAX];
    char device[PATH_MAX];
};

static struct target target_reg[TARGET_MAX];

/* Devices (st_rdev) this process made a file system on: that signature is its own, so a
 * later target on the same device (the run after the pre-flight, the next job of a file)
 * is not refused for carrying it. */
static dev_t target_made[TARGET_MAX];
static int target_nmade;

static bool target_made_here(const char *dev)
{
    struct stat st;
    if (stat(dev, &st) < 0 || !S_ISBLK(st.st_mode))
        return false;
    for (int i = 0; i < target_nmade; i++)
        if (target_made[i] == st.st_rdev)
            return true;
    return false;
}

static void target_note_made(const struct target *t)
{
    struct stat st;
    if (t->image_made || target_nmade == TARGET_MAX || target_made_here(t->device) ||
        stat(t->device, &st) < 0 || !S_ISBLK(st.st_mode))
        return;
    target_made[target_nmade++] = st.st_rdev;
}

/* ---- small helpers ---- */

static void target_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* out = dir/name, for our own short names; target_create() leaves room after dir. */
static void target_join(char out[PATH_MAX], const char *dir, const char *name)
{
    size_t n = strlen(dir), m = strlen(name);
    memcpy(out, dir, n);
    out[n] = '/';
    memcpy(out + n + 1, name, m + 1);
}

/* ---- sizes and mount options ---- */

int target_parse_size(const char *s, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return -1;
    uint64_t v = 0;
    for (; isdigit((unsigned char)*s); s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    unsigned shift = 0;
    switch (toupper((unsigned char)*s)) {
    case 'K':
        shift = 10;
        break;
    case 'M':
        shift = 20;
        break;
    case 'G':
        shift = 30;
        break;
    case 'T':
        shift = 40;
        break;
    }
    if (shift) {
        s++;
        if (*s == 'i' && toupper((unsigned char)s[1]) == 'B')
            s++;
    }
    if (toupper((unsigned char)*s) == 'B')
        s++;
    if (*s || v == 0 || (shift && v > (UINT64_MAX >> shift)))
        return -1;
    *out = v << shift;
    return 0;
}

int target_parse_mount_opts(const char *opts, unsigned long *flags, char *data, size_t len)
{
    return os_mount_parse_opts(opts, flags, data, len);
}

/* ---- file-system types: mkfs programs and kernel support ---- */

/* What each mkfs needs: its Debian package, the flag that lets it overwrite a used device
 * (our safety checks have run by then) and the flag that keeps it quiet. */
static const struct {
    const char *fs, *package, *force, *quiet;
} target_mkfs_tab[] = {
    {"ext2", "e2fsprogs", "-F", "-q"},    {"ext3", "e2fsprogs", "-F", "-q"},
    {"ext4", "e2fsprogs", "-F", "-q"},    {"xfs", "xfsprogs", "-f", "-q"},
    {"btrfs", "btrfs-progs", "-f", "-q"}, {"f2fs", "f2fs-tools", "-f", "-q"},
    {"vfat", "dosfstools", NULL, NULL},   {"msdos", "dosfstools", NULL, NULL},
    {"exfat", "exfatprogs", NULL, NULL},  {NULL, NULL, NULL, NULL},
};

static int target_mkfs_index(const char *fs)
{
    for (int i = 0; target_mkfs_tab[i].fs; i++)
        if (!strcmp(target_mkfs_tab[i].fs, fs))
            return i;
    return -1;
}

static int target_mkfs_missing(const char *prog, const char *fs)
{
    int i = target_mkfs_index(fs);
    if (i >= 0)
        return error("%s not found: install the Debian package %s", prog,
                     target_mkfs_tab[i].package);
    return error("%s not found in $PATH, /usr/sbin or /sbin: is '%s' a file system type?", prog,
                 fs);
}

int target_check_fstype(const char *fstype)
{
    if (!fstype || !*fstype || strlen(fstype) >= 32 || strpbrk(fstype, "/ \t,"))
        return error("'%s' is not a file system type", fstype ? fstype : "");
    char prog[64], path[PATH_MAX], why[256];
    snprintf(prog, sizeof prog, "mkfs.%s", fstype);
    if (prog_find(prog, path, sizeof path) < 0)
        return target_mkfs_missing(prog, fstype);
    if (!os_fs_supported(fstype, why, sizeof why))
        return error("%s", why);
    return 0;
}

/* ---- life cycle ---- */

static struct target *target_slot(void)
{
    for (int i = 0; i < TARGET_MAX; i++)
        if (!target_reg[i].in_use) {
            memset(&target_reg[i], 0, sizeof target_reg[i]);
            target_reg[i].owner_fd = -1;
            target_reg[i].in_use = true;
            return &target_reg[i];
        }
    error("too many targets at once (at most %d)", TARGET_MAX);
    return NULL;
}

/* Makes the image: a sparse file created with O_EXCL in our directory. 0 or -1. */
static int target_make_image(struct target *t, uint64_t bytes)
{
    target_join(t->image, t->dir, "image");
    int fd = open(t->image, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return error_errno("cannot create the image %s", t->image);
    t->image_made = true;
    struct stat st;
    if (ftruncate(fd, (off_t)bytes) < 0 || fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return error_num(e, "cannot size the image %s to %llu bytes", t->image,
                         (unsigned long long)bytes);
    }
    t->image_dev = st.st_dev;
    t->image_ino = st.st_ino;
    close(fd);
    struct statvfs vfs;
    if (statvfs(t->dir, &vfs) == 0 && (uint64_t)vfs.f_bavail * vfs.f_frsize < bytes)
        warning("the image %s (%llu MiB) is larger than the free space there (%llu MiB): "
                "the run may fail with I/O errors",
                t->image, (unsigned long long)(bytes >> 20),
                (unsigned long long)((uint64_t)vfs.f_bavail * vfs.f_frsize >> 20));
    return 0;
}

/* Writes what the target set up so far into its owner file, for a later fsbench that finds
 * it left by a killed run (leftover.h): the pid, then the image and the loop device. */
static void target_record(struct target *t)
{
    char text[3 * PATH_MAX + 64];
    int n = snprintf(text, sizeof text, "pid %ld\nimage %s\ndevice %s\nmount %s\n",
                     (long)getpid(), t->image_made ? t->image : "", t->device, t->mnt);
    if (n < 0 || (size_t)n >= sizeof text)
        return;
    if (ftruncate(t->owner_fd, 0) == 0 && pwrite(t->owner_fd, text, (size_t)n, 0) < 0)
        return; /* a record is a courtesy: the release works from the directory alone */
}

/* Creates and locks the owner file in t->dir: while this process lives, no other fsbench
 * takes the target for a leftover. 0 or -1 after error(). */
static int target_make_owner(struct target *t)
{
    char path[PATH_MAX];
    target_join(path, t->dir, TARGET_OWNER);
    t->owner_fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (t->owner_fd < 0)
        return error_errno("cannot create %s", path);
    t->owner_made = true;
    int l = os_lock_try(t->owner_fd);
    if (l != 0)
        return l < 0 ? error_errno("cannot lock %s", path)
                     : error("%s is locked by another process", path);
    target_record(t);
    return 0;
}

/* Where the target directories of spec's images go. */
static const char *image_base(const struct target_spec *spec)
{
    const char *base = spec->image_dir;
    if (!base || !*base)
        base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    return base;
}

void target_release_leftovers(const struct target_spec *spec)
{
    if (geteuid() != 0)
        return;
    /* what killed runs left (a mount, a loop device, an image) goes first, said in a line
     * each; one that cannot be released is a warning, not this run's failure */
    const char *base = image_base(spec);
    leftover_release(&base, 1, false, true, NULL);
}

struct target *target_create(const struct target_spec *spec)
{
    bool image = spec->image_bytes > 0;
    if (image == (spec->device != NULL)) {
        error("a target is either an image (--image SIZE) or a device (--device DEV)");
        return NULL;
    }
    if (!image && !spec->destroy_data) {
        error("refusing to use %s without --destroy-data: it would destroy its data", spec->device);
        return NULL;
    }
    if (geteuid() != 0) {
        error("an image or device target needs root (loop devices, mkfs, mount)");
        return NULL;
    }
    if (spec->fstype && target_check_fstype(spec->fstype) < 0)
        return NULL;
    if (!image &&
        target_check_device(spec->device, spec->force || target_made_here(spec->device)) < 0)
        return NULL;
    const char *base = image_base(spec);
    target_release_leftovers(spec);
    struct target *t = target_slot();
    if (!t)
        return NULL;
    snprintf(t->fstype, sizeof t->fstype, "%s", spec->fstype ? spec->fstype : "");
    if (spec->mkfs_opts && (size_t)snprintf(t->mkfs_opts, sizeof t->mkfs_opts, "%s",
                                            spec->mkfs_opts) >= sizeof t->mkfs_opts) {
        error("mkfs options too long: '%s'", spec->mkfs_opts);
        goto fail;
    }
    if ((size_t)snprintf(t->dir, sizeof t->dir, "%s/" TARGET_DIR_PREFIX "XXXXXX", base) >=
        sizeof t->dir - 16) {
        error("image directory name too long: %s", base);
        goto fail;
    }
    if (!mkdtemp(t->dir)) {
        error_errno("cannot make a directory under %s", base);
        goto fail;
    }
    t->dir_made = true;
    if (target_make_owner(t) < 0)
        goto fail;
    target_join(t->mnt, t->dir, "mnt");
    if (mkdir(t->mnt, 0700) < 0) {
        error_errno("cannot make the mount point %s", t->mnt);
        goto fail;
    }
    t->mnt_made = true;
    if (image) {
        if (target_make_image(t, spec->image_bytes) < 0 ||
            os_loop_attach(t->image, t->device, sizeof t->device) < 0)
            goto fail;
        t->loop_attached = true;
    } else {
        snprintf(t->device, sizeof t->device, "%s", spec->device);
    }
    target_record(t);
    return t;
fail:
    target_destroy(t);
    return NULL;
}

int target_set_fs(struct target *t, const char *fstype)
{
    if (t->mounted)
        return error("cannot change the file system of %s while it is mounted", t->device);
    if (target_check_fstype(fstype) < 0)
        return -1;
    snprintf(t->fstype, sizeof t->fstype, "%s", fstype);
    return 0;
}

/* Keeps the last non-empty line of a child's output, or the one before its usage text (mkfs.xfs
 * prints the reason, then 40 lines of usage). A line that begins with a blank continues the
 * one before (mke2fs wraps its reasons with a tab): it is joined to it, one space between;
 * tabs are blanks, so the message holds no control character. */
struct target_lastline {
    char cur[512], last[512];
    size_t n;
    bool usage;
    bool cont; /* cur began with a blank */
};

static void target_lastline_feed(struct target_lastline *l, const char *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char ch = buf[i] == '\t' ? ' ' : buf[i];
        if (ch == '\n' || ch == '\r') {
            if (l->n && !l->usage && !strncasecmp(l->cur, "usage:", 6) && l->last[0])
                l->usage = true;
            if (l->n && !l->usage) {
                l->cur[l->n] = '\0';
                size_t used = strlen(l->last);
                if (l->cont && used)
                    snprintf(l->last + used, sizeof l->last - used, " %s", l->cur);
                else
                    memcpy(l->last, l->cur, l->n + 1);
            }
            l->n = 0;
            l->cont = false;
        } else if (ch == ' ' && l->n == 0) {
            l->cont = true; /* leading blanks: a continuation, and not kept */
        } else if (l->n < sizeof l->cur - 1) {
            l->cur[l->n++] = ch;
        }
    }
}

int target_mkfs(struct target *t)
{
    if (!t->fstype[0])
        return error("no file system type set for %s", t->device);
    if (t->mounted)
        return error("refusing to mkfs %s while it is mounted", t->device);
    char prog[64], path[PATH_MAX], opts[sizeof t->mkfs_opts], why[1024];
    /* the options are data: only what fsopts allows reaches mkfs (never a path or operand) */
    if (fsopts_check_mkfs(t->fstype, t->mkfs_opts, why, sizeof why) < 0)
        return error("mkfs options: %s", why);
    snprintf(prog, sizeof prog, "mkfs.%s", t->fstype);
    if (prog_find(prog, path, sizeof path) < 0)
        return target_mkfs_missing(prog, t->fstype);
    char *argv[sizeof opts / 2 + 8];
    int argc = 0, i = target_mkfs_index(t->fstype);
    argv[argc++] = prog;
    if (i >= 0 && target_mkfs_tab[i].force)
        argv[argc++] = (char *)target_mkfs_tab[i].force;
    if (i >= 0 && target_mkfs_tab[i].quiet)
        argv[argc++] = (char *)target_mkfs_tab[i].quiet;
    memcpy(opts, t->mkfs_opts, sizeof opts);
    for (char *save = NULL, *w = strtok_r(opts, FSOPTS_BLANKS, &save); w;
         w = strtok_r(NULL, FSOPTS_BLANKS, &save))
        argv[argc++] = w;
    argv[argc++] = t->device;
    argv[argc] = NULL;

    int out[2], ex[2]; /* the child's output; its exec errno (closed on exec) */
    if (os_pipe_cloexec(out) < 0)
        return error_errno("cannot run %s: pipe", prog);
    if (os_pipe_cloexec(ex) < 0) {
        close(out[0]);
        close(out[1]);
        return error_errno("cannot run %s: pipe", prog);
    }
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(out[0]), close(out[1]), close(ex[0]), close(ex[1]);
        return error_num(e, "cannot run %s: fork", prog);
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null >= 0)
            dup2(null, 0);
        dup2(out[1], 1);
        dup2(out[1], 2);
        sig_child_reset();
        /* in our empty mount point, so that no relative name could reach a file */
        if (chdir(t->mnt) == 0)
            execv(path, argv);
        int e = errno;
        ssize_t w = write(ex[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    close(out[1]);
    close(ex[1]);
    struct target_lastline ll;
    memset(&ll, 0, sizeof ll);
    char buf[4096];
    for (;;) {
        ssize_t n = read(out[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        target_lastline_feed(&ll, buf, (size_t)n);
    }
    target_lastline_feed(&ll, "\n", 1);
    int exec_errno = 0;
    ssize_t n;
    do
        n = read(ex[0], &exec_errno, sizeof exec_errno);
    while (n < 0 && errno == EINTR);
    close(out[0]);
    close(ex[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return error_errno("cannot wait for %s", prog);
    if (n == (ssize_t)sizeof exec_errno) {
        if (exec_errno == ENOENT)
            return target_mkfs_missing(prog, t->fstype);
        return error_num(exec_errno, "cannot run %s", path);
    }
    if (WIFSIGNALED(status))
        return error("%s on %s killed by signal %d", prog, t->device, WTERMSIG(status));
    if (WEXITSTATUS(status))
        return error("%s on %s failed (exit %d): %s", prog, t->device, WEXITSTATUS(status),
                     ll.last[0] ? ll.last : "no message");
    target_note_made(t);
    return 0;
}

int target_mount(struct target *t, const char *mount_opts)
{
    if (t->mounted)
        return error("%s is already mounted on %s", t->device, t->mnt);
    if (!t->fstype[0])
        return error("no file system type set for %s", t->device);
    unsigned long flags;
    char data[TARGET_DATA_MAX];
    const char *shown = mount_opts ? mount_opts : "defaults";
    char refused[1024];
    if (fsopts_check_mount(t->fstype, mount_opts, refused, sizeof refused) < 0)
        return error("mount options: %s", refused);
    if (os_mount_parse_opts(mount_opts, &flags, data, sizeof data) < 0)
        return error("mount options too long: '%s'", shown);
    if (os_mount(t->device, t->mnt, t->fstype, flags, data[0] ? data : NULL) < 0) {
        int e = errno;
        char why[256];
        if (e == ENODEV && !os_fs_supported(t->fstype, why, sizeof why))
            return error("cannot mount %s: %s", t->device, why);
        if (e == ENODEV)
            return error("cannot mount %s: the kernel does not support the file system %s "
                         "(try modprobe %s)",
                         t->device, t->fstype, t->fstype);
        return error("cannot mount %s (%s) on %s with options '%s': %s%s", t->device, t->fstype,
                     t->mnt, shown, strerror(e),
                     e == EINVAL ? " (dmesg shows the kernel's reason)" : "");
    }
    t->mounted = true;
    return 0;
}

int target_umount(struct target *t)
{
    if (!t->mounted)
        return 0;
    for (int i = 0;; i++) {
        if (os_umount(t->mnt, false) == 0)
            break;
        if (errno == EINVAL) { /* not a mount point any more: someone unmounted it */
            warning("%s was no longer mounted", t->mnt);
            break;
        }
        if (errno != EBUSY || i == 10)
            return error_errno("cannot unmount %s%s", t->mnt,
                               errno == EBUSY ? " (still in use: see fuser -vm)" : "");
        target_sleep_ms(100);
    }
    t->mounted = false;
    return 0;
}

bool target_is_mounted(const struct target *t)
{
    return t && t->mounted;
}

const char *target_mount_point(const struct target *t)
{
    return t->mnt;
}

const char *target_device(const struct target *t)
{
    return t->device;
}

int target_keep(struct target *t, const char *name, char *path, size_t len)
{
    if (!t->image_made) {
        snprintf(path, len, "%s", t->device);
        return 0;
    }
    /* t->dir is DIR/fsbench-target.XXXXXX: the kept image goes to DIR, the same file
     * system, so link() moves it without copying and refuses to replace anything */
    char base[PATH_MAX];
    snprintf(base, sizeof base, "%s", t->dir);
    char *slash = strrchr(base, '/');
    if (!slash)
        return error("cannot keep the image %s: no directory above %s", t->image, t->dir);
    *slash = '\0';
    if (!base[0])
        snprintf(base, sizeof base, "/");
    char dest[PATH_MAX];
    for (unsigned k = 1; k < 1000; k++) {
        char num[16] = "";
        if (k > 1)
            snprintf(num, sizeof num, "-%u", k);
        if ((size_t)snprintf(dest, sizeof dest, "%s%sfsbench-%s%s.img", base,
                             strcmp(base, "/") ? "/" : "", name, num) >= sizeof dest)
            return error("cannot keep the image %s: the name under %s is too long", t->image,
                         base);
        if (link(t->image, dest) == 0) {
            if (unlink(t->image) < 0 && errno != ENOENT) {
                int e = errno;
                unlink(dest);
                return error_num(e, "cannot keep the image %s", t->image);
            }
            snprintf(t->image, sizeof t->image, "%s", dest);
            t->image_made = false; /* not ours to remove any more */
            snprintf(path, len, "%s", dest);
            return 0;
        }
        if (errno != EEXIST)
            return error_errno("cannot keep the image %s as %s", t->image, dest);
    }
    return error("cannot keep the image %s: fsbench-%s.img to -999 exist in %s", t->image, name,
                 base);
}

int target_destroy(struct target *t)
{
    if (!t || !t->in_use)
        return 0;
    int rc = 0;
    if (t->mounted) {
        for (int i = 0; i <= 10 && t->mounted; i++) {
            if (os_umount(t->mnt, false) == 0 || errno == EINVAL)
                t->mounted = false;
            else if (errno == EBUSY)
                target_sleep_ms(100);
            else
                break;
        }
        if (t->mounted && os_umount(t->mnt, true) == 0) {
            warning("%s was busy: detached it lazily", t->mnt);
            t->mounted = false;
        }
        if (t->mounted)
            rc = error_errno("cannot unmount %s", t->mnt);
    }
    if (t->loop_attached && !t->mounted) {
        if (os_loop_detach(t->device, t->image_dev, t->image_ino) < 0)
            rc = -1;
        else
            t->loop_attached = false;
    }
    if (t->image_made) {
        if (unlink(t->image) < 0 && errno != ENOENT)
            rc = error_errno("cannot remove the image %s", t->image);
        else
            t->image_made = false;
    }
    if (t->mnt_made && !t->mounted) {
        if (rmdir(t->mnt) < 0 && errno != ENOENT)
            rc = error_errno("cannot remove the mount point %s", t->mnt);
        else
            t->mnt_made = false;
    }
    /* the owner record goes last: until then a later fsbench can finish the release */
    if (t->owner_made && !t->mounted && !t->loop_attached && !t->image_made && !t->mnt_made) {
        char path[PATH_MAX];
        target_join(path, t->dir, TARGET_OWNER);
        if (unlink(path) < 0 && errno != ENOENT)
            rc = error_errno("cannot remove %s", path);
        else
            t->owner_made = false;
    }
    if (t->owner_fd >= 0 && !t->owner_made) {
        close(t->owner_fd);
        t->owner_fd = -1;
    }
    if (t->dir_made && !t->mnt_made && !t->image_made && !t->owner_made) {
        if (rmdir(t->dir) < 0 && errno != ENOENT)
            rc = error_errno("cannot remove %s", t->dir);
        else
            t->dir_made = false;
    }
    if (!t->mounted && !t->loop_attached && !t->image_made && !t->mnt_made && !t->dir_made &&
        !t->owner_made)
        t->in_use = false;
    return rc;
}

int target_destroy_all(void)
{
    int rc = 0;
    for (int i = TARGET_MAX - 1; i >= 0; i--)
        if (target_reg[i].in_use && target_destroy(&target_reg[i]) < 0)
            rc = -1;
    return rc;
}

void target_release_on_fault(void)
{
    for (int i = TARGET_MAX - 1; i >= 0; i--) {
        struct target *t = &target_reg[i];
        if (!t->in_use)
            continue;
        for (int k = 0; k <= 10 && t->mounted; k++) {
            if (os_umount(t->mnt, false) == 0 || errno == EINVAL)
                t->mounted = false;
            else if (errno == EBUSY)
                target_sleep_ms(100);
            else
                break;
        }
        if (t->mounted && os_umount(t->mnt, true) == 0)
            t->mounted = false;
        if (t->mounted)
            continue; /* the rest needs it unmounted */
        if (t->loop_attached && os_loop_detach_quiet(t->device, t->image_dev, t->image_ino) == 0)
            t->loop_attached = false;
        if (t->image_made && (unlink(t->image) == 0 || errno == ENOENT))
            t->image_made = false;
        if (t->mnt_made && (rmdir(t->mnt) == 0 || errno == ENOENT))
            t->mnt_made = false;
        if (t->owner_made && !t->loop_attached && !t->image_made && !t->mnt_made) {
            char path[PATH_MAX];
            target_join(path, t->dir, TARGET_OWNER);
            if (unlink(path) == 0 || errno == ENOENT)
                t->owner_made = false;
        }
        if (t->owner_fd >= 0 && !t->owner_made) {
            close(t->owner_fd);
            t->owner_fd = -1;
        }
        if (t->dir_made && !t->mnt_made && !t->image_made && !t->owner_made &&
            (rmdir(t->dir) == 0 || errno == ENOENT))
            t->dir_made = false;
    }
}

uint64_t target_min_image(const char *fstype)
{
    static const struct {
        const char *fs;
        uint64_t bytes;
    } mins[] = {
        {"ext2", 128 << 10},        {"ext3", 128 << 10}, {"ext4", 128 << 10},
        {"btrfs", 109ull << 20}, {"xfs", 300ull << 20}, {NULL, 0},
    };
    for (size_t i = 0; mins[i].fs; i++)
        if (!strcmp(fstype, mins[i].fs))
            return mins[i].bytes;
    return 0;
}

int target_check_device(const char *dev, bool force)
{
    return os_device_check(dev, force);
}
