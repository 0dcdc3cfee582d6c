/* test_job.c — unit tests of the job-file module (src/run/job_*.c), with the real option
 * table of `fsbench run`: keys are its long options, a job inherits [global] and overrides
 * it key by key (every value of a repeated key), the command line's options leave the
 * file's out, ${} expansion, includes and their cycles, every error is one FILE:LINE line
 * with a near miss named, the expanded text re-parses to itself (same hash), SHA-256 test
 * vectors, every shipped job parses, and the scenarios' jobs hold what their code used to.
 */
#include "testutil.h"

#include "base/err.h"
#include "cli/cmd_run.h"
#include "run/run_request.h"
#include "phase/phase_registry.h"
#include "phase/workload.h"
#include "run/job.h"
#include "run/job_builtin.h"
#include "run/job_internal.h"
#include "run/scenario.h"

/* The job keys made from the table of run's options (run/run_request.h): keys without the
 * consent refusal and the paths, run_keys with them (set in main). */
static struct job_keys keys, run_keys;

static char msg[1024];

/* Parses text as FILE name; returns job_parse's result, the message in msg. */
static int parse(const char *name, const char *text, struct job_file *jf)
{
    err_capture_begin(msg, sizeof msg);
    int rc = job_parse(name, text, &keys, jf);
    err_capture_end();
    return rc;
}

static void expect_error(const char *text, const char *want)
{
    struct job_file jf;
    assert_int_equal(parse("t.ini", text, &jf), -1);
    if (!strstr(msg, want))
        fail_msg("got '%s', want '%s'", msg, want);
}

/* The arguments of job i as one string "a b c". */
static void args_of(const struct job_file *jf, size_t i, const char *const *skip, char *out,
                    size_t len)
{
    struct job_arg *a;
    int n = job_args(jf, i, &keys, skip, &a);
    assert_true(n >= 0);
    out[0] = '\0';
    for (int k = 0; k < n; k++) {
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", k ? " " : "", a[k].arg);
    }
    job_args_free(a, n);
}

