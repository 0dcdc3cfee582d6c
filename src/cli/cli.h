/* cli.h — the sub-commands. Each takes (argc, argv) with argv[0] the sub-command's name,
 * parses its own options with getopt_long, and returns the process exit status
 * (EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE from err.h). Only these and main() decide exits.
 */
#ifndef FSBENCH_CLI_H
#define FSBENCH_CLI_H

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

/* The one-line message for an option getopt_long refused (call with opterr = 0 and an
 * optstring starting with ':'): c is what getopt_long returned. Returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, int c, char **argv);

/* Parses a positive number ("3", "0.5"); 0 or -1 (no message). */
int cli_parse_positive(const char *s, double *out);
/* Parses a percentage above 0 and below 100 ("5", "2.5%") into a fraction (0.05, 0.025);
 * 0 or -1 (no message). */
int cli_parse_percent(const char *s, double *out);
/* Parses a positive whole number; 0 or -1 (no message). */
int cli_parse_count(const char *s, unsigned long *out);

/* Parses a whole number >= 0 (a seed); 0 or -1 (no message). */
int cli_parse_u64(const char *s, unsigned long long *out);

#endif
