/* cmd_store.c — the sub-commands over the results store: runs (also runs --labels, the labels
 * alone for scripts and the bash completion), show, export, import and forget (see cli.h).
 * Each parses its own options, opens the database (--db FILE, else the default path), does
 * one thing, and returns an exit status; messages are one line,
 * "fsbench: <command>: <what was wrong>". Commands that only read never create a database
 * (a missing one is an empty store) and open it read-only, so a results.db the user may
 * not write is read. What came from the store or an import is printed with its control
 * characters escaped; a label kept (import) is a name text_check_name() accepts; written
 * files go through outfile (a temporary and a rename), never onto the database itself.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_run.h"
#include "run/run_store.h"
#include "base/err.h"
#include "base/outcheck.h"
#include "base/outfile.h"
#include "base/text.h"
#include "report/report.h"
#include "report/report_job.h"
#include "report/report_run.h"
#include "report/runs_list.h"
#include "results/resjson.h"
#include "results/set_csv.h"
#include "measure/results.h"
#include "results/spool.h"
#include "results/store.h"

#define OPT_DB 1000
/* The --db line of every store command's --help. */
#define STORE_DB_HELP                                                                      \
    "  --db FILE  the results store (default $XDG_DATA_HOME/fsbench/results.db, else\n"    \
    "             ~/.local/share/fsbench/results.db)\n"

static int usage_error(const char *cmd, const char *what)
{
    error("%s: %s; try 'fsbench %s --help'", cmd, what, cmd);
    return EXIT_USAGE;
}

/* The database path: --db, else the default. 0 or -1 after error(). */
static int db_path(const char *cmd, const char *db, char *buf, size_t len)
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

enum open_how { OPEN_READ, OPEN_CHANGE, OPEN_CREATE };

/* Opens the store: read-only (OPEN_READ), to change an existing one (OPEN_CHANGE: forget)
 * or made as needed (OPEN_CREATE: import). Unless created, a missing file gives NULL with
 * *missing set and no message. */
static struct store *open_store(const char *cmd, const char *db, enum open_how how,
                                bool *missing)
{
    char path[4096];
    *missing = false;
    if (db_path(cmd, db, path, sizeof path) < 0)
        return NULL;
    if (how != OPEN_CREATE && access(path, F_OK) != 0) {
        *missing = true;
        return NULL;
    }
    return how == OPEN_READ ? store_open_read(path) : run_store_open_write(path);
}

/* The store path --db names or the default, for store_check_output(). */
static const char *db_or_default(const char *db)
{
    return db && *db ? db : NULL;
}

