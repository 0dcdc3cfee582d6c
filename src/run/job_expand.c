/* job_expand.c — ${NAME} in job-file values: from the environment, else the built-ins
 * ncpus (CPUs online) and ram (what the page cache can use, in bytes, as --size auto
 * counts it). A '$' not followed by '{' is kept as it is.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/job.h"
#include "run/sizing.h"

/* A built-in's value into buf: 0, or -1 when name is none. */
static int builtin(const char *name, char *buf, size_t len)
{
    if (!strcmp(name, "ncpus")) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        snprintf(buf, len, "%ld", n > 0 ? n : 1);
        return 0;
    }
    if (!strcmp(name, "ram")) {
        snprintf(buf, len, "%" PRIu64, sizing_ram());
        return 0;
    }
    return -1;
}

int job_expand(const char *in, char *out, size_t len, char *why, size_t why_len)
{
    size_t o = 0;
    for (const char *p = in; *p;) {
        const char *val = NULL;
        char name[128], num[32];
        size_t vlen = 1;
        if (p[0] == '$' && p[1] == '{') {
            const char *end = strchr(p + 2, '}');
            if (!end) {
                snprintf(why, why_len, "'${' without its '}' in '%s'", in);
                return -1;
            }
            size_t nlen = (size_t)(end - p - 2);
            if (nlen == 0 || nlen >= sizeof name) {
                snprintf(why, why_len, "empty or overlong name in '%.*s'", (int)(end - p + 1), p);
                return -1;
            }
            memcpy(name, p + 2, nlen);
            name[nlen] = '\0';
            val = getenv(name);
            if (!val && builtin(name, num, sizeof num) == 0)
                val = num;
            if (!val) {
                snprintf(why, why_len, "${%s} is not set (the environment, ncpus, ram)", name);
                return -1;
            }
            vlen = strlen(val);
            p = end + 1;
        } else {
            val = p++;
        }
        if (o + vlen >= len) {
            snprintf(why, why_len, "value longer than %zu characters after expansion", len - 1);
            return -1;
        }
        memcpy(out + o, val, vlen);
        o += vlen;
    }
    out[o] = '\0';
    return 0;
}
