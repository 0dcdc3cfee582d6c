/* run_store_ops.c — what the store commands do with the results store (see run_store_ops.h);
 * cli/cmd_store.c reads their options and calls these. Commands that only read never create
 * a database (a missing one is an empty store) and open it read-only, so a results.db the
 * user may not write is read. A label kept (import) is a name text_check_name() accepts;
 * written files go through outfile (a temporary and a rename), never onto the database
 * itself.
 */
#include "run/run_store_ops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/outfile.h"
#include "base/text.h"
#include "results/resjson.h"
#include "results/set_csv.h"
#include "results/spool.h"
#include "run/run_store.h"

int run_store_db_path(const char *cmd, const char *db, char *buf, size_t len)
{
    if (db) {
        if (!*db)
            return error("%s: --db needs a file name", cmd);
        snprintf(buf, len, "%s", db);
        return 0;
    }
    if (store_default_path(buf, len) < 0)
        return error("%s: no default results database (HOME is not set); use --db FILE", cmd);
    return 0;
}

struct store *run_store_open_as(const char *cmd, const char *db, enum run_store_open how,
                                bool *missing)
{
    char path[4096];
    *missing = false;
    if (run_store_db_path(cmd, db, path, sizeof path) < 0)
        return NULL;
    if (how != RUN_STORE_CREATE && access(path, F_OK) != 0) {
        *missing = true;
        return NULL;
    }
    return how == RUN_STORE_READ ? store_open_read(path) : run_store_open_write(path);
}

const char *run_store_db_or_default(const char *db)
{
    return db && *db ? db : NULL;
}

void run_store_say_waiting(const char *cmd, const char *db)
{
    char path[4096], dir[4200];
    unsigned waiting = run_store_db_path(cmd, db, path, sizeof path) == 0 ? spool_count(path) : 0;
    if (waiting)
        inform("%u run%s wait%s in %s (the store was locked when %s finished): %s join%s "
               "%s set%s when fsbench next opens the store to write",
               waiting, waiting == 1 ? "" : "s", waiting == 1 ? "s" : "",
               spool_dir(path, dir, sizeof dir), waiting == 1 ? "it" : "they",
               waiting == 1 ? "it" : "they", waiting == 1 ? "s" : "", waiting == 1 ? "its" : "their",
               waiting == 1 ? "" : "s");
}

int run_store_check_label(const char *cmd, const char *label)
{
    if (!*label) {
        error("%s: %s; try 'fsbench %s --help'", cmd, "the label is empty", cmd);
        return EXIT_USAGE;
    }
    if (strlen(label) >= RES_NAME_MAX) {
        error("%s: label '%.20s...' is longer than %d bytes", cmd, label, RES_NAME_MAX - 1);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int run_store_check_new_label(const char *cmd, const char *label, const char *from)
{
    int rc = run_store_check_label(cmd, label);
    if (rc != EXIT_OK)
        return rc;
    char why[128];
    if (text_check_name(label, why, sizeof why) < 0) {
        error("%s: %s%slabel '%s' %s: give another with --label NAME", cmd, from ? from : "",
              from ? ": " : "", label, why);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int run_store_load_label(const char *cmd, const char *db, const char *label,
                         struct run_set *rs)
{
    int rc = run_store_check_label(cmd, label);
    if (rc != EXIT_OK)
        return rc;
    bool missing;
    struct store *s = run_store_open_as(cmd, db, RUN_STORE_READ, &missing);
    if (!s && !missing)
        return EXIT_RUN_FAILED;
    memset(rs, 0, sizeof *rs);
    rc = s ? store_load_label(s, label, rs) : 1;
    store_close(s);
    if (rc < 0)
        return EXIT_RUN_FAILED;
    if (rc == 1) {
        error("%s: no run set labelled '%s'; 'fsbench runs' lists them", cmd, label);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int run_store_export_csv(const struct run_set *rs, const char *out)
{
    struct outfile of;
    if (outfile_open(&of, out, "export") < 0)
        return -1;
    set_csv_write(of.f, rs);
    return outfile_commit(&of);
}

int run_store_export_job(const struct run_set *rs, const char *out)
{
    if (!rs->job_text[0])
        return error("export: '%s' was run from a command line, not a job file: no job to "
                     "export (its command line: %s)", rs->label, rs->command_line),
               EXIT_USAGE;
    struct outfile of;
    if (outfile_open(&of, out, "export") < 0)
        return EXIT_RUN_FAILED;
    fputs(rs->job_text, of.f);
    return outfile_commit(&of) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
}

int run_store_import(const char *db, const char *file, const char *label)
{
    int rc;
    if (label && (rc = run_store_check_new_label("import", label, NULL)) != EXIT_OK)
        return rc;
    struct run_set rs;
    memset(&rs, 0, sizeof rs);
    if (resjson_read_file(file, &rs) < 0)
        return EXIT_RUN_FAILED;
    if (label)
        snprintf(rs.label, sizeof rs.label, "%s", label);
    if (!rs.label[0]) {
        run_set_free(&rs);
        error("import: %s has no label; give one with --label NAME", file);
        return EXIT_USAGE;
    }
    if (!label && (rc = run_store_check_new_label("import", rs.label, file)) != EXIT_OK) {
        run_set_free(&rs);
        return rc;
    }
    if (!isfinite(rs.created) || rs.created <= 0) /* merged in creation order: needs one */
        rs.created = (double)time(NULL);
    bool missing;
    struct store *s = run_store_open_as("import", db, RUN_STORE_CREATE, &missing);
    /* a label names one set: importing a second under it would merge them (and the same
     * runs twice, for a file exported from this store) */
    int has = s ? store_label_exists(s, rs.label) : -1;
    size_t dropped = 0;
    if (has > 0) {
        error("import: %s: a run set labelled '%s' exists already; import it under another "
              "label with --label NEW ('fsbench runs --labels' lists those in use)",
              file, rs.label);
        rc = EXIT_USAGE;
    } else {
        rc = has == 0 && store_save_set(s, &rs, &dropped) > 0 ? EXIT_OK : EXIT_RUN_FAILED;
    }
    store_close(s);
    if (rc == EXIT_OK && dropped)
        warning("import: %s: %zu run%s appeared twice (the same round, configuration and "
                "start time): kept once",
                file, dropped, dropped == 1 ? "" : "s");
    if (rc == EXIT_OK)
        printf("imported %zu run%s as '%s'\n", rs.nruns - dropped,
               rs.nruns - dropped == 1 ? "" : "s", rs.label);
    run_set_free(&rs);
    return rc;
}

int run_store_forget(const char *db, const char *label)
{
    int rc = run_store_check_label("forget", label);
    if (rc != EXIT_OK)
        return rc;
    bool missing;
    struct store *s = run_store_open_as("forget", db, RUN_STORE_CHANGE, &missing);
    if (!s && !missing)
        return EXIT_RUN_FAILED;
    int n = s ? store_forget(s, label) : 0;
    store_close(s);
    if (n < 0)
        return EXIT_RUN_FAILED;
    if (n == 0) {
        error("forget: no run set labelled '%s'; 'fsbench runs' lists them", label);
        return EXIT_USAGE;
    }
    printf("forgot %d run set%s labelled '%s'\n", n, n == 1 ? "" : "s", label);
    return EXIT_OK;
}
