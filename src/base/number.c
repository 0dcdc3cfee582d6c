/* number.c — the one number parser behind every numeric option of every command and so
 * every number in a job file (see number.h).
 *
 * The syntax is strict on purpose: what strtod and strtoul would also take (leading blanks,
 * a sign, hex, "inf", "nan", a trailing "%" where no percentage is meant) is refused, so
 * that a value means the same on the command line and in a job file. A value is checked
 * against its range before anything is stored: no caller reads a number that was not
 * parsed.
 */
#include "base/number.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"

/* Length of the number at s in the strict syntax, 0 if there is none: whole, digits only;
 * else digits with an optional fraction (".5", "2.", "2.5") and exponent ("1e3", "2E-3"). */
static size_t scan_number(const char *s, bool whole)
{
    size_t n = 0, digits = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++, digits++;
    if (whole)
        return n;
    if (s[n] == '.') {
        n++;
        while (s[n] >= '0' && s[n] <= '9')
            n++, digits++;
    }
    if (!digits)
        return 0;
    if (s[n] == 'e' || s[n] == 'E') {
        size_t e = n + 1;
        if (s[e] == '+' || s[e] == '-')
            e++;
        if (s[e] < '0' || s[e] > '9')
            return n; /* "1e": the 'e' is trailing garbage */
        while (s[e] >= '0' && s[e] <= '9')
            e++;
        n = e;
    }
    return n;
}

int num_parse(const char *s, const struct num_range *r, double *out)
{
    if (!s || !r)
        return -1;
    bool whole = r->flags & NUM_WHOLE, pct = r->flags & NUM_PERCENT;
    size_t n = scan_number(s, whole);
    const char *rest = s + n;
    if (pct && *rest == '%')
        rest++;
    char buf[64];
    if (!n || *rest || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    char *end;
    double v = strtod(buf, &end);
    if (errno || *end || !isfinite(v))
        return -1;
    if ((r->flags & NUM_LO_OPEN) ? !(v > r->lo) : !(v >= r->lo))
        return -1;
    if ((r->flags & NUM_HI_OPEN) ? !(v < r->hi) : !(v <= r->hi))
        return -1;
    *out = pct ? v / 100 : v;
    return 0;
}

const char *num_range_text(const struct num_range *r, char *buf, size_t len)
{
    bool lo_open = r->flags & NUM_LO_OPEN, hi_open = r->flags & NUM_HI_OPEN;
    bool hi_none = isinf(r->hi);
    char what[64], lo[32], hi[32];
    snprintf(what, sizeof what, "%s%s%s%s", r->flags & NUM_PERCENT ? "a percentage" : "a ",
             r->flags & NUM_PERCENT ? "" : (r->flags & NUM_WHOLE ? "whole number" : "number"),
             r->unit ? " of " : "", r->unit ? r->unit : "");
    snprintf(lo, sizeof lo, "%.15g", r->lo);
    snprintf(hi, sizeof hi, "%.15g", r->hi);
    int n;
    if (lo_open && r->lo == 0 && hi_none && !(r->flags & NUM_PERCENT) && !r->unit)
        n = snprintf(buf, len, "a positive %s", r->flags & NUM_WHOLE ? "whole number" : "number");
    else if (hi_none)
        n = snprintf(buf, len, "%s %s %s", what, lo_open ? "above" : "of at least", lo);
    else if (lo_open)
        n = snprintf(buf, len, "%s above %s and %s %s", what, lo, hi_open ? "below" : "at most",
                     hi);
    else
        n = snprintf(buf, len, "%s from %s to %s%s", what, lo, hi_open ? "below " : "", hi);
    if (n >= 0 && (size_t)n < len && r->flags & NUM_PERCENT)
        n += snprintf(buf + n, len - (size_t)n, " (like 5 or 2.5%%)");
    if (n >= 0 && (size_t)n < len && r->alt)
        snprintf(buf + n, len - (size_t)n, " or %s", r->alt);
    return buf;
}

int num_option(const char *opt, const char *s, const struct num_range *r, double *out)
{
    if (num_parse(s, r, out) == 0)
        return 0;
    char text[160];
    return error("%s: '%s' is not %s", opt, s ? s : "", num_range_text(r, text, sizeof text));
}

int num_parse_positive(const char *s, double *out)
{
    static const struct num_range positive = {0, INFINITY, NUM_LO_OPEN, NULL, NULL};
    return num_parse(s, &positive, out);
}

int num_parse_percent(const char *s, double *out)
{
    static const struct num_range pct = {0, 100, NUM_LO_OPEN | NUM_HI_OPEN | NUM_PERCENT, NULL,
                                         NULL};
    return num_parse(s, &pct, out);
}

int num_parse_u64(const char *s, unsigned long long *out)
{
    if (!s)
        return -1;
    size_t n = scan_number(s, true);
    if (!n || s[n])
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int num_parse_count(const char *s, unsigned long *out)
{
    unsigned long long v;
    if (num_parse_u64(s, &v) < 0 || v == 0 || v > ULONG_MAX)
        return -1;
    *out = (unsigned long)v;
    return 0;
}
