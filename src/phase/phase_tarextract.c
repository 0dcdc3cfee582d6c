/* phase_tarextract.c — the extract phase for a real archive: like tar -xp, but every
 * file-system operation goes through the run's engine, so it is counted and timed like
 * the synthetic extract.
 *
 * phase_extract_tar() hands an indexed archive to the threaded extraction
 * (phase_tarextract_par.c). The rest is here: the streaming extraction, for archives whose
 * order matters (a name made twice) or whose data must be decoded, on one thread.
 *
 * The archive (already decompressed by tarsrc_open) is streamed entry by entry; file data
 * is written straight out of libarchive's read buffer, one write per data block. Entries
 * are created by their last name relative to the fd of their directory, which a cursor of
 * open directories gives (longpath.h: the directories of the last path stay open, so
 * consecutive entries of one directory cost no extra open, and a subdirectory one open).
 *
 * Safety (see tarsrc.h): a parent directory is used only if this extraction created it
 * (the set `dirs`), and it is created only below a parent in that set, so every prefix is
 * a real directory of ours. A parent that exists but is not in the set is a symlink or
 * file from the archive: the entry is refused. Existing non-directories are replaced (a
 * later entry of the same name wins, as with tar); directories never are. tarindex.c
 * models exactly these rules. And no *at call is ever given a path of several names:
 * directories are opened beneath the root with no symlink followed (engine.h), so a
 * directory swapped for a symlink while the phase runs fails the phase, naming it, and
 * nothing is written outside the tree.
 *
 * The calls on each entry are tar -x's or create only (tarcalls.h). With tar's, a listed
 * directory's times, owner and mode are set where tar sets them: when the archive leaves
 * it (the first entry that is not below it: GNU tar's delayed set_stat, a stack), the
 * rest at the end, deepest first, then the root's; until then directories are u+rwx.
 * With one thread this is the extraction tar's calls use (phase_extract_tar), so the
 * order of the calls is tar's too.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "phase/longpath.h"
#include "phase/phase.h"
#include "tree/tarindex.h"
#include "phase/phase_tarextract.h"
#include "phase/tarcalls.h"

/* Warnings printed one by one before only counting (as the threaded extraction does). */
#define REFUSE_LINES TIX_REFUSE_LINES

/* A directory whose mode and times are set at the end. */
struct dirfix {
    const char *path; /* key in the dirs set */
    mode_t mode;
    mode_t have; /* its mode now: as made, or as a fix-up left it */
    struct timespec times[2];
    uid_t uid;
    gid_t gid;
    bool listed; /* the archive has an entry for it (else nothing to fix) */
    bool pending; /* on the stack of fix-ups to come */
    bool again;   /* fixed, then written into again: fixed once more at the end */
};

struct xstate {
    struct phase_ctx *ctx;
    const struct engine *e;
    struct eng_worker *w;
    struct tarsrc *src;
    struct archive *a;
    int root;
    struct tarcalls tc; /* the calls on each entry */
    struct tarent_set dirs; /* val: index into fix */
    struct dirfix *fix;
    size_t nfix, capfix;
    size_t *pend; /* listed directories whose fix-up waits, outermost first (tar's) */
    size_t npend, cappend;
    bool root_listed; /* a "./" entry: its mode and times go to root */
    mode_t root_mode;
    uid_t root_uid;
    gid_t root_gid;
    struct timespec root_times[2];
    struct longpath lp; /* the directories of the last path, open */
    uint64_t refused;
    char path[TARENT_PATH_MAX]; /* the entry's normalised name */
    char link[TARENT_PATH_MAX]; /* a hard link's normalised target */
};

/* Refuses the current entry (raw name from the archive) with a warning. Returns 0. */
static int refuse(struct xstate *x, const char *raw, const char *why)
{
    if (++x->refused <= REFUSE_LINES) {
        char name[512];
        tarent_printable(raw, name, sizeof name);
        warning("tar:%s: refused '%s': %s", tarsrc_path(x->src), name, why);
    }
    return 0;
}

