/* test_workloads.c — unit tests of the workload phases (workload.h): the CVS-style fsync
 * storm, createsync, compilebench's initial create and random operations, and aging.
 *
 * Each test works in its own mkdtemp scratch workspace with the posix engine and a
 * hand-built phase_ctx; the age test mounts a 32 MiB tmpfs there (root only, skipped
 * otherwise) and the teardown always unmounts it and removes the scratch directory.
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
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine/engine.h"
#include "base/err.h"
#include "measure/measure.h"
#include "phase/phase.h"
#include "tree/profile.h"
#include "tree/tree.h"
#include "phase/workload.h"
#include "phase/cb_listing.h"
#include "os/cputime.h"

#define BUFLEN (128 * 1024)

/* A scratch directory for a data set, outside the workspace. */
static char *cb_scratch(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/fsbench-cbds.XXXXXX");
    return mkdtemp(dir);
}

struct fx {
    char dir[64];
    bool mounted;
    int ws_fd;
    struct opstats *st;
    struct eng_worker w;
    struct phase_result res;
    struct phase_params params;
    struct tree_spec spec;
    struct phase_ctx ctx;
    void *buf;
};

/* Clears counts and results between phases. */
static void fx_reset(struct fx *f)
{
    opstats_reset(f->st);
    phase_result_free(&f->res);
    memset(&f->res, 0, sizeof f->res);
}

static int fx_setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    snprintf(f->dir, sizeof f->dir, "/tmp/fsbench-wl.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    f->ws_fd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(f->ws_fd >= 0);
    f->st = calloc(1, sizeof *f->st);
    f->buf = malloc(BUFLEN);
    assert_non_null(f->st);
    assert_non_null(f->buf);
    f->w.st = f->st;
    f->spec = (struct tree_spec){.prof = profile_find("tiny"), .scale = 0.05, .seed = 7};
    f->params = (struct phase_params){
        .cb_initial = 2,
        .cb_runs = 20,
        .cb_no_sync = true, /* no machine-wide cache drops from unit tests */
        .fsync_rounds = 1,
        .fsync_dir = true,
        .age_written = 4,
        .age_fullness = 0.5,
    };
    f->ctx = (struct phase_ctx){
        .eng = &engine_posix,
        .w = &f->w,
        .ws_fd = f->ws_fd,
        .tree = &f->spec,
        .res = &f->res,
        .buf = f->buf,
        .buflen = BUFLEN,
        .params = &f->params,
        .seed = 42,
    };
    *state = f;
    return 0;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static int fx_teardown(void **state)
{
    struct fx *f = *state;
    close(f->ws_fd);
    if (f->mounted)
        umount2(f->dir, MNT_DETACH);
    nftw(f->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    phase_result_free(&f->res);
    free(f->st);
    free(f->buf);
    free(f);
    return 0;
}

/* Removes "tree" of the workspace (between two runs of a determinism test). */
static void fx_clear_tree(struct fx *f)
{
    char p[128];
    snprintf(p, sizeof p, "%s/tree", f->dir);
    nftw(p, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- a snapshot of a directory tree: relative path, type, size and content ---- */

struct snap_ent {
    char *path;
    mode_t type;
    size_t size;
    unsigned char *data;
};

struct snap {
    struct snap_ent *e;
    size_t n, cap;
};

static struct snap *snap_cur;
static size_t snap_root_len;

static int snap_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)flag;
    (void)ftw;
    struct snap *s = snap_cur;
    if (strlen(path) <= snap_root_len)
        return 0;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 256;
        s->e = realloc(s->e, s->cap * sizeof *s->e);
        assert_non_null(s->e);
    }
    struct snap_ent *e = &s->e[s->n++];
    e->path = strdup(path + snap_root_len + 1);
    e->type = sb->st_mode & S_IFMT;
    e->size = (size_t)sb->st_size;
    e->data = NULL;
    if (S_ISREG(sb->st_mode)) {
        e->data = malloc(e->size + 1);
        FILE *fp = fopen(path, "rb");
        assert_non_null(fp);
        assert_int_equal(fread(e->data, 1, e->size, fp), e->size);
        fclose(fp);
    }
    return 0;
}

static int snap_cmp(const void *a, const void *b)
{
    return strcmp(((const struct snap_ent *)a)->path, ((const struct snap_ent *)b)->path);
}

static void snap_take(struct snap *s, const char *root)
{
    memset(s, 0, sizeof *s);
    snap_cur = s;
    snap_root_len = strlen(root);
    assert_int_equal(nftw(root, snap_one, 16, FTW_PHYS), 0);
    qsort(s->e, s->n, sizeof *s->e, snap_cmp);
}

static void snap_free(struct snap *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->e[i].path);
        free(s->e[i].data);
    }
    free(s->e);
}