static void test_sha256_vectors(void **state)
{
    char hex[65];
    job_sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    job_sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    job_sha256_hex(two, strlen(two), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char a[1000];
    memset(a, 'a', sizeof a);
    job_sha256_hex(a, sizeof a, hex);
    assert_string_equal(hex, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

static void test_nearest_and_bool(void **state)
{
    static const char *const names[] = {"mount-opts", "mkfs-opts", "tree", "threads", NULL};
    assert_string_equal(job_nearest("mount-opt", names), "mount-opts");
    assert_string_equal(job_nearest("mountopts", names), "mount-opts");
    assert_string_equal(job_nearest("treads", names), "threads");
    assert_null(job_nearest("zzzzzzzz", names));
    assert_int_equal(job_bool("yes"), 1);
    assert_int_equal(job_bool("On"), 1);
    assert_int_equal(job_bool("0"), 0);
    assert_int_equal(job_bool("false"), 0);
    assert_int_equal(job_bool("maybe"), -1);
}

static void test_expand(void **state)
{
    char out[256], why[256];
    setenv("FSBENCH_TEST_X", "pkgsrc", 1);
    assert_int_equal(job_expand("a-${FSBENCH_TEST_X}-b", out, sizeof out, why, sizeof why), 0);
    assert_string_equal(out, "a-pkgsrc-b");
    assert_int_equal(job_expand("${ncpus}", out, sizeof out, why, sizeof why), 0);
    assert_true(atoi(out) >= 1);
    assert_int_equal(job_expand("${ram}", out, sizeof out, why, sizeof why), 0);
    assert_true(strtoull(out, NULL, 10) > (1ull << 20));
    assert_int_equal(job_expand("cost $5", out, sizeof out, why, sizeof why), 0);
    assert_string_equal(out, "cost $5");
    /* the environment wins over a built-in */
    setenv("ncpus", "7", 1);
    assert_int_equal(job_expand("${ncpus}", out, sizeof out, why, sizeof why), 0);
    assert_string_equal(out, "7");
    unsetenv("ncpus");
    assert_int_equal(job_expand("${FSBENCH_TEST_UNSET}", out, sizeof out, why, sizeof why), -1);
    assert_non_null(strstr(why, "FSBENCH_TEST_UNSET"));
    assert_int_equal(job_expand("${open", out, sizeof out, why, sizeof why), -1);
    assert_int_equal(job_expand("x${FSBENCH_TEST_X}", out, 5, why, sizeof why), -1);
}

static void test_inherit_and_override(void **state)
{
    struct job_file jf;
    assert_int_equal(parse("t.ini",
                           "; comment\n[global]\ntree = tiny\nruns = 2\nmount-opts = a\n"
                           "mount-opts = b\nfsync-dir = 1\n\n[one]\nruns = 3\n"
                           "[two]\nmount-opts = c\nfsync-dir = no\nphase.cb_initial.initial = 4\n",
                           &jf),
                     0);
    assert_int_equal(job_count(&jf), 2);
    assert_string_equal(job_name(&jf, 0), "one");
    assert_string_equal(job_name(&jf, 1), "two");
    char a[1024];
    args_of(&jf, 0, NULL, a, sizeof a);
    assert_string_equal(a, "--tree=tiny --mount-opts=a --mount-opts=b --fsync-dir --runs=3");
    args_of(&jf, 1, NULL, a, sizeof a);
    /* a job's mount-opts replace [global]'s; a false flag cancels [global]'s true one */
    assert_string_equal(a, "--tree=tiny --runs=2 --mount-opts=c --initial=4");
    /* the command line's options leave the file's out, in [global] and in the job */
    static const char *const skip[] = {"runs", "mount-opts", NULL};
    args_of(&jf, 0, skip, a, sizeof a);
    assert_string_equal(a, "--tree=tiny --fsync-dir");
    job_free(&jf);

    /* [global] alone is one job named after the file; a key given twice with another
     * value is refused naming both lines, with the same value it is one */
    assert_int_equal(parse("dir/solo.ini", "tree = tiny\nscale = 2\nscale = 3\n", &jf), -1);
    assert_string_equal(msg, "dir/solo.ini:3: scale = 3, but dir/solo.ini:2 gave scale = 2: a "
                             "key takes one value (list keys such as fs and mount-opts take "
                             "several)");
    assert_int_equal(parse("dir/solo.ini", "tree = tiny\nscale = 3\nscale = 3\n", &jf), 0);
    assert_int_equal(job_count(&jf), 1);
    assert_string_equal(job_name(&jf, 0), "solo");
    args_of(&jf, 0, NULL, a, sizeof a);
    assert_string_equal(a, "--tree=tiny --scale=3");
    job_free(&jf);
    /* list keys accumulate: fs, phases, mkfs-opts as mount-opts */
    assert_int_equal(parse("l.ini", "fs = ext4\nfs = xfs\nphases = extract\nphases = sync\n", &jf),
                     0);
    args_of(&jf, 0, NULL, a, sizeof a);
    assert_string_equal(a, "--fs=ext4 --fs=xfs --phases=extract --phases=sync");
    job_free(&jf);
}

static void test_text_reparses_to_itself(void **state)
{
    struct job_file a, b;
    setenv("FSBENCH_TEST_X", "pkgsrc", 1);
    assert_int_equal(parse("t.ini",
                           "# intent of the experiment\n[global]\n  tree = ${FSBENCH_TEST_X}\n"
                           "description = d ; inline comment\n[j]\n# why\nruns = 2\n",
                           &a),
                     0);
    assert_non_null(strstr(a.text, "# intent of the experiment\n[global]\ntree = pkgsrc\n"));
    assert_non_null(strstr(a.text, "[j]\n# why\nruns = 2\n"));
    assert_string_equal(job_description(&a, 0), "d");
    assert_int_equal(strlen(a.hash), 64);
    assert_int_equal(parse("u.ini", a.text, &b), 0);
    assert_string_equal(a.text, b.text);
    assert_string_equal(a.hash, b.hash);
    job_free(&a);
    job_free(&b);
}

/* The command line's options folded into the text: the file's lines for them commented
 * out, their values in [global]; the text reruns what ran. */
static void test_fold(void **state)
{
    struct job_file jf, again;
    assert_int_equal(parse("t.ini",
                           "[global]\nruns = 2\nmount-opts = a\n[j]\nruns = 3\n"
                           "phase.fsyncstorm.fsync-dir = 0\ntree = tiny\n",
                           &jf),
                     0);
    char before[65];
    snprintf(before, sizeof before, "%s", jf.hash);
    static const char *const names[] = {"runs", "mount-opts", "mount-opts", "fsync-dir"};
    static const char *const values[] = {"1", "x", "y", NULL};
    assert_int_equal(job_fold(&jf, names, values, 4), 0);
    assert_string_not_equal(jf.hash, before);
    assert_non_null(strstr(jf.text, "# runs = 2   (the command line replaced it)\n"));
    assert_non_null(strstr(jf.text, "# phase.fsyncstorm.fsync-dir = 0   (the command"));
    assert_non_null(strstr(jf.text, "# from the command line:\nruns = 1\nmount-opts = x\n"
                                    "mount-opts = y\nfsync-dir = 1\n[j]\n"));
    assert_int_equal(parse("again.ini", jf.text, &again), 0);
    char a[512];
    args_of(&again, 0, NULL, a, sizeof a);
    assert_string_equal(a, "--runs=1 --mount-opts=x --mount-opts=y --fsync-dir --tree=tiny");
    job_free(&again);
    job_free(&jf);
}

static void test_include(void **state)
{
    char dir[512], p[600];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "job"));
    snprintf(p, sizeof p, "%s/common.ini", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("tree = tiny\nthreads = 2\n[extra]\nruns = 4\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/main.ini", dir);
    f = fopen(p, "w");
    assert_non_null(f);
    fputs("[global]\ninclude = common.ini\nscale = 2\n[mine]\nruns = 1\n", f);
    fclose(f);
    struct job_file jf, again;
    assert_int_equal(parse(p, NULL, &jf), 0);
    /* the included keys went to [global], its section became a job, and [global] went on */
    assert_int_equal(job_count(&jf), 2);
    assert_string_equal(job_name(&jf, 0), "extra");
    char a[512];
    args_of(&jf, 0, NULL, a, sizeof a);
    assert_string_equal(a, "--tree=tiny --threads=2 --scale=2 --runs=4");
    assert_non_null(strstr(jf.text, "# include = common.ini\ntree = tiny\n"));
    assert_int_equal(parse("x.ini", jf.text, &again), 0);
    assert_string_equal(again.hash, jf.hash);
    job_free(&again);
    job_free(&jf);

    /* a cycle, and a missing file */
    snprintf(p, sizeof p, "%s/c1.ini", dir);
    f = fopen(p, "w");
    fputs("[global]\ninclude = c2.ini\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/c2.ini", dir);
    f = fopen(p, "w");
    fputs("\ninclude = c1.ini\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/c1.ini", dir);
    assert_int_equal(parse(p, NULL, &jf), -1);
    assert_non_null(strstr(msg, "c2.ini:2: include cycle: "));
    assert_non_null(strstr(msg, "c1.ini -> "));
    expect_error("[global]\ninclude = /nonexistent/x.ini\n",
                 "t.ini:2: include /nonexistent/x.ini: No such file or directory");
    tu_rm_tree(dir);
}

static void test_errors(void **state)
{
    expect_error("[global]\ntree = tiny\nmount-opt = sync\n",
                 "t.ini:3: unknown key 'mount-opt': did you mean mount-opts?");
    expect_error("[global]\nfrobnicate = 1\n", "t.ini:2: unknown key 'frobnicate' (see");
    expect_error("[global]\nhelp = 1\n", "t.ini:2: 'help' is not a job key");
    expect_error("[global]\njob = x.ini\n", "t.ini:2: 'job' is not a job key");
    /* consent to age a file system fsbench does not manage: the command line's alone */
    expect_error("[global]\nage-host-fs = 1\n",
                 "t.ini:2: 'age-host-fs' is not a job key: it is given on the command line only "
                 "(--age-host-fs)");
    expect_error("[x]\nage-host-fs = yes\n", "t.ini:2: 'age-host-fs' is not a job key");
    expect_error("[a]\n[b]\n[a]\n", "t.ini:3: duplicate job name 'a' (first at t.ini:1)");
    expect_error("[a]\n[global]\n", "t.ini:2: [global] must come before the jobs");
    expect_error("[a b]\n", "t.ini:1: [a b]: a job name is");
    expect_error("[global]\nfsync-dir = maybe\n", "t.ini:2: fsync-dir: 'maybe' is not a flag");
    expect_error("[global]\ntree =\n", "t.ini:2: tree: no value");
    expect_error("[a]\ninterleave = jobs\n", "t.ini:2: interleave belongs in [global]");
    expect_error("[global]\ninterleave = sometimes\n", "interleave: 'sometimes' is not jobs");
    expect_error("[global]\nthreads = ${FSBENCH_TEST_UNSET}\n",
                 "t.ini:2: threads: ${FSBENCH_TEST_UNSET} is not set");
    expect_error("[global]\nthis line has no equals sign\n",
                 "t.ini:2: expected '[job]' or 'key = value'");
    expect_error("[global]\nphase.fsyncstorm.fsync-dri = 1\n",
                 "phase fsyncstorm has no parameter 'fsync-dri' (did you mean fsync-dir?)");
    expect_error("[global]\nphase.extrakt.x = 1\n",
                 "unknown phase 'extrakt' (did you mean extract?)");
    expect_error("[global]\nphase.walk.x = 1\n", "phase walk takes no parameters");
    /* a line may be as long as a job file (1 MiB); the file may not be longer */
    size_t n = (size_t)1 << 20;
    char *big = malloc(n + 64);
    assert_non_null(big);
    int k = snprintf(big, n + 64, "[global]\ntree = tiny\ndescription = ");
    memset(big + k, 'x', 100000);
    strcpy(big + k + 100000, "\nruns = 2\n");
    struct job_file jf;
    assert_int_equal(parse("t.ini", big, &jf), 0);
    const char *d = job_description(&jf, 0);
    assert_non_null(d);
    assert_int_equal(strlen(d), 100000);
    job_free(&jf);
    memset(big + k, 'x', n);
    strcpy(big + k + n, "\n");
    expect_error(big, "t.ini:1: larger than 1 MiB: not a job file");
    free(big);
    /* text, not bytes: each refusal at its line */
    expect_error("[global]\n# \x1b]0;owned\x07\n", "t.ini:2: a control character (0x1b)");
    expect_error("[global]\ntree = tiny\nlabel = caf\xe9\n",
                 "t.ini:3: a byte that is not UTF-8 (0xe9)");
    expect_error("[global]\ndescription = abc\xe2\x80\xae" "cba\n",
                 "t.ini:2: a bidirectional-text control (U+202E)");
    expect_error("[global]\nlabel = a\rb\n", "t.ini:2: a line break");
    /* a value is one line after expansion too */
    setenv("FSBENCH_TEST_NL", "1\nruns = 99", 1);
    expect_error("[global]\nthreads = ${FSBENCH_TEST_NL}\n",
                 "t.ini:2: threads: the value holds a line break after expansion");
    unsetenv("FSBENCH_TEST_NL");
}


/* Consent to destroying data is the command line's: a job file naming it is refused. */
static void test_consent_keys(void **state)
{
    struct job_file jf;
    err_capture_begin(msg, sizeof msg);
    int rc = job_parse("d.ini", "[global]\ndevice = /dev/sdz\ndestroy-data = 1\n", &run_keys,
                       &jf);
    err_capture_end();
    assert_int_equal(rc, -1);
    assert_string_equal(msg, "d.ini:3: destroy-data: a job file cannot consent to destroying "
                             "data: give --destroy-data on the command line");
    err_capture_begin(msg, sizeof msg);
    rc = job_parse("d.ini", "[global]\n[a]\nforce = yes\n", &run_keys, &jf);
    err_capture_end();
    assert_int_equal(rc, -1);
    assert_non_null(strstr(msg, "d.ini:3: force: a job file cannot consent"));
    /* naming a device alone is allowed (the command line consents, or the run refuses) */
    err_capture_begin(msg, sizeof msg);
    rc = job_parse("d.ini", "[global]\ndevice = /dev/sdz\n", &run_keys, &jf);
    err_capture_end();
    assert_int_equal(rc, 0);
    job_free(&jf);
}

static void write_at(const char *dir, const char *name, const char *text, size_t len)
{
    char p[700];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* Paths in a job file are the file's: resolved against its directory, as include is; the
 * stored text keeps them as written. Files that are not text are refused at their line. */
static void test_paths_and_files(void **state)
{
    char dir[512], p[700], a[2048];
    assert_non_null(tu_scratch_dir(dir, sizeof dir, "jobpath"));
    snprintf(p, sizeof p, "%s/sub", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    const char *inc = "json = out.json\ntree = tar:src.tar\n";
    write_at(dir, "sub/inc.ini", inc, strlen(inc));
    const char *top = "[global]\ndir = work\ndb = r.db\ninclude = sub/inc.ini\n"
                      "[a]\ntree = shape.ini\n[b]\ntree = pkgsrc\ndir = /abs\njson = -\n";
    write_at(dir, "main.ini", top, strlen(top));
    snprintf(p, sizeof p, "%s/main.ini", dir);
    struct job_file jf;
    err_capture_begin(msg, sizeof msg);
    int rc = job_parse(p, NULL, &run_keys, &jf);
    err_capture_end();
    assert_int_equal(rc, 0);
    struct job_arg *ja;
    int n = job_args(&jf, 0, &run_keys, NULL, &ja);
    a[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(a + strlen(a), sizeof a - strlen(a), "%s ", ja[i].arg);
    job_args_free(ja, n);
    char want[2048];
    snprintf(want, sizeof want,
             "--dir=%s/work --db=%s/r.db --json=%s/sub/out.json --tree=%s/shape.ini ", dir, dir,
             dir, dir);
    assert_string_equal(a, want);
    n = job_args(&jf, 1, &run_keys, NULL, &ja);
    a[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(a + strlen(a), sizeof a - strlen(a), "%s ", ja[i].arg);
    job_args_free(ja, n);
    snprintf(want, sizeof want, "--db=%s/r.db --tree=pkgsrc --dir=/abs --json=- ", dir);
    assert_string_equal(a, want);
    /* tree = tar:FILE from the include resolves against the include's own directory */
    n = job_args(&jf, 0, &run_keys, (const char *const[]){"dir", "db", "json", NULL}, &ja);
    assert_int_equal(n, 1);
    job_args_free(ja, n);
    assert_non_null(strstr(jf.text, "dir = work\n"));
    job_free(&jf);
    const char *tarinc = "[global]\ninclude = sub/inc.ini\n";
    write_at(dir, "t.ini", tarinc, strlen(tarinc));
    snprintf(p, sizeof p, "%s/t.ini", dir);
    assert_int_equal(job_parse(p, NULL, &run_keys, &jf), 0);
    n = job_args(&jf, 0, &run_keys, NULL, &ja);
    snprintf(want, sizeof want, "--tree=tar:%s/sub/src.tar", dir);
    assert_int_equal(n, 2);
    assert_string_equal(ja[1].arg, want);
    job_args_free(ja, n);
    job_free(&jf);

    /* a NUL byte: refused at its line, never a silent end of the file */
    write_at(dir, "nul.ini", "[global]\ntree = tiny\n\0runs = 5\n", 30);
    snprintf(p, sizeof p, "%s/nul.ini", dir);
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(job_parse(p, NULL, &run_keys, &jf), -1);
    err_capture_end();
    assert_non_null(strstr(msg, "nul.ini:3: a NUL byte: a job file is UTF-8 text"));
    /* a device, a FIFO, a directory: one line each, nothing read */
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(job_parse("/dev/zero", NULL, &run_keys, &jf), -1);
    err_capture_end();
    assert_string_equal(msg, "/dev/zero: not a regular file (a character device)");
    snprintf(p, sizeof p, "%s/fifo.ini", dir);
    assert_int_equal(mkfifo(p, 0600), 0);
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(job_parse(p, NULL, &run_keys, &jf), -1);
    err_capture_end();
    assert_non_null(strstr(msg, "fifo.ini: not a regular file (a FIFO)"));
    const char *incz = "[global]\ninclude = /dev/urandom\n";
    write_at(dir, "incz.ini", incz, strlen(incz));
    snprintf(p, sizeof p, "%s/incz.ini", dir);
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(job_parse(p, NULL, &run_keys, &jf), -1);
    err_capture_end();
    assert_non_null(
        strstr(msg, "incz.ini:2: include /dev/urandom: not a regular file (a character device)"));
    const char *incd = "[global]\ninclude = sub\n";
    write_at(dir, "incd.ini", incd, strlen(incd));
    snprintf(p, sizeof p, "%s/incd.ini", dir);
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(job_parse(p, NULL, &run_keys, &jf), -1);
    err_capture_end();
    assert_non_null(strstr(msg, "incd.ini:2: include "));
    assert_non_null(strstr(msg, "/sub: not a regular file (a directory)"));
    tu_rm_tree(dir);
}

/* Values are checked by the caller's check (the real parser in fsbench). */
static int reject_scale(void *arg, const char *key, const char *value, char *why, size_t len)
{
    if (strcmp(key, "scale"))
        return 0;
    snprintf(why, len, "scale: '%s' is not a positive number", value);
    return -1;
}

static void test_value_check_hook(void **state)
{
    struct job_keys k = keys;
    k.check = reject_scale;
    struct job_file jf;
    err_capture_begin(msg, sizeof msg);
    int rc = job_parse("v.ini", "[global]\ntree = tiny\n\n[a]\nscale = abc\n", &k, &jf);
    err_capture_end();
    assert_int_equal(rc, -1);
    assert_string_equal(msg, "v.ini:5: scale: 'abc' is not a positive number");
}

/* The phase-parameter table names options of `fsbench run` and phases that exist. */
static void test_phase_params_are_options(void **state)
{
    const char *phase, *opt;
    size_t n = 0;
    for (size_t i = 0; (opt = job_phase_param(i, &phase)); i++, n++) {
        assert_non_null(job_key_option(&keys, opt));
        assert_non_null(phase_find(phase));
    }
    assert_true(n >= 5);
}

/* Every shipped job parses, is found by name and has a description. */
static void test_builtin_jobs(void **state)
{
    size_t n = 0;
    for (const struct job_builtin *b = job_builtin_table; b->name; b++, n++) {
        struct job_file jf;
        if (parse(b->path, b->text, &jf) < 0)
            fail_msg("%s: %s", b->name, msg);
        assert_non_null(job_description(&jf, 0));
        assert_ptr_equal(job_builtin_find(b->name), b);
        job_free(&jf);
    }
    assert_true(n >= 12);
    assert_non_null(job_builtin_find("seed-000-dirpref.ini"));
    assert_null(job_builtin_find("nope"));
}

/* The phases a scenario's job runs ("--phases=..." in its arguments), resolved; and its
 * arguments in args. */
static int scenario_phases(const char *name, const struct phase_def **ph, char *args,
                           size_t len)
{
    const struct job_builtin *b = job_builtin_find(name);
    if (!b)
        fail_msg("scenario %s has no jobs/%s.ini", name, name);
    struct job_file jf;
    assert_int_equal(parse(b->path, b->text, &jf), 0);
    assert_int_equal(job_count(&jf), 1);
    assert_string_equal(job_name(&jf, 0), name); /* stored as the run set's scenario */
    args_of(&jf, 0, NULL, args, len);
    job_free(&jf);
    const char *p = strstr(args, "--phases=");
    if (!p)
        fail_msg("jobs/%s.ini: no phases in '%s'", name, args);
    char list[512];
    snprintf(list, sizeof list, "%.*s", (int)strcspn(p + 9, " "), p + 9);
    return scenario_resolve(list, ph, SCENARIO_MAX_PHASES);
}

/* The scenarios are job files, and what used to be scenario-specific code is in their keys
 * or keyed on their phases: compilebench's kernel tree at a quarter scale, cvs's two
 * fsyncstorms (fsync-rounds), testdisk's mount first (needs a managed target), age's
 * phase that keeps its tree (--keep-fs ages once). */
static void test_scenario_jobs(void **state)
{
    static const char *const names[] = {"basic", "create",       "metadata", "testdisk",
                                        "compilebench", "cvs", "createsync", "age"};
    const struct phase_def *ph[SCENARIO_MAX_PHASES];
    char a[1024], want[64];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        assert_true(scenario_phases(names[i], ph, a, sizeof a) > 0);

    assert_int_equal(scenario_phases("basic", ph, a, sizeof a), 9);
    assert_ptr_equal(ph[0], phase_find("extract"));
    assert_ptr_equal(ph[8], phase_find("sync"));
    /* a job without phases runs basic's */
    const char *def = run_request_default_phases();
    assert_non_null(def);
    assert_string_equal(def, "extract,sync,dropcaches,walk,statwalk,read,copy,delete,sync");

    assert_int_equal(scenario_phases("compilebench", ph, a, sizeof a), 2);
    snprintf(want, sizeof want, "--scale=%g", WL_CB_KERNEL_SCALE);
    assert_non_null(strstr(a, "--tree=kernel"));
    assert_non_null(strstr(a, want));

    int n = scenario_phases("cvs", ph, a, sizeof a);
    assert_int_equal(n, 6);
    assert_ptr_equal(ph[2], phase_find("fsyncstorm"));
    assert_ptr_equal(ph[3], phase_find("fsyncstorm"));
    snprintf(want, sizeof want, "--fsync-rounds=%d", WL_DEFAULT_FSYNC_ROUNDS);
    assert_non_null(strstr(a, want));
    assert_int_equal(scenario_repeat(ph, (size_t)n, SCENARIO_MAX_PHASES, "fsyncstorm", 2), n);

    scenario_phases("testdisk", ph, a, sizeof a);
    assert_true(ph[0]->flags & PHASE_NEEDS_TARGET);

    n = scenario_phases("age", ph, a, sizeof a);
    bool keeps = false;
    for (int k = 0; k < n; k++)
        keeps |= (ph[k]->flags & PHASE_KEEPS_TREE) != 0;
    assert_true(keeps);
}

int main(void)
{
    run_keys = *run_options_job_keys();
    keys = (struct job_keys){.opts = run_keys.opts, .excluded = run_keys.excluded,
                             .repeatable = run_keys.repeatable};
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_vectors),
        cmocka_unit_test(test_nearest_and_bool),
        cmocka_unit_test(test_expand),
        cmocka_unit_test(test_inherit_and_override),
        cmocka_unit_test(test_text_reparses_to_itself),
        cmocka_unit_test(test_fold),
        cmocka_unit_test(test_include),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_consent_keys),
        cmocka_unit_test(test_paths_and_files),
        cmocka_unit_test(test_value_check_hook),
        cmocka_unit_test(test_phase_params_are_options),
        cmocka_unit_test(test_builtin_jobs),
        cmocka_unit_test(test_scenario_jobs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
