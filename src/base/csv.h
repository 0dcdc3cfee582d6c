/* csv.h — one CSV field written safely: RFC 4180 quoting, and the guard against CSV
 * injection (a cell a spreadsheet would take for a formula). Every CSV fsbench writes
 * (export, history, compare) puts the strings someone else may have written through it.
 */
#ifndef FSBENCH_BASE_CSV_H
#define FSBENCH_BASE_CSV_H

#include <stdbool.h>
#include <stdio.h>

/* Whether s is a plain decimal number ("-1.5", "+2e3"): a number, not a formula, whatever
 * its first byte. */
bool csv_plain_number(const char *s);

/* Writes s as one CSV field on f: as it is, or in double quotes (inner quotes doubled) when
 * it holds a comma, quote or line break; a cell starting with =, +, -, @, a tab or a CR that
 * is not a plain number is quoted and prefixed with a single quote, as OWASP's rule for CSV
 * injection says. */
void csv_put_field(FILE *f, const char *s);

#endif
