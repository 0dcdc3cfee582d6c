/* test_threads.c — unit tests of the threaded phases (-j N) with the posix engine on a
 * scratch workspace: tree_skip_subtree skips exactly one subtree; extract on 1, 2 and 4
 * threads makes the same tree (names, types, sizes, modes, contents) with the same counts;
 * walk, statwalk, read, copy and delete count the same entries and operations for 1, 2 and
 * 3 threads on the tiny tree and on a deep, skewed tree; a threaded copy is identical
 * (times included) and a threaded delete leaves nothing; a failure or an interrupt in one
 * thread fails the phase with the right note and stops the others.
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
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "measure/measure.h"
#include "phase/phase.h"
#include "tree/profile.h"
#include "tree/tree.h"
#include "testutil.h"

#define BUF_LEN (128 * 1024)
#define MAXW 4

struct fix {
    char dir[4096];
    struct tree_spec spec;
    struct tree_totals tot;
    struct eng_worker w[MAXW];
    void *bufs[MAXW];
    struct phase_result res;
    struct phase_ctx ctx;
    bool skewed;                /* "tree" is the hand-made skewed tree */
};

static int setup(void **state)
{
    struct fix *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    if (tu_tree_scratch(f->dir, sizeof f->dir, "threads", "tiny", 0.5, 7, &f->spec, &f->tot) < 0)
        return -1;
    for (int i = 0; i < MAXW; i++) {
        f->bufs[i] = malloc(BUF_LEN);
        if (!tu_worker_stats(&f->w[i]) || !f->bufs[i])
            return -1;
    }
    int rc = tu_phase_ctx(&f->ctx, &f->w[0], f->dir, &f->spec, &f->res, f->bufs[0], BUF_LEN);
    f->ctx.workers = f->w;
    f->ctx.bufs = f->bufs;
    f->ctx.nworkers = 1;
    if (rc < 0)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;
    int rc = tu_phase_ctx_done(&f->ctx, f->dir);
    for (int i = 0; i < MAXW; i++) {
        free(f->w[i].st);
        free(f->bufs[i]);
    }
    free(f);
    return rc;
}

/* A fresh result and zeroed counters on n threads. */
static void reset(struct fix *f, unsigned n)
{
    memset(&f->res, 0, sizeof f->res);
    for (int i = 0; i < MAXW; i++)
        opstats_reset(f->w[i].st);
    f->ctx.nworkers = n;
    f->ctx.helper_user_s = f->ctx.helper_sys_s = 0;
}

/* Every worker's op counts added up. */
static void merged_ops(struct fix *f, uint64_t ops[OP_KINDS])
{
    memset(ops, 0, sizeof(uint64_t) * OP_KINDS);
    for (int i = 0; i < MAXW; i++)
        for (int k = 0; k < OP_KINDS; k++)
            ops[k] += f->w[i].st->count[k];
}

static void run_ok(struct fix *f, int (*fn)(struct phase_ctx *), unsigned n)
{
    reset(f, n);
    int rc = fn(&f->ctx);
    if (rc != 0 || f->res.status != PHASE_OK)
        fail_msg("phase failed on %u threads (rc %d, status %d): %s", n, rc, (int)f->res.status,
                 f->res.note);
}

static void rm_rel(struct fix *f, const char *rel)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", f->dir, rel);
    struct stat st;
    if (lstat(p, &st) == 0)
        assert_int_equal(tu_rm_tree(p), 0);
}

