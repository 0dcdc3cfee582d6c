/* test_store.c — the SQLite results store, in a scratch directory: schema creation and
 * refusal of newer schemas, saving and loading (phases equal through the store), merging
 * sets by label, listing, forgetting, concurrent writers and a writer killed mid-run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "base/err.h"
#include "results/resjson.h"
#include "measure/results.h"
#include "results/spool.h"
#include "results/store.h"
#include "results/meta.h"

static char scratch[] = "/tmp/test_store.XXXXXX";
static unsigned dbno;

/* A fresh database path (in a not yet existing subdirectory, to test mkdir -p). */
static void db_path(char *buf, size_t len)
{
    snprintf(buf, len, "%s/d%u/sub/results.db", scratch, dbno++);
}

static void fill_phase(struct phase_result *p, unsigned n)
{
    snprintf(p->name, sizeof p->name, "phase%u", n % 4);
    p->status = (enum phase_status)(n % 3);
    snprintf(p->note, sizeof p->note, "note %u", n);
    p->wall_s = 1.0 / 7.0 + n;
    p->user_s = 0.25 * n;
    p->sys_s = 0.5 * n + 0.1;
    p->ops[OP_CREATE] = 100 + n;
    p->ops[OP_WRITE] = 200 + n;
    p->ops_total = 300 + 2 * n;
    p->bytes_read = 11 + n;
    p->bytes_written = 1ull << 40;
    p->files = 1000 + n;
    p->dirs = 50 + n;
    p->symlinks = n;
    p->nvcsw = 7;
    p->oublock = 9 + (long)n;
    p->io_write_bytes = 12345;
    p->dev.valid = n % 2 == 0;
    if (p->dev.valid) {
        p->dev.rd_ios = 1 + n;
        p->dev.rd_sectors = 2 + n;
        p->dev.wr_ios = 3 + n;
        p->dev.wr_sectors = 4 + n;
        p->dev.io_ticks_ms = 5 + n;
    }
    p->lat[OP_CREATE] = (struct lat_summary){100 + n, 10, 20, 30, 40, 50, 60, 22.5};
    p->timeline_len = 3;
    p->timeline = calloc(3, sizeof *p->timeline);
    assert_non_null(p->timeline);
    for (unsigned i = 0; i < 3; i++)
        p->timeline[i] = (struct timeline_point){.t = 0.5 * (i + 1), .ops = 10 * i + n, .bytes = 4096 * i};
    p->longest_stall_s = 0.125 * n;
}

static void fill_run(struct run_set *rs, unsigned round, unsigned seed)
{
    struct run_result *r = run_set_add_run(rs, 4);
    assert_non_null(r);
    r->round = round;
    snprintf(r->config, sizeof r->config, "c%u", seed % 2);
    r->warmup = seed == 0;
    r->started = 1764667200.0 + seed;
    for (unsigned i = 0; i < 4; i++)
        fill_phase(&r->phases[i], seed * 4 + i);
}

static void fill_desc(struct run_set *rs, const char *label, double created)
{
    memset(rs, 0, sizeof *rs);
    rs->schema_version = RESULTS_SCHEMA_VERSION;
    snprintf(rs->label, sizeof rs->label, "%s", label);
    strcpy(rs->scenario, "basic");
    strcpy(rs->engine, "posix");
    strcpy(rs->command_line, "fsbench run --label x");
    rs->created = created;
    rs->warm_cache = true;
    strcpy(rs->machine.hostname, "host");
    strcpy(rs->machine.kernel, "6.1.0");
    rs->machine.ncpu = 2;
    rs->machine.dirty_ratio = 20;
    rs->machine.dirty_bytes = -1;
    strcpy(rs->target.path, "/mnt/x");
    strcpy(rs->target.fstype, "ext4");
    strcpy(rs->target.device, "/dev/loop0");
    strcpy(rs->target.mount_opts, "rw,relatime");
    strcpy(rs->tree.profile, "tiny");
    rs->tree.scale = 1;
    rs->tree.seed = 42;
    rs->tree.files = 1000;
}

/* Phases compared through the codec: equal JSON means every field is equal. */
static void assert_phases_equal(const struct run_result *a, const struct run_result *b)
{
    assert_int_equal(a->nphases, b->nphases);
    for (size_t i = 0; i < a->nphases; i++) {
        json_t *x = resjson_from_phase(&a->phases[i]), *y = resjson_from_phase(&b->phases[i]);
        assert_non_null(x);
        assert_non_null(y);
        if (!json_equal(x, y)) {
            char *sx = json_dumps(x, JSON_REAL_PRECISION(17)), *sy = json_dumps(y, 0);
            print_error("%s\n!=\n%s\n", sx, sy);
            free(sx);
            free(sy);
            fail();
        }
        json_decref(x);
        json_decref(y);
    }
}

