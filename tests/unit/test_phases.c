/* test_phases.c — unit tests of the phases (phase*.c) with the posix engine on a scratch
 * workspace: extract makes exactly the tree tree_measure describes; walk, statwalk and read
 * count the same entries; copy makes an identical tree (checked by a walk of our own);
 * delete leaves the workspace empty; failures, skips and interrupts are recorded as the
 * runner expects. The null engine runs the same phases without touching the disk.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "measure/measure.h"
#include "phase/phase.h"
#include "phase/phase_registry.h"
#include "tree/profile.h"
#include "tree/tree.h"
#include "testutil.h"

#define BUF_LEN (128 * 1024)

struct fix {
    char dir[4096];
    struct tree_spec spec;
    struct tree_totals tot;
    struct opstats *st;
    struct eng_worker w;
    struct phase_result res;
    struct phase_ctx ctx;
};

static int setup(void **state)
{
    struct fix *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    if (tu_tree_scratch(f->dir, sizeof f->dir, "phases", "tiny", 0.2, 3, &f->spec, &f->tot) < 0)
        return -1;
    f->st = tu_worker_stats(&f->w);
    if (!f->st)
        return -1;
    int rc = tu_phase_ctx(&f->ctx, &f->w, f->dir, &f->spec, &f->res, malloc(BUF_LEN), BUF_LEN);
    f->ctx.root = geteuid() == 0;
    if (rc < 0 || !f->ctx.buf)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;
    int rc = tu_phase_ctx_done(&f->ctx, f->dir);
    free(f->ctx.buf);
    free(f->st);
    free(f);
    return rc;
}

/* A fresh result and zeroed counters before the next phase. */
static void reset(struct fix *f)
{
    memset(&f->res, 0, sizeof f->res);
    opstats_reset(f->st);
}

static void assert_ok(struct fix *f, int rc)
{
    if (rc != 0 || f->res.status != PHASE_OK)
        fail_msg("phase failed (rc %d, status %d): %s", rc, (int)f->res.status, f->res.note);
}

static void extract_ok(struct fix *f)
{
    reset(f);
    assert_ok(f, phase_extract(&f->ctx));
}

static void assert_counts(struct fix *f, uint64_t mult)
{
    assert_int_equal(f->res.files, mult * f->tot.files);
    assert_int_equal(f->res.dirs, mult * f->tot.dirs);
    assert_int_equal(f->res.symlinks, mult * f->tot.symlinks);
}