static int check_label(const char *cmd, const char *label)
{
    if (!*label)
        return usage_error(cmd, "the label is empty");
    if (strlen(label) >= RES_NAME_MAX) {
        error("%s: label '%.20s...' is longer than %d bytes", cmd, label, RES_NAME_MAX - 1);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* A label to keep (import): check_label's rules and a name others can type and print. */
static int check_new_label(const char *cmd, const char *label, const char *from)
{
    int rc = check_label(cmd, label);
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

/* Loads a label for show/export: EXIT_OK with *rs filled, or the exit status. */
static int load_label(const char *cmd, const char *db, const char *label, struct run_set *rs)
{
    int rc = check_label(cmd, label);
    if (rc != EXIT_OK)
        return rc;
    bool missing;
    struct store *s = open_store(cmd, db, OPEN_READ, &missing);
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

/* ---------------------------------------------------------------- runs */

enum { OPT_LABELS = OPT_DB + 1 };

/* runs's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_runs = {
    "runs", ":hv",
    (const struct option[]){
        {"db", required_argument, NULL, OPT_DB},
        {"labels", no_argument, NULL, OPT_LABELS},
        {"wide", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_runs(int argc, char **argv)
{
    const char *db = NULL;
    bool labels = false, wide = false;
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_runs.shortopts, cli_opts_runs.longopts, NULL)) !=
           -1) {
        switch (c) {
        case OPT_DB: db = optarg; break;
        case OPT_LABELS: labels = true; break;
        case 'v': wide = true; break;
        case 'h':
            printf("usage: fsbench runs [--db FILE] [--labels] [-v|--wide]\n"
                   "  the stored run sets, oldest first: id, label, date, scenario, tree, file\n"
                   "  system, runs; fitting the terminal (80 columns when not one): the file\n"
                   "  system without its mount options, then scenario, tree and file system left\n"
                   "  out as needed, then a long label cut (...); a set not done says how far\n"
                   "  it got (7 of 12 (interrupted)), the command that finishes it under the\n"
                   "  table\n"
                   "  --labels   only the labels, each once, one a line\n"
                   "  -v, --wide every column whole, the mount options too, however wide\n"
                   "%s",
                   STORE_DB_HELP);
            return EXIT_OK;
        default: return cli_bad_option("runs", c, argv);
        }
    }
    if (optind < argc)
        return usage_error("runs", "takes no arguments");
    bool missing;
    struct store *s = open_store("runs", db, OPEN_READ, &missing);
    if (!s && !missing)
        return EXIT_RUN_FAILED;
    struct runs_listing l = {0};
    int rc = s ? store_list(s, runs_list_collect, &l) : 0;
    store_close(s);
    if (labels) {
        if (rc == 0)
            runs_list_labels(&l);
        int out = rc < 0 || outcheck_stdout(NULL) != 0 ? EXIT_RUN_FAILED : EXIT_OK;
        free(l.v);
        return out;
    }
    /* runs a locked store could not take yet are not listed: say that they exist */
    char path[4096], dir[4200];
    unsigned waiting = db_path("runs", db, path, sizeof path) == 0 ? spool_count(path) : 0;
    if (waiting)
        inform("%u run%s wait%s in %s (the store was locked when %s finished): %s join%s "
               "%s set%s when fsbench next opens the store to write",
               waiting, waiting == 1 ? "" : "s", waiting == 1 ? "s" : "",
               spool_dir(path, dir, sizeof dir), waiting == 1 ? "it" : "they",
               waiting == 1 ? "it" : "they", waiting == 1 ? "s" : "", waiting == 1 ? "its" : "their",
               waiting == 1 ? "" : "s");
    if (rc < 0 || l.n == 0) {
        if (rc == 0)
            printf("no stored runs\n");
        free(l.v);
        return rc < 0 ? EXIT_RUN_FAILED : EXIT_OK;
    }
    runs_list_print(&l, report_term_width(stdout), wide);
    free(l.v);
    return outcheck_stdout(NULL) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
}

/* ---------------------------------------------------------------- show */

/* show's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_show = {
    "show", ":hf:v",
    (const struct option[]){
        {"db", required_argument, NULL, OPT_DB},
        {"format", required_argument, NULL, 'f'},
        {"wide", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_show(int argc, char **argv)
{
    const char *db = NULL, *format = "table";
    bool wide = false;
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_show.shortopts, cli_opts_show.longopts, NULL)) != -1) {
        switch (c) {
        case OPT_DB: db = optarg; break;
        case 'f': format = optarg; break;
        case 'v': wide = true; break;
        case 'h':
            printf("usage: fsbench show LABEL [--format table|seeds] [-v|--wide] [--db FILE]\n"
                   "  prints the stored run set LABEL as fsbench run printed it\n"
                   "  -v, --wide      every column of the table (else those that fit the\n"
                   "                  terminal, 80 columns when it is none), and for a matrix\n"
                   "                  seed 000's Mode blocks and the grid of medians\n"
                   "  -f, --format F  table (default: the results table) or seeds (the\n"
                   "                  figures the seed experiments report, one block a phase)\n"
                   "%s",
                   STORE_DB_HELP);
            return EXIT_OK;
        default: return cli_bad_option("show", c, argv);
        }
    }
    if (argc - optind != 1)
        return usage_error("show", "expected one LABEL");
    int f = report_format_find(format);
    if (f < 0) {
        error("show: unknown format '%s' (table or seeds)", format);
        return EXIT_USAGE;
    }
    struct run_set rs;
    int rc = load_label("show", db, argv[optind], &rs);
    if (rc != EXIT_OK)
        return rc;
    struct report_layout lo = {.width = report_term_width(stdout), .wide = wide};
    report_run_set_fit(stdout, &rs, (enum report_format)f, &lo);
    if (f == REPORT_TABLE)
        report_failures(stdout, &rs); /* which configuration failed, in which round and phase */
    if (f == REPORT_TABLE)
        report_job_text(stdout, &rs, argv[optind]); /* the job file it ran, if any */
    run_set_free(&rs);
    return outcheck_stdout(NULL) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
}

/* ---------------------------------------------------------------- export */

static int export_csv(const struct run_set *rs, const char *out)
{
    struct outfile of;
    if (outfile_open(&of, out, "export") < 0)
        return -1;
    set_csv_write(of.f, rs);
    return outfile_commit(&of);
}

/* The job file the set ran, as it was stored: rerunning it runs the same experiment (the
 * same text, so the same hash). The process exit status. */
static int export_job(const struct run_set *rs, const char *out)
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

enum { OPT_JSON = 1001, OPT_CSV, OPT_JOB, OPT_FORCE };

/* export's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_export = {
    "export", ":ho:",
    (const struct option[]){
        {"db", required_argument, NULL, OPT_DB},
        {"json", no_argument, NULL, OPT_JSON},
        {"csv", no_argument, NULL, OPT_CSV},
        {"output", required_argument, NULL, 'o'},
        {"job", no_argument, NULL, OPT_JOB},
        {"force", no_argument, NULL, OPT_FORCE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_export(int argc, char **argv)
{
    const char *db = NULL, *out = "-";
    int c, json = 0, csv = 0, job = 0;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_export.shortopts, cli_opts_export.longopts, NULL)) != -1) {
        switch (c) {
        case OPT_DB: db = optarg; break;
        case OPT_JSON: json = 1; break;
        case OPT_CSV: csv = 1; break;
        case OPT_JOB: job = 1; break;
        case 'o': out = optarg; break;
        case OPT_FORCE: outfile_set_force(true); break;
        case 'h':
            printf("usage: fsbench export LABEL --json|--csv|--job [-o FILE] [--db FILE] "
                   "[--force]\n"
                   "  writes the stored run set LABEL (one of the three):\n"
                   "  --json      every run's figures as JSON (docs/json-schema.md), which\n"
                   "              fsbench import and fsbench compare read back\n"
                   "  --csv       one row per run and phase (run and round count from 1)\n"
                   "  --job       the job file that repeats the set's runs (fsbench run FILE)\n"
                   "  -o, --output FILE  write to FILE (default: stdout, also -)\n"
                   "  --force     replace -o FILE even when it is a results store (SQLite) or a\n"
                   "              spooled run\n"
                   "%s",
                   STORE_DB_HELP);
            return EXIT_OK;
        default: return cli_bad_option("export", c, argv);
        }
    }
    if (argc - optind != 1)
        return usage_error("export", "expected one LABEL");
    if (json + csv + job != 1)
        return usage_error("export", "choose one of --json, --csv and --job");
    if (!*out)
        return usage_error("export", "-o needs a file name");
    if (store_check_output(db_or_default(db), out, "export: -o") < 0 ||
        outfile_check(out, "export: -o") < 0)
        return EXIT_USAGE;
    struct run_set rs;
    int rc = load_label("export", db, argv[optind], &rs);
    if (rc != EXIT_OK)
        return rc;
    if (json)
        rc = resjson_write_file(&rs, out) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
    else if (job)
        rc = export_job(&rs, out);
    else
        rc = export_csv(&rs, out) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
    run_set_free(&rs);
    return rc;
}

/* ---------------------------------------------------------------- import */

/* import's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_import = {
    "import", ":hl:",
    (const struct option[]){
        {"db", required_argument, NULL, OPT_DB},
        {"label", required_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_import(int argc, char **argv)
{
    const char *db = NULL, *label = NULL;
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_import.shortopts, cli_opts_import.longopts, NULL)) != -1) {
        switch (c) {
        case OPT_DB: db = optarg; break;
        case 'l': label = optarg; break;
        case 'h':
            printf("usage: fsbench import FILE.json [--label NEW] [--db FILE]\n"
                   "  stores the run set of FILE.json (written by run --json or export --json)\n"
                   "  -l, --label NEW  store it under NEW instead of the file's own label; a\n"
                   "                   label names one set: a set whose label is in use is\n"
                   "                   refused unless imported under another with --label NEW\n"
                   "%s",
                   STORE_DB_HELP);
            return EXIT_OK;
        default: return cli_bad_option("import", c, argv);
        }
    }
    if (argc - optind != 1)
        return usage_error("import", "expected one FILE.json");
    int rc;
    if (label && (rc = check_new_label("import", label, NULL)) != EXIT_OK)
        return rc;
    const char *file = argv[optind];
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
    if (!label && (rc = check_new_label("import", rs.label, file)) != EXIT_OK) {
        run_set_free(&rs);
        return rc;
    }
    if (!isfinite(rs.created) || rs.created <= 0) /* merged in creation order: needs one */
        rs.created = (double)time(NULL);
    bool missing;
    struct store *s = open_store("import", db, OPEN_CREATE, &missing);
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

/* ---------------------------------------------------------------- forget */

/* forget's options: the one table its getopt_long reads (t0014 holds its --help, the
 * man page and the completion to it) */
const struct cli_opts cli_opts_forget = {
    "forget", ":h",
    (const struct option[]){
        {"db", required_argument, NULL, OPT_DB},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

int cmd_forget(int argc, char **argv)
{
    const char *db = NULL;
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_forget.shortopts, cli_opts_forget.longopts, NULL)) != -1) {
        switch (c) {
        case OPT_DB: db = optarg; break;
        case 'h':
            printf("usage: fsbench forget LABEL [--db FILE]\n"
                   "  deletes every stored run set labelled LABEL, and says how many\n"
                   "%s",
                   STORE_DB_HELP);
            return EXIT_OK;
        default: return cli_bad_option("forget", c, argv);
        }
    }
    if (argc - optind != 1)
        return usage_error("forget", "expected one LABEL");
    const char *label = argv[optind];
    int rc = check_label("forget", label);
    if (rc != EXIT_OK)
        return rc;
    bool missing;
    struct store *s = open_store("forget", db, OPEN_CHANGE, &missing);
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
