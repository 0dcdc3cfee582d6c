/* cmd_store.c — the sub-commands over the results store: runs (also runs --labels, the labels
 * alone for scripts and the bash completion), show, export, import and forget (see cli.h).
 * Each parses its own options and calls what does its one thing: the store's work (the
 * database path, --db FILE else the default, opened; a label checked and loaded; export's
 * CSV and job file; import and forget) is run/run_store_ops.c's, what it prints report/'s.
 * Messages are one line, "fsbench: <command>: <what was wrong>".
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "run/run_store_ops.h"
#include "base/err.h"
#include "base/outcheck.h"
#include "base/outfile.h"
#include "report/report.h"
#include "report/report_job.h"
#include "report/report_run.h"
#include "report/runs_list.h"
#include "results/resjson.h"
#include "measure/results.h"
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
    struct store *s = run_store_open_as("runs", db, RUN_STORE_READ, &missing);
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
    run_store_say_waiting("runs", db);
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
    int rc = run_store_load_label("show", db, argv[optind], &rs);
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
    if (store_check_output(run_store_db_or_default(db), out, "export: -o") < 0 ||
        outfile_check(out, "export: -o") < 0)
        return EXIT_USAGE;
    struct run_set rs;
    int rc = run_store_load_label("export", db, argv[optind], &rs);
    if (rc != EXIT_OK)
        return rc;
    if (json)
        rc = resjson_write_file(&rs, out) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
    else if (job)
        rc = run_store_export_job(&rs, out);
    else
        rc = run_store_export_csv(&rs, out) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
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
    return run_store_import(db, argv[optind], label);
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
    return run_store_forget(db, argv[optind]);
}
