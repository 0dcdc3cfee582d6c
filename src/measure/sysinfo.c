/* sysinfo.c — descriptions stored with results: the machine (kernel, CPU, RAM, writeback
 * settings), the file system holding a target path (/proc/self/mountinfo), and the block
 * device whose /sys/dev/block/M:m/stat counters measure.c reads around each phase.
 * Declarations are in measure.h.
 *
 * Mount lookups pick the mount whose mount point is the longest prefix of the path's
 * realpath; of mounts stacked on the same point the last one listed (the visible one) wins.
 */
#include "measure/measure.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/err.h"

/* Copies src into dst[size], truncating; always NUL-terminated. */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size) n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Reads the first line of a small file into buf without its newline: 0 or -1. */
static int read_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "re");
    if (!f) return -1;
    char *ok = fgets(buf, (int)size, f);
    fclose(f);
    if (!ok) return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* ---- /proc/self/mountinfo ---- */

struct mount_entry {
    unsigned major, minor;
    char mount_point[PATH_MAX];
    char mount_opts[1024]; /* per-mount options, then super options, deduplicated */
    char fstype[64];
    char source[PATH_MAX];
};

/* Decodes the octal escapes mountinfo writes for space, tab, newline and backslash. */
static void unescape(char *s)
{
    char *out = s;
    for (char *p = s; *p;) {
        if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
            p[3] >= '0' && p[3] <= '7') {
            *out++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
            p += 4;
        } else {
            *out++ = *p++;
        }
    }
    *out = '\0';
}

/* Appends the comma-separated options in `add` to `opts` (size bytes), skipping those
 * already present. */
static void merge_opts(char *opts, size_t size, const char *add)
{
    char tmp[1024];
    copy_str(tmp, sizeof tmp, add);
    char *save = NULL;
    for (char *o = strtok_r(tmp, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
        size_t olen = strlen(o);
        bool dup = false;
        for (const char *p = opts; *p;) {
            size_t n = strcspn(p, ",");
            if (n == olen && memcmp(p, o, n) == 0) {
                dup = true;
                break;
            }
            p += n;
            if (*p == ',') p++;
        }
        size_t len = strlen(opts);
        if (dup || len + (len ? 1 : 0) + olen >= size) continue;
        if (len) opts[len++] = ',';
        memcpy(opts + len, o, olen + 1);
    }
}

/* Parses one mountinfo line (modified in place) into e: 0, or -1 if malformed. */
static int parse_mount_line(char *line, struct mount_entry *e)
{
    char *field[6], *save = NULL, *tok;
    unsigned nf = 0;
    line[strcspn(line, "\n")] = '\0';
    for (tok = strtok_r(line, " ", &save); tok && nf < 6; tok = strtok_r(NULL, " ", &save))
        field[nf++] = tok;
    if (nf < 6 || sscanf(field[2], "%u:%u", &e->major, &e->minor) != 2) return -1;
    while (tok && strcmp(tok, "-") != 0) /* optional fields: "shared:1 master:2 ..." */
        tok = strtok_r(NULL, " ", &save);
    char *fstype = tok ? strtok_r(NULL, " ", &save) : NULL;
    char *source = fstype ? strtok_r(NULL, " ", &save) : NULL;
    char *super = source ? strtok_r(NULL, " ", &save) : NULL;
    if (!source) return -1;
    unescape(field[4]);
    unescape(source);
    copy_str(e->mount_point, sizeof e->mount_point, field[4]);
    copy_str(e->fstype, sizeof e->fstype, fstype);
    copy_str(e->source, sizeof e->source, source);
    e->mount_opts[0] = '\0';
    merge_opts(e->mount_opts, sizeof e->mount_opts, field[5]);
    if (super) merge_opts(e->mount_opts, sizeof e->mount_opts, super);
    return 0;
}

/* Length of mount point mp if it is a path prefix of `path`, else 0. */
static size_t prefix_len(const char *mp, const char *path)
{
    size_t n = strlen(mp);
    if (n == 1 && mp[0] == '/') return 1;
    if (strncmp(mp, path, n) == 0 && (path[n] == '\0' || path[n] == '/')) return n;
    return 0;
}

/* Finds the mount holding real path `path`. With want_dev, a mount whose M:m is dev is
 * preferred; a path with no such mount (a btrfs subvolume has its own st_dev) takes the
 * longest prefix of all. 0 when found, 1 when none, -1 after error() if mountinfo is
 * unreadable. */
static int find_mount(const char *path, bool want_dev, dev_t dev, struct mount_entry *out)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f) return error_errno("/proc/self/mountinfo");
    struct mount_entry *e = malloc(sizeof *e);
    if (!e) {
        fclose(f);
        return error("out of memory");
    }
    char *line = NULL;
    size_t cap = 0, best_any = 0, best_dev = 0;
    bool found_dev = false;
    while (getline(&line, &cap, f) > 0) {
        if (parse_mount_line(line, e) < 0) continue;
        size_t n = prefix_len(e->mount_point, path);
        if (!n) continue;
        bool same = want_dev && e->major == major(dev) && e->minor == minor(dev);
        if (same && n >= best_dev) {
            best_dev = n;
            found_dev = true;
            *out = *e;
        } else if (!found_dev && n >= best_any) {
            best_any = n;
            *out = *e;
        }
    }
    free(line);
    free(e);
    fclose(f);
    return found_dev || best_any ? 0 : 1;
}