/* Records a read failure of the archive (libarchive's reason) as the phase's failure. */
static int fail_archive(struct xstate *x)
{
    struct phase_result *r = x->ctx->res;
    if (r->status != PHASE_FAILED) {
        const char *s = archive_error_string(x->a);
        r->status = PHASE_FAILED;
        snprintf(r->note, sizeof r->note, "read tar:%s: %s", tarsrc_path(x->src),
                 s && *s ? s : "unreadable archive");
    }
    return -1;
}

/* The entry's times for futimens/utimensat, or NULL when the archive has neither. */
static const struct timespec *entry_times(struct archive_entry *ent, struct timespec t[2])
{
    bool a = archive_entry_atime_is_set(ent), m = archive_entry_mtime_is_set(ent);
    if (!a && !m)
        return NULL;
    t[0].tv_sec = a ? archive_entry_atime(ent) : 0;
    t[0].tv_nsec = a ? archive_entry_atime_nsec(ent) : UTIME_OMIT;
    t[1].tv_sec = m ? archive_entry_mtime(ent) : 0;
    t[1].tv_nsec = m ? archive_entry_mtime_nsec(ent) : UTIME_OMIT;
    return t;
}

/* Adds directory path[0..len) to the set and the fix-up list; NULL when out of memory. */
static struct dirfix *add_dir(struct xstate *x, const char *path, size_t len)
{
    if (x->nfix == x->capfix) {
        size_t ncap = x->capfix ? x->capfix * 2 : 64;
        struct dirfix *p = realloc(x->fix, ncap * sizeof *p);
        if (!p)
            return NULL;
        x->fix = p;
        x->capfix = ncap;
    }
    struct tarent_slot *s = tarent_set_add(&x->dirs, path, len);
    if (!s)
        return NULL;
    s->val = x->nfix;
    struct dirfix *f = &x->fix[x->nfix++];
    memset(f, 0, sizeof *f);
    f->path = s->key;
    return f;
}

/* phase_fail (dir: phase_fail_dir_at) naming path[0..len). -1. */
static int fail_prefix(struct xstate *x, const char *op, const char *path, size_t len, int rc,
                       bool dir)
{
    char *p = malloc(len + 1);
    if (!p)
        return phase_fail(x->ctx, op, "?", rc);
    memcpy(p, path, len);
    p[len] = '\0';
    if (dir)
        phase_fail_dir_at(x->ctx, op, "", x->root, p, rc);
    else
        phase_fail(x->ctx, op, p, rc);
    free(p);
    return -1;
}

/* The fd of directory path[0..len) (one of ours), from the cursor. fd or -1 after
 * phase_fail(). */
static int dir_fd(struct xstate *x, const char *path, size_t len)
{
    int fd = longpath_dir(x->e, x->w, &x->lp, x->root, path, len);
    return fd >= 0 ? fd : fail_prefix(x, "open", path, len, fd, true);
}

/* Makes directory path[0..len) and any missing parents (mode 0777 less the umask, as tar
 * does for directories the archive does not list), each by its name in its parent's fd.
 * 0, 1 when a prefix exists but is not one of our directories (refused), -1 after
 * phase_fail(). */
