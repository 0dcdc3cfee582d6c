/* test_shape.c — unit tests of shape.c: capture of a tree written by phase_extract_into()
 * gives exactly the counts the generator streamed; the INI file round-trips and bad lines
 * give "FILE:LINE: ..."; a profile made from a capture synthesises trees whose histograms
 * match the captured ones within the tolerances shape.h states, deterministically.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "base/err.h"
#include "phase/phase.h"
#include "tree/shape.h"
#include "tree/tree.h"
#include "testutil.h"

struct fixture {
    char dir[64];       /* scratch directory */
    char tree[96];      /* the written tree */
    struct tree_spec spec;
    struct shape cap;   /* its capture */
};

/* The shape of a generated tree, computed from the stream (the conventions of shape.h). */
static void stream_shape(const struct tree_spec *sp, struct shape *s)
{
    memset(s, 0, sizeof *s);
    struct tree_gen *g = tree_open(sp);
    assert_non_null(g);
    uint64_t nf[TREE_MAX_DEPTH + 2] = {0}, ns[TREE_MAX_DEPTH + 2] = {0};
    int top = 0;
    struct tree_entry e;
    while (tree_next(g, &e)) {
        if (e.kind != TREE_LEAVE) {
            s->name_length[strlen(e.name)]++;
            if (e.depth > s->max_depth)
                s->max_depth = e.depth;
        }
        switch (e.kind) {
        case TREE_DIR:
            s->dirs++;
            ns[top]++;
            top++;
            nf[top] = ns[top] = 0;
            break;
        case TREE_FILE:
            s->files++;
            s->bytes += e.size;
            nf[top]++;
            s->file_sizes[shape_bucket(e.size)]++;
            s->depth[e.depth < SHAPE_DEPTH_MAX ? e.depth : SHAPE_DEPTH_MAX]++;
            break;
        case TREE_SYMLINK:
            s->symlinks++;
            break;
        case TREE_LEAVE:
            s->files_per_dir[shape_bucket(nf[top])]++;
            s->subdirs_per_dir[shape_bucket(ns[top])]++;
            top--;
            break;
        }
    }
    s->files_per_dir[shape_bucket(nf[0])]++;
    s->subdirs_per_dir[shape_bucket(ns[0])]++;
    tree_close(g);
}