/* ---- block devices ---- */

/* Fills dev for block device M:m if sysfs knows it; dev->valid false otherwise. */
static void dev_from_devt(dev_t rdev, struct meas_dev *dev)
{
    char dir[64], path[128], buf[PATH_MAX];
    struct stat st;
    memset(dev, 0, sizeof *dev);
    snprintf(dir, sizeof dir, "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
    snprintf(dev->stat_path, sizeof dev->stat_path, "%s/stat", dir);
    if (stat(dev->stat_path, &st) < 0) {
        dev->stat_path[0] = '\0';
        return;
    }
    dev->valid = true;

    snprintf(path, sizeof path, "%s/uevent", dir);
    FILE *f = fopen(path, "re");
    if (f) {
        while (fgets(buf, sizeof buf, f)) {
            if (strncmp(buf, "DEVNAME=", 8) == 0) {
                buf[strcspn(buf, "\n")] = '\0';
                copy_str(dev->name, sizeof dev->name, buf + 8);
                break;
            }
        }
        fclose(f);
    }
    if (!dev->name[0]) {
        ssize_t n = readlink(dir, buf, sizeof buf - 1);
        if (n > 0) {
            buf[n] = '\0';
            char *slash = strrchr(buf, '/');
            copy_str(dev->name, sizeof dev->name, slash ? slash + 1 : buf);
        }
    }
}

int meas_dev_for_node(const char *node, struct meas_dev *dev)
{
    struct stat st;
    memset(dev, 0, sizeof *dev);
    if (stat(node, &st) < 0) return error_errno("%s", node);
    if (!S_ISBLK(st.st_mode)) return error("%s: not a block device", node);
    dev_from_devt(st.st_rdev, dev);
    return 0;
}

int meas_dev_for_path(const char *path, struct meas_dev *dev)
{
    struct stat st;
    memset(dev, 0, sizeof *dev);
    if (stat(path, &st) < 0) return error_errno("%s", path);
    if (major(st.st_dev) != 0) {
        dev_from_devt(st.st_dev, dev);
        if (dev->valid) return 0;
    }
    /* Anonymous device (tmpfs, btrfs, overlay, NFS): the mount source may be a block
     * device node (btrfs), or not (tmpfs, overlay): then there is nothing to measure. */
    char *real = realpath(path, NULL);
    if (!real) return error_errno("%s", path);
    struct mount_entry *m = malloc(sizeof *m);
    if (!m) {
        free(real);
        return error("out of memory");
    }
    int rc = find_mount(real, true, st.st_dev, m);
    struct stat src;
    if (rc == 0 && m->source[0] == '/' && stat(m->source, &src) == 0 && S_ISBLK(src.st_mode))
        dev_from_devt(src.st_rdev, dev);
    free(m);
    free(real);
    return rc < 0 ? -1 : 0;
}

/* ---- descriptions ---- */

int meas_target_probe(const char *path, struct target_info *t)
{
    memset(t, 0, sizeof *t);
    char *real = realpath(path, NULL);
    if (!real) return error_errno("%s", path);
    copy_str(t->path, sizeof t->path, real);

    struct stat st;
    struct mount_entry *m = malloc(sizeof *m);
    if (!m) {
        free(real);
        return error("out of memory");
    }
    bool have_st = stat(real, &st) == 0;
    int rc = find_mount(real, have_st, have_st ? st.st_dev : 0, m);
    if (rc == 0) {
        copy_str(t->fstype, sizeof t->fstype, m->fstype);
        copy_str(t->mount_point, sizeof t->mount_point, m->mount_point);
        copy_str(t->mount_opts, sizeof t->mount_opts, m->mount_opts);
        copy_str(t->device, sizeof t->device, m->source);
    } else if (rc > 0) {
        rc = error("%s: no mount found in /proc/self/mountinfo", real);
    }
    free(m);

    struct meas_dev dev;
    if (rc == 0 && meas_dev_for_path(real, &dev) == 0 && dev.valid)
        copy_str(t->blockdev, sizeof t->blockdev, dev.name);
    free(real);
    return rc;
}

/* A /proc/sys value as a long; -1 when unreadable. */
static long sysctl_long(const char *path)
{
    char buf[64], *end;
    if (read_line(path, buf, sizeof buf) < 0) return -1;
    errno = 0;
    long v = strtol(buf, &end, 10);
    return end == buf || errno ? -1 : v;
}

/* Value after "key<spaces>:" in a /proc file of "key : value" lines, trimmed: 0 or -1. */
static int proc_keyed(const char *path, const char *key, char *out, size_t size)
{
    FILE *f = fopen(path, "re");
    if (!f) return -1;
    char line[512];
    size_t klen = strlen(key);
    int rc = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0) continue;
        char *p = line + klen;
        p += strspn(p, " \t");
        if (*p != ':') continue;
        p++;
        p += strspn(p, " \t");
        p[strcspn(p, "\n")] = '\0';
        copy_str(out, size, p);
        rc = 0;
        break;
    }
    fclose(f);
    return rc;
}