static int make_parents(struct xstate *x, const char *path, size_t len)
{
    if (!len || tarent_set_find(&x->dirs, path, len))
        return 0;
    size_t from = 0; /* where the name being looked at starts */
    for (size_t i = 1; i <= len; i++) {
        if (i < len && path[i] != '/')
            continue;
        size_t start = from;
        from = i + 1;
        if (tarent_set_find(&x->dirs, path, i))
            continue;
        char name[1024];
        if (i - start >= sizeof name)
            return fail_prefix(x, "mkdir", path, i, -ENAMETOOLONG, false);
        memcpy(name, path + start, i - start);
        name[i - start] = '\0';
        int pfd = dir_fd(x, path, start ? start - 1 : 0);
        if (pfd < 0)
            return -1;
        int rc = x->e->mkdir(x->w, pfd, name, 0777);
        if (rc == -EEXIST || rc == -ENOTDIR)
            return 1;
        if (rc < 0)
            return fail_prefix(x, "mkdir", path, i, rc, false);
        struct dirfix *f = add_dir(x, path, i);
        if (!f)
            return fail_prefix(x, "extract", path, i, -ENOMEM, false);
        f->have = 0777 & ~x->tc.umask;
        x->ctx->res->dirs++;
    }
    return 0;
}

/* The fd of the directory of x->path, created if missing; *base gets the last name.
 * fd >= 0, -2 when the entry is refused (warned), -1 after phase_fail(). */
static int parent_fd(struct xstate *x, const char *raw, const char **base)
{
    const char *slash = strrchr(x->path, '/');
    size_t len = slash ? (size_t)(slash - x->path) : 0;
    *base = slash ? slash + 1 : x->path;
    if (len == 0)
        return x->root;
    int rc = make_parents(x, x->path, len);
    if (rc < 0)
        return -1;
    if (rc > 0) {
        refuse(x, raw, "goes through a symlink or file, not a directory of this extraction");
        return -2;
    }
    return dir_fd(x, x->path, len);
}

/* Makes room for a non-directory entry whose name exists: a directory of ours is never
 * replaced (refused, 1); anything else is unlinked (0). -1 after phase_fail(). */
static int replace_existing(struct xstate *x, int pfd, const char *base, const char *raw)
{
    if (tarent_set_find(&x->dirs, x->path, strlen(x->path))) {
        refuse(x, raw, "it would replace a directory");
        return 1;
    }
    int rc = x->e->unlink(x->w, pfd, base, 0);
    return rc < 0 ? phase_fail(x->ctx, "unlink", x->path, rc) : 0;
}

static int push_fix(struct xstate *x, struct dirfix *f);

static int do_dir(struct xstate *x, struct archive_entry *ent, const char *raw)
{
    size_t len = strlen(x->path);
    struct tarent_slot *s = tarent_set_find(&x->dirs, x->path, len);
    struct dirfix *f;
    if (s) {
        f = &x->fix[s->val]; /* listed again, or made earlier as a parent */
    } else {
        const char *base;
        int pfd = parent_fd(x, raw, &base);
        if (pfd < 0)
            return pfd == -2 ? 0 : -1;
        int rc = x->e->mkdir(x->w, pfd, base, tarcalls_dir_mode(&x->tc, archive_entry_perm(ent)));
        if (rc == -EEXIST)
            return refuse(x, raw, "exists and was not made by this extraction as a directory");
        if (rc < 0)
            return phase_fail(x->ctx, "mkdir", x->path, rc);
        if (!(f = add_dir(x, x->path, len)))
            return phase_fail(x->ctx, "extract", x->path, -ENOMEM);
        f->have = tarcalls_dir_made(&x->tc, archive_entry_perm(ent));
        x->ctx->res->dirs++;
    }
    struct timespec t[2];
    const struct timespec *tp = entry_times(ent, t);
    f->listed = true;
    f->mode = archive_entry_perm(ent);
    f->uid = (uid_t)archive_entry_uid(ent);
    f->gid = (gid_t)archive_entry_gid(ent);
    f->times[0].tv_nsec = f->times[1].tv_nsec = UTIME_OMIT;
    if (tp)
        memcpy(f->times, tp, sizeof f->times);
    if (!x->tc.tar || f->pending)
        return 0;
    return push_fix(x, f);
}