static const struct snap_ent *snap_find(const struct snap *s, const char *path)
{
    struct snap_ent key = {.path = (char *)path};
    return bsearch(&key, s->e, s->n, sizeof *s->e, snap_cmp);
}

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

/* ---- fsync storms ---- */

static void test_fsyncstorm(void **state)
{
    struct fx *f = *state;
    struct tree_totals tot;
    assert_int_equal(tree_measure(&f->spec, &tot), 0);
    assert_int_equal(phase_extract(&f->ctx), 0);
    char root[128];
    snprintf(root, sizeof root, "%s/tree", f->dir);
    struct snap before, after;
    snap_take(&before, root);

    fx_reset(f);
    assert_int_equal(phase_fsyncstorm(&f->ctx), 0);
    assert_int_equal(f->res.status, PHASE_OK);
    assert_int_equal(f->res.files, tot.files);
    assert_int_equal(f->res.dirs, tot.dirs);
    /* one fsync per file and, with fsync_dir, one of its directory per file */
    assert_true(f->st->count[OP_FSYNC] >= 2 * tot.files);
    assert_int_equal(f->st->count[OP_RENAME], tot.files);

    snap_take(&after, root);
    assert_int_equal(after.n, before.n);
    size_t changed = 0;
    for (size_t i = 0; i < after.n; i++) {
        const struct snap_ent *a = &after.e[i];
        assert_null(strchr(a->path, ','));
        const struct snap_ent *b = snap_find(&before, a->path);
        assert_non_null(b);
        assert_int_equal(a->type, b->type);
        if (a->type != S_IFREG)
            continue;
        assert_int_equal(a->size, b->size);
        /* bytes at 0, size/2 and size-1 incremented by one, the rest unchanged */
        for (size_t o = 0; o < a->size; o++) {
            bool bumped = o == 0 || o == a->size / 2 || o == a->size - 1;
            unsigned char want = (unsigned char)(b->data[o] + (bumped ? 1 : 0));
            assert_int_equal(a->data[o], want);
        }
        changed += a->size > 0;
    }
    assert_true(changed > 0);
    snap_free(&before);
    snap_free(&after);

    /* a second pass works on the renamed files (as cvs x N does) */
    fx_reset(f);
    f->params.fsync_dir = false;
    assert_int_equal(phase_fsyncstorm(&f->ctx), 0);
    assert_int_equal(f->res.files, tot.files);
    assert_int_equal(f->st->count[OP_FSYNC], tot.files);
}

static void test_createsync(void **state)
{
    struct fx *f = *state;
    struct tree_totals tot;
    assert_int_equal(tree_measure(&f->spec, &tot), 0);
    assert_int_equal(phase_createsync(&f->ctx), 0);
    assert_int_equal(f->res.files, tot.files);
    assert_int_equal(f->res.dirs, tot.dirs);
    assert_int_equal(f->res.symlinks, tot.symlinks);
    assert_int_equal(f->st->count[OP_FSYNC], tot.files);

    fx_reset(f);
    assert_int_equal(phase_walk(&f->ctx), 0);
    assert_int_equal(f->res.files, tot.files);
    assert_int_equal(f->res.dirs, tot.dirs);
    assert_int_equal(f->res.symlinks, tot.symlinks);
}

/* ---- compilebench ---- */