/* Writes kernel x0.05 (4,000 files, ~57 MB) once and captures it. */
static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof *fx);
    assert_non_null(fx);
    snprintf(fx->dir, sizeof fx->dir, "%s/fsbench-shape.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(fx->dir));
    snprintf(fx->tree, sizeof fx->tree, "%s/tree", fx->dir);
    assert_int_equal(mkdir(fx->tree, 0755), 0);
    fx->spec = (struct tree_spec){.prof = profile_find("kernel"), .scale = 0.05, .seed = 11};
    int fd = open(fx->tree, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    struct opstats *ops = calloc(1, sizeof *ops);
    void *buf = malloc(128 * 1024);
    struct eng_worker w = {.st = ops};
    struct phase_result res = {0};
    struct phase_ctx ctx = {.eng = &engine_posix, .w = &w, .ws_fd = fd, .tree = &fx->spec,
                            .res = &res, .buf = buf, .buflen = 128 * 1024};
    assert_int_equal(phase_extract_into(&ctx, fd), 0);
    close(fd);
    free(buf);
    free(ops);
    assert_int_equal(shape_capture(fx->tree, &fx->cap), 0);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    tu_rm_tree(fx->dir);
    free(fx);
    return 0;
}

static void test_capture_exact(void **state)
{
    struct fixture *fx = *state;
    struct shape want;
    stream_shape(&fx->spec, &want);
    const struct shape *got = &fx->cap;
    assert_true(want.symlinks > 0);
    assert_int_equal(got->files, 4000);
    assert_int_equal(got->files, want.files);
    assert_int_equal(got->dirs, want.dirs);
    assert_int_equal(got->symlinks, want.symlinks);
    assert_int_equal(got->bytes, want.bytes);
    assert_int_equal(got->max_depth, want.max_depth);
    assert_int_equal(got->other, 0);
    assert_int_equal(got->skipped_mounts, 0);
    assert_memory_equal(got->file_sizes, want.file_sizes, sizeof want.file_sizes);
    assert_memory_equal(got->files_per_dir, want.files_per_dir, sizeof want.files_per_dir);
    assert_memory_equal(got->subdirs_per_dir, want.subdirs_per_dir, sizeof want.subdirs_per_dir);
    assert_memory_equal(got->depth, want.depth, sizeof want.depth);
    assert_memory_equal(got->name_length, want.name_length, sizeof want.name_length);
}

/* Symlinks are counted, not followed (one to "/" would add the whole system), and special
 * files are counted apart. */
static void test_capture_no_follow(void **state)
{
    struct fixture *fx = *state;
    char d[128], p[192];
    snprintf(d, sizeof d, "%s/small", fx->dir);
    assert_int_equal(mkdir(d, 0755), 0);
    snprintf(p, sizeof p, "%s/root-link", d);
    assert_int_equal(symlink("/", p), 0);
    snprintf(p, sizeof p, "%s/fifo", d);
    assert_int_equal(mkfifo(p, 0644), 0);
    snprintf(p, sizeof p, "%s/sub", d);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/sub/f", d);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("12345", f);
    fclose(f);
    struct shape s;
    assert_int_equal(shape_capture(d, &s), 0);
    assert_int_equal(s.files, 1);
    assert_int_equal(s.dirs, 1);
    assert_int_equal(s.symlinks, 1);
    assert_int_equal(s.other, 1);
    assert_int_equal(s.bytes, 5);
    assert_int_equal(s.max_depth, 2);
    assert_int_equal(s.depth[2], 1);
    assert_int_equal(s.file_sizes[3], 1);  /* 5 is in [4, 8) */
    assert_int_equal(s.files_per_dir[0], 1); /* the root holds no regular file */
    assert_int_equal(s.files_per_dir[1], 1);
    assert_int_equal(s.name_length[3], 1); /* "sub" */
    err_set_quiet(1);
    assert_int_equal(shape_capture("/nonexistent/fsbench", &s), -1);
    err_set_quiet(0);
}

static void test_ini_round_trip(void **state)
{
    struct fixture *fx = *state;
    char path[128];
    snprintf(path, sizeof path, "%s/s.ini", fx->dir);
    assert_int_equal(shape_write_ini(&fx->cap, path), 0);
    struct shape back;
    assert_int_equal(shape_load_ini(path, &back), 0);
    assert_memory_equal(&back, &fx->cap, sizeof back);
    /* no name from the tree appears in the file */
    FILE *f = fopen(path, "r");
    char line[256];
    int has_sizes = 0;
    while (fgets(line, sizeof line, f)) {
        has_sizes |= !strcmp(line, "[file_sizes]\n");
        if (line[0] == '#' || line[0] == ';' || line[0] == '[' || line[0] == '\n')
            continue;
        /* everything else is "word = number", the word a bucket or a [shape] key */
        char key[64], rest[8];
        unsigned long long v;
        assert_int_equal(sscanf(line, "%63[a-z_0-9] = %llu%7s", key, &v, rest), 2);
        assert_true(key[0] >= '0' && key[0] <= '9' ? 1 : strchr("vfdsbomu", key[0]) != NULL);
    }
    fclose(f);
    assert_true(has_sizes);
}

/* Loads text as a shape file; returns the error message ("" if it loaded). */
static const char *load_text(const char *dir, const char *text, char *msg, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "%s/bad.ini", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    struct shape s;
    err_capture_begin(msg, len);
    int rc = shape_load_ini(path, &s);
    err_capture_end();
    assert_int_equal(rc, msg[0] ? -1 : 0);
    return msg;
}

#define GOOD_HEAD "# c\n[shape]\nversion = 1\nfiles = 2\ndirs = 1\nsymlinks = 0\nbytes = 10\n"
#define GOOD_REST "[file_sizes]\n4 = 2\n[files_per_dir]\n0 = 1\n2 = 1\n" \
                  "[subdirs_per_dir]\n0 = 1\n1 = 1\n[depth]\n2 = 2\n[name_length]\n3 = 3\n"

static void expect(const char *dir, const char *text, const char *want)
{
    char msg[512];
    load_text(dir, text, msg, sizeof msg);
    char full[600];
    snprintf(full, sizeof full, "%s/bad.ini:%s", dir, want);
    if (strncmp(msg, full, strlen(full)) != 0)
        fail_msg("got '%s', want a message starting '%s'", msg, full);
}

static void test_ini_errors(void **state)
{
    struct fixture *fx = *state;
    const char *d = fx->dir;
    char msg[512];
    assert_string_equal(load_text(d, GOOD_HEAD GOOD_REST, msg, sizeof msg), "");
    expect(d, GOOD_HEAD "colour = blue\n" GOOD_REST, "8: unknown key 'colour' in [shape]");
    expect(d, GOOD_HEAD GOOD_REST "[extra]\nx = 1\n", "21: unknown section [extra]");
    expect(d, GOOD_HEAD "max_depth = two\n" GOOD_REST, "8: max_depth = 'two' is not a whole");
    expect(d, GOOD_HEAD "[file_sizes]\n3 = 2\n", "9: '3' in [file_sizes] is not a bucket's");
    expect(d, GOOD_HEAD "[file_sizes]\n4 = -2\n", "9: count '-2' of bucket 4");
    expect(d, GOOD_HEAD "[file_sizes]\n4 = 1\n4 = 1\n", "10: bucket 4 appears twice");
    expect(d, GOOD_HEAD "this is not ini\n" GOOD_REST, "8: expected '[section]'");
    expect(d, "# nothing\n" GOOD_REST, "1: no [shape] section");
    expect(d, "[shape]\nversion = 2\n", "2: shape version 2 is not supported");
    expect(d, "[shape]\nversion = 1\nfiles = 2\n" GOOD_REST, "1: [shape] has no 'dirs'");
    expect(d, GOOD_HEAD "[file_sizes]\n4 = 3\n[files_per_dir]\n0 = 1\n2 = 1\n",
           "8: [file_sizes] counts add up to 3, but [shape] says files = 2");
    expect(d, "[shape]\nversion = 1\nfiles = 2\ndirs = 1\nbytes = 99\n" GOOD_REST,
           "5: bytes = 99 does not fit");
    expect(d, GOOD_HEAD "[depth]\n0 = 2\n", "9: '0' in [depth] is out of range");
}

/* Share of bucket i. */
static double share(const uint64_t *h, uint64_t n, unsigned i)
{
    return (double)h[i] / (double)n;
}

static void test_synthesis_matches(void **state)
{
    struct fixture *fx = *state;
    const struct shape *c = &fx->cap;
    struct shape_model *m = malloc(sizeof *m);
    assert_non_null(m);
    assert_int_equal(shape_to_profile(c, "captured.ini", m), 0);
    assert_string_equal(m->prof.name, "captured.ini");
    assert_null(profile_find("captured.ini"));
    double cfpd = (double)c->files / (double)(c->dirs + 1);
    double cdepth = 0;
    for (unsigned i = 1; i <= SHAPE_DEPTH_MAX; i++)
        cdepth += (double)i * share(c->depth, c->files, i);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        struct tree_spec sp = {.prof = &m->prof, .scale = 1, .seed = seed};
        struct shape y;
        stream_shape(&sp, &y);
        /* exact: file count and, at scale 1, every size bucket */
        assert_int_equal(y.files, c->files);
        assert_memory_equal(y.file_sizes, c->file_sizes, sizeof y.file_sizes);
        double rb = (double)y.bytes / (double)c->bytes;
        if (fabs(rb - 1) > 0.02)
            fail_msg("seed %llu: bytes ratio %.4f", (unsigned long long)seed, rb);
        /* approximate: files per directory, depth */
        double yfpd = (double)y.files / (double)(y.dirs + 1);
        if (fabs(yfpd / cfpd - 1) > 0.15)
            fail_msg("seed %llu: files per dir %.2f vs %.2f", (unsigned long long)seed, yfpd,
                     cfpd);
        for (unsigned i = 0; i < SHAPE_BUCKETS; i++)
            if (share(c->files_per_dir, c->dirs + 1, i) > 0.05 &&
                fabs(share(y.files_per_dir, y.dirs + 1, i) -
                     share(c->files_per_dir, c->dirs + 1, i)) > 0.08)
                fail_msg("seed %llu: files-per-dir bucket %u", (unsigned long long)seed, i);
        double ydepth = 0;
        for (unsigned i = 1; i <= SHAPE_DEPTH_MAX; i++)
            ydepth += (double)i * share(y.depth, y.files, i);
        assert_true(fabs(ydepth - cdepth) < 0.5);
        assert_int_equal(y.max_depth, c->max_depth);
        assert_true(y.symlinks <= 3 * c->symlinks + 3);
    }
    /* at scale 2: twice the files; every size bucket within one file of twice its count */
    struct tree_spec sp2 = {.prof = &m->prof, .scale = 2, .seed = 1};
    struct shape y2;
    stream_shape(&sp2, &y2);
    assert_int_equal(y2.files, 2 * c->files);
    for (unsigned i = 0; i < SHAPE_BUCKETS; i++) {
        double diff = fabs((double)y2.file_sizes[i] - 2.0 * (double)c->file_sizes[i]);
        assert_true(diff <= 1.0);
    }
    assert_true(fabs((double)y2.bytes / (2.0 * (double)c->bytes) - 1) < 0.02);
    free(m);
}