/* Puts f on the stack of directories whose fix-up waits. 0 or -1 after phase_fail(). */
static int push_fix(struct xstate *x, struct dirfix *f)
{
    if (x->npend == x->cappend) {
        size_t ncap = x->cappend ? x->cappend * 2 : 32;
        size_t *p = realloc(x->pend, ncap * sizeof *p);
        if (!p)
            return phase_fail(x->ctx, "extract", x->path, -ENOMEM);
        x->pend = p;
        x->cappend = ncap;
    }
    f->pending = true;
    x->pend[x->npend++] = (size_t)(f - x->fix);
    return 0;
}

/* Writes the entry's data to fd (sparse blocks at their offsets) and sets the size.
 * 0 or -1 after a failure is recorded. */
static int write_data(struct xstate *x, int fd, struct archive_entry *ent)
{
    uint64_t pos = 0;
    bool seq = true; /* no hole yet: plain write() at the current offset */
    for (;;) {
        const void *buf;
        size_t n;
        la_int64_t off;
        int r = archive_read_data_block(x->a, &buf, &n, &off);
        if (r == ARCHIVE_EOF)
            break;
        if (r < ARCHIVE_WARN)
            return fail_archive(x);
        if (off < 0)
            off = (la_int64_t)pos;
        if ((uint64_t)off != pos)
            seq = false;
        const char *p = buf;
        uint64_t o = (uint64_t)off;
        while (n) {
            long w = seq ? x->e->write(x->w, fd, p, n) : x->e->pwrite(x->w, fd, p, n, o);
            if (w < 0)
                return phase_fail(x->ctx, "write", x->path, (int)w);
            if (w == 0)
                return phase_fail(x->ctx, "write", x->path, -EIO);
            p += w;
            n -= (size_t)w;
            o += (uint64_t)w;
        }
        pos = o;
    }
    if (archive_entry_size_is_set(ent) && (uint64_t)archive_entry_size(ent) > pos) {
        int rc = x->e->ftruncate(x->w, fd, (uint64_t)archive_entry_size(ent));
        if (rc < 0)
            return phase_fail(x->ctx, "truncate", x->path, rc);
    }
    return 0;
}

/* Writes data, then with attrs tar's times, owner and mode (tarcalls.h) to the open fd
 * (fsync with ENG_CREATE_FSYNC) and closes it. 0 or -1. */
static int finish_file(struct xstate *x, int fd, struct archive_entry *ent, bool attrs)
{
    int rc = write_data(x, fd, ent);
    if (rc == 0 && attrs) {
        struct timespec t[2];
        const char *op = "setattr";
        int r = tarcalls_fix_file(&x->tc, x->e, x->w, fd, archive_entry_perm(ent),
                                  entry_times(ent, t), (uid_t)archive_entry_uid(ent),
                                  (gid_t)archive_entry_gid(ent), &op);
        if (r < 0)
            rc = phase_fail(x->ctx, op, x->path, r);
    }
    if (rc == 0 && (x->ctx->create_flags & ENG_CREATE_FSYNC)) {
        int r = x->e->fsync(x->w, fd);
        if (r < 0)
            rc = phase_fail(x->ctx, "fsync", x->path, r);
    }
    int c = x->e->close(x->w, fd);
    if (c < 0 && rc == 0)
        rc = phase_fail(x->ctx, "close", x->path, c);
    return rc;
}

static int do_file(struct xstate *x, struct archive_entry *ent, const char *raw)
{
    const char *base;
    int pfd = parent_fd(x, raw, &base);
    if (pfd < 0)
        return pfd == -2 ? 0 : -1;
    int flags = O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW;
    mode_t cmode = tarcalls_file_mode(&x->tc, archive_entry_perm(ent));
    int fd = x->e->open(x->w, pfd, base, flags, cmode);
    if (fd == -EEXIST) {
        int rc = replace_existing(x, pfd, base, raw);
        if (rc)
            return rc > 0 ? 0 : -1;
        fd = x->e->open(x->w, pfd, base, flags, cmode);
    }
    if (fd < 0)
        return phase_fail(x->ctx, "create", x->path, fd);
    if (finish_file(x, fd, ent, true) < 0)
        return -1;
    x->ctx->res->files++;
    return 0;
}