static void test_cb_initial(void **state)
{
    struct fx *f = *state;
    struct tree_totals tot;
    f->spec.scale = 0.03;
    assert_int_equal(tree_measure(&f->spec, &tot), 0);
    assert_int_equal(phase_cb_initial(&f->ctx), 0);
    assert_int_equal(f->res.files, 2 * tot.files);
    for (int i = 0; i < 2; i++) {
        char p[160];
        struct stat st;
        snprintf(p, sizeof p, "%s/tree/kernel-%d", f->dir, i);
        assert_int_equal(stat(p, &st), 0);
        assert_true(S_ISDIR(st.st_mode));
    }
    struct cb_summary s;
    assert_int_equal(compilebench_last(&s), 0);
    assert_int_equal(s.k[CB_INITIAL].runs, 2);
    assert_int_equal(s.trees, 2);
    struct cb_dataset model;
    assert_int_equal(cb_dataset_model(&f->spec, &model), 0);
    assert_int_equal(s.k[CB_INITIAL].bytes, 2 * model.bytes[CB_LIST_CLEAN]);
    assert_int_equal(model.l[CB_LIST_CLEAN].n, tot.files);
    cb_dataset_free(&model);
    /* the reference figures, their trees gone */
    for (int k = 0; k < CB_NATIVES; k++)
        assert_int_equal(s.native[k].runs, 1);
    assert_true(s.no_sync);
    char nat[160];
    struct stat nst;
    snprintf(nat, sizeof nat, "%s/tree/native-0", f->dir);
    assert_int_equal(stat(nat, &nst), -1);
    assert_non_null(strstr(f->res.note, "initial create 2 runs "));
    assert_true(ends_with(f->res.note, " MB/s"));

    /* a second initial create adds trees after the existing ones */
    fx_reset(f);
    f->params.cb_initial = 1;
    assert_int_equal(phase_cb_initial(&f->ctx), 0);
    char p[160];
    struct stat st;
    snprintf(p, sizeof p, "%s/tree/kernel-2", f->dir);
    assert_int_equal(stat(p, &st), 0);
}

/* Runs initial create + `runs` random operations from a clean workspace. */
static void cb_session(struct fx *f, unsigned runs, struct cb_summary *s, uint64_t *ops)
{
    fx_clear_tree(f);
    fx_reset(f);
    f->params.cb_initial = 2;
    f->params.cb_runs = runs;
    assert_int_equal(phase_cb_initial(&f->ctx), 0);
    fx_reset(f);
    int rc = phase_cb_random(&f->ctx);
    if (rc)
        print_error("cb_random: %s\n", f->res.note);
    assert_int_equal(rc, 0);
    assert_int_equal(compilebench_last(s), 0);
    memcpy(ops, f->st->count, sizeof f->st->count);
}

static void test_cb_random_deterministic(void **state)
{
    struct fx *f = *state;
    f->spec.scale = 0.02;
    struct cb_summary a, b;
    uint64_t oa[OP_KINDS], ob[OP_KINDS];
    cb_session(f, 40, &a, oa);
    char note[RES_NOTE_MAX];
    snprintf(note, sizeof note, "%s", f->res.note);
    cb_session(f, 40, &b, ob);
    for (int k = 0; k < CB_KINDS; k++) {
        assert_int_equal(a.k[k].runs, b.k[k].runs);
        assert_int_equal(a.k[k].bytes, b.k[k].bytes);
    }
    assert_int_equal(a.trees, b.trees);
    assert_memory_equal(oa, ob, sizeof oa);

    /* another seed, another sequence */
    f->spec.seed = 8; /* compilebench's draws follow the run's --seed */
    cb_session(f, 40, &b, ob);
    bool differs = false;
    for (int k = 0; k < CB_KINDS; k++)
        differs |= a.k[k].runs != b.k[k].runs || a.k[k].bytes != b.k[k].bytes;
    assert_true(differs);
}

static void test_cb_random_every_kind(void **state)
{
    struct fx *f = *state;
    f->spec.scale = 0.02;
    struct cb_summary s;
    uint64_t ops[OP_KINDS];
    cb_session(f, 200, &s, ops);
    uint64_t total = 0;
    for (int k = CB_CREATE; k < CB_KINDS; k++) {
        if (s.k[k].runs == 0)
            print_error("no runs for %s\n", cb_kind_name((enum cb_kind)k));
        assert_true(s.k[k].runs > 0);
        total += s.k[k].runs;
    }
    assert_int_equal(total, 200);
    assert_true(s.trees >= 1);
    /* every kind is in the note (in a shorter form when the full one does not fit) */
    for (int k = CB_CREATE; k < CB_KINDS; k++)
        assert_non_null(strstr(f->res.note, cb_kind_name((enum cb_kind)k)));
    assert_null(strstr(f->res.note, "..."));
    /* and the full table */
    char table[2048];
    assert_true(compilebench_format(&s, table, sizeof table) < (int)sizeof table);
    assert_non_null(strstr(table, "\ncreate total runs "));
    assert_non_null(strstr(table, "delete tree total runs "));
    assert_non_null(strstr(table, " seconds (user "));
}

