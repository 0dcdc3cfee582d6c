/* replay_state.c — a trace's initial state laid down below the replay's root, untimed:
 * each directory (owner rwx added, so that what it holds can be made), each file with its
 * recorded size of pattern bytes (or, for record's measure of the tracer, only that size:
 * a sparse file) and its mode (setuid and setgid dropped unless params->replay_keep_setid:
 * a trace is someone else's data, and must not make setuid files as root), each symlink
 * with its target; then a sync of the file
 * system, so that the timed replay does not write this back.
 *
 * Entries come in path order, so a directory comes before what it holds and entries of
 * one directory come together: the parent's descriptor (opened beneath the root, no
 * symlink followed) is kept from one entry to the next while it stays the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/text.h"
#include "os/beneath.h"
#include "os/rawsys.h"
#include "phase/replay_internal.h"
#include "phase/workload.h"

static int fail(char *why, size_t len, const char *op, const char *path, int e)
{
    snprintf(why, len, "initial state: %s %s/%s: %s", op, PHASE_TREE_DIR, text_shown(path),
             strerror(e));
    return -1;
}

/* Writes size pattern bytes to fd. 0 or -errno. */
static int fill(int fd, uint64_t size)
{
    const unsigned char *p = wl_pattern();
    while (size > 0) {
        size_t n = size < WL_PATTERN_LEN ? (size_t)size : WL_PATTERN_LEN;
        long w = raw_write(fd, p, n);
        if (w < 0)
            return -errno;
        if (w == 0)
            return -EIO;
        size -= (uint64_t)w;
    }
    return 0;
}

static int make(int pfd, const char *name, const struct trace_entry *e, const char *target,
                bool sparse, bool keep_setid, uint64_t *dropped)
{
    if (e->type == TT_DIR) {
        if (mkdirat(pfd, name, (mode_t)(e->mode | 0700)) == 0)
            return 0;
        struct stat st;
        if (errno == EEXIST && fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISDIR(st.st_mode))
            return 0; /* already there (an earlier phase made it) */
        return -errno;
    }
    if (e->type == TT_SYMLINK) {
        if (symlinkat(target, pfd, name) == 0)
            return 0;
        if (errno != EEXIST || unlinkat(pfd, name, 0) < 0 || symlinkat(target, pfd, name) < 0)
            return -errno;
        return 0;
    }
    int fd = (int)raw_openat(pfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
                             0600);
    if (fd < 0)
        return -errno;
    int rc = sparse ? (ftruncate(fd, (off_t)e->size) < 0 ? -errno : 0) : fill(fd, e->size);
    mode_t mode = (mode_t)e->mode;
    if (!keep_setid && (mode & (S_ISUID | S_ISGID))) {
        mode &= (mode_t) ~(S_ISUID | S_ISGID); /* no setuid file made from a trace */
        (*dropped)++;
    }
    if (rc == 0 && fchmod(fd, mode) < 0)
        rc = -errno;
    if (raw_close(fd) < 0 && rc == 0)
        rc = -errno;
    return rc;
}

int rp_state_lay(struct phase_ctx *ctx, struct trace_file *t, int root, uint64_t *dropped,
                 char *why, size_t len)
{
    bool sparse = ctx->params && ctx->params->replay_sparse;
    bool keep_setid = ctx->params && ctx->params->replay_keep_setid;
    *dropped = 0;
    struct trace_stream *s = trace_state_open(t, why, len);
    if (!s)
        return -1;
    char path[TRACE_PATH_MAX], parent[TRACE_PATH_MAX] = "", target[TRACE_PATH_MAX];
    int pfd = root, rc = 0;
    struct trace_entry e;
    int r;
    while ((r = trace_next_entry(s, &e)) > 0) {
        memcpy(path, e.path, e.path_len);
        path[e.path_len] = '\0';
        if (e.target) {
            memcpy(target, e.target, e.target_len);
            target[e.target_len] = '\0';
        }
        char *slash = strrchr(path, '/');
        const char *name = slash ? slash + 1 : path;
        if (slash)
            *slash = '\0';
        const char *dir = slash ? path : "";
        if (strcmp(dir, parent)) {
            if (pfd != root)
                close(pfd);
            pfd = dir[0] ? os_open_beneath(root, dir, O_RDONLY | O_DIRECTORY, 0) : root;
            if (pfd < 0) {
                rc = fail(why, len, "open", dir, errno);
                pfd = root;
                break;
            }
            snprintf(parent, sizeof parent, "%s", dir);
        }
        int m = make(pfd, name, &e, target, sparse, keep_setid, dropped);
        if (m < 0) {
            if (slash)
                *slash = '/';
            rc = fail(why, len, e.type == TT_DIR ? "mkdir" : "create", path, -m);
            break;
        }
    }
    if (r < 0 && rc == 0) {
        snprintf(why, len, "%s", trace_stream_error(s));
        rc = -1;
    }
    trace_stream_close(s);
    if (pfd != root)
        close(pfd);
    if (rc == 0 && raw_syncfs(root) < 0)
        rc = fail(why, len, "sync", ".", errno);
    return rc;
}
