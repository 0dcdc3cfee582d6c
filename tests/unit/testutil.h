/* testutil.h — scaffolding shared by the cmocka unit tests (tests/unit/test_*.c).
 *
 * A scratch directory made with mkdtemp under $TMPDIR and removed recursively afterwards,
 * a worker with its own zeroed struct opstats, a struct phase_ctx on the posix engine, a
 * non-repeating byte pattern, reading a whole file and checking a file's content, and
 * counting a directory's entries. Only static inline functions, so that every test binary
 * still builds from its one .c file plus this header (the Makefile makes every
 * header in tests/unit a dependency of every test) and a test that uses part of it gets no
 * unused-function warning for the rest.
 */
#ifndef FSBENCH_TESTUTIL_H
#define FSBENCH_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
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

/* ---- scratch directories ---- */

static inline int tu_rm_entry(const char *path, const struct stat *sb, int flag,
                              struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

/* Removes path and everything below it (links not followed); nftw's result. */
static inline int tu_rm_tree(const char *path)
{
    return nftw(path, tu_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Makes the directory $TMPDIR/fsbench-ut-<tag>.XXXXXX (/tmp when TMPDIR is unset or empty)
 * with its name in dir (len bytes); mkdtemp's result: dir, or NULL on failure. */
static inline char *tu_scratch_dir(char *dir, size_t len, const char *tag)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, len, "%s/fsbench-ut-%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", tag);
    return mkdtemp(dir);
}

/* A scratch directory as tu_scratch_dir makes it (umask then set to 022) for the tree of
 * profile `prof` at `scale` with `seed`, which goes in *spec, its totals (tree_measure) in
 * *tot. 0, or -1 on failure (an unknown profile too). */
static inline int tu_tree_scratch(char *dir, size_t len, const char *tag, const char *prof,
                                  double scale, uint64_t seed, struct tree_spec *spec,
                                  struct tree_totals *tot)
{
    if (!tu_scratch_dir(dir, len, tag))
        return -1;
    umask(022);
    *spec = (struct tree_spec){.prof = profile_find(prof), .scale = scale, .seed = seed};
    if (!spec->prof || tree_measure(spec, tot) < 0)
        return -1;
    return 0;
}

/* ---- workers and phase contexts ---- */

/* Gives worker w a zeroed op counter of its own (the caller frees w->st); NULL if out of
 * memory. */
static inline struct opstats *tu_worker_stats(struct eng_worker *w)
{
    w->st = calloc(1, sizeof *w->st);
    return w->st;
}

/* Sets up ctx for the posix engine on worker w in workspace dir (opened here: ctx->ws_fd,
 * which the caller closes), making tree with result res and I/O buffer buf of buflen
 * bytes. 0, or -1 if dir does not open. */
static inline int tu_phase_ctx(struct phase_ctx *ctx, struct eng_worker *w, const char *dir,
                               const struct tree_spec *tree, struct phase_result *res,
                               void *buf, size_t buflen)
{
    ctx->eng = &engine_posix;
    ctx->w = w;
    ctx->ws_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ctx->tree = tree;
    ctx->res = res;
    ctx->buf = buf;
    ctx->buflen = buflen;
    return ctx->ws_fd < 0 ? -1 : 0;
}

/* The end of a phase test: clears phase_interrupt, closes ctx->ws_fd and removes the
 * scratch directory dir (tu_rm_tree's result). */
static inline int tu_phase_ctx_done(struct phase_ctx *ctx, const char *dir)
{
    phase_interrupt = 0;
    close(ctx->ws_fd);
    return tu_rm_tree(dir);
}

/* ---- file contents ---- */

/* A pattern of len bytes that does not repeat within itself (the caller frees it). */
static inline unsigned char *tu_make_pattern(size_t len, unsigned seed)
{
    unsigned char *p = malloc(len ? len : 1);
    assert_non_null(p);
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < len; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (unsigned char)(x >> 16);
    }
    return p;
}

/* Reads a whole file relative to dirfd with plain system calls; *size gets its length
 * (the caller frees the result). */
static inline unsigned char *tu_slurp(int dirfd, const char *name, size_t *size)
{
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    unsigned char *b = malloc((size_t)st.st_size + 1);
    assert_non_null(b);
    size_t got = 0;
    for (;;) {
        ssize_t r = read(fd, b + got, (size_t)st.st_size + 1 - got);
        assert_true(r >= 0);
        if (r == 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    *size = got;
    return b;
}

/* Asserts that file `name` holds `size` bytes: pat (len bytes) repeated. */
static inline void tu_check_content(int dirfd, const char *name, const unsigned char *pat,
                                    size_t len, size_t size)
{
    size_t got;
    unsigned char *b = tu_slurp(dirfd, name, &got);
    assert_int_equal(got, size);
    for (size_t off = 0; off < size; off += len) {
        size_t n = size - off < len ? size - off : len;
        assert_memory_equal(b + off, pat, n);
    }
    free(b);
}

/* ---- directories ---- */

/* Creates empty files prefix0 .. prefix(n-1) in directory dfd. */
static inline void tu_touch_n(int dfd, const char *prefix, int n)
{
    for (int i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s%d", prefix, i);
        int fd = openat(dfd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        assert_true(fd >= 0);
        close(fd);
    }
}

/* Entries of open directory d other than "." and ".."; closes d. */
static inline int tu_count_dir(DIR *d)
{
    assert_non_null(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

#endif