static int do_symlink(struct xstate *x, struct archive_entry *ent, const char *raw)
{
    const char *target = archive_entry_symlink(ent);
    if (!target || !*target)
        return refuse(x, raw, "symlink without a target");
    const char *base;
    int pfd = parent_fd(x, raw, &base);
    if (pfd < 0)
        return pfd == -2 ? 0 : -1;
    int rc = x->e->symlink(x->w, target, pfd, base);
    if (rc == -EEXIST) {
        rc = replace_existing(x, pfd, base, raw);
        if (rc)
            return rc > 0 ? 0 : -1;
        rc = x->e->symlink(x->w, target, pfd, base);
    }
    if (rc < 0)
        return phase_fail(x->ctx, "symlink", x->path, rc);
    struct timespec t[2];
    const char *op = "setattr";
    rc = tarcalls_fix_symlink(&x->tc, x->e, x->w, pfd, base, entry_times(ent, t),
                              (uid_t)archive_entry_uid(ent), (gid_t)archive_entry_gid(ent), &op);
    if (rc < 0)
        return phase_fail(x->ctx, op, x->path, rc);
    x->ctx->res->symlinks++;
    return 0;
}

/* A hard link to an earlier entry (counted as a file). Formats that keep the data with
 * the last link (cpio newc) give it here: it is written through the new name. */
static int do_hardlink(struct xstate *x, struct archive_entry *ent, const char *raw, const char *hl)
{
    const char *why;
    if (tarent_norm_path(hl, x->link, sizeof x->link, &why) || !x->link[0])
        return refuse(x, raw, "hard link target outside the tree");
    const char *ls = strrchr(x->link, '/');
    size_t llen = ls ? (size_t)(ls - x->link) : 0;
    if ((llen && !tarent_set_find(&x->dirs, x->link, llen)) ||
        tarent_set_find(&x->dirs, x->link, strlen(x->link)))
        return refuse(x, raw, "hard link target was not extracted as a file");
    const char *base;
    int pfd = parent_fd(x, raw, &base);
    if (pfd < 0)
        return pfd == -2 ? 0 : -1;
    /* pfd is the cursor's: the target's directory is opened on its own */
    int rc = longpath_link(x->e, x->w, NULL, x->root, x->link, pfd, base);
    if (rc == -EEXIST) {
        if (strcmp(x->link, x->path) == 0)
            return refuse(x, raw, "hard link to itself");
        rc = replace_existing(x, pfd, base, raw);
        if (rc)
            return rc > 0 ? 0 : -1;
        rc = longpath_link(x->e, x->w, NULL, x->root, x->link, pfd, base);
    }
    if (rc == -ENOENT)
        return refuse(x, raw, "hard link target was not extracted");
    if (rc < 0) /* ENOTDIR: a directory on the target's path is a file now */
        return rc == -ENOTDIR ? phase_fail_dir(x->ctx, "link", x->path, rc)
                              : phase_fail(x->ctx, "link", x->path, rc);
    if (archive_entry_size_is_set(ent) && archive_entry_size(ent) > 0) {
        int fd = x->e->open(x->w, pfd, base, O_WRONLY | O_TRUNC | O_NOFOLLOW, 0);
        if (fd < 0)
            return phase_fail(x->ctx, "open", x->path, fd);
        if (finish_file(x, fd, ent, false) < 0)
            return -1;
    }
    x->ctx->res->files++;
    return 0;
}