static int pragma_int(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* Renames a label behind the store's back, as a store made before "a label names one set"
 * could hold it. */
static void relabel(const char *path, const char *from, const char *to)
{
    sqlite3 *db;
    char sql[256];
    snprintf(sql, sizeof sql, "UPDATE run_sets SET label = '%s' WHERE label = '%s'", to, from);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

static void assert_integrity_ok(const char *path)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void test_open_creates_schema(void **state)
{
    char path[512];
    db_path(path, sizeof path);
    struct store *s = store_open(path);
    assert_non_null(s);
    store_close(s);
    assert_int_equal(pragma_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    assert_int_equal(STORE_SCHEMA_VERSION, 4);
    /* reopening an existing database changes nothing */
    s = store_open(path);
    assert_non_null(s);
    store_close(s);
    assert_int_equal(pragma_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    assert_integrity_ok(path);
}

static void sql(const char *path, const char *text)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char *err = NULL;
    if (sqlite3_exec(db, text, NULL, NULL, &err) != SQLITE_OK)
        fail_msg("%s: %s", text, err ? err : "?");
    sqlite3_close(db);
}

/* A database of schema 2 (made now, its schema-3 columns dropped again) is migrated, its
 * sets read as done; a new set keeps what resumes it, and its states go as a run goes. */
static void test_migrate_and_resume_state(void **state)
{
    char path[512];
    db_path(path, sizeof path);
    struct store *s = store_open(path);
    assert_non_null(s);
    struct run_set rs;
    fill_desc(&rs, "old", 1000);
    fill_run(&rs, 0, 1);
    fill_run(&rs, 0, 2);
    assert_true(store_save_set(s, &rs, NULL) > 0);
    run_set_free(&rs);
    store_close(s);
    sql(path, "ALTER TABLE run_sets DROP COLUMN args_json; ALTER TABLE run_sets DROP COLUMN cwd;"
              "ALTER TABLE run_sets DROP COLUMN planned; ALTER TABLE run_sets DROP COLUMN state;"
              "ALTER TABLE run_sets DROP COLUMN owner; ALTER TABLE runs DROP COLUMN interrupted;"
              "ALTER TABLE run_sets DROP COLUMN meta_json; PRAGMA user_version = 2");
    assert_int_equal(pragma_int(path, "PRAGMA user_version"), 2);

    s = store_open(path);
    assert_non_null(s);
    assert_int_equal(pragma_int(path, "PRAGMA user_version"), 4);
    struct store_set_info info;
    assert_int_equal(store_last_set(s, "old", &info), 0);
    assert_string_equal(info.state, "done");
    assert_false(info.resumable);
    assert_false(info.running);
    assert_int_equal(info.nruns, 2);
    assert_int_equal(info.planned, 0);
    assert_int_equal(store_last_set(s, "none", &info), 1);

    /* a set that can be resumed: running, owned by this process */
    fill_desc(&rs, "new", 2000);
    strcpy(rs.args, "[\"--runs\",\"2\"]");
    strcpy(rs.cwd, "/somewhere");
    rs.planned = 4;
    int64_t id = store_begin_set(s, &rs);
    assert_true(id > 0);
    fill_run(&rs, 0, 1);
    assert_int_equal(store_add_run(s, id, &rs.runs[0]), 0);
    fill_run(&rs, 0, 2);
    rs.runs[1].interrupted = true; /* a signal stopped it */
    assert_int_equal(store_add_run(s, id, &rs.runs[1]), 0);
    assert_int_equal(store_last_set(s, "new", &info), 0);
    assert_string_equal(info.state, "running");
    assert_true(info.running);
    assert_true(info.resumable);
    assert_int_equal(info.nruns, 1);
    assert_int_equal(info.ninterrupted, 1);
    assert_int_equal(info.planned, 4);
    assert_int_equal(store_set_state(s, id, "interrupted"), 0);
    assert_int_equal(store_last_set(s, "new", &info), 0);
    assert_string_equal(info.state, "interrupted");
    assert_false(info.running);

    /* what a resume reads: the arguments, the directory, the runs with their marks */
    struct run_set back = {0};
    assert_int_equal(store_load_set(s, id, &back), 0);
    assert_string_equal(back.args, "[\"--runs\",\"2\"]");
    assert_string_equal(back.cwd, "/somewhere");
    assert_int_equal(back.planned, 4);
    assert_int_equal(back.nruns, 2);
    assert_false(back.runs[0].interrupted);
    assert_true(back.runs[1].interrupted);
    run_set_free(&back);
    assert_int_equal(store_drop_interrupted(s, id), 1);
    assert_int_equal(store_last_set(s, "new", &info), 0);
    assert_int_equal(info.ninterrupted, 0);
    assert_int_equal(info.nruns, 1);

    /* left running by a process that is gone (kill -9): it reads as interrupted */
    assert_int_equal(store_set_state(s, id, "running"), 0);
    store_close(s);
    sql(path, "UPDATE run_sets SET owner = '2147483646:gone:1' WHERE label = 'new'");
    s = store_open(path);
    assert_non_null(s);
    assert_int_equal(store_last_set(s, "new", &info), 0);
    assert_string_equal(info.state, "interrupted");
    assert_false(info.running);
    assert_int_equal(store_set_state(s, id, "done"), 0);
    assert_int_equal(store_last_set(s, "new", &info), 0);
    assert_string_equal(info.state, "done");
    store_close(s);
    run_set_free(&rs);
    assert_integrity_ok(path);
}

static void test_newer_schema_refused(void **state)
{
    char path[512];
    db_path(path, sizeof path);
    store_close(store_open(path));
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_null(store_open(path));

    /* and a file that is not a database */
    db_path(path, sizeof path);
    store_close(store_open(path));
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("this is not a database, it is a text file that is long enough to look odd\n", f);
    fclose(f);
    assert_null(store_open(path));
}

static void test_save_load_merge(void **state)
{
    char path[512];
    db_path(path, sizeof path);
    struct store *s = store_open(path);
    assert_non_null(s);

    struct run_set a;
    fill_desc(&a, "old-dirpref", 1000.5);
    /* a set that stopped by looking keeps its rule in the target's JSON */
    strcpy(a.stop.rule, "auto");
    strcpy(a.stop.method, "mixture-sprt");
    strcpy(a.stop.metric, "wall");
    a.stop.confidence = 0.95;
    a.stop.min_effect = 0.1;
    a.stop.mixture_var = 2;
    a.stop.max_rounds = 12;
    for (unsigned i = 0; i < 3; i++)
        fill_run(&a, i, i);
    int64_t id = store_begin_set(s, &a);
    assert_true(id > 0);
    for (size_t i = 0; i < a.nruns; i++)
        assert_int_equal(store_add_run(s, id, &a.runs[i]), 0);

    struct run_set l;
    memset(&l, 0, sizeof l);
    assert_int_equal(store_load_label(s, "old-dirpref", &l), 0);
    assert_int_equal(l.nruns, 3);
    assert_string_equal(l.label, "old-dirpref");
    assert_string_equal(l.scenario, "basic");
    assert_string_equal(l.command_line, a.command_line);
    assert_true(l.created == a.created);
    assert_true(l.warm_cache);
    assert_false(l.root);
    assert_string_equal(l.machine.hostname, "host");
    assert_int_equal(l.machine.dirty_ratio, 20);
    assert_int_equal(l.machine.dirty_bytes, -1);
    assert_string_equal(l.target.mount_opts, "rw,relatime");
    assert_true(l.tree.seed == 42);
    assert_string_equal(l.stop.rule, "auto");
    assert_string_equal(l.stop.method, "mixture-sprt");
    assert_string_equal(l.stop.metric, "wall");
    assert_true(l.stop.min_effect == 0.1);
    assert_true(l.stop.mixture_var == 2);
    assert_int_equal(l.stop.max_rounds, 12);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(l.runs[i].index, i);
        assert_int_equal(l.runs[i].round, a.runs[i].round);
        assert_string_equal(l.runs[i].config, a.runs[i].config);
        assert_int_equal(l.runs[i].warmup, a.runs[i].warmup);
        assert_true(l.runs[i].started == a.runs[i].started);
        assert_phases_equal(&a.runs[i], &l.runs[i]);
    }
    run_set_free(&l);

    /* a label names one set: a second set under it is refused, by begin and by save */
    struct run_set b;
    fill_desc(&b, "old-dirpref", 2000.0);
    strcpy(b.scenario, "other");
    for (unsigned i = 0; i < 3; i++)
        fill_run(&b, i, 10 + i);
    assert_int_equal(store_label_exists(s, "old-dirpref"), 1);
    assert_int_equal(store_label_exists(s, "new-dirpref"), 0);
    assert_int_equal(store_save_set(s, &b, NULL), -1);
    assert_int_equal(store_begin_set(s, &b), -1);
    /* a store made before that rule holds two sets under one label: merged, the later after */
    strcpy(b.label, "later");
    assert_true(store_save_set(s, &b, NULL) > id);
    relabel(path, "later", "old-dirpref");
    memset(&l, 0, sizeof l);
    assert_int_equal(store_load_label(s, "old-dirpref", &l), 0);
    assert_int_equal(l.nruns, 6);
    assert_string_equal(l.scenario, "basic"); /* description from the first set */
    for (size_t i = 0; i < 6; i++) {
        const struct run_result *src = i < 3 ? &a.runs[i] : &b.runs[i - 3];
        assert_int_equal(l.runs[i].index, i);
        assert_int_equal(l.runs[i].round, src->round);
        assert_phases_equal(src, &l.runs[i]);
    }
    run_set_free(&l);

    /* an unknown label: 1, no message, nothing allocated */
    memset(&l, 0, sizeof l);
    assert_int_equal(store_load_label(s, "nope", &l), 1);
    assert_int_equal(l.nruns, 0);

    /* a run for a set that does not exist */
    assert_int_equal(store_add_run(s, 99999, &a.runs[0]), -1);

    run_set_free(&a);
    run_set_free(&b);
    store_close(s);
    assert_integrity_ok(path);
}

struct listing {
    unsigned n;
    struct store_set_info info[8];
};

static int collect(const struct store_set_info *info, void *arg)
{
    struct listing *l = arg;
    if (l->n < 8)
        l->info[l->n++] = *info;
    return 0;
}

static int stop_at_first(const struct store_set_info *info, void *arg)
{
    (*(unsigned *)arg)++;
    return 1;
}

static void test_list_and_forget(void **state)
{
    char path[512];
    db_path(path, sizeof path);
    struct store *s = store_open(path);
    assert_non_null(s);
    struct listing l = {0};
    assert_int_equal(store_list(s, collect, &l), 0);
    assert_int_equal(l.n, 0);

    const char *labels[] = {"a", "b", "a2"};
    for (unsigned i = 0; i < 3; i++) {
        struct run_set rs;
        fill_desc(&rs, labels[i], 100.0 * (3 - i)); /* newest first: listed oldest first */
        for (unsigned r = 0; r <= i; r++)
            fill_run(&rs, r, r);
        assert_true(store_save_set(s, &rs, NULL) > 0);
        run_set_free(&rs);
    }
    relabel(path, "a2", "a"); /* an older store: two sets labelled a */
    assert_int_equal(store_list(s, collect, &l), 0);
    assert_int_equal(l.n, 3);
    assert_string_equal(l.info[0].label, "a");
    assert_int_equal(l.info[0].nruns, 3);
    assert_true(l.info[0].created == 100.0);
    assert_string_equal(l.info[1].label, "b");
    assert_int_equal(l.info[1].nruns, 2);
    assert_string_equal(l.info[2].label, "a");
    assert_int_equal(l.info[2].nruns, 1);
    assert_string_equal(l.info[0].scenario, "basic");
    assert_string_equal(l.info[0].tree, "tiny x1 seed 42");
    assert_string_equal(l.info[0].target, "ext4 /dev/loop0 (rw,relatime)");
    unsigned calls = 0;
    assert_int_equal(store_list(s, stop_at_first, &calls), 0);
    assert_int_equal(calls, 1);

    assert_int_equal(store_forget(s, "a"), 2);
    assert_int_equal(store_forget(s, "a"), 0);
    l.n = 0;
    assert_int_equal(store_list(s, collect, &l), 0);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.info[0].label, "b");
    store_close(s);
    /* the runs and phases went with their sets */
    assert_int_equal(pragma_int(path, "SELECT count(*) FROM runs"), 2);
    assert_int_equal(pragma_int(path, "SELECT count(*) FROM phases"), 8);
    assert_integrity_ok(path);
}

static void test_default_path(void **state)
{
    char buf[512], *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    char *xdg = getenv("XDG_DATA_HOME") ? strdup(getenv("XDG_DATA_HOME")) : NULL;
    setenv("XDG_DATA_HOME", "/x/data", 1);
    assert_int_equal(store_default_path(buf, sizeof buf), 0);
    assert_string_equal(buf, "/x/data/fsbench/results.db");
    setenv("XDG_DATA_HOME", "relative", 1); /* ignored, as the XDG spec says */
    setenv("HOME", "/home/u", 1);
    assert_int_equal(store_default_path(buf, sizeof buf), 0);
    assert_string_equal(buf, "/home/u/.local/share/fsbench/results.db");
    unsetenv("XDG_DATA_HOME");
    unsetenv("HOME");
    assert_int_equal(store_default_path(buf, sizeof buf), -1);
    if (home)
        setenv("HOME", home, 1);
    if (xdg)
        setenv("XDG_DATA_HOME", xdg, 1);
    free(home);
    free(xdg);
}

/* Child: opens the store, begins a set labelled `label` and adds n runs (forever if n is
 * 0), writing one byte to fd after each committed run. Never returns. */
static void writer(const char *path, const char *label, unsigned n, int fd)
{
    err_set_quiet(0); /* a failing child says why */
    struct store *s = store_open(path);
    if (!s)
        _exit(10);
    struct run_set rs;
    fill_desc(&rs, label, 5000.0 + getpid());
    int64_t id = store_begin_set(s, &rs);
    if (id < 0)
        _exit(11);
    for (unsigned i = 0; n == 0 || i < n; i++) {
        fill_run(&rs, i, i % 50);
        if (store_add_run(s, id, &rs.runs[rs.nruns - 1]) < 0)
            _exit(12);
        if (fd >= 0 && write(fd, "r", 1) != 1)
            _exit(13);
        if (rs.nruns >= 50) { /* keep the child's memory flat in the endless loop */
            run_set_free(&rs);
            fill_desc(&rs, label, 0);
        }
    }
    store_close(s);
    run_set_free(&rs);
    _exit(0);
}

static void test_concurrent_writers(void **state)
{
    char path[512];
    db_path(path, sizeof path); /* not created yet: both children race to create it */
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t pid[2];
    for (int i = 0; i < 2; i++) {
        pid[i] = fork();
        assert_true(pid[i] >= 0);
        if (pid[i] == 0) {
            char c;
            close(go[1]);
            if (read(go[0], &c, 1) != 0) /* start together: when the parent closes go[1] */
                _exit(14);
            writer(path, i ? "conc1" : "conc0", 20, -1); /* a label names one set */
        }
    }
    close(go[0]);
    close(go[1]);
    for (int i = 0; i < 2; i++) {
        int status;
        assert_int_equal(waitpid(pid[i], &status, 0), pid[i]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    struct store *s = store_open(path);
    assert_non_null(s);
    struct run_set l;
    memset(&l, 0, sizeof l);
    for (int i = 0; i < 2; i++) {
        memset(&l, 0, sizeof l);
        assert_int_equal(store_load_label(s, i ? "conc1" : "conc0", &l), 0);
        assert_int_equal(l.nruns, 20);
        run_set_free(&l);
    }
    store_close(s);
    assert_integrity_ok(path);
}

static void test_kill_during_runs(void **state)
{
    char path[512];
    db_path(path, sizeof path);
    store_close(store_open(path));
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        writer(path, "killed", 0, p[1]);
    }
    close(p[1]);
    /* wait for some committed runs, then kill at an arbitrary point of the next one */
    unsigned done = 0;
    char c;
    while (done < 15 && read(p[0], &c, 1) == 1)
        done++;
    assert_int_equal(done, 15);
    usleep(2000);
    assert_int_equal(kill(pid, SIGKILL), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    while (read(p[0], &c, 1) == 1)
        done++;
    close(p[0]);

    struct store *s = store_open(path);
    assert_non_null(s);
    struct run_set l;
    memset(&l, 0, sizeof l);
    assert_int_equal(store_load_label(s, "killed", &l), 0);
    /* every reported run is there; at most one more committed before its report */
    assert_true(l.nruns >= done);
    assert_true(l.nruns <= done + 1);
    for (size_t i = 0; i < l.nruns; i++)
        assert_int_equal(l.runs[i].nphases, 4); /* no half-saved run */
    run_set_free(&l);
    store_close(s);
    assert_integrity_ok(path);
}

/* What a path given as --db may be: a regular file or nothing, never a FIFO or device,
 * its side files regular too, and never someone else's SQLite database. */
static void test_untrusted_paths(void **state)
{
    char path[512], side[600], msg[600];
    db_path(path, sizeof path);
    store_close(store_open(path)); /* makes the directories */
    unlink(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    err_capture_begin(msg, sizeof msg);
    assert_null(store_open(path));
    assert_null(store_open_read(path));
    err_capture_end();
    assert_non_null(
        strstr(msg, ": not a regular file: the results database must be a regular file"));
    snprintf(side, sizeof side, "%s-journal", path);
    assert_int_equal(access(side, F_OK), -1); /* nothing made beside it */
    unlink(path);
    /* a side file that is a symlink (planted in a shared directory) */
    snprintf(side, sizeof side, "%s-wal", path);
    assert_int_equal(symlink("/etc/passwd", side), 0);
    err_capture_begin(msg, sizeof msg);
    assert_null(store_open(path));
    err_capture_end();
    assert_non_null(strstr(msg, "-wal: not a regular file: refusing the results database"));
    unlink(side);
    /* a foreign database: refused, nothing added */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE people(name TEXT); CREATE TABLE pets(x);",
                                  NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    err_capture_begin(msg, sizeof msg);
    assert_null(store_open(path));
    err_capture_end();
    assert_non_null(strstr(msg, "not an fsbench results database (it holds tables people, pets)"));
    assert_int_equal(pragma_int(path, "SELECT count(*) FROM sqlite_master"), 2);
    /* one with a version but not our tables */
    unlink(path);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 2", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    err_capture_begin(msg, sizeof msg);
    assert_null(store_open_read(path));
    err_capture_end();
    assert_non_null(strstr(msg, "not an fsbench results database (it holds a different schema)"));
}

/* --meta KEY=VALUE: kept by the store and the JSON codec; bad keys and values refused. */
static void test_meta(void **state)
{
    char path[512], msg[512];
    db_path(path, sizeof path);
    struct store *s = store_open(path);
    assert_non_null(s);
    struct run_set rs;
    fill_desc(&rs, "m", 1000);
    fill_run(&rs, 0, 1);
    assert_int_equal(meta_add_arg(rs.meta, &rs.nmeta, "commit=abc123", "--meta"), 0);
    assert_int_equal(meta_add_arg(rs.meta, &rs.nmeta, "kernel=6.19-rc1", "--meta"), 0);
    assert_int_equal(meta_add_arg(rs.meta, &rs.nmeta, "commit=abc123", "--meta"), 0); /* same again: fine */
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(meta_add_arg(rs.meta, &rs.nmeta, "commit=def", "--meta"), -1);
    assert_int_equal(meta_add_arg(rs.meta, &rs.nmeta, "novalue", "--meta"), -1);
    assert_int_equal(meta_add_arg(rs.meta, &rs.nmeta, "bad key=1", "--meta"), -1);
    err_capture_end();
    char ctl[] = "c=a?b";
    ctl[3] = 1; /* a control character */
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(meta_add_arg(rs.meta, &rs.nmeta, ctl, "--meta"), -1);
    err_capture_end();
    assert_non_null(strstr(msg, "--meta: the value of c holds a control character"));
    assert_int_equal(rs.nmeta, 2);
    assert_true(store_save_set(s, &rs, NULL) > 0);
    struct run_set back;
    memset(&back, 0, sizeof back);
    assert_int_equal(store_load_label(s, "m", &back), 0);
    assert_int_equal(back.nmeta, 2);
    assert_string_equal(meta_find(back.meta, back.nmeta, "commit"), "abc123");
    assert_string_equal(meta_find(back.meta, back.nmeta, "kernel"), "6.19-rc1");
    assert_null(meta_find(back.meta, back.nmeta, "nothing"));
    json_t *j = resjson_from_run_set(&back);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "meta"), "commit")),
                        "abc123");
    struct run_set again;
    memset(&again, 0, sizeof again);
    assert_int_equal(resjson_to_run_set(j, &again), 0);
    assert_string_equal(meta_find(again.meta, again.nmeta, "kernel"), "6.19-rc1");
    json_decref(j);
    run_set_free(&again);
    run_set_free(&back);
    run_set_free(&rs);
    store_close(s);
}

