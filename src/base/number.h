/* number.h — the one number parser behind every numeric option of every command (and so
 * every number in a job file): what a value may be, its strict syntax, and the message that
 * says what was expected. Below every stage that reads an option: the command line (cli/)
 * and a job file's keys (run/) parse through the same code.
 */
#ifndef FSBENCH_NUMBER_H
#define FSBENCH_NUMBER_H

#include <stddef.h>

/* What a value may be. */
enum {
    NUM_WHOLE = 1u << 0,   /* digits only: no fraction, no exponent */
    NUM_LO_OPEN = 1u << 1, /* lo itself is excluded */
    NUM_HI_OPEN = 1u << 2, /* hi itself is excluded */
    NUM_PERCENT = 1u << 3, /* a percentage: lo and hi are in percent, a trailing '%' is
                            * allowed, and the result is the fraction (5 -> 0.05) */
};
struct num_range {
    double lo, hi;    /* hi may be INFINITY: no upper bound */
    unsigned flags;   /* NUM_* */
    const char *unit; /* for the message: "seconds" ("a number of seconds from ..."); or NULL */
    const char *alt;  /* for the message: the option's word other than a number ("auto") */
};

/* Parses s as a number in r: unsigned decimal digits, with an optional fraction and
 * exponent unless NUM_WHOLE; no sign, blank, hex, inf or nan; nothing after it (but '%'
 * with NUM_PERCENT). 0 with *out set, or -1 (no message) leaving *out untouched. */
int num_parse(const char *s, const struct num_range *r, double *out);
/* What r accepts, for a message: "a whole number from 1 to 64", "a positive number",
 * "a number of seconds from 0.001 to 86400", "a number from 0 to below 1". Returns buf. */
const char *num_range_text(const struct num_range *r, char *buf, size_t len);
/* num_parse(), or -1 after error("OPT: 'S' is not <num_range_text>"). */
int num_option(const char *opt, const char *s, const struct num_range *r, double *out);

/* Shorthands of num_parse(): a positive number ("3", "0.5"); a percentage above 0 and
 * below 100 ("5", "2.5%") as a fraction (0.05, 0.025). 0 or -1 (no message). */
int num_parse_positive(const char *s, double *out);
int num_parse_percent(const char *s, double *out);
/* Whole numbers in the same strict syntax, to the full width of the type: >= 1 (a count),
 * and >= 0 (a seed). 0 or -1 (no message). */
int num_parse_count(const char *s, unsigned long *out);
int num_parse_u64(const char *s, unsigned long long *out);

#endif