/* Sets a listed directory's times, owner and mode (tarcalls.h). 0 or -1. */
static int fix_dir(struct xstate *x, struct dirfix *f)
{
    int fd = dir_fd(x, f->path, strlen(f->path));
    if (fd < 0)
        return -1;
    const char *op = "setattr";
    int rc = tarcalls_fix_dir(&x->tc, x->e, x->w, fd, f->mode, f->have, f->times, f->uid,
                              f->gid, &op);
    if (rc < 0)
        return phase_fail(x->ctx, op, f->path, rc);
    f->have = tarcalls_dir_want(&x->tc, f->mode);
    return 0;
}

/* GNU tar's delayed set_stat: before entry path, the waiting directories that are not
 * its ancestors (innermost first) get their fix-up. 0 or -1. */
static int fix_left_dirs(struct xstate *x, const char *path)
{
    size_t plen = strlen(path);
    while (x->npend) {
        struct dirfix *f = &x->fix[x->pend[x->npend - 1]];
        size_t n = strlen(f->path);
        if (plen > n && path[n] == '/' && !memcmp(path, f->path, n))
            break;
        x->npend--;
        x->fix[x->pend[x->npend]].pending = false;
        if (fix_dir(x, f) < 0)
            return -1;
    }
    return 0;
}

/* An archive that comes back to a directory it had left (tar -c never writes one) changes
 * a fixed directory's mtime: its listed ancestors no longer waiting are fixed once more at
 * the end, so the tree is the one any -j makes (tar itself leaves such a time as the
 * extraction made it; this costs one fix-up more for each such directory). 0 or -1. */
static int refix_ancestors(struct xstate *x, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return 0; /* in the root: fixed at the end */
    size_t plen = (size_t)(slash - path);
    if (x->npend) {
        const struct dirfix *top = &x->fix[x->pend[x->npend - 1]];
        if (strlen(top->path) == plen && !memcmp(top->path, path, plen))
            return 0; /* the usual case: the parent is the innermost waiting one */
    }
    for (size_t i = 1; i <= plen; i++) {
        if (i < plen && path[i] != '/')
            continue;
        struct tarent_slot *s = tarent_set_find(&x->dirs, path, i);
        if (!s)
            break; /* not made yet: nothing below it was either */
        struct dirfix *f = &x->fix[s->val];
        if (f->listed && !f->pending)
            f->again = true;
    }
    return 0;
}

/* Handles one header. 0 (done or refused) or -1 after a recorded failure. */
static int do_entry(struct xstate *x, struct archive_entry *ent)
{
    const char *raw = archive_entry_pathname(ent), *why;
    if (tarent_norm_path(raw, x->path, sizeof x->path, &why))
        return refuse(x, raw, why);
    if (x->tc.tar && x->path[0] &&
        (fix_left_dirs(x, x->path) < 0 || refix_ancestors(x, x->path) < 0))
        return -1;
    mode_t type = archive_entry_filetype(ent);
    const char *hl = archive_entry_hardlink(ent);
    if (!x->path[0]) { /* "./": the root's own mode and times, applied at the end */
        if (type != AE_IFDIR || hl)
            return refuse(x, raw, "empty name");
        struct timespec t[2];
        const struct timespec *tp = entry_times(ent, t);
        x->root_listed = true;
        x->root_mode = archive_entry_perm(ent);
        x->root_uid = (uid_t)archive_entry_uid(ent);
        x->root_gid = (gid_t)archive_entry_gid(ent);
        x->root_times[0].tv_nsec = x->root_times[1].tv_nsec = UTIME_OMIT;
        if (tp)
            memcpy(x->root_times, tp, sizeof x->root_times);
        return 0;
    }
    if (hl)
        return do_hardlink(x, ent, raw, hl);
    switch (type) {
    case AE_IFDIR:
        return do_dir(x, ent, raw);
    case AE_IFREG:
        return do_file(x, ent, raw);
    case AE_IFLNK:
        return do_symlink(x, ent, raw);
    default:
        return refuse(x, raw, "not a file, directory or link");
    }
}