/* Light loads of many labels (a series) keep one read transaction and their statements:
 * each label still comes back whole and alone (its own sets merged, the columns equal to a
 * full load), a label that is not there still says 1, and once light loads end the store
 * writes again. */
static void test_light_series(void **state)
{
    (void)state;
    char path[512];
    db_path(path, sizeof path);
    struct store *s = store_open(path);
    assert_non_null(s);
    const char *labels[] = {"a", "b", "a2", "c"};
    for (unsigned k = 0; k < 4; k++) { /* a: two sets of 2 runs; b, c: one set each */
        struct run_set rs;
        fill_desc(&rs, labels[k], 1000 + k);
        fill_run(&rs, 0, 1 + 2 * k);
        fill_run(&rs, 1, 2 + 2 * k);
        assert_true(store_save_set(s, &rs, NULL) > 0);
        run_set_free(&rs);
    }
    relabel(path, "a2", "a"); /* an older store: two sets labelled a */
    struct run_set full[3];
    memset(full, 0, sizeof full);
    for (unsigned k = 0; k < 3; k++)
        assert_int_equal(store_load_label(s, (const char *[]){"a", "b", "c"}[k], &full[k]), 0);
    store_set_light(s, true);
    for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned k = 0; k < 3; k++) {
            struct run_set lt;
            memset(&lt, 0, sizeof lt);
            assert_int_equal(store_load_label(s, (const char *[]){"a", "b", "c"}[k], &lt), 0);
            assert_string_equal(lt.label, full[k].label);
            assert_int_equal(lt.nruns, full[k].nruns);
            assert_int_equal(lt.nruns, k == 0 ? 4 : 2);
            for (size_t r = 0; r < lt.nruns; r++) {
                assert_int_equal(lt.runs[r].nphases, full[k].runs[r].nphases);
                for (size_t p = 0; p < lt.runs[r].nphases; p++) {
                    assert_string_equal(lt.runs[r].phases[p].name, full[k].runs[r].phases[p].name);
                    assert_true(lt.runs[r].phases[p].wall_s == full[k].runs[r].phases[p].wall_s);
                    assert_int_equal(lt.runs[r].phases[p].ops_total,
                                     full[k].runs[r].phases[p].ops_total);
                }
            }
            run_set_free(&lt);
            struct run_set none;
            memset(&none, 0, sizeof none);
            assert_int_equal(store_load_label(s, "nothing", &none), 1);
        }
    store_set_light(s, false);
    struct run_set d;
    fill_desc(&d, "d", 2000);
    fill_run(&d, 0, 9);
    assert_true(store_save_set(s, &d, NULL) > 0); /* no read transaction left open */
    run_set_free(&d);
    for (unsigned k = 0; k < 3; k++)
        run_set_free(&full[k]);
    store_close(s);
    assert_integrity_ok(path);
}