/* A short session's note is in compilebench's words: "create 1 runs 12.34 MB/s; ...". */
static void test_cb_note(void **state)
{
    struct fx *f = *state;
    f->spec.scale = 0.02;
    struct cb_summary s;
    uint64_t ops[OP_KINDS];
    cb_session(f, 6, &s, ops);
    regex_t re;
    assert_int_equal(regcomp(&re,
                             "^(no sync: |warm caches: )?[a-z ]+ [0-9]+ runs [0-9]+\\.[0-9]{2} (MB/s|s)"
                             "(; [a-z ]+ [0-9]+ runs [0-9]+\\.[0-9]{2} (MB/s|s))*$",
                             REG_EXTENDED | REG_NOSUB),
                     0);
    int m = regexec(&re, f->res.note, 0, NULL, 0);
    if (m)
        print_error("note: %s\n", f->res.note);
    regfree(&re);
    assert_int_equal(m, 0);
    for (int k = CB_CREATE; k < CB_KINDS; k++) {
        char item[64];
        snprintf(item, sizeof item, "%s %llu runs ", cb_kind_name((enum cb_kind)k),
                 (unsigned long long)s.k[k].runs);
        assert_true((strstr(f->res.note, item) != NULL) == (s.k[k].runs > 0));
    }
    assert_non_null(strstr(f->res.note, " MB/s"));
}

/* A small data set in compilebench's listing format, written here. */
static const char *const cb_text[CB_LISTS] = {
    "Makefile 300\nkernel/sched.c 5000\nkernel/fork.c 3000\ninclude/linux/fs.h 700\n",
    "Makefile 310\nkernel/sched.c 5000\nkernel/fork.c 3100\ninclude/linux/fs.h 700\n"
    "kernel/new.c 400\n",
    "Makefile 300\nkernel/sched.c 5000\nkernel/fork.c 3000\ninclude/linux/fs.h 700\n"
    "kernel/sched.o 9000\nkernel/fork.o 6000\nvmlinux 20000\n",
    "Makefile 310\nkernel/sched.c 5000\nkernel/fork.c 3100\ninclude/linux/fs.h 700\n"
    "kernel/new.c 400\nkernel/sched.o 9000\nkernel/fork.o 6100\nkernel/new.o 800\n"
    "vmlinux 20500\n",
};

static void cb_write_dataset(const char *dir)
{
    for (int k = 0; k < CB_LISTS; k++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, cb_listing_files[k]);
        FILE *fp = fopen(p, "w");
        assert_non_null(fp);
        fputs(cb_text[k], fp);
        assert_int_equal(fclose(fp), 0);
    }
}

/* The size of root/rel, every byte 'a'; -1 when missing. */
static long cb_file(const char *root, const char *rel)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *fp = fopen(p, "r");
    if (!fp)
        return -1;
    long n = 0;
    int c;
    while ((c = fgetc(fp)) != EOF) {
        assert_int_equal(c, 'a');
        n++;
    }
    fclose(fp);
    return n;
}