/* At the end: the directories still waiting, innermost first, then root's. */
static int fix_dirs(struct xstate *x)
{
    while (x->npend) {
        if (phase_check_interrupt(x->ctx))
            return -1;
        struct dirfix *f = &x->fix[x->pend[--x->npend]];
        f->pending = false;
        f->again = false;
        if (fix_dir(x, f) < 0)
            return -1;
    }
    for (size_t i = x->nfix; i-- > 0;) { /* deepest first: reverse creation order */
        if (!x->fix[i].again)
            continue;
        if (phase_check_interrupt(x->ctx))
            return -1;
        if (fix_dir(x, &x->fix[i]) < 0)
            return -1;
    }
    if (x->root_listed) {
        const char *op = "setattr";
        int rc = tarcalls_fix_root(&x->tc, x->e, x->w, x->root, x->root_mode, x->root_times,
                                   x->root_uid, x->root_gid, &op);
        if (rc < 0)
            return phase_fail(x->ctx, op, ".", rc);
    }
    return 0;
}

int phase_extract_tar_stream(struct phase_ctx *ctx, struct tarsrc *src, int root_fd)
{
    struct xstate *x = calloc(1, sizeof *x);
    if (!x)
        return phase_fail(ctx, "extract", tarsrc_path(src), -ENOMEM);
    x->ctx = ctx;
    x->e = ctx->eng;
    x->w = ctx->w;
    x->src = src;
    x->lp = (struct longpath)LONGPATH_INIT;
    x->root = root_fd;
    tarcalls_init(&x->tc, phase_extract_calls(ctx));
    int rc = 0;
    char msg[RES_NOTE_MAX];
    err_capture_begin(msg, sizeof msg);
    x->a = tarsrc_reader(src);
    err_capture_end();
    if (!x->a) {
        /* The copy vanished or became unreadable since tarsrc_open. */
        ctx->res->status = PHASE_FAILED;
        snprintf(ctx->res->note, sizeof ctx->res->note, "%s", msg);
        rc = -1;
    }
    struct archive_entry *ent;
    while (rc == 0) {
        if (phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        int r = archive_read_next_header(x->a, &ent);
        if (r == ARCHIVE_EOF)
            break;
        if (r == ARCHIVE_RETRY)
            continue;
        if (r < ARCHIVE_WARN) {
            rc = fail_archive(x);
            break;
        }
        rc = do_entry(x, ent);
    }
    if (rc == 0)
        rc = fix_dirs(x);
    longpath_release(x->e, x->w, &x->lp);
    if (rc == 0) {
        int d = x->e->drain(x->w);
        if (d < 0)
            rc = phase_fail(ctx, "extract", tarsrc_path(src), d);
    }
    if (x->refused > REFUSE_LINES)
        warning("tar:%s: %llu more entries refused", tarsrc_path(src),
                (unsigned long long)(x->refused - REFUSE_LINES));
    tarsrc_set_refused(src, x->refused);
    if (x->a)
        archive_read_free(x->a);
    tarent_set_free(&x->dirs);
    longpath_release(x->e, x->w, &x->lp);
    free(x->fix);
    free(x->pend);
    free(x);
    return rc < 0 ? -1 : 0;
}

int phase_extract_tar(struct phase_ctx *ctx, struct tarsrc *src, int root_fd)
{
    const struct tarindex *ix = tarsrc_index(src);
    /* tar's calls on one thread: streamed, so in tar's order (the file comment) */
    bool tar_order = phase_extract_calls(ctx) == EXTRACT_CALLS_TAR && phase_threads(ctx) <= 1;
    if (!ix->why_serial && !tar_order)
        return phase_extract_tar_par(ctx, src, root_fd);
    if (phase_threads(ctx) > 1 && tarsrc_say_serial(src))
        warning("tar:%s: archive extracted by one thread: %s", tarsrc_path(src),
                ix->why_serial);
    return phase_extract_tar_stream(ctx, src, root_fd);
}