/* Hash of a whole walk: same seed, same tree; another seed, another tree. */
static uint64_t walk_hash(const struct profile *p, uint64_t seed)
{
    struct tree_spec sp = {.prof = p, .scale = 0.5, .seed = seed};
    struct tree_gen *g = tree_open(&sp);
    assert_non_null(g);
    uint64_t h = 0xcbf29ce484222325ull;
    struct tree_entry e;
    while (tree_next(g, &e)) {
        for (const char *q = e.name; *q; q++)
            h = (h ^ (unsigned char)*q) * 0x100000001b3ull;
        h = (h ^ e.size ^ ((uint64_t)e.kind << 60)) * 0x100000001b3ull;
    }
    tree_close(g);
    return h;
}

static void test_deterministic(void **state)
{
    struct fixture *fx = *state;
    struct shape_model *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_int_equal(shape_to_profile(&fx->cap, "a", a), 0);
    assert_int_equal(shape_to_profile(&fx->cap, "a", b), 0);
    assert_int_equal(a->prof.max_depth, b->prof.max_depth);
    assert_true(a->prof.size_tilt == b->prof.size_tilt);
    assert_true(walk_hash(&a->prof, 5) == walk_hash(&b->prof, 5));
    assert_true(walk_hash(&a->prof, 5) != walk_hash(&a->prof, 6));
    free(a);
    free(b);
}

static void test_model_load_and_reject(void **state)
{
    struct fixture *fx = *state;
    char path[128];
    snprintf(path, sizeof path, "%s/m.ini", fx->dir);
    assert_int_equal(shape_write_ini(&fx->cap, path), 0);
    struct shape_model *m = malloc(sizeof *m);
    assert_int_equal(shape_model_load(path, m), 0);
    assert_string_equal(m->prof.name, path);
    assert_int_equal(m->prof.files, fx->cap.files);
    assert_int_equal(profile_check(&m->prof), 0);
    struct shape empty = {0};
    err_set_quiet(1);
    assert_int_equal(shape_to_profile(&empty, "e", m), -1);
    err_set_quiet(0);
    assert_true(shape_is_path("x/s.ini"));
    assert_false(shape_is_path("kernel"));
    assert_false(shape_is_path(".ini"));
    assert_false(shape_is_path("tar:a.ini.tar"));
    free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capture_exact),
        cmocka_unit_test(test_capture_no_follow),
        cmocka_unit_test(test_ini_round_trip),
        cmocka_unit_test(test_ini_errors),
        cmocka_unit_test(test_synthesis_matches),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_model_load_and_reject),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