/* The trees follow the data set's listings: create, patch, compile, clean, read, delete. */
static void test_cb_dataset_ops(void **state)
{
    struct fx *f = *state;
    char ds[256], root[300];
    assert_non_null(cb_scratch(ds, sizeof ds));
    cb_write_dataset(ds);
    f->params.cb_dataset = ds;
    f->params.cb_initial = 1;
    f->params.cb_buffer_size = 1000; /* several writes a file */
    assert_int_equal(phase_cb_initial(&f->ctx), 0);
    snprintf(root, sizeof root, "%s/tree/kernel-0", f->dir);
    assert_int_equal(cb_file(root, "Makefile"), 300);
    assert_int_equal(cb_file(root, "kernel/sched.c"), 5000);
    assert_int_equal(cb_file(root, "kernel/fork.c"), 3000);
    assert_int_equal(cb_file(root, "include/linux/fs.h"), 700);
    assert_int_equal(f->res.files, 4);
    struct cb_summary s;
    assert_int_equal(compilebench_last(&s), 0);
    assert_int_equal(s.k[CB_INITIAL].bytes, 9000);
    assert_int_equal(s.native[CB_NATIVE_CLEAN].bytes, 9000);
    assert_int_equal(s.native[CB_NATIVE_PATCH].bytes, 310 + 3100 + 400);
    assert_int_equal(s.native[CB_NATIVE_COMPILE].bytes, 6100 + 800 + 20500);
    assert_true(f->st->count[OP_WRITE] >= 9 + 5 * 3); /* 5000 bytes: 5 writes */

    struct cb_dataset d;
    assert_int_equal(cb_dataset_load(ds, &d), 0);
    char *wbuf = malloc(1000), *rbuf = malloc(1000);
    memset(wbuf, 'a', 1000);
    struct cb_env env = {.tdir = compilebench_open_trees(&f->ctx), .wbuf = wbuf, .rbuf = rbuf,
                         .bufsize = 1000};
    assert_true(env.tdir >= 0);
    struct cb_kind_total t = {0};
    /* patch: the changed and the new files rewritten whole, the others left */
    assert_int_equal(compilebench_run(&f->ctx, &env, CB_OP_WRITE, &d.l[CB_LIST_PATCH],
                                      CB_TRUNCATE_FIRST | CB_UNLINK_FIRST, "kernel-0", &t, true),
                     0);
    assert_int_equal(cb_file(root, "Makefile"), 310);
    assert_int_equal(cb_file(root, "kernel/fork.c"), 3100);
    assert_int_equal(cb_file(root, "kernel/new.c"), 400);
    assert_int_equal(cb_file(root, "kernel/sched.c"), 5000);
    assert_int_equal(t.runs, 1);
    assert_int_equal(t.bytes, 3810);
    assert_true(t.value > 0);
    /* compile of a patched tree: the patched objects */
    assert_int_equal(compilebench_run(&f->ctx, &env, CB_OP_WRITE, &d.l[CB_LIST_PATCH_OBJS], 0,
                                      "kernel-0", NULL, true),
                     0);
    assert_int_equal(cb_file(root, "kernel/fork.o"), 6100);
    assert_int_equal(cb_file(root, "vmlinux"), 20500);
    assert_int_equal(cb_file(root, "kernel/sched.o"), -1); /* as compiled before: not in it */
    /* read: every byte of the tree */
    memset(&t, 0, sizeof t);
    assert_int_equal(
        compilebench_run(&f->ctx, &env, CB_OP_READ, NULL, 0, "kernel-0", &t, true), 0);
    assert_int_equal(t.bytes, 310 + 5000 + 3100 + 700 + 400 + 6100 + 800 + 20500);
    /* clean: the objects gone, the sources kept */
    assert_int_equal(compilebench_run(&f->ctx, &env, CB_OP_CLEAN, &d.l[CB_LIST_PATCH_OBJS], 0,
                                      "kernel-0", NULL, true),
                     0);
    assert_int_equal(cb_file(root, "kernel/fork.o"), -1);
    assert_int_equal(cb_file(root, "vmlinux"), -1);
    assert_int_equal(cb_file(root, "kernel/fork.c"), 3100);
    /* stat and delete: seconds */
    memset(&t, 0, sizeof t);
    assert_int_equal(
        compilebench_run(&f->ctx, &env, CB_OP_STAT, NULL, 0, "kernel-0", &t, false), 0);
    assert_int_equal(t.bytes, 0);
    assert_true(t.value > 0 && t.value == t.seconds);
    assert_int_equal(
        compilebench_run(&f->ctx, &env, CB_OP_DELETE, NULL, 0, "kernel-0", NULL, false), 0);
    struct stat st;
    assert_int_equal(stat(root, &st), -1);
    f->ctx.eng->close(f->ctx.w, env.tdir);
    free(wbuf);
    free(rbuf);
    cb_dataset_free(&d);

    /* the random operations on the data set: every tree in a state its listings allow */
    fx_reset(f);
    f->params.cb_runs = 60;
    assert_int_equal(phase_cb_random(&f->ctx), 0);
    assert_int_equal(compilebench_last(&s), 0);
    uint64_t runs = 0;
    for (int k = CB_CREATE; k < CB_KINDS; k++)
        runs += s.k[k].runs;
    assert_int_equal(runs, 60);
    for (int k = 0; k < CB_LISTS; k++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", ds, cb_listing_files[k]);
        unlink(p);
    }
    rmdir(ds);
    f->params.cb_dataset = NULL;
}

