/* test_tarindex.c — unit tests of the archive index (tarindex.c) and the threaded archive
 * extraction (phase_tarextract_par.c).
 *
 * Archives are written here with libarchive (pax, or zip stored or deflated) in a scratch
 * directory. The index is checked field by field (implicit parents before their first
 * child, listed directories, hard links kept apart, units grouped by directory in archive
 * order, cut in chunks and sorted largest first, pending counts); extractions on 1, 2 and 3
 * threads and the streaming extraction are compared as listings (names, types, modes,
 * sizes, mtimes, link targets, content hashes, hard-link groups), counts, refusal warnings
 * (text and order) and operations by kind. Archives where order matters (a name made twice)
 * or whose data is compressed are not indexed: they fall back to streaming, saying so once.
 */
#include "testutil.h"
#include "tarwrite.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>

#include "base/err.h"
#include "tree/tarindex.h"
#include "phase/phase_tarextract.h"

#define MAXW 3
#define SMALL_BUF 4096 /* small, so a file takes several reads and writes */
#define NOW_SECS 1700000000L /* mtimes after this are "now" (unlisted directories) */

static char base[4096];

static int setup(void **state)
{
    if (!tu_scratch_dir(base, sizeof base, "tarindex"))
        return -1;
    umask(022);
    err_set_quiet(1);
    return 0;
}

static int teardown(void **state)
{
    err_set_quiet(0);
    phase_interrupt = 0;
    if (getenv("TEST_TARINDEX_KEEP")) /* to look at a failed test's archives */
        return 0;
    return tu_rm_tree(base);
}

static const char *at(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", base, name);
    return buf;
}

/* ---- listings: one sorted line per entry ---------------------------------------- */

struct line {
    char *text;
    char *path;
    ino_t ino;
    nlink_t nlink;
};
static struct line *lines;
static size_t nlines, caplines;
static size_t rootlen;

static uint64_t hash_file(const char *p)
{
    uint64_t h = 0xcbf29ce484222325ull;
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    int c;
    while ((c = getc(f)) != EOF)
        h = (h ^ (unsigned)c) * 0x100000001b3ull;
    fclose(f);
    return h;
}