/* A reader opens read-only: an empty database is an empty store, nothing is written. */
static void test_read_only(void **state)
{
    char path[512];
    db_path(path, sizeof path);
    store_close(store_open(path));
    unlink(path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    struct store *s = store_open_read(path);
    assert_non_null(s);
    struct run_set rs;
    memset(&rs, 0, sizeof rs);
    assert_int_equal(store_load_label(s, "x", &rs), 1);
    store_close(s);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 0); /* still empty: no schema written by a reader */
    /* a real one reads, and its file is not changed */
    unlink(path);
    s = store_open(path);
    struct run_set a;
    fill_desc(&a, "kept", 10);
    fill_run(&a, 0, 0);
    assert_true(store_save_set(s, &a, NULL) > 0);
    run_set_free(&a);
    store_close(s);
    assert_int_equal(chmod(path, 0444), 0);
    s = store_open_read(path);
    assert_non_null(s);
    memset(&rs, 0, sizeof rs);
    assert_int_equal(store_load_label(s, "kept", &rs), 0);
    assert_int_equal(rs.nruns, 1);
    run_set_free(&rs);
    store_close(s);
}

/* No output may be the database or one of its side files. */
static void test_check_output(void **state)
{
    char path[512], other[600], dots[600], msg[600];
    db_path(path, sizeof path);
    store_close(store_open(path));
    snprintf(other, sizeof other, "%s.json", path);
    assert_int_equal(store_check_output(path, other, "-o"), 0);
    assert_int_equal(store_check_output(path, "-", "-o"), 0);
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(store_check_output(path, path, "export: -o"), -1);
    err_capture_end();
    assert_non_null(strstr(msg, "that is the results database: writing it would lose every"));
    char *slash = strrchr(path, '/');
    snprintf(dots, sizeof dots, "%.*s/./%s", (int)(slash - path), path, slash + 1);
    assert_int_equal(store_check_output(path, dots, "-o"), -1);
    snprintf(other, sizeof other, "%s-wal", path);
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(store_check_output(path, other, "-o"), -1);
    err_capture_end();
    assert_non_null(strstr(msg, "that is the results database's write-ahead log"));
    snprintf(other, sizeof other, "%s-journal", path);
    assert_int_equal(store_check_output(path, other, "-o"), -1);
    snprintf(other, sizeof other, "%s.link", path);
    assert_int_equal(link(path, other), 0);
    assert_int_equal(store_check_output(path, other, "-o"), -1); /* a hard link: same inode */
}