/* --cb-program-cpu: the program's processor time is spent per file written or read and per
 * entry stat'ed or removed, inside the operation's time, and the summary says so. */
static void test_cb_program_cpu(void **state)
{
    struct fx *f = *state;
    char ds[256];
    assert_non_null(cb_scratch(ds, sizeof ds));
    cb_write_dataset(ds);
    struct cb_dataset d;
    assert_int_equal(cb_dataset_load(ds, &d), 0);
    char wbuf[1000], rbuf[1000];
    memset(wbuf, 'a', sizeof wbuf);
    /* the clean listing: 4 files in 3 directories, so a tree of 7 entries */
    struct cb_env env = {.tdir = compilebench_open_trees(&f->ctx), .wbuf = wbuf, .rbuf = rbuf,
                         .bufsize = sizeof wbuf, .cpu_file_ns = 10000000, .cpu_entry_ns = 4000000};
    assert_true(env.tdir >= 0);
    struct cb_kind_total w = {0}, r = {0}, st = {0}, del = {0};
    assert_int_equal(compilebench_run(&f->ctx, &env, CB_OP_WRITE, &d.l[CB_LIST_CLEAN], 0,
                                      "kernel-0", &w, true),
                     0);
    assert_int_equal(compilebench_run(&f->ctx, &env, CB_OP_READ, NULL, 0, "kernel-0", &r, true), 0);
    assert_int_equal(compilebench_run(&f->ctx, &env, CB_OP_STAT, NULL, 0, "kernel-0", &st, false),
                     0);
    assert_int_equal(
        compilebench_run(&f->ctx, &env, CB_OP_DELETE, NULL, 0, "kernel-0", &del, false), 0);
    /* at least half of what was asked (4 x 10 ms; 7 x 4 ms), inside each operation's time
     * and, where the system tells a thread's user time (not the POSIX-only build), in it; a
     * thread that did only the file work would spend well under a millisecond here */
    struct rusage ru;
    double per_thread = os_thread_rusage(&ru) == 0 ? 1 : 0;
    assert_true(w.user_s >= 0.020 * per_thread && w.seconds >= 0.020);
    assert_true(r.user_s >= 0.020 * per_thread && r.seconds >= 0.020);
    assert_true(st.user_s >= 0.014 * per_thread && st.seconds >= 0.014);
    assert_true(del.user_s >= 0.014 * per_thread && del.seconds >= 0.014);
    f->ctx.eng->close(f->ctx.w, env.tdir);
    cb_dataset_free(&d);
    for (int k = 0; k < CB_LISTS; k++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", ds, cb_listing_files[k]);
        unlink(p);
    }
    rmdir(ds);

    /* the summary and the note say it */
    fx_reset(f);
    f->params.cb_initial = 1;
    f->params.cb_cpu_file_ns = 1500;
    f->params.cb_cpu_entry_ns = 250;
    assert_int_equal(phase_cb_initial(&f->ctx), 0);
    assert_non_null(strstr(f->res.note, "program cpu 1.5/0.25 us: initial create 1 runs"));
    struct cb_summary s;
    assert_int_equal(compilebench_last(&s), 0);
    assert_int_equal(s.cpu_file_ns, 1500);
    assert_int_equal(s.cpu_entry_ns, 250);
    char text[4096];
    assert_true(compilebench_format(&s, text, sizeof text) > 0);
    assert_non_null(strstr(text, "(--cb-program-cpu: the program's own processor time included: "
                                 "1.5 us a file written or read, 0.25 us an entry stat'ed or "
                                 "removed)\n"));
    /* compilebench's own block stays line for line: no such line in it */
    assert_true(compilebench_format_original(&s, text, sizeof text) > 0);
    assert_null(strstr(text, "program"));
    f->params.cb_cpu_file_ns = f->params.cb_cpu_entry_ns = 0;
}