static int list_cb(const char *fpath, const struct stat *st, int flag, struct FTW *ftw)
{
    const char *rel = fpath + rootlen;
    if (*rel == '/')
        rel++;
    if (!*rel)
        rel = ".";
    char text[8192], mt[64];
    if (st->st_mtim.tv_sec > NOW_SECS)
        snprintf(mt, sizeof mt, "now");
    else
        snprintf(mt, sizeof mt, "%lld.%09ld", (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
    if (S_ISDIR(st->st_mode)) {
        snprintf(text, sizeof text, "%s d %o %s", rel, st->st_mode & 07777, mt);
    } else if (S_ISLNK(st->st_mode)) {
        char t[4096];
        ssize_t n = readlink(fpath, t, sizeof t - 1);
        assert_true(n >= 0);
        t[n] = '\0';
        snprintf(text, sizeof text, "%s l %s %s", rel, t, mt);
    } else if (S_ISREG(st->st_mode)) {
        snprintf(text, sizeof text, "%s f %o %lld %016llx %s", rel, st->st_mode & 07777,
                 (long long)st->st_size, (unsigned long long)hash_file(fpath), mt);
    } else {
        snprintf(text, sizeof text, "%s ? %o", rel, st->st_mode);
    }
    if (nlines == caplines) {
        caplines = caplines ? caplines * 2 : 256;
        lines = realloc(lines, caplines * sizeof *lines);
        assert_non_null(lines);
    }
    lines[nlines++] = (struct line){strdup(text), strdup(rel), st->st_ino,
                                    S_ISDIR(st->st_mode) ? 1 : st->st_nlink};
    return 0;
}

static int line_cmp(const void *a, const void *b)
{
    return strcmp(((const struct line *)a)->text, ((const struct line *)b)->text);
}

/* The listing of dir (the caller frees it). Entries sharing an inode name the first path of
 * their group. */
static char *listing(const char *dir)
{
    nlines = 0;
    rootlen = strlen(dir);
    assert_int_equal(nftw(dir, list_cb, 32, FTW_PHYS), 0);
    size_t total = 1;
    for (size_t i = 0; i < nlines; i++) {
        if (lines[i].nlink > 1) {
            const char *first = lines[i].path;
            for (size_t j = 0; j < nlines; j++)
                if (lines[j].ino == lines[i].ino && strcmp(lines[j].path, first) < 0)
                    first = lines[j].path;
            char *t;
            assert_true(asprintf(&t, "%s =%s", lines[i].text, first) > 0);
            free(lines[i].text);
            lines[i].text = t;
        }
        total += strlen(lines[i].text) + 1;
    }
    qsort(lines, nlines, sizeof *lines, line_cmp);
    char *out = malloc(total);
    assert_non_null(out);
    size_t used = 0;
    for (size_t i = 0; i < nlines; i++) {
        size_t l = strlen(lines[i].text);
        memcpy(out + used, lines[i].text, l);
        out[used + l] = '\n';
        used += l + 1;
        free(lines[i].text);
        free(lines[i].path);
    }
    out[used] = '\0';
    return out;
}

/* ---- extraction ------------------------------------------------------------------ */

struct xout {
    int rc;
    struct phase_result res;
    uint64_t ops[OP_KINDS];
    char err[16384]; /* what went to stderr */
    char *list;
};

/* DISPATCH: phase_extract_tar (tar's calls on one thread stream, in tar's order); STREAM and
 * PAR: each way itself. */
enum how { DISPATCH, STREAM, PAR };

/* Extracts src into base/name on n threads (phase_extract_tar, or the streaming extraction),
 * capturing stderr, summing the workers' operations and listing the result. */
static void extract(struct tarsrc *src, const char *name, unsigned n, enum how how,
                    struct xout *o)
{
    char dir[4096], log[4096];
    at(dir, sizeof dir, name);
    at(log, sizeof log, "stderr.log");
    assert_int_equal(mkdir(dir, 0755), 0);
    int root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(root >= 0);
    struct eng_worker w[MAXW];
    void *bufs[MAXW];
    for (unsigned i = 0; i < n; i++) {
        assert_non_null(tu_worker_stats(&w[i]));
        w[i].priv = NULL;
        bufs[i] = malloc(SMALL_BUF);
        assert_non_null(bufs[i]);
    }
    memset(o, 0, sizeof *o);
    struct phase_ctx ctx = {.eng = &engine_posix, .w = &w[0], .ws_fd = root, .tar = src,
                            .res = &o->res, .buf = bufs[0], .buflen = SMALL_BUF,
                            .workers = n > 1 ? w : NULL, .bufs = bufs, .nworkers = n};
    fflush(stderr);
    int saved = dup(2);
    int lf = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && lf >= 0);
    dup2(lf, 2);
    close(lf);
    err_set_quiet(0);
    o->rc = how == STREAM ? phase_extract_tar_stream(&ctx, src, root)
            : how == PAR  ? phase_extract_tar_par(&ctx, src, root)
                          : phase_extract_tar(&ctx, src, root);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    err_set_quiet(1);
    close(root);
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    size_t got = fread(o->err, 1, sizeof o->err - 1, f);
    o->err[got] = '\0';
    fclose(f);
    unlink(log);
    for (unsigned i = 0; i < n; i++) {
        for (int k = 0; k < OP_KINDS; k++)
            o->ops[k] += w[i].st->count[k];
        free(w[i].st);
        free(bufs[i]);
    }
    o->list = listing(dir);
}

static void xout_free(struct xout *o)
{
    free(o->list);
    o->list = NULL;
}

/* Two extractions made the same tree with the same counts and messages. */
static void same_result(const struct xout *a, const struct xout *b, const char *what)
{
    if (a->rc != b->rc)
        fail_msg("%s: rc %d vs %d", what, a->rc, b->rc);
    if (strcmp(a->list, b->list)) {
        fprintf(stderr, "--- first\n%s--- second\n%s", a->list, b->list);
        fail_msg("%s: different trees", what);
    }
    if (strcmp(a->err, b->err))
        fail_msg("%s: different messages:\n%s---\n%s", what, a->err, b->err);
    assert_int_equal(a->res.files, b->res.files);
    assert_int_equal(a->res.dirs, b->res.dirs);
    assert_int_equal(a->res.symlinks, b->res.symlinks);
}

static void same_ops(const struct xout *a, const struct xout *b, const char *what)
{
    for (int k = 0; k < OP_KINDS; k++)
        if (a->ops[k] != b->ops[k])
            fail_msg("%s: op kind %d: %llu vs %llu", what, k, (unsigned long long)a->ops[k],
                     (unsigned long long)b->ops[k]);
}

/* The totals tarsrc_open counted are what the extraction made and refused. */
static void totals_match(struct tarsrc *src, const struct xout *o)
{
    struct tarent_totals t;
    tarsrc_measure(src, &t);
    assert_int_equal(t.files + t.hardlinks, o->res.files);
    assert_int_equal(t.dirs, o->res.dirs);
    assert_int_equal(t.symlinks, o->res.symlinks);
    assert_int_equal(t.refused, tarsrc_refused(src));
}

static struct tarsrc *open_specs(const char *name, const struct spec *s, size_t n, enum fmt fmt)
{
    char arc[4096];
    write_archive(at(arc, sizeof arc, name), s, n, fmt);
    struct tarsrc *src = tarsrc_open(arc, base);
    assert_non_null(src);
    return src;
}

/* Extracts src streaming and from the index on 1 and 3 threads; all three must agree, and
 * the two indexed ones in operations too. */
static void check_all_ways(struct tarsrc *src)
{
    struct xout s, i1, i3;
    extract(src, "all-stream", 1, STREAM, &s);
    assert_int_equal(s.rc, 0);
    totals_match(src, &s);
    extract(src, "all-j1", 1, PAR, &i1);
    extract(src, "all-j3", 3, DISPATCH, &i3);
    same_result(&s, &i1, "streaming vs -j1");
    same_result(&i1, &i3, "-j1 vs -j3");
    same_ops(&i1, &i3, "-j1 vs -j3");
    totals_match(src, &i3);
    xout_free(&s);
    xout_free(&i1);
    xout_free(&i3);
}

/* ---- tests ----------------------------------------------------------------------- */

/* Parents the archive does not list become directory entries before their first child;
 * a directory listed after its contents keeps its place and gets the listing. */
static void test_implicit_parents(void **state)
{
    const struct spec s[] = {
        {'f', "a/b/c.txt", 0644, NULL, 10, 0, 0},
        {'f', "a/top", 0600, NULL, 3, 0, 0},
        {'d', "a/b/", 0750, NULL, 0, 1500000000, 0},
        {'f', "z/y/x", 0644, NULL, 5, 0, 0},
        {'d', "e/", 0700, NULL, 0, 1500000001, 0},
    };
    struct tarsrc *src = open_specs("imp.tar", s, 5, PAX);
    const struct tarindex *ix = tarsrc_index(src);
    assert_null(ix->why_serial);
    static const struct {
        const char *path;
        enum tix_kind kind;
        uint32_t parent; /* directory number */
        unsigned flags;
    } want[] = {
        {"a", TIX_DIR, TIX_ROOT, 0},
        {"a/b", TIX_DIR, 0, TIX_LISTED | TIX_TIMES},
        {"a/b/c.txt", TIX_FILE, 1, TIX_TIMES | TIX_SIZE_SET},
        {"a/top", TIX_FILE, 0, TIX_TIMES | TIX_SIZE_SET},
        {"z", TIX_DIR, TIX_ROOT, 0},
        {"z/y", TIX_DIR, 2, 0},
        {"z/y/x", TIX_FILE, 3, TIX_TIMES | TIX_SIZE_SET},
        {"e", TIX_DIR, TIX_ROOT, TIX_EXPLICIT | TIX_LISTED | TIX_TIMES},
    };
    assert_int_equal(ix->nents, 8);
    assert_int_equal(ix->ndirs, 5);
    for (uint32_t i = 0; i < ix->nents; i++) {
        const struct tix_ent *e = &ix->ents[i];
        assert_string_equal(tix_path(ix, e), want[i].path);
        assert_int_equal(e->kind, want[i].kind);
        assert_int_equal(e->parent, want[i].parent);
        assert_int_equal(e->flags, want[i].flags);
    }
    assert_int_equal(ix->ents[1].mode, 0750);
    assert_int_equal(ix->ents[1].times[1].tv_sec, 1500000000);
    /* c.txt's data: one segment, 10 bytes at a 512-byte boundary of the file */
    const struct tix_ent *c = &ix->ents[2];
    assert_int_equal(c->nseg, 1);
    assert_int_equal(ix->segs[c->seg].len, 10);
    assert_int_equal(ix->segs[c->seg].file_off, 0);
    assert_int_equal(ix->segs[c->seg].arc_off % 512, 0);
    struct tarent_totals t;
    tarsrc_measure(src, &t);
    assert_int_equal(t.dirs, 5);
    assert_int_equal(t.files, 3);

    struct xout o;
    extract(src, "out", 2, DISPATCH, &o);
    assert_int_equal(o.rc, 0);
    assert_string_equal(o.err, "");
    struct stat st;
    char p[4096];
    assert_int_equal(lstat(at(p, sizeof p, "out/a"), &st), 0);
    assert_int_equal(st.st_mode & 07777, 0755); /* 0777 less the umask, as tar */
    assert_int_equal(lstat(at(p, sizeof p, "out/a/b"), &st), 0);
    assert_int_equal(st.st_mode & 07777, 0750);
    assert_int_equal(st.st_mtim.tv_sec, 1500000000);
    assert_int_equal(lstat(at(p, sizeof p, "out/e"), &st), 0);
    assert_int_equal(st.st_mode & 07777, 0700);
    assert_int_equal(lstat(at(p, sizeof p, "out/a/top"), &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    assert_int_equal(st.st_size, 3);
    xout_free(&o);
    check_all_ways(src);
    tarsrc_close(src);
}

/* Hostile names with no name made twice: indexed, and refused exactly as the streaming
 * extraction refuses them (same warnings in the same order, same tree), on any -j. */
static void test_hostile_indexed(void **state)
{
    char out[4096];
    at(out, sizeof out, "outside");
    assert_int_equal(mkdir(out, 0755), 0);
    const struct spec s[] = {
        HOSTILE_SPECS(out),
        {'f', "ok/file/x", 0644, NULL, 3, 0, 0},   /* through a file */
        {'f', "x/../y", 0644, NULL, 3, 0, 0},
        {'h', "early", 0, "later", 0, 0, 0},        /* target comes later: not extracted */
        {'f', "later", 0644, NULL, 2, 0, 0},
        {'h', "hd", 0, "ok", 0, 0, 0},              /* a directory */
        {'h', "n/e/w/h5", 0, "missing", 0, 0, 0},   /* refused, but its parents are made */
        {'f', "m/f", 0644, NULL, 1, 0, 0},
        {'h', "m/f/h6", 0, "ok/file", 0, 0, 0},     /* its own parent is a file */
        {'l', "s2", 0, "ok", 0, 0, 0},
        {'d', "s2/sub/", 0755, NULL, 0, 0, 0},      /* through a symlink */
    };
    size_t n = sizeof s / sizeof s[0];
    struct tarsrc *src = open_specs("evil.tar", s, n, PAX);
    const struct tarindex *ix = tarsrc_index(src);
    assert_null(ix->why_serial);
    assert_int_equal(ix->nrefused, 17);
    assert_int_equal(ix->nlinks, 1); /* h3 */
    check_all_ways(src);

    struct xout o;
    extract(src, "j2", 2, DISPATCH, &o);
    assert_int_equal(o.rc, 0);
    assert_true(strstr(o.err, "refused 'fifo': not a file, directory or link\n") != NULL);
    assert_true(strstr(o.err, "7 more entries refused") != NULL);
    assert_null(strstr(o.err, "one thread"));
    assert_true(strstr(o.list, "n/e/w d ") != NULL);
    assert_true(strstr(o.list, "ok/file f 644 5 ") != NULL);
    assert_true(strstr(o.list, "h3 f 644 5 ") != NULL);
    assert_null(strstr(o.list, "early"));
    xout_free(&o);
    DIR *d = opendir(out);
    assert_int_equal(tu_count_dir(d), 0);
    tarsrc_close(src);
}

/* A name made twice: not indexed; with threads asked for, one line says the archive is
 * extracted by one thread (once per archive), and the result is the streaming one. Names
 * listed twice as directories are harmless: still indexed. */
static void test_duplicates_serial(void **state)
{
    const struct spec s[] = {
        {'f', "x", 0644, NULL, 5, 0, 0},
        {'f', "x", 0600, NULL, 9, 0, 0},
        {'d', "d/", 0755, NULL, 0, 0, 0},
        {'f', "d/f", 0644, NULL, 2, 0, 0},
    };
    struct tarsrc *src = open_specs("dup.tar", s, 4, PAX);
    const struct tarindex *ix = tarsrc_index(src);
    assert_non_null(ix->why_serial);
    assert_string_equal(ix->why_serial, "it has duplicate names");
    assert_null(ix->ents);
    struct xout a, b, c;
    extract(src, "j2a", 2, DISPATCH, &a);
    assert_int_equal(a.rc, 0);
    char want[4096];
    snprintf(want, sizeof want,
             "fsbench: warning: tar:%s/dup.tar: archive extracted by one thread: it has "
             "duplicate names\n",
             base);
    assert_string_equal(a.err, want);
    assert_true(strstr(a.list, "x f 600 9 ") != NULL);
    extract(src, "j2b", 2, DISPATCH, &b);
    assert_string_equal(b.err, ""); /* said once */
    extract(src, "stream", 1, STREAM, &c);
    assert_string_equal(a.list, c.list);
    xout_free(&a);
    xout_free(&b);
    xout_free(&c);
    tarsrc_close(src);

    const struct spec t[] = {
        {'d', "d/", 0755, NULL, 0, 0, 0},
        {'f', "d/f", 0644, NULL, 2, 0, 0},
        {'d', "d/", 0700, NULL, 0, 1400000000, 0},
        {'d', "./", 0750, NULL, 0, 1400000001, 0},
    };
    src = open_specs("dirs.tar", t, 4, PAX);
    assert_null(tarsrc_index(src)->why_serial);
    check_all_ways(src);
    extract(src, "last", 2, DISPATCH, &a);
    assert_true(strstr(a.list, "d d 700 1400000000.") != NULL);
    assert_true(strstr(a.list, ". d 750 1400000001.") != NULL);
    xout_free(&a);
    tarsrc_close(src);
}

/* Hard links are kept apart and made after every file, in archive order: chains, links in
 * directories made for them, a link to a symlink, a link listed before its target (refused,
 * as when streaming), and a read-only directory listed last. */
static void test_hardlinks_deferred(void **state)
{
    const struct spec s[] = {
        {'h', "early", 0, "t/f", 0, 0, 0},
        {'f', "t/f", 0644, NULL, 10000, 0, 0},
        {'h', "u/l1", 0, "t/f", 0, 0, 0},
        {'h', "u/l2", 0, "u/l1", 0, 0, 0},
        {'l', "t/sym", 0, "f", 0, 0, 0},
        {'h', "symhl", 0, "t/sym", 0, 0, 0},
        {'f', "t/g", 0444, NULL, 7, 0, 0},
        {'d', "t/", 0555, NULL, 0, 1300000000, 0},
    };
    struct tarsrc *src = open_specs("links.tar", s, 8, PAX);
    const struct tarindex *ix = tarsrc_index(src);
    assert_null(ix->why_serial);
    assert_int_equal(ix->nlinks, 3);
    static const char *const want[] = {"u/l1", "u/l2", "symhl"};
    for (uint32_t i = 0; i < 3; i++) {
        const struct tix_ent *e = &ix->ents[ix->links[i]];
        assert_int_equal(e->kind, TIX_HARDLINK);
        assert_string_equal(tix_path(ix, e), want[i]);
    }
    assert_string_equal(tix_link(ix, &ix->ents[ix->links[1]]), "u/l1");
    /* no unit holds a hard link */
    for (uint32_t u = 0; u < ix->nunits; u++)
        for (uint32_t k = 0; k < ix->units[u].n; k++)
            assert_int_not_equal(ix->ents[ix->order[ix->units[u].first + k]].kind, TIX_HARDLINK);
    check_all_ways(src);
    struct xout o;
    extract(src, "j2", 2, DISPATCH, &o);
    assert_true(strstr(o.list, "u/l2 f 644 10000 ") != NULL);
    assert_true(strstr(o.list, "=t/f\n") != NULL);
    assert_true(strstr(o.list, "symhl l f ") != NULL);
    assert_true(strstr(o.list, "t d 555 1300000000.") != NULL);
    assert_true(strstr(o.err, "refused 'early': hard link target was not extracted") != NULL);
    struct stat a, b, c;
    char p[4096];
    assert_int_equal(lstat(at(p, sizeof p, "j2/t/f"), &a), 0);
    assert_int_equal(lstat(at(p, sizeof p, "j2/u/l2"), &b), 0);
    assert_int_equal(lstat(at(p, sizeof p, "j2/u/l1"), &c), 0);
    assert_true(a.st_ino == b.st_ino && a.st_ino == c.st_ino);
    assert_int_equal(a.st_nlink, 3);
    xout_free(&o);
    tarsrc_close(src);
}

static const char *unit_dir(const struct tarindex *ix, const struct tix_unit *u)
{
    return u->dir == TIX_ROOT ? "" : tix_path(ix, &ix->ents[ix->dir_ent[u->dir]]);
}

/* Units: one directory's files and symlinks each, in archive order even when the archive
 * interleaves directories, a huge directory cut in chunks, largest first; pending counts
 * are chunks plus subdirectories. */
static void test_units(void **state)
{
    struct spec s[400];
    char names[400][32];
    size_t n = 0;
    s[n++] = (struct spec){'d', "big/", 0755, NULL, 0, 0, 0};
    for (int i = 0; i < 300; i++) {
        if (i == 150) /* mid's files in the middle of big's */
            for (int k = 0; k < 10; k++) {
                snprintf(names[n], sizeof names[n], "mid/m%02d", k);
                s[n] = (struct spec){'f', names[n], 0644, NULL, 100 * 1024, 0, 0};
                n++;
            }
        snprintf(names[n], sizeof names[n], "big/f%03d", i);
        s[n] = (struct spec){'f', names[n], 0644, NULL, 0, 0, 0};
        n++;
    }
    s[n++] = (struct spec){'f', "r1", 0644, NULL, 0, 0, 0};
    s[n++] = (struct spec){'l', "r2", 0, "r1", 0, 0, 0};
    s[n++] = (struct spec){'f', "big/sub/a", 0644, NULL, 0, 0, 0};
    s[n++] = (struct spec){'d', "empty/", 0755, NULL, 0, 0, 0};
    struct tarsrc *src = open_specs("units.tar", s, n, PAX);
    const struct tarindex *ix = tarsrc_index(src);
    assert_null(ix->why_serial);
    assert_int_equal(ix->chunk, 128);
    static const struct {
        const char *dir;
        uint32_t n;
        const char *first;
    } want[] = {
        {"big", 128, "big/f000"}, {"big", 128, "big/f128"}, {"big", 44, "big/f256"},
        {"mid", 10, "mid/m00"},   {"", 2, "r1"},            {"big/sub", 1, "big/sub/a"},
    };
    assert_int_equal(ix->nunits, 6);
    for (uint32_t u = 0; u < ix->nunits; u++) {
        const struct tix_unit *un = &ix->units[u];
        assert_string_equal(unit_dir(ix, un), want[u].dir);
        assert_int_equal(un->n, want[u].n);
        assert_string_equal(tix_path(ix, &ix->ents[ix->order[un->first]]), want[u].first);
        if (u)
            assert_true(ix->units[u - 1].weight >= un->weight);
        for (uint32_t k = 1; k < un->n; k++) /* archive order within the unit */
            assert_true(ix->order[un->first + k - 1] < ix->order[un->first + k]);
    }
    /* big: 3 chunks + big/sub; big/sub: 1; mid: 1; empty: 0 */
    static const struct {
        const char *dir;
        uint32_t pending;
    } pend[] = {{"big", 4}, {"mid", 1}, {"big/sub", 1}, {"empty", 0}};
    assert_int_equal(ix->ndirs, 4);
    for (uint32_t d = 0; d < ix->ndirs; d++) {
        assert_string_equal(tix_path(ix, &ix->ents[ix->dir_ent[d]]), pend[d].dir);
        assert_int_equal(ix->pending0[d], pend[d].pending);
    }
    check_all_ways(src);
    tarsrc_close(src);
}

/* A zip of deflated entries is not indexed (its data must be decoded): streamed, saying so
 * once with threads. A zip of stored entries is indexed and extracted from the index. */
static void test_zip(void **state)
{
    const struct spec s[] = {
        {'d', "z/", 0755, NULL, 0, 0, 0},
        {'f', "z/one", 0644, NULL, 70000, 0, 0},
        {'f', "z/two", 0600, NULL, 3, 0, 0},
        {'l', "z/sym", 0, "one", 0, 0, 0},
    };
    struct tarsrc *src = open_specs("deflated.zip", s, 4, ZIP_DEFLATE);
    const struct tarindex *ix = tarsrc_index(src);
    assert_non_null(ix->why_serial);
    assert_non_null(strstr(ix->why_serial, "not stored as plain bytes"));
    struct xout o, st;
    extract(src, "j2", 2, DISPATCH, &o);
    assert_int_equal(o.rc, 0);
    assert_non_null(strstr(o.err, "archive extracted by one thread: its data is not stored"));
    extract(src, "stream", 1, STREAM, &st);
    assert_string_equal(o.list, st.list);
    assert_true(strstr(o.list, "z/one f 644 70000 ") != NULL);
    xout_free(&o);
    xout_free(&st);
    tarsrc_close(src);

    src = open_specs("stored.zip", s, 4, ZIP_STORE);
    assert_null(tarsrc_index(src)->why_serial);
    check_all_ways(src);
    tarsrc_close(src);
}

/* cpio newc keeps a hard-linked file's data with its last link: the first name is made
 * empty, and the data is written through the link (after every file, as when streaming). */
static void test_cpio_link_data(void **state)
{
    char arc[4096];
    struct archive *a = archive_write_new();
    assert_non_null(a);
    assert_int_equal(archive_write_set_format_cpio_newc(a), ARCHIVE_OK);
    assert_int_equal(archive_write_open_filename(a, at(arc, sizeof arc, "l.cpio")), ARCHIVE_OK);
    static const struct {
        const char *path;
        unsigned type, nlink, ino;
        size_t size;
    } e[] = {
        {"d", AE_IFDIR, 2, 1, 0},
        {"d/a", AE_IFREG, 2, 7, 0},
        {"d/c", AE_IFREG, 1, 8, 3000},
        {"d/b", AE_IFREG, 2, 7, 5000},
    };
    for (size_t i = 0; i < 4; i++) {
        struct archive_entry *en = archive_entry_new();
        archive_entry_set_pathname(en, e[i].path);
        archive_entry_set_mode(en, e[i].type | 0644);
        archive_entry_set_nlink(en, e[i].nlink);
        archive_entry_set_ino(en, e[i].ino);
        archive_entry_set_dev(en, 1);
        archive_entry_set_mtime(en, 1500000000, 0);
        archive_entry_set_size(en, (la_int64_t)e[i].size);
        assert_int_equal(archive_write_header(a, en), ARCHIVE_OK);
        for (size_t j = 0; j < e[i].size; j++) {
            unsigned char c = pattern(e[i].path, j);
            assert_int_equal(archive_write_data(a, &c, 1), 1);
        }
        archive_entry_free(en);
    }
    assert_int_equal(archive_write_close(a), ARCHIVE_OK);
    archive_write_free(a);
    struct tarsrc *src = tarsrc_open(arc, base);
    assert_non_null(src);
    const struct tarindex *ix = tarsrc_index(src);
    assert_null(ix->why_serial);
    assert_int_equal(ix->nlinks, 1);
    const struct tix_ent *l = &ix->ents[ix->links[0]];
    assert_string_equal(tix_path(ix, l), "d/b");
    assert_string_equal(tix_link(ix, l), "d/a");
    assert_int_equal(l->size, 5000);
    assert_int_equal(l->nseg, 1);
    check_all_ways(src);
    struct xout o;
    extract(src, "j2", 2, DISPATCH, &o);
    assert_int_equal(o.rc, 0);
    char p[4096];
    struct stat sa, sb;
    assert_int_equal(lstat(at(p, sizeof p, "j2/d/a"), &sa), 0);
    assert_int_equal(lstat(at(p, sizeof p, "j2/d/b"), &sb), 0);
    assert_true(sa.st_ino == sb.st_ino);
    assert_int_equal(sa.st_size, 5000);
    FILE *f = fopen(at(p, sizeof p, "j2/d/a"), "rb");
    assert_non_null(f);
    for (size_t j = 0; j < 5000; j++)
        assert_int_equal(getc(f), pattern("d/b", j));
    fclose(f);
    xout_free(&o);
    tarsrc_close(src);
}

/* A bigger archive in GNU tar's order (a directory, then its entries with subdirectories
 * in between), with files of many sizes, sparse files, empty files and symlinks, and a
 * "./" entry: the same tree, counts and operations on 1, 2 and 3 threads as streaming. */
static void test_threads_same_tree(void **state)
{
    size_t cap = 4096, n = 0;
    struct spec *s = calloc(cap, sizeof *s);
    char(*names)[64] = calloc(cap, sizeof *names);
    assert_non_null(s);
    assert_non_null(names);
    s[n++] = (struct spec){'d', "./", 0750, NULL, 0, 1200000000, 0};
    uint32_t x = 12345;
    /* depth-first: directory d<i> at each level holds files and 3 subdirectories */
    struct {
        char path[48];
        int depth;
    } stack[64];
    int top = 0;
    snprintf(stack[top].path, sizeof stack[top].path, "root");
    stack[top++].depth = 0;
    while (top > 0 && n + 64 < cap) {
        char dir[48];
        int depth = stack[--top].depth;
        snprintf(dir, sizeof dir, "%s", stack[top].path);
        snprintf(names[n], sizeof names[n], "%s/", dir);
        s[n] = (struct spec){'d', names[n], depth % 2 ? 0755 : 0711, NULL, 0,
                             1300000000 + (long)n, 0};
        n++;
        x = x * 1103515245u + 12345u;
        int files = (int)((x >> 16) % 20);
        for (int f = 0; f < files; f++) {
            x = x * 1103515245u + 12345u;
            unsigned r = (x >> 16) % 100;
            snprintf(names[n], sizeof names[n], "%s/f%d", dir, f);
            if (r < 5)
                s[n] = (struct spec){'l', names[n], 0, "f0", 0, 1400000000, 0};
            else if (r < 8)
                s[n] = (struct spec){'s', names[n], 0640, NULL, 0, 1400000001, 0};
            else
                s[n] = (struct spec){'f', names[n], r % 3 ? 0644 : 0755, NULL,
                                     r < 15 ? 0 : (size_t)((x >> 8) % (r < 90 ? 5000 : 300000)),
                                     1400000002 + (long)f, 0};
            n++;
        }
        if (depth < 4)
            for (int k = 0; k < 3 && top < 64; k++) {
                snprintf(stack[top].path, sizeof stack[top].path, "%s/d%d", dir, k);
                stack[top++].depth = depth + 1;
            }
    }
    struct tarsrc *src = open_specs("big.tar", s, n, PAX);
    assert_null(tarsrc_index(src)->why_serial);
    struct xout st, j1, j2, j3;
    extract(src, "stream", 1, STREAM, &st);
    extract(src, "j1", 1, PAR, &j1);
    extract(src, "j2", 2, DISPATCH, &j2);
    extract(src, "j3", 3, DISPATCH, &j3);
    assert_int_equal(st.rc, 0);
    totals_match(src, &j3);
    same_result(&st, &j1, "streaming vs -j1");
    same_result(&j1, &j2, "-j1 vs -j2");
    same_result(&j1, &j3, "-j1 vs -j3");
    same_ops(&j1, &j2, "-j1 vs -j2");
    same_ops(&j1, &j3, "-j1 vs -j3");
    assert_true(j3.res.files > 500);
    assert_true(strstr(j3.list, ". d 750 1200000000.") != NULL);
    xout_free(&st);
    xout_free(&j1);
    xout_free(&j2);
    xout_free(&j3);
    tarsrc_close(src);
    free(s);
    free(names);
}

/* The archive file shrinks after tarsrc_open: the threaded extraction fails with a read
 * note naming the archive before making anything; an interrupt stops every thread. */
static void test_failures(void **state)
{
    const struct spec s[] = {
        {'f', "one", 0644, NULL, 300000, 0, 0},
        {'f', "d/two", 0644, NULL, 300000, 0, 0},
    };
    char arc[4096];
    struct tarsrc *src = open_specs("t.tar", s, 2, PAX);
    assert_null(tarsrc_index(src)->why_serial);
    struct xout o;
    extract(src, "int", 2, DISPATCH, &o);
    assert_int_equal(o.rc, 0);
    xout_free(&o);
    phase_interrupt = SIGINT;
    extract(src, "int2", 2, DISPATCH, &o);
    phase_interrupt = 0;
    assert_int_equal(o.rc, -1);
    assert_string_equal(o.res.note, "interrupted by SIGINT");
    xout_free(&o);

    assert_int_equal(truncate(at(arc, sizeof arc, "t.tar"), 1000), 0);
    extract(src, "cut", 2, DISPATCH, &o);
    assert_int_equal(o.rc, -1);
    assert_int_equal(o.res.status, PHASE_FAILED);
    char head[4096];
    snprintf(head, sizeof head, "read tar:%s: the archive changed", arc);
    if (strncmp(o.res.note, head, strlen(head)) != 0)
        fail_msg("note '%s'", o.res.note);
    assert_string_equal(o.list, ". d 755 now\n"); /* nothing made */
    xout_free(&o);
    tarsrc_close(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_implicit_parents, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_indexed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_duplicates_serial, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hardlinks_deferred, setup, teardown),
        cmocka_unit_test_setup_teardown(test_units, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpio_link_data, setup, teardown),
        cmocka_unit_test_setup_teardown(test_threads_same_tree, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failures, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