/* Entries of a workspace-relative directory other than "." and "..". */
static int count_entries(struct fix *f, const char *rel)
{
    int fd = openat(f->ctx.ws_fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(fd >= 0);
    return tu_count_dir(fdopendir(fd));
}

/* ---- our own walk: sorted names per directory, compared entry by entry ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in directory fd (caller frees); *n gets the count. */
static char **list_dir(int fd, size_t *n)
{
    int dfd = dup(fd);
    assert_true(dfd >= 0);
    DIR *d = fdopendir(dfd);
    assert_non_null(d);
    rewinddir(d); /* the dup shares the offset: start from the top every time */
    size_t cap = 16;
    char **v = malloc(cap * sizeof *v);
    assert_non_null(v);
    *n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (*n == cap) {
            cap *= 2;
            v = realloc(v, cap * sizeof *v);
            assert_non_null(v);
        }
        v[(*n)++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void compare_files(int afd, int bfd, const char *name, off_t size)
{
    int a = openat(afd, name, O_RDONLY | O_CLOEXEC), b = openat(bfd, name, O_RDONLY | O_CLOEXEC);
    assert_true(a >= 0 && b >= 0);
    static char ba[65536], bb[65536];
    off_t total = 0;
    for (;;) {
        ssize_t ra = read(a, ba, sizeof ba);
        assert_true(ra >= 0);
        size_t got = 0;
        while (got < (size_t)ra) {
            ssize_t rb = read(b, bb + got, (size_t)ra - got);
            assert_true(rb > 0);
            got += (size_t)rb;
        }
        if (ra == 0)
            break;
        if (memcmp(ba, bb, (size_t)ra) != 0)
            fail_msg("content of %s differs near offset %lld", name, (long long)total);
        total += ra;
    }
    assert_int_equal(read(b, bb, 1), 0);
    assert_int_equal(total, size);
    close(a);
    close(b);
}

/* Compares directories afd and bfd recursively; adds up what it saw. */
static void compare_trees(int afd, int bfd, const char *path, struct tree_totals *seen)
{
    size_t na, nb;
    char **la = list_dir(afd, &na), **lb = list_dir(bfd, &nb);
    if (na != nb)
        fail_msg("%s: %zu entries vs %zu", path, na, nb);
    for (size_t i = 0; i < na; i++) {
        const char *name = la[i];
        if (strcmp(name, lb[i]))
            fail_msg("%s: entry %s vs %s", path, name, lb[i]);
        struct stat sa, sb;
        assert_int_equal(fstatat(afd, name, &sa, AT_SYMLINK_NOFOLLOW), 0);
        assert_int_equal(fstatat(bfd, name, &sb, AT_SYMLINK_NOFOLLOW), 0);
        if ((sa.st_mode & S_IFMT) != (sb.st_mode & S_IFMT))
            fail_msg("%s/%s: type differs", path, name);
        if (!S_ISLNK(sa.st_mode) && (sa.st_mode & 07777) != (sb.st_mode & 07777))
            fail_msg("%s/%s: mode %o vs %o", path, name, sa.st_mode & 07777, sb.st_mode & 07777);
        if (S_ISREG(sa.st_mode)) {
            assert_int_equal(sa.st_size, sb.st_size);
            if (sa.st_mtim.tv_sec != sb.st_mtim.tv_sec || sa.st_mtim.tv_nsec != sb.st_mtim.tv_nsec)
                fail_msg("%s/%s: mtime differs", path, name);
            compare_files(afd, bfd, name, sa.st_size);
            seen->files++;
            seen->bytes += (uint64_t)sa.st_size;
        } else if (S_ISLNK(sa.st_mode)) {
            char ta[PATH_MAX], tb[PATH_MAX];
            ssize_t ra = readlinkat(afd, name, ta, sizeof ta - 1);
            ssize_t rb = readlinkat(bfd, name, tb, sizeof tb - 1);
            assert_true(ra > 0 && rb > 0);
            ta[ra] = tb[rb] = '\0';
            assert_string_equal(ta, tb);
            if (sa.st_mtim.tv_sec != sb.st_mtim.tv_sec || sa.st_mtim.tv_nsec != sb.st_mtim.tv_nsec)
                fail_msg("%s/%s: symlink mtime differs", path, name);
            seen->symlinks++;
        } else if (S_ISDIR(sa.st_mode)) {
            int ca = openat(afd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            int cb = openat(bfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            assert_true(ca >= 0 && cb >= 0);
            char sub[PATH_MAX];
            snprintf(sub, sizeof sub, "%s/%s", path, name);
            compare_trees(ca, cb, sub, seen);
            close(ca);
            close(cb);
            /* Directory times are set after filling it: they must survive. */
            if (sa.st_mtim.tv_sec != sb.st_mtim.tv_sec || sa.st_mtim.tv_nsec != sb.st_mtim.tv_nsec)
                fail_msg("%s: directory mtime differs", sub);
            seen->dirs++;
        } else {
            fail_msg("%s/%s: unexpected file type", path, name);
        }
    }
    free_list(la, na);
    free_list(lb, nb);
}

/* Adds up the tree on disk below workspace entry rel (our own walk, no engine). */
static void measure_disk(struct fix *f, const char *rel, struct tree_totals *t)
{
    int fd = openat(f->ctx.ws_fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(fd >= 0);
    memset(t, 0, sizeof *t);
    compare_trees(fd, fd, rel, t);
    close(fd);
}

/* ---- tests ---- */

static void test_extract_counts(void **state)
{
    struct fix *f = *state;
    assert_true(f->tot.files > 0 && f->tot.dirs > 0);
    assert_int_equal(tree_file_count(&f->spec), f->tot.files);
    extract_ok(f);
    assert_int_equal(f->res.files, tree_file_count(&f->spec));
    assert_counts(f, 1);
    /* Through the engine: one create per file, a mkdir per directory and for "tree". */
    assert_int_equal(f->st->count[OP_CREATE], f->tot.files);
    assert_int_equal(f->st->count[OP_MKDIR], f->tot.dirs + 1);
    assert_int_equal(f->st->count[OP_SYMLINK], f->tot.symlinks);
    assert_int_equal(f->st->bytes_written, f->tot.bytes);
    assert_int_equal(f->st->bytes_read, 0);
    /* Every fd opened was closed: opens (dirs + root) + creates == closes. */
    assert_int_equal(f->st->count[OP_OPEN] + f->st->count[OP_CREATE], f->st->count[OP_CLOSE]);
    /* What is on disk is what the generator describes. */
    struct tree_totals disk;
    measure_disk(f, PHASE_TREE_DIR, &disk);
    assert_int_equal(disk.files, f->tot.files);
    assert_int_equal(disk.dirs, f->tot.dirs);
    assert_int_equal(disk.symlinks, f->tot.symlinks);
    assert_int_equal(disk.bytes, f->tot.bytes);
    assert_int_equal(count_entries(f, "."), 1);
}

/* Extract writes every file's content exactly as the generator streams it. */
static void test_extract_content(void **state)
{
    struct fix *f = *state;
    extract_ok(f);
    struct tree_gen *g = tree_open(&f->spec);
    assert_non_null(g);
    struct tree_entry e;
    uint64_t checked = 0;
    char path[PATH_MAX];
    unsigned char *buf = malloc(BUF_LEN);
    assert_non_null(buf);
    while (tree_next(g, &e)) {
        if (e.kind != TREE_FILE && e.kind != TREE_SYMLINK)
            continue;
        snprintf(path, sizeof path, "%s/%s", PHASE_TREE_DIR, tree_path(g));
        struct stat st;
        assert_int_equal(fstatat(f->ctx.ws_fd, path, &st, AT_SYMLINK_NOFOLLOW), 0);
        if (e.kind == TREE_SYMLINK) {
            char t[PATH_MAX];
            ssize_t n = readlinkat(f->ctx.ws_fd, path, t, sizeof t - 1);
            assert_true(n > 0);
            t[n] = '\0';
            assert_string_equal(t, e.target);
            continue;
        }
        assert_int_equal(st.st_size, e.size);
        assert_int_equal(st.st_mode & 07777, e.mode);
        int fd = openat(f->ctx.ws_fd, path, O_RDONLY | O_CLOEXEC);
        assert_true(fd >= 0);
        uint64_t off = 0;
        ssize_t r;
        while ((r = read(fd, buf, BUF_LEN)) > 0) {
            for (ssize_t i = 0; i < r; i++, off++)
                if (buf[i] != ((const unsigned char *)e.data)[off % e.data_len])
                    fail_msg("%s: byte %llu differs", path, (unsigned long long)off);
        }
        assert_int_equal(off, e.size);
        close(fd);
        checked++;
    }
    tree_close(g);
    free(buf);
    assert_int_equal(checked, f->tot.files);
}

static void test_walk_statwalk_read(void **state)
{
    struct fix *f = *state;
    extract_ok(f);

    reset(f);
    assert_ok(f, phase_walk(&f->ctx));
    assert_counts(f, 1);
    assert_true(f->st->count[OP_READDIR] >= f->tot.dirs + 1);
    assert_int_equal(f->st->count[OP_OPEN], f->tot.dirs + 1);
    assert_int_equal(f->st->count[OP_CLOSE], f->tot.dirs + 1);
    assert_int_equal(f->st->count[OP_READ], 0);

    reset(f);
    assert_ok(f, phase_statwalk(&f->ctx));
    assert_counts(f, 1);
    assert_int_equal(f->st->count[OP_STAT], f->tot.files + f->tot.dirs + f->tot.symlinks);

    reset(f);
    assert_ok(f, phase_read(&f->ctx));
    assert_counts(f, 1);
    assert_int_equal(f->st->bytes_read, f->tot.bytes);
    assert_int_equal(f->st->bytes_written, 0);
    assert_int_equal(f->st->count[OP_OPEN], f->tot.files + f->tot.dirs + 1);
    assert_int_equal(f->st->count[OP_CLOSE], f->st->count[OP_OPEN]);

    /* Walking changes nothing. */
    struct tree_totals disk;
    measure_disk(f, PHASE_TREE_DIR, &disk);
    assert_int_equal(disk.bytes, f->tot.bytes);
}

static void test_walk_missing_tree(void **state)
{
    struct fix *f = *state;
    reset(f);
    assert_int_equal(phase_walk(&f->ctx), -1);
    assert_int_equal(f->res.status, PHASE_FAILED);
    char want[RES_NOTE_MAX];
    snprintf(want, sizeof want, "open tree: %s", strerror(ENOENT));
    assert_string_equal(f->res.note, want);
}

/* An engine that is the posix engine except that create_file and read_file of one name
 * fail with a given error: failures deep in the tree without needing a full disk. */
static char bad_name[NAME_MAX + 1];
static int bad_errno;

static int bad_create_file(struct eng_worker *w, int dirfd, const char *name, mode_t mode,
                           const void *data, size_t len, uint64_t size, unsigned flags)
{
    if (!strcmp(name, bad_name))
        return -bad_errno;
    return engine_posix.create_file(w, dirfd, name, mode, data, len, size, flags);
}

/* The extract with tar's calls creates a file by open(O_CREAT), then writes. */
static int bad_open(struct eng_worker *w, int dirfd, const char *name, int flags, mode_t mode)
{
    if ((flags & O_CREAT) && !strcmp(name, bad_name))
        return -bad_errno;
    return engine_posix.open(w, dirfd, name, flags, mode);
}

static int bad_read_file(struct eng_worker *w, int dirfd, const char *name, void *buf,
                         size_t buflen, uint64_t *bytes)
{
    if (!strcmp(name, bad_name))
        return -bad_errno;
    return engine_posix.read_file(w, dirfd, name, buf, buflen, bytes);
}

/* The tree path ("a/b/c") and base name of the first file at depth >= 2. */
static void deep_file(struct fix *f, char *rel, size_t len)
{
    struct tree_gen *g = tree_open(&f->spec);
    assert_non_null(g);
    struct tree_entry e;
    rel[0] = '\0';
    while (tree_next(g, &e))
        if (e.kind == TREE_FILE && e.depth >= 2) {
            snprintf(rel, len, "%s", tree_path(g));
            snprintf(bad_name, sizeof bad_name, "%s", e.name);
            break;
        }
    tree_close(g);
    assert_true(rel[0] != '\0');
}

/* A read failure deep in the tree: the note is "read tree/<path>: <error>". */
static void test_read_failure_names_path(void **state)
{
    struct fix *f = *state;
    extract_ok(f);
    char rel[PATH_MAX];
    deep_file(f, rel, sizeof rel);
    struct engine bad = engine_posix;
    bad.read_file = bad_read_file;
    bad_errno = EIO;
    f->ctx.eng = &bad;
    reset(f);
    assert_int_equal(phase_read(&f->ctx), -1);
    assert_int_equal(f->res.status, PHASE_FAILED);
    char want[RES_NOTE_MAX];
    snprintf(want, sizeof want, "read %s/%s: %s", PHASE_TREE_DIR, rel, strerror(EIO));
    assert_string_equal(f->res.note, want);
    assert_true(f->res.files < f->tot.files);
}

/* A create failure deep in the tree names the entry's path in the workspace, like every
 * other phase does ("create tree/a/b: No space left" in results.h). */
static void test_extract_failure_names_path(void **state)
{
    struct fix *f = *state;
    char rel[PATH_MAX];
    deep_file(f, rel, sizeof rel);
    struct engine bad = engine_posix;
    bad.create_file = bad_create_file; /* --extract-calls create */
    bad.open = bad_open;                /* tar's calls (the default) */
    bad_errno = ENOSPC;
    f->ctx.eng = &bad;
    reset(f);
    assert_int_equal(phase_extract(&f->ctx), -1);
    assert_int_equal(f->res.status, PHASE_FAILED);
    assert_true(f->res.files < f->tot.files);
    /* Whatever was opened on the way down is closed on the way out. */
    assert_int_equal(f->st->count[OP_OPEN] + f->st->count[OP_CREATE], f->st->count[OP_CLOSE]);
    char want[RES_NOTE_MAX];
    snprintf(want, sizeof want, "create %s/%s: %s", PHASE_TREE_DIR, rel, strerror(ENOSPC));
    assert_string_equal(f->res.note, want);
}

static void test_copy_identical(void **state)
{
    struct fix *f = *state;
    extract_ok(f);
    /* Make modes and times distinctive so a copy that drops them is caught. */
    assert_int_equal(fchmodat(f->ctx.ws_fd, PHASE_TREE_DIR, 0751, 0), 0);
    struct timespec old[2] = {{1000000000, 1}, {1100000000, 2}};
    assert_int_equal(utimensat(f->ctx.ws_fd, PHASE_TREE_DIR, old, 0), 0);

    reset(f);
    assert_ok(f, phase_copy(&f->ctx));
    assert_counts(f, 1);
    assert_int_equal(f->st->bytes_written, f->tot.bytes);

    int a = openat(f->ctx.ws_fd, PHASE_TREE_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int b = openat(f->ctx.ws_fd, PHASE_COPY_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(a >= 0 && b >= 0);
    struct tree_totals seen = {0};
    compare_trees(a, b, ".", &seen);
    close(a);
    close(b);
    assert_int_equal(seen.files, f->tot.files);
    assert_int_equal(seen.dirs, f->tot.dirs);
    assert_int_equal(seen.symlinks, f->tot.symlinks);
    assert_int_equal(seen.bytes, f->tot.bytes);

    /* The copy's root has the tree root's mode and times. */
    struct stat sa, sb;
    assert_int_equal(fstatat(f->ctx.ws_fd, PHASE_TREE_DIR, &sa, 0), 0);
    assert_int_equal(fstatat(f->ctx.ws_fd, PHASE_COPY_DIR, &sb, 0), 0);
    assert_int_equal(sb.st_mode & 07777, 0751);
    assert_int_equal(sb.st_mtim.tv_sec, 1100000000);
    assert_int_equal(sb.st_mtim.tv_nsec, 2);

    /* A second copy onto the existing one fails naming it. */
    reset(f);
    assert_int_equal(phase_copy(&f->ctx), -1);
    char want[RES_NOTE_MAX];
    snprintf(want, sizeof want, "mkdir copy: %s", strerror(EEXIST));
    assert_string_equal(f->res.note, want);
}

/* The tiny tree at this scale has no symlinks: add some by hand (one at the top, one
 * deep, one dangling) with distinctive times, and a file with an unusual mode; copy and
 * delete must handle them like the generated entries. */
static void test_copy_delete_symlinks(void **state)
{
    struct fix *f = *state;
    extract_ok(f);
    char rel[PATH_MAX], dir[PATH_MAX + 8], link[PATH_MAX + 16];
    deep_file(f, rel, sizeof rel);
    snprintf(dir, sizeof dir, "%s/%s", PHASE_TREE_DIR, rel);
    *strrchr(dir, '/') = '\0';
    snprintf(link, sizeof link, "%s/zz-link", dir);
    assert_int_equal(symlinkat(bad_name, f->ctx.ws_fd, link), 0);
    assert_int_equal(symlinkat("no/such/target", f->ctx.ws_fd, "tree/zz-dangling"), 0);
    struct timespec t[2] = {{1200000000, 3}, {1300000000, 4}};
    assert_int_equal(utimensat(f->ctx.ws_fd, link, t, AT_SYMLINK_NOFOLLOW), 0);
    int fd = openat(f->ctx.ws_fd, "tree/zz-odd", O_WRONLY | O_CREAT | O_EXCL, 0600);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(fchmodat(f->ctx.ws_fd, "tree/zz-odd", 04710, 0), 0);

    reset(f);
    assert_ok(f, phase_copy(&f->ctx));
    assert_int_equal(f->res.symlinks, 2);
    assert_int_equal(f->res.files, f->tot.files + 1);
    int a = openat(f->ctx.ws_fd, PHASE_TREE_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int b = openat(f->ctx.ws_fd, PHASE_COPY_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(a >= 0 && b >= 0);
    struct tree_totals seen = {0};
    compare_trees(a, b, ".", &seen);
    close(a);
    close(b);
    assert_int_equal(seen.symlinks, 2);
    assert_int_equal(seen.files, f->tot.files + 1);

    reset(f);
    assert_ok(f, phase_delete(&f->ctx));
    assert_int_equal(f->res.symlinks, 4);
    assert_int_equal(f->res.files, 2 * (f->tot.files + 1));
    assert_int_equal(count_entries(f, "."), 0);
}

static void test_delete(void **state)
{
    struct fix *f = *state;
    extract_ok(f);
    reset(f);
    assert_ok(f, phase_copy(&f->ctx));
    assert_int_equal(count_entries(f, "."), 2);

    reset(f);
    assert_ok(f, phase_delete(&f->ctx));
    assert_counts(f, 2);
    assert_int_equal(count_entries(f, "."), 0);
    assert_int_equal(f->st->count[OP_UNLINK], 2 * (f->tot.files + f->tot.symlinks));
    assert_int_equal(f->st->count[OP_RMDIR], 2 * f->tot.dirs + 2);

    /* Nothing left: delete succeeds and counts nothing. */
    reset(f);
    assert_ok(f, phase_delete(&f->ctx));
    assert_counts(f, 0);
    assert_int_equal(f->st->count[OP_UNLINK] + f->st->count[OP_RMDIR], 0);
}

/* Delete of the tree alone (no copy) counts it once. */
static void test_delete_tree_only(void **state)
{
    struct fix *f = *state;
    extract_ok(f);
    reset(f);
    assert_ok(f, phase_delete(&f->ctx));
    assert_counts(f, 1);
    assert_int_equal(count_entries(f, "."), 0);
}

static void test_sync(void **state)
{
    struct fix *f = *state;
    reset(f);
    assert_ok(f, phase_sync(&f->ctx));
    assert_int_equal(f->st->count[OP_SYNCFS], 1);
}

static void test_phase_fail_first_only(void **state)
{
    struct fix *f = *state;
    reset(f);
    assert_int_equal(phase_fail(&f->ctx, "create", "tree/a/b", -ENOSPC), -1);
    assert_int_equal(f->res.status, PHASE_FAILED);
    char want[RES_NOTE_MAX];
    snprintf(want, sizeof want, "create tree/a/b: %s", strerror(ENOSPC));
    assert_string_equal(f->res.note, want);
    assert_int_equal(phase_fail(&f->ctx, "mkdir", "tree/c", -EIO), -1);
    assert_int_equal(f->res.status, PHASE_FAILED);
    assert_string_equal(f->res.note, want);
    /* A positive errno gives the same message. */
    reset(f);
    assert_int_equal(phase_fail(&f->ctx, "create", "tree/a/b", ENOSPC), -1);
    assert_string_equal(f->res.note, want);
    /* An interrupt after a failure keeps the failure. */
    phase_interrupt = SIGINT;
    assert_int_equal(phase_check_interrupt(&f->ctx), -1);
    phase_interrupt = 0;
    assert_string_equal(f->res.note, want);
}

static void test_phase_skip(void **state)
{
    struct fix *f = *state;
    reset(f);
    assert_int_equal(phase_skip(&f->ctx, "no %s here (%d)", "cache", 42), 0);
    assert_int_equal(f->res.status, PHASE_SKIPPED);
    assert_string_equal(f->res.note, "no cache here (42)");
}

static void test_interrupt(void **state)
{
    struct fix *f = *state;
    reset(f);
    assert_int_equal(phase_check_interrupt(&f->ctx), 0);
    phase_interrupt = SIGINT;
    int rc = phase_extract(&f->ctx);
    phase_interrupt = 0;
    assert_int_equal(rc, -1);
    assert_int_equal(f->res.status, PHASE_FAILED);
    assert_string_equal(f->res.note, "interrupted by SIGINT");
    assert_int_equal(f->res.files + f->res.dirs + f->res.symlinks, 0);
    /* Everything extract opened is closed again. */
    assert_int_equal(f->st->count[OP_OPEN] + f->st->count[OP_CREATE], f->st->count[OP_CLOSE]);

    /* The walking phases stop too. */
    reset(f);
    assert_ok(f, phase_delete(&f->ctx));
    extract_ok(f);
    reset(f);
    phase_interrupt = SIGINT;
    rc = phase_walk(&f->ctx);
    phase_interrupt = 0;
    assert_int_equal(rc, -1);
    assert_string_equal(f->res.note, "interrupted by SIGINT");
    assert_true(f->res.files + f->res.dirs + f->res.symlinks < 2);
}

static void test_dropcaches_needs_root(void **state)
{
    struct fix *f = *state;
    reset(f);
    f->ctx.root = false;
    assert_int_equal(phase_dropcaches(&f->ctx), 0);
    assert_int_equal(f->res.status, PHASE_SKIPPED);
    assert_non_null(strstr(f->res.note, "root"));
    assert_int_equal(f->st->count[OP_SYNCFS], 0);

    /* As root with the null engine: skipped, naming the engine. */
    reset(f);
    f->ctx.root = true;
    f->ctx.eng = &engine_null;
    assert_int_equal(phase_dropcaches(&f->ctx), 0);
    assert_int_equal(f->res.status, PHASE_SKIPPED);
    assert_non_null(strstr(f->res.note, "null"));
    assert_int_equal(phase_find("dropcaches")->flags & PHASE_NEEDS_ROOT, PHASE_NEEDS_ROOT);
}

static void test_extract_existing_tree(void **state)
{
    struct fix *f = *state;
    assert_int_equal(mkdirat(f->ctx.ws_fd, PHASE_TREE_DIR, 0755), 0);
    reset(f);
    assert_int_equal(phase_extract(&f->ctx), -1);
    assert_int_equal(f->res.status, PHASE_FAILED);
    char want[RES_NOTE_MAX];
    snprintf(want, sizeof want, "mkdir tree: %s", strerror(EEXIST));
    assert_string_equal(f->res.note, want);
    assert_non_null(strstr(f->res.note, "mkdir tree"));
    assert_non_null(strstr(f->res.note, strerror(EEXIST)));
    assert_int_equal(count_entries(f, PHASE_TREE_DIR), 0);
}

/* A directory of the tree swapped for a symlink is named as changed (the component that
 * is the symlink, not the whole path opened through it), a mount point as one, and delete
 * removes the symlink, never what it points to. */
static void test_changed_tree_named(void **state)
{
    struct fix *f = *state;
    extract_ok(f);
    int ws = f->ctx.ws_fd;
    assert_int_equal(mkdirat(ws, "decoy", 0755), 0);
    assert_int_equal(mkdirat(ws, "decoy/b", 0755), 0);
    int k = openat(ws, "decoy/b/keep", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    assert_true(k >= 0);
    close(k);
    char dname[256] = "", path[PATH_MAX];
    int tfd = openat(ws, PHASE_TREE_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(tfd >= 0);
    DIR *d = fdopendir(dup(tfd));
    struct dirent *de;
    while ((de = readdir(d)))
        if (de->d_type == DT_DIR && de->d_name[0] != '.')
            snprintf(dname, sizeof dname, "%s", de->d_name);
    closedir(d);
    assert_true(dname[0] != '\0');
    char away[300], target[PATH_MAX], rel[300];
    snprintf(away, sizeof away, "%s.real", dname);
    assert_int_equal(renameat(tfd, dname, tfd, away), 0);
    snprintf(target, sizeof target, "%s/decoy", f->dir);
    assert_int_equal(symlinkat(target, tfd, dname), 0);
    snprintf(rel, sizeof rel, "%s/b", dname);

    reset(f);
    int fd = f->ctx.eng->opendir(f->ctx.w, tfd, rel);
    assert_int_equal(fd, -ELOOP);
    assert_int_equal(phase_fail_dir_at(&f->ctx, "open", PHASE_TREE_DIR, tfd, rel, fd), -1);
    char want[RES_NOTE_MAX];
    snprintf(want, sizeof want,
             "tree/%s: changed during the run (a symlink where fsbench made a directory)", dname);
    assert_string_equal(f->res.note, want);
    reset(f);
    phase_fail(&f->ctx, "read", "tree/x", -ELOOP);
    assert_string_equal(f->res.note, "tree/x: changed during the run (a symlink where fsbench "
                                     "made a file)");
    reset(f);
    phase_fail_dir(&f->ctx, "open", "tree/m", -EXDEV);
    assert_string_equal(f->res.note,
                        "tree/m: a mount point (another file system); fsbench does not cross it");
    reset(f);
    phase_fail_dir(&f->ctx, "open", "tree/f", -ENOTDIR);
    assert_string_equal(f->res.note, "tree/f: changed during the run (a file where fsbench made a "
                                     "directory)");

    /* delete takes the symlink for what it is: the decoy keeps its file */
    reset(f);
    assert_ok(f, phase_delete(&f->ctx));
    snprintf(path, sizeof path, "%s/decoy/b/keep", f->dir);
    assert_int_equal(access(path, F_OK), 0);
    close(tfd);
}

/* The null engine runs the phases, counts what it would create, and leaves no trace. */
static void test_null_engine_phases(void **state)
{
    struct fix *f = *state;
    f->ctx.eng = &engine_null;
    extract_ok(f);
    assert_counts(f, 1);
    assert_int_equal(f->st->bytes_written, f->tot.bytes);
    assert_int_equal(count_entries(f, "."), 0);
    reset(f);
    assert_ok(f, phase_walk(&f->ctx));
    assert_counts(f, 0); /* directories read as empty */
    reset(f);
    assert_ok(f, phase_delete(&f->ctx));
    reset(f);
    assert_ok(f, phase_sync(&f->ctx));
    assert_int_equal(f->st->count[OP_SYNCFS], 1);
}

/* The mount phases need a managed target and say so. */
static void test_mount_phases_need_target(void **state)
{
    struct fix *f = *state;
    int (*fn[])(struct phase_ctx *) = {phase_mount, phase_umount, phase_remount};
    for (size_t i = 0; i < sizeof fn / sizeof *fn; i++) {
        reset(f);
        assert_int_equal(fn[i](&f->ctx), -1);
        assert_int_equal(f->res.status, PHASE_FAILED);
        assert_non_null(strstr(f->res.note, "managed target"));
    }
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_extract_counts),
        T(test_extract_content),
        T(test_walk_statwalk_read),
        T(test_walk_missing_tree),
        T(test_read_failure_names_path),
        T(test_extract_failure_names_path),
        T(test_copy_identical),
        T(test_copy_delete_symlinks),
        T(test_delete),
        T(test_delete_tree_only),
        T(test_sync),
        T(test_phase_fail_first_only),
        T(test_phase_skip),
        T(test_interrupt),
        T(test_dropcaches_needs_root),
        T(test_extract_existing_tree),
        T(test_changed_tree_named),
        T(test_null_engine_phases),
        T(test_mount_phases_need_target),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