/* compilebench's own "run complete" block, line for line. */
static void test_cb_format_original(void **state)
{
    (void)state;
    struct cb_summary s = {0};
    s.k[CB_INITIAL] = (struct cb_kind_total){.runs = 3, .value = 3 * 198.294, .user_s = 1.59,
                                             .sys_s = 1.71};
    s.k[CB_DELETE] = (struct cb_kind_total){.runs = 2, .value = 1.2, .user_s = 0.08,
                                            .sys_s = 0.6};
    char buf[2048];
    int n = compilebench_format_original(&s, buf, sizeof buf);
    assert_int_equal(n, (int)strlen(buf));
    const char *want =
        "\nrun complete:\n"
        "==========================================================================\n"
        "intial create total runs 3 avg 198.29 MB/s (user 0.53s sys 0.57s)\n"
        "no runs for create\n"
        "no runs for patch\n"
        "no runs for compile\n"
        "no runs for clean\n"
        "no runs for read tree\n"
        "no runs for read compiled tree\n"
        "delete tree total runs 2 avg 0.60 seconds (user 0.04s sys 0.30s)\n"
        "no runs for delete compiled tree\n"
        "no runs for stat tree\n"
        "no runs for stat compiled tree\n";
    assert_string_equal(buf, want);
}

/* ---- age ---- */

static int mount_fresh(struct fx *f)
{
    close(f->ws_fd);
    if (f->mounted)
        umount2(f->dir, MNT_DETACH);
    f->mounted = false;
    if (mount("fsbench-test", f->dir, "tmpfs", 0, "size=32m") < 0)
        return -1;
    f->mounted = true;
    f->ws_fd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    f->ctx.ws_fd = f->ws_fd;
    return f->ws_fd >= 0 ? 0 : -1;
}

static void test_age(void **state)
{
    struct fx *f = *state;
    f->spec.scale = 1;
    f->params.age_fullness = 0.5;
    f->params.age_written = 10;
    uint64_t runs[2][OP_KINDS + 2];
    for (int r = 0; r < 2; r++) {
        assert_int_equal(mount_fresh(f), 0);
        fx_reset(f);
        int rc = phase_age(&f->ctx);
        if (rc)
            print_error("age: %s\n", f->res.note);
        assert_int_equal(rc, 0);
        assert_non_null(strstr(f->res.note, "fullness target reached"));
        struct statvfs sv;
        assert_int_equal(fstatvfs(f->ws_fd, &sv), 0);
        double size = (double)sv.f_blocks * sv.f_frsize;
        double avail = (double)sv.f_bavail * sv.f_frsize;
        assert_true(avail < 0.5 * size);
        assert_true(avail > 0.3 * size); /* stopped near the target, not at ENOSPC */
        assert_true(f->st->bytes_written > 0);
        assert_true(f->res.files > 0);
        memcpy(runs[r], f->st->count, sizeof f->st->count);
        runs[r][OP_KINDS] = f->st->bytes_written;
        runs[r][OP_KINDS + 1] = f->res.files;
    }
    assert_memory_equal(runs[0], runs[1], sizeof runs[0]);

    /* a fullness of 1 and a small written target: stops on the written bytes */
    assert_int_equal(mount_fresh(f), 0);
    fx_reset(f);
    f->params.age_fullness = 0;
    f->params.age_written = 0.25;
    assert_int_equal(phase_age(&f->ctx), 0);
    assert_non_null(strstr(f->res.note, "written target reached"));
    assert_true(f->st->bytes_written >= 8u << 20);

    /* no targets at all: fills the file system and stops on ENOSPC without failing */
    assert_int_equal(mount_fresh(f), 0);
    fx_reset(f);
    f->params.age_fullness = 0;
    f->params.age_written = 0;
    assert_int_equal(phase_age(&f->ctx), 0);
    assert_int_equal(f->res.status, PHASE_OK);
    assert_non_null(strstr(f->res.note, "ENOSPC"));
}

/* cmocka 1.1 reports skip() as "not ok N # SKIP", which prove counts as a failure, so the
 * root-only test is left out of the plan with a reason instead (as test_target does). */
int main(void)
{
    err_set_quiet(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fsyncstorm, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_createsync, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_cb_initial, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_cb_random_deterministic, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_cb_random_every_kind, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_cb_note, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_cb_program_cpu, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_cb_dataset_ops, fx_setup, fx_teardown),
        cmocka_unit_test(test_cb_format_original),
        /* root only: mounts a 32 MiB tmpfs; keep it last */
        cmocka_unit_test_setup_teardown(test_age, fx_setup, fx_teardown),
    };
    size_t n = sizeof tests / sizeof tests[0];
    if (geteuid() != 0) {
        printf("# skip: test_age: mounting a 32 MiB tmpfs needs root\n");
        n--;
    }
    return _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
}
