/* cli.c — number parsing shared by the sub-commands (see cli.h). */
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"

int cli_bad_option(const char *cmd, int c, char **argv)
{
    const char *arg = argv[optind - 1];
    if (c == ':')
        error("%s: option '%s' needs a value; try 'fsbench %s --help'", cmd, arg, cmd);
    else if (optopt && !(arg[0] == '-' && arg[1] == '-'))
        error("%s: unknown option '-%c'; try 'fsbench %s --help'", cmd, optopt, cmd);
    else
        error("%s: unknown option '%s'; try 'fsbench %s --help'", cmd, arg, cmd);
    return EXIT_USAGE;
}

int cli_parse_positive(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || v <= 0)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_percent(const char *s, double *out)
{
    if (!s)
        return -1;
    const char *pct = strchr(s, '%');
    char tmp[64];
    size_t n = pct ? (size_t)(pct - s) : strlen(s);
    if (n >= sizeof tmp || (pct && pct[1]))
        return -1;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    double d;
    if (cli_parse_positive(tmp, &d) < 0 || d >= 100)
        return -1;
    *out = d / 100;
    return 0;
}

int cli_parse_count(const char *s, unsigned long *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v == 0)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_u64(const char *s, unsigned long long *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}
