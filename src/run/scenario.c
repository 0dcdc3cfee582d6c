/* scenario.c — the built-in scenarios and the resolution of phase lists (see scenario.h). */
#include "run/scenario.h"

#include <string.h>

#include "base/err.h"
#include "phase/phase_registry.h"

const struct scenario scenario_table[] = {
    {"basic",
     "the seeds' hand-timed steps: extract, sync, drop caches, find, find -ls, read, cp -a, "
     "rm -rf",
     "extract,sync,dropcaches,walk,statwalk,read,copy,delete,sync"},
    {"create", "create the tree and sync it, then remove it untimed", "extract,sync"},
    {"metadata", "extract, then walk and stat-walk cold, then delete",
     "extract,sync,dropcaches,walk,statwalk,delete,sync"},
    {"testdisk",
     "seed 000's script per configuration: extract, sync and a timed umount; remount so the "
     "remove starts cold; remove, sync, umount (needs --image or --device)",
     "mount,extract,sync,umount,mount,delete,sync,umount"},
    {"compilebench",
     "Chris Mason's compilebench: -i initial kernel trees, then -r random create, patch, "
     "compile, clean, read, delete and stat operations (seed 001)",
     "cb_initial,cb_random"},
    {"cvs", "seed 003's CVS run: extract, sync, then every file rewritten with fsync and "
            "rename, twice",
     "extract,sync,fsyncstorm,fsyncstorm,delete,sync"},
    {"createsync", "fs_mark -S 1: create, write and fsync every file", "createsync,sync,delete"},
    {"age",
     "age the file system (churn), then measure it: layout, cold stat-walk and read of what "
     "aging left (aged once per file system with --keep-fs)",
     "age,sync,layout,dropcaches,statwalk,read"},
    {NULL, NULL, NULL},
};

const struct scenario *scenario_find(const char *name)
{
    for (const struct scenario *s = scenario_table; s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

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
