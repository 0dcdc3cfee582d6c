/* cli.h — the sub-commands. Each takes (argc, argv) with argv[0] the sub-command's name,
 * parses its own options with getopt_long, and returns the process exit status
 * (EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE from err.h). Only these and main() decide exits.
 */
#ifndef FSBENCH_CLI_H
#define FSBENCH_CLI_H

#include <stdbool.h>
#include <stddef.h>

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_layout(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_forget(int argc, char **argv);
int cmd_cmd(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_bisect(int argc, char **argv);

/* The one-line message for an option getopt_long refused (call with opterr = 0 and an
 * optstring starting with ':'): c is what getopt_long returned. Returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, int c, char **argv);
/* The same, for a refusal noted earlier: c as above, opt getopt's optopt then, arg the
 * argument it was in (argv[optind - 1] then). */
int cli_bad_option_was(const char *cmd, int c, int opt, const char *arg);

/* The one number parser behind every numeric option (and so every number in a job file):
 * what a value may be. */
enum {
    CLI_WHOLE = 1u << 0,   /* digits only: no fraction, no exponent */
    CLI_LO_OPEN = 1u << 1, /* lo itself is excluded */
    CLI_HI_OPEN = 1u << 2, /* hi itself is excluded */
    CLI_PERCENT = 1u << 3, /* a percentage: lo and hi are in percent, a trailing '%' is
                            * allowed, and the result is the fraction (5 -> 0.05) */
};
struct cli_range {
    double lo, hi;    /* hi may be INFINITY: no upper bound */
    unsigned flags;   /* CLI_* */
    const char *unit; /* for the message: "seconds" ("a number of seconds from ..."); or NULL */
    const char *alt;  /* for the message: the option's word other than a number ("auto") */
};

/* Parses s as a number in r: unsigned decimal digits, with an optional fraction and
 * exponent unless CLI_WHOLE; no sign, blank, hex, inf or nan; nothing after it (but '%'
 * with CLI_PERCENT). 0 with *out set, or -1 (no message) leaving *out untouched. */
int cli_number(const char *s, const struct cli_range *r, double *out);
/* What r accepts, for a message: "a whole number from 1 to 64", "a positive number",
 * "a number of seconds from 0.001 to 86400", "a number from 0 to below 1". Returns buf. */
const char *cli_range_text(const struct cli_range *r, char *buf, size_t len);
/* cli_number(), or -1 after error("OPT: 'S' is not <cli_range_text>"). */
int cli_option_number(const char *opt, const char *s, const struct cli_range *r, double *out);

struct runner_opts;
/* --runs S: "auto", "until-verdict" or a whole number from 1 to 100000, into ro (the last
 * --runs given wins). 0, or -1 after error(). */
int cli_option_runs(const char *s, struct runner_opts *ro);

struct profile;
/* 0 if profile p at scale (given as arg) stays within TREE_FILES_MAX files, else -1 after
 * error() naming the option, the tree and the largest scale that would do. */
int cli_check_scale(const char *arg, const struct profile *p, double scale);

/* Shorthands of cli_number(): a positive number ("3", "0.5"); a percentage above 0 and
 * below 100 ("5", "2.5%") as a fraction (0.05, 0.025). 0 or -1 (no message). */
int cli_parse_positive(const char *s, double *out);
int cli_parse_percent(const char *s, double *out);
/* Whole numbers in the same strict syntax, to the full width of the type: >= 1 (a count),
 * and >= 0 (a seed). 0 or -1 (no message). */
int cli_parse_count(const char *s, unsigned long *out);
int cli_parse_u64(const char *s, unsigned long long *out);

#endif