void meas_machine_probe(struct machine_info *m)
{
    memset(m, 0, sizeof *m);
    if (gethostname(m->hostname, sizeof m->hostname) < 0)
        copy_str(m->hostname, sizeof m->hostname, "unknown");
    m->hostname[sizeof m->hostname - 1] = '\0';
    struct utsname u;
    if (uname(&u) == 0) {
        copy_str(m->kernel, sizeof m->kernel, u.release);
        copy_str(m->kernel_version, sizeof m->kernel_version, u.version);
        copy_str(m->arch, sizeof m->arch, u.machine);
    }
    if (proc_keyed("/proc/cpuinfo", "model name", m->cpu, sizeof m->cpu) < 0 || !m->cpu[0])
        copy_str(m->cpu, sizeof m->cpu, "unknown");
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    m->ncpu = n > 0 ? (int)n : 1;
    char buf[64];
    if (proc_keyed("/proc/meminfo", "MemTotal", buf, sizeof buf) == 0)
        m->ram_bytes = strtoull(buf, NULL, 10) * 1024u; /* "N kB" */

    m->dirty_ratio = sysctl_long("/proc/sys/vm/dirty_ratio");
    m->dirty_background_ratio = sysctl_long("/proc/sys/vm/dirty_background_ratio");
    m->dirty_bytes = sysctl_long("/proc/sys/vm/dirty_bytes");
    m->dirty_background_bytes = sysctl_long("/proc/sys/vm/dirty_background_bytes");
    m->dirty_expire_centisecs = sysctl_long("/proc/sys/vm/dirty_expire_centisecs");
    m->dirty_writeback_centisecs = sysctl_long("/proc/sys/vm/dirty_writeback_centisecs");
    m->vfs_cache_pressure = sysctl_long("/proc/sys/vm/vfs_cache_pressure");
}
