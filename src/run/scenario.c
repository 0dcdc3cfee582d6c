/* scenario.c — phase lists: resolving them, and repeating a phase in them (scenario.h). */
#include "run/scenario.h"

#include <string.h>

#include "base/err.h"
#include "phase/phase_registry.h"

int scenario_resolve(const char *list, const struct phase_def **out, size_t max)
{
    size_t n = 0;
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char name[64];
        if (len == 0 || len >= sizeof name)
            return error("empty or overlong phase name in '%s'", list);
        memcpy(name, p, len);
        name[len] = '\0';
        const struct phase_def *ph = phase_find(name);
        if (!ph)
            return error("unknown phase '%s' (see 'fsbench list')", name);
        if (n == max)
            return error("too many phases in '%s' (at most %zu)", list, max);
        out[n++] = ph;
        p += len;
        if (*p == ',' && *++p == '\0')
            return error("empty phase name at the end of '%s'", list);
    }
    if (n == 0)
        return error("no phases given");
    return (int)n;
}

int scenario_repeat(const struct phase_def **ph, size_t n, size_t max, const char *name,
                    unsigned times)
{
    if (times == 0)
        return error("%s: cannot be repeated 0 times", name);
    const struct phase_def *out[SCENARIO_MAX_PHASES * 4];
    size_t m = 0;
    for (size_t i = 0; i < n;) {
        if (strcmp(ph[i]->name, name)) {
            if (m == max || m == sizeof out / sizeof *out)
                return error("too many phases (at most %zu)", max);
            out[m++] = ph[i++];
            continue;
        }
        const struct phase_def *p = ph[i];
        while (i < n && !strcmp(ph[i]->name, name))
            i++;
        for (unsigned k = 0; k < times; k++) {
            if (m == max || m == sizeof out / sizeof *out)
                return error("%u %s phases: too many phases (at most %zu)", times, name, max);
            out[m++] = p;
        }
    }
    memcpy(ph, out, m * sizeof *ph);
    return (int)m;
}
