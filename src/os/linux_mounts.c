/* linux_mounts.c — mounts.h on Linux: /proc/self/mountinfo, parsed line by line, and
 * /proc/self/fd for the path of an open file.
 *
 * The mount whose mount point is the longest prefix of the path wins; of mounts stacked on
 * the same point the last one listed (the visible one) wins.
 */
#include "os/mounts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Copies src into dst[size], truncating; always NUL-terminated. */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size) n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

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
static int parse_mount_line(char *line, struct os_mount *e)
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

int os_mount_find(const char *path, bool want_dev, dev_t dev, struct os_mount *out)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f) return -1;
    struct os_mount *e = malloc(sizeof *e);
    if (!e) {
        fclose(f);
        errno = ENOMEM;
        return -1;
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

int os_mounts_each(int (*fn)(const struct os_mount *m, void *arg), void *arg)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return -1;
    struct os_mount *e = malloc(sizeof *e);
    if (!e) {
        fclose(f);
        errno = ENOMEM;
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, f) > 0)
        if (parse_mount_line(line, e) == 0)
            rc = fn(e, arg);
    free(line);
    free(e);
    fclose(f);
    return rc;
}

int os_fd_path(int fd, char *buf, size_t len)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(proc, buf, len - 1);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return 0;
}
