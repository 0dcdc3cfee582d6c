/* compare_print.h — what `fsbench compare` prints and writes (compare_print.c). */
#ifndef FSBENCH_COMPARE_PRINT_H
#define FSBENCH_COMPARE_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "measure/results.h"
#include "stats/compare.h"

/* Writes the verdicts to path ("-": standard output) with fn (cmp_report_json or
 * cmp_report_csv); what names the option in messages. 0, or -1 after error(). */
int compare_write_out(const char *path, const char *what, const struct cmp_result *res,
                      int (*fn)(FILE *, const struct cmp_result *));

/* --format ministat: one phase (--phase, else the first) as ministat prints it on stdout,
 * what differs on stderr. The exit status. */
int compare_print_ministat(const struct cmp_result *res, const char *phase, double confidence);

/* --format text: the summary, failures and verdicts in words (with verbose every figure),
 * and one set (n == 1) of --age-steps as a series. The exit status. */
int compare_print_text(const struct cmp_result *res, const struct run_set *sets, size_t n,
                       const char *phase, bool verbose);

#endif
