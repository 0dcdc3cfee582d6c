/* spool.c — runs kept beside the store while another process holds it locked (see
 * spool.h).
 *
 * Invariants: a spool file is written whole or not at all (outfile: temporary + rename),
 * and removed only after its run is committed to the store; a run is therefore stored
 * once, even when two processes flush the same spool (the second finds the file gone, or
 * finds the run's index already in its set and drops the file). The spool directory is
 * the user's own (mode 0700); its files are read like any input (regular, size limit).
 */
#include "results/spool.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "results/resjson.h"

const char *spool_dir(const char *db, char *buf, size_t len)
{
    snprintf(buf, len, "%s.spool", db);
    return buf;
}

int spool_put(const char *db, int64_t set_id, const struct run_set *rs,
              const struct run_result *run)
{
    char dir[4200], path[4300];
    spool_dir(db, dir, sizeof dir);
    if (mkdir(dir, 0700) < 0 && errno != EEXIST)
        return error_errno("cannot keep run %u of '%s' in %s", run->index + 1, rs->label, dir);
    struct stat st;
    if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
        return error("%s is not a spool directory of this user's: run %u of '%s' cannot be kept",
                     dir, run->index + 1, rs->label);
    snprintf(path, sizeof path, "%s/set%" PRId64 "-run%u.json", dir, set_id, run->index);
    /* the set's description with this one run: a view, nothing copied but the struct */
    struct run_set *view = malloc(sizeof *view);
    if (!view)
        return error("out of memory");
    memcpy(view, rs, sizeof *view);
    view->runs = (struct run_result *)run;
    view->nruns = 1;
    int rc = resjson_write_file(view, path);
    free(view);
    return rc;
}

/* set<ID>-run<N>.json: 0 with the id, or -1. */
static int parse_name(const char *name, int64_t *id, unsigned *idx)
{
    int used = 0;
    if (sscanf(name, "set%" SCNd64 "-run%u.json%n", id, idx, &used) != 2 || name[used] ||
        *id <= 0)
        return -1;
    return 0;
}

/* Adds the run in path to set id. 1 added (or already there), 0 dropped, STORE_BUSY, -1. */
static int flush_one(struct store *s, const char *path, int64_t id, unsigned idx)
{
    struct run_set *rs = calloc(1, sizeof *rs);
    if (!rs)
        return error("out of memory");
    int rc;
    if (resjson_read_file(path, rs) < 0 || rs->nruns != 1 || rs->runs[0].index != idx) {
        warning("%s is not a run kept by fsbench: left alone", path);
        rc = 0;
        goto out;
    }
    int has = store_has_set(s, id, rs->label, rs->created);
    if (has < 0) {
        rc = -1;
        goto out;
    }
    if (!has) {
        warning("run %u of '%s' waited in %s, but its run set is no longer stored "
                "(forgotten): dropped",
                idx + 1, rs->label, path);
        unlink(path);
        rc = 0;
        goto out;
    }
    rc = store_add_run_once(s, id, &rs->runs[0]);
    if (rc == 0 || rc == 1) { /* added now, or by an earlier flush killed before unlink */
        unlink(path);
        rc = 1;
    }
out:
    run_set_free(rs);
    free(rs);
    return rc;
}

unsigned spool_count(const char *db)
{
    char dir[4200];
    DIR *d = opendir(spool_dir(db, dir, sizeof dir));
    if (!d)
        return 0;
    unsigned n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        int64_t id;
        unsigned idx;
        n += parse_name(de->d_name, &id, &idx) == 0;
    }
    closedir(d);
    return n;
}

int spool_flush(struct store *s, const char *db, unsigned *added, unsigned *left)
{
    unsigned a = 0, l = 0;
    char dir[4200];
    spool_dir(db, dir, sizeof dir);
    DIR *d = opendir(dir);
    int rc = 0;
    if (d) {
        struct dirent *de;
        while ((de = readdir(d))) {
            int64_t id;
            unsigned idx;
            if (parse_name(de->d_name, &id, &idx) < 0)
                continue;
            char path[4300];
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            if (rc == STORE_BUSY) { /* no use trying the rest now */
                l++;
                continue;
            }
            int r = flush_one(s, path, id, idx);
            if (r == 1)
                a++;
            else if (r == STORE_BUSY)
                rc = STORE_BUSY, l++;
            else if (r < 0)
                rc = rc == STORE_BUSY ? rc : -1, l++;
        }
        closedir(d);
        if (l == 0)
            rmdir(dir); /* only when empty: anything else in it stays */
    }
    if (added)
        *added = a;
    if (left)
        *left = l;
    return rc;
}