static int setup(void **state)
{
    return mkdtemp(scratch) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs the store cannot take (another connection holds the write lock) wait in the spool
 * and join their set once it can: each once, with every phase as it was; a run whose set
 * was forgotten is dropped; a file that is no spooled run is left alone. */
static void test_spool(void **state)
{
    char path[512], dir[600];
    db_path(path, sizeof path);
    struct store *s = store_open(path);
    assert_non_null(s);
    struct run_set a;
    fill_desc(&a, "spooled", 2000.25);
    for (unsigned i = 0; i < 3; i++)
        fill_run(&a, i, i);
    int64_t id = store_begin_set(s, &a);
    assert_true(id > 0);
    assert_int_equal(store_add_run(s, id, &a.runs[0]), 0);

    /* another process's write lock: the add gives up quietly after the (short) wait */
    sqlite3 *other;
    assert_int_equal(sqlite3_open(path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    store_set_lock_wait(s, 100);
    assert_int_equal(store_add_run(s, id, &a.runs[1]), STORE_BUSY);
    assert_int_equal(spool_put(path, id, &a, &a.runs[1]), 0);
    assert_int_equal(spool_put(path, id, &a, &a.runs[2]), 0);
    assert_int_equal(spool_count(path), 2);
    unsigned added = 9, left = 9;
    assert_int_equal(spool_flush(s, path, &added, &left), STORE_BUSY);
    assert_int_equal(added, 0);
    assert_int_equal(left, 2);
    assert_int_equal(sqlite3_exec(other, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);

    /* a file named like a spooled run that is none: left alone */
    snprintf(dir, sizeof dir, "%s/set%lld-run7.json", spool_dir(path, dir, sizeof dir),
             (long long)id);
    FILE *f = fopen(dir, "w");
    assert_non_null(f);
    fputs("{\"not\": \"a run\"}", f);
    fclose(f);
    err_set_quiet(1);
    assert_int_equal(spool_flush(s, path, &added, &left), 0);
    err_set_quiet(0);
    assert_int_equal(added, 2);
    assert_int_equal(left, 0);
    assert_int_equal(access(dir, F_OK), 0);
    unlink(dir);

    struct run_set l;
    memset(&l, 0, sizeof l);
    assert_int_equal(store_load_label(s, "spooled", &l), 0);
    assert_int_equal(l.nruns, 3);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(l.runs[i].index, i);
        assert_phases_equal(&a.runs[i], &l.runs[i]);
    }
    run_set_free(&l);

    /* spooled twice (a flush killed before it removed the file): stored once */
    assert_int_equal(spool_put(path, id, &a, &a.runs[2]), 0);
    assert_int_equal(spool_flush(s, path, &added, &left), 0);
    memset(&l, 0, sizeof l);
    assert_int_equal(store_load_label(s, "spooled", &l), 0);
    assert_int_equal(l.nruns, 3);
    run_set_free(&l);

    /* the set forgotten meanwhile: the waiting run is dropped */
    assert_int_equal(spool_put(path, id, &a, &a.runs[1]), 0);
    assert_int_equal(store_forget(s, "spooled"), 1);
    err_set_quiet(1);
    assert_int_equal(spool_flush(s, path, &added, &left), 0);
    err_set_quiet(0);
    assert_int_equal(added, 0);
    assert_int_equal(spool_count(path), 0);
    run_set_free(&a);
    store_close(s);
}

/* A run is never added twice: not under its own index (a spooled run added again), nor
 * under another with the same round, configuration and start time (a copy). */
static void test_run_added_once(void **state)
{
    char path[512];
    db_path(path, sizeof path);
    struct store *s = store_open(path);
    assert_non_null(s);
    struct run_set rs;
    fill_desc(&rs, "once", 10);
    fill_run(&rs, 0, 1);
    fill_run(&rs, 1, 2);
    int64_t id = store_begin_set(s, &rs);
    assert_true(id > 0);
    assert_int_equal(store_add_run_once(s, id, &rs.runs[0]), 0);
    assert_int_equal(store_add_run_once(s, id, &rs.runs[0]), 1);
    struct run_result copy = rs.runs[0];
    copy.index = 7; /* the same run under another index */
    assert_int_equal(store_add_run_once(s, id, &copy), 1);
    assert_int_equal(store_add_run_once(s, id, &rs.runs[1]), 0);
    struct run_set l;
    memset(&l, 0, sizeof l);
    assert_int_equal(store_load_label(s, "once", &l), 0);
    assert_int_equal(l.nruns, 2);
    run_set_free(&l);
    /* an import holding a run twice keeps it once */
    struct run_set t;
    fill_desc(&t, "twice", 20);
    fill_run(&t, 0, 3);
    fill_run(&t, 0, 3);
    t.runs[1].index = 1;
    size_t dropped = 0;
    assert_true(store_save_set(s, &t, &dropped) > 0);
    assert_int_equal(dropped, 1);
    memset(&l, 0, sizeof l);
    assert_int_equal(store_load_label(s, "twice", &l), 0);
    assert_int_equal(l.nruns, 1);
    run_set_free(&l);
    run_set_free(&t);
    run_set_free(&rs);
    store_close(s);
}

int main(void)
{
    err_set_quiet(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_creates_schema),
        cmocka_unit_test(test_newer_schema_refused),
        cmocka_unit_test(test_migrate_and_resume_state),
        cmocka_unit_test(test_save_load_merge),
        cmocka_unit_test(test_run_added_once),
        cmocka_unit_test(test_light_series),
        cmocka_unit_test(test_list_and_forget),
        cmocka_unit_test(test_default_path),
        cmocka_unit_test(test_concurrent_writers),
        cmocka_unit_test(test_kill_during_runs),
        cmocka_unit_test(test_untrusted_paths),
        cmocka_unit_test(test_meta),
        cmocka_unit_test(test_read_only),
        cmocka_unit_test(test_check_output),
        cmocka_unit_test(test_spool),
    };
    return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