/* ---- a listing of a tree, hashed: names, types, sizes, modes, contents (and times) ---- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h ^= c[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

struct listing {
    uint64_t hash;
    uint64_t files, dirs, symlinks, bytes;
};

/* Adds directory fd's entries (recursively, sorted) to l; with times, mtimes too. */
static void list_tree(int fd, const char *rel, bool times, struct listing *l)
{
    DIR *d = fdopendir(dup(fd));
    assert_non_null(d);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = realloc(names, cap * sizeof *names);
            assert_non_null(names);
        }
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        assert_int_equal(fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW), 0);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", rel, names[i]);
        l->hash = fnv(l->hash, path, strlen(path) + 1);
        uint32_t mode = st.st_mode;
        l->hash = fnv(l->hash, &mode, sizeof mode);
        if (times && !S_ISLNK(st.st_mode)) {
            int64_t mt[2] = {st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
            l->hash = fnv(l->hash, mt, sizeof mt);
        }
        if (S_ISDIR(st.st_mode)) {
            l->dirs++;
            int cfd = openat(fd, names[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            assert_true(cfd >= 0);
            list_tree(cfd, path, times, l);
            close(cfd);
        } else if (S_ISLNK(st.st_mode)) {
            l->symlinks++;
            char t[PATH_MAX];
            ssize_t k = readlinkat(fd, names[i], t, sizeof t);
            assert_true(k > 0);
            l->hash = fnv(l->hash, t, (size_t)k);
        } else {
            l->files++;
            uint64_t size = (uint64_t)st.st_size;
            l->bytes += size;
            l->hash = fnv(l->hash, &size, sizeof size);
            int ffd = openat(fd, names[i], O_RDONLY | O_CLOEXEC);
            assert_true(ffd >= 0);
            char buf[65536];
            ssize_t k;
            while ((k = read(ffd, buf, sizeof buf)) > 0)
                l->hash = fnv(l->hash, buf, (size_t)k);
            close(ffd);
        }
        free(names[i]);
    }
    free(names);
}

static struct listing listing_of(struct fix *f, const char *rel, bool times)
{
    struct listing l = {.hash = 0xcbf29ce484222325ull};
    int fd = openat(f->ctx.ws_fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(fd >= 0);
    list_tree(fd, "", times, &l);
    close(fd);
    return l;
}

/* ---- tree_skip_subtree ---- */

struct rec {
    enum tree_kind kind;
    unsigned depth;
    uint64_t size;
    char path[256];
};

/* Records the walk; with skip_at > 0, skips the subtree of the skip_at-th TREE_DIR of
 * depth skip_depth. Returns the count. */
static size_t record(const struct tree_spec *spec, struct rec *out, size_t max, unsigned skip_depth,
                     size_t skip_at)
{
    struct tree_gen *g = tree_open(spec);
    assert_non_null(g);
    struct tree_entry e;
    size_t n = 0, dirs = 0;
    while (tree_next(g, &e)) {
        assert_true(n < max);
        out[n] = (struct rec){e.kind, e.depth, e.size, ""};
        snprintf(out[n].path, sizeof out[n].path, "%s", tree_path(g));
        n++;
        if (skip_at && e.kind == TREE_DIR && e.depth == skip_depth && ++dirs == skip_at)
            tree_skip_subtree(g);
    }
    tree_close(g);
    return n;
}

static void test_skip_subtree(void **state)
{
    struct fix *f = *state;
    size_t max = 20000;
    struct rec *full = calloc(max, sizeof *full), *part = calloc(max, sizeof *part);
    assert_non_null(full);
    assert_non_null(part);
    size_t nfull = record(&f->spec, full, max, 0, 0);
    size_t tried = 0;
    for (unsigned depth = 1; depth <= 3; depth++) {
        size_t ndirs = 0;
        for (size_t i = 0; i < nfull; i++)
            ndirs += full[i].kind == TREE_DIR && full[i].depth == depth;
        /* the first, a middle and the last directory of that depth */
        size_t ats[3] = {1, (ndirs + 1) / 2, ndirs};
        for (size_t a = 0; a < 3 && ndirs > 0; a++) {
            size_t at = ats[a];
            tried++;
            size_t npart = record(&f->spec, part, max, depth, at);
            /* expected: the full walk without the entries inside the at-th depth-d
             * directory and without its LEAVE */
            size_t i = 0, j = 0, dirs = 0;
            while (i < nfull) {
                const struct rec *r = &full[i];
                if (r->kind == TREE_DIR && r->depth == depth && ++dirs == at) {
                    assert_true(j < npart);
                    assert_string_equal(part[j].path, r->path);
                    i++, j++;
                    /* skip its contents up to and including its LEAVE */
                    while (!(full[i].kind == TREE_LEAVE && full[i].depth == depth))
                        i++;
                    i++;
                    continue;
                }
                assert_true(j < npart);
                assert_int_equal(part[j].kind, r->kind);
                assert_int_equal(part[j].depth, r->depth);
                assert_int_equal(part[j].size, r->size);
                assert_string_equal(part[j].path, r->path);
                i++, j++;
            }
            assert_int_equal(j, npart);
            assert_true(npart < nfull);
        }
    }
    assert_true(tried >= 6);
    /* skipping at the root ends the walk */
    struct tree_gen *g = tree_open(&f->spec);
    assert_non_null(g);
    struct tree_entry e;
    tree_skip_subtree(g);
    assert_int_equal(tree_next(g, &e), 0);
    tree_close(g);
    free(full);
    free(part);
}

/* ---- extract ---- */

static void test_extract_same_tree(void **state)
{
    struct fix *f = *state;
    struct listing first = {0};
    uint64_t ops1[OP_KINDS];
    unsigned ns[] = {1, 2, 4};
    for (size_t i = 0; i < 3; i++) {
        run_ok(f, phase_extract, ns[i]);
        assert_int_equal(f->res.files, f->tot.files);
        assert_int_equal(f->res.dirs, f->tot.dirs);
        assert_int_equal(f->res.symlinks, f->tot.symlinks);
        uint64_t ops[OP_KINDS];
        merged_ops(f, ops);
        struct listing l = listing_of(f, PHASE_TREE_DIR, false);
        assert_int_equal(l.files, f->tot.files);
        assert_int_equal(l.dirs, f->tot.dirs);
        assert_int_equal(l.symlinks, f->tot.symlinks);
        assert_int_equal(l.bytes, f->tot.bytes);
        if (i == 0) {
            first = l;
            memcpy(ops1, ops, sizeof ops);
        } else {
            assert_int_equal(l.hash, first.hash);
            for (int k = 0; k < OP_KINDS; k++)
                assert_int_equal(ops[k], ops1[k]);
            /* the helper threads' CPU time is measured */
            assert_true(f->ctx.helper_user_s + f->ctx.helper_sys_s >= 0);
        }
        rm_rel(f, PHASE_TREE_DIR);
    }
}

/* ---- a deep, skewed tree: one chain of 30 directories, most files at its bottom ---- */

#define CHAIN 30
#define BOTTOM_DIRS 20
#define BOTTOM_FILES 60

static void put_file(int dfd, const char *name, size_t size)
{
    int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    assert_true(fd >= 0);
    char buf[512];
    memset(buf, (int)(size % 251), sizeof buf);
    assert_int_equal(write(fd, buf, size), (ssize_t)size);
    close(fd);
}

/* Builds "tree" by hand and returns its totals. */
static void make_skewed(struct fix *f, struct tree_totals *t)
{
    memset(t, 0, sizeof *t);
    assert_int_equal(mkdirat(f->ctx.ws_fd, PHASE_TREE_DIR, 0755), 0);
    int fd = openat(f->ctx.ws_fd, PHASE_TREE_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(fd >= 0);
    char name[64];
    for (int d = 0; d < CHAIN; d++) {
        for (int i = 0; i < 2; i++) {
            snprintf(name, sizeof name, "f%d", i);
            put_file(fd, name, (size_t)(d * 7 + i) % 500);
            t->files++;
        }
        assert_int_equal(mkdirat(fd, "side", 0750), 0);
        int sfd = openat(fd, "side", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(sfd >= 0);
        put_file(sfd, "s", 10);
        close(sfd);
        t->files++;
        t->dirs++;
        snprintf(name, sizeof name, "chain%d", d);
        assert_int_equal(mkdirat(fd, name, 0755), 0);
        int cfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(cfd >= 0);
        close(fd);
        fd = cfd;
        t->dirs++;
    }
    for (int b = 0; b < BOTTOM_DIRS; b++) {
        snprintf(name, sizeof name, "b%02d", b);
        assert_int_equal(mkdirat(fd, name, 0755), 0);
        int bfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(bfd >= 0);
        t->dirs++;
        for (int i = 0; i < BOTTOM_FILES; i++) {
            snprintf(name, sizeof name, "x%03d", i);
            put_file(bfd, name, (size_t)(b * 31 + i) % 400);
            t->files++;
        }
        assert_int_equal(symlinkat("x000", bfd, "link"), 0);
        t->symlinks++;
        close(bfd);
    }
    close(fd);
}

/* Entries of directory fd other than "." and "..". */
static int count_dir(int fd)
{
    return tu_count_dir(fdopendir(dup(fd)));
}

/* Makes "tree" again: the tiny tree or the skewed one. */
static void remake(struct fix *f)
{
    if (f->skewed) {
        struct tree_totals t;
        make_skewed(f, &t);
    } else {
        run_ok(f, phase_extract, 1);
    }
}

/* walk, statwalk, read, copy and delete on 1, 2 and 3 threads: same counts, same ops. */
static void same_counts(struct fix *f, const struct tree_totals *t)
{
    int (*fns[])(struct phase_ctx *) = {phase_walk, phase_statwalk, phase_read, phase_copy,
                                        phase_delete};
    const char *names[] = {"walk", "statwalk", "read", "copy", "delete"};
    for (size_t p = 0; p < 5; p++) {
        uint64_t ops1[OP_KINDS];
        for (unsigned n = 1; n <= 3; n++) {
            run_ok(f, fns[p], n);
            uint64_t mult = p == 4 ? 2 : 1; /* delete removes tree and copy */
            if (f->res.files != mult * t->files || f->res.dirs != mult * t->dirs ||
                f->res.symlinks != mult * t->symlinks)
                fail_msg("%s on %u threads: %llu files %llu dirs %llu symlinks", names[p], n,
                         (unsigned long long)f->res.files, (unsigned long long)f->res.dirs,
                         (unsigned long long)f->res.symlinks);
            uint64_t ops[OP_KINDS];
            merged_ops(f, ops);
            if (n == 1)
                memcpy(ops1, ops, sizeof ops);
            /* delete runs on a tree made again: getdents may batch its new layout
             * differently (a property of the file system, not of the threads) */
            for (int k = 0; k < OP_KINDS; k++)
                if (ops[k] != ops1[k] && !(p == 4 && k == OP_READDIR))
                    fail_msg("%s on %u threads: op kind %d counted %llu, on 1 thread %llu",
                             names[p], n, k, (unsigned long long)ops[k],
                             (unsigned long long)ops1[k]);
            if (p == 2)
                assert_int_equal(f->w[0].st->bytes_read + f->w[1].st->bytes_read +
                                     f->w[2].st->bytes_read + f->w[3].st->bytes_read,
                                 t->bytes);
            if (p == 3 && n < 3)
                rm_rel(f, PHASE_COPY_DIR);
            if (p == 4) {
                assert_int_equal(count_dir(f->ctx.ws_fd), 0);
                if (n < 3) { /* tree and copy back for the next delete */
                    remake(f);
                    run_ok(f, phase_copy, 1);
                }
            }
        }
    }
}

static void test_counts_tiny(void **state)
{
    struct fix *f = *state;
    run_ok(f, phase_extract, 1);
    same_counts(f, &f->tot);
}

static void test_counts_skewed(void **state)
{
    struct fix *f = *state;
    struct tree_totals t;
    make_skewed(f, &t);
    f->skewed = true;
    struct listing l = listing_of(f, PHASE_TREE_DIR, false);
    t.bytes = l.bytes;
    same_counts(f, &t);
}

/* A copy on 2 threads is the tree: names, types, sizes, modes, contents and mtimes. */
static void test_copy_identical(void **state)
{
    struct fix *f = *state;
    for (int skewed = 0; skewed < 2; skewed++) {
        f->skewed = skewed;
        remake(f);
        run_ok(f, phase_copy, 2);
        struct listing a = listing_of(f, PHASE_TREE_DIR, true);
        struct listing b = listing_of(f, PHASE_COPY_DIR, true);
        assert_int_equal(a.files, b.files);
        assert_int_equal(a.dirs, b.dirs);
        assert_int_equal(a.hash, b.hash);
        struct stat sa, sb;
        assert_int_equal(fstatat(f->ctx.ws_fd, PHASE_TREE_DIR, &sa, 0), 0);
        assert_int_equal(fstatat(f->ctx.ws_fd, PHASE_COPY_DIR, &sb, 0), 0);
        assert_int_equal(sa.st_mtim.tv_sec, sb.st_mtim.tv_sec);
        assert_int_equal(sa.st_mtim.tv_nsec, sb.st_mtim.tv_nsec);
        run_ok(f, phase_delete, 2);
        assert_int_equal(count_dir(f->ctx.ws_fd), 0);
    }
}

/* ---- failures and interrupts in one thread ---- */

static char bad_name[NAME_MAX + 1];
static int bad_errno;
static _Atomic int bad_failed;     /* the bad operation happened */
static _Atomic long after_fail;    /* operations started after it */
static _Atomic long reads;
static long interrupt_at;          /* > 0: set phase_interrupt at this read */

static int bad_read_file(struct eng_worker *w, int dirfd, const char *name, void *buf,
                         size_t buflen, uint64_t *bytes)
{
    if (atomic_load(&bad_failed))
        atomic_fetch_add(&after_fail, 1);
    long k = atomic_fetch_add(&reads, 1) + 1;
    if (interrupt_at && k == interrupt_at) {
        atomic_store(&bad_failed, 1);
        phase_interrupt = SIGINT; /* as fsbench's SIGINT handler does */
    }
    if (bad_name[0] && !strcmp(name, bad_name)) {
        atomic_store(&bad_failed, 1);
        return -bad_errno;
    }
    return engine_posix.read_file(w, dirfd, name, buf, buflen, bytes);
}

static int bad_create_file(struct eng_worker *w, int dirfd, const char *name, mode_t mode,
                           const void *data, size_t len, uint64_t size, unsigned flags)
{
    if (atomic_load(&bad_failed))
        atomic_fetch_add(&after_fail, 1);
    if (!strcmp(name, bad_name)) {
        atomic_store(&bad_failed, 1);
        return -bad_errno;
    }
    return engine_posix.create_file(w, dirfd, name, mode, data, len, size, flags);
}

/* The extract with tar's calls (the default) creates a file by open(O_CREAT), then writes. */
static int bad_open(struct eng_worker *w, int dirfd, const char *name, int flags, mode_t mode)
{
    if (!(flags & O_CREAT))
        return engine_posix.open(w, dirfd, name, flags, mode);
    if (atomic_load(&bad_failed))
        atomic_fetch_add(&after_fail, 1);
    if (!strcmp(name, bad_name)) {
        atomic_store(&bad_failed, 1);
        return -bad_errno;
    }
    return engine_posix.open(w, dirfd, name, flags, mode);
}

static void bad_reset(void)
{
    bad_name[0] = '\0';
    atomic_store(&bad_failed, 0);
    atomic_store(&after_fail, 0);
    atomic_store(&reads, 0);
    interrupt_at = 0;
}

/* Every directory and file opened was closed again, whichever worker did it. */
static void assert_all_closed(struct fix *f)
{
    uint64_t ops[OP_KINDS];
    merged_ops(f, ops);
    assert_int_equal(ops[OP_OPEN] + ops[OP_CREATE], ops[OP_CLOSE]);
}

/* A read failure at the bottom of the skewed tree on 2 threads: the phase fails with the
 * failing file's path and the other thread stops within a few files. */
static void test_read_failure_stops_others(void **state)
{
    struct fix *f = *state;
    struct tree_totals t;
    make_skewed(f, &t);
    bad_reset();
    snprintf(bad_name, sizeof bad_name, "x010");
    struct engine bad = engine_posix;
    bad.read_file = bad_read_file;
    bad_errno = EIO;
    f->ctx.eng = &bad;
    reset(f, 2);
    assert_int_equal(phase_read(&f->ctx), -1);
    assert_int_equal(f->res.status, PHASE_FAILED);
    /* "read tree/chain0/.../chain29/bNN/x010: Input/output error" */
    char want[PATH_MAX] = PHASE_TREE_DIR;
    for (int d = 0; d < CHAIN; d++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "/chain%d", d);
    assert_non_null(strstr(f->res.note, want));
    assert_non_null(strstr(f->res.note, "/x010: Input/output error"));
    assert_true(strncmp(f->res.note, "read tree/", 10) == 0);
    assert_true(f->res.files < t.files);
    assert_true(atomic_load(&after_fail) < 40);
    assert_all_closed(f);
    f->ctx.eng = &engine_posix;
}

/* An interrupt on 3 threads stops every thread: the note says so. */
static void test_interrupt_stops_all(void **state)
{
    struct fix *f = *state;
    struct tree_totals t;
    make_skewed(f, &t);
    bad_reset();
    interrupt_at = 200;
    struct engine bad = engine_posix;
    bad.read_file = bad_read_file;
    f->ctx.eng = &bad;
    reset(f, 3);
    assert_int_equal(phase_read(&f->ctx), -1);
    assert_int_equal(f->res.status, PHASE_FAILED);
    assert_string_equal(f->res.note, "interrupted by SIGINT");
    assert_true(atomic_load(&after_fail) < 40);
    assert_all_closed(f);
    phase_interrupt = 0;
    f->ctx.eng = &engine_posix;
}

/* A create failure inside a subtree a thread claimed names the entry's full path. */
static void test_extract_failure_names_path(void **state)
{
    struct fix *f = *state;
    bad_reset();
    /* the last file of the deepest level: inside a claimed subtree */
    struct tree_gen *g = tree_open(&f->spec);
    assert_non_null(g);
    struct tree_entry e;
    char rel[PATH_MAX] = "";
    unsigned best = 0;
    while (tree_next(g, &e))
        if (e.kind == TREE_FILE && e.depth >= best) {
            best = e.depth;
            snprintf(rel, sizeof rel, "%s", tree_path(g));
            snprintf(bad_name, sizeof bad_name, "%s", e.name);
        }
    tree_close(g);
    assert_true(best >= 2);
    struct engine bad = engine_posix;
    bad.create_file = bad_create_file; /* --extract-calls create */
    bad.open = bad_open;                /* tar's calls (the default) */
    bad_errno = ENOSPC;
    f->ctx.eng = &bad;
    reset(f, 2);
    assert_int_equal(phase_extract(&f->ctx), -1);
    assert_int_equal(f->res.status, PHASE_FAILED);
    char want[RES_NOTE_MAX];
    snprintf(want, sizeof want, "create %s/%s: %s", PHASE_TREE_DIR, rel, strerror(ENOSPC));
    assert_string_equal(f->res.note, want);
    assert_all_closed(f);
    f->ctx.eng = &engine_posix;
}

/* A delete failure (rmdir refused) on 2 threads is reported once, with its path. */
static int bad_unlink(struct eng_worker *w, int dirfd, const char *name, int flags)
{
    /* by name from its parent, or by workspace path when another thread finished last */
    size_t n = strlen(name);
    if ((flags & AT_REMOVEDIR) && n >= 7 && !strcmp(name + n - 7, "chain20") &&
        (n == 7 || name[n - 8] == '/'))
        return -EBUSY;
    return engine_posix.unlink(w, dirfd, name, flags);
}

static void test_delete_failure(void **state)
{
    struct fix *f = *state;
    struct tree_totals t;
    make_skewed(f, &t);
    struct engine bad = engine_posix;
    bad.unlink = bad_unlink;
    f->ctx.eng = &bad;
    reset(f, 2);
    assert_int_equal(phase_delete(&f->ctx), -1);
    assert_int_equal(f->res.status, PHASE_FAILED);
    assert_true(strncmp(f->res.note, "rmdir tree/chain0/", 18) == 0);
    assert_non_null(strstr(f->res.note, "/chain20: Device or resource busy"));
    assert_all_closed(f);
    f->ctx.eng = &engine_posix;
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_skip_subtree),
        T(test_extract_same_tree),
        T(test_counts_tiny),
        T(test_counts_skewed),
        T(test_copy_identical),
        T(test_read_failure_stops_others),
        T(test_interrupt_stops_all),
        T(test_extract_failure_names_path),
        T(test_delete_failure),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
