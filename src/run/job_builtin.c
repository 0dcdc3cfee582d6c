/* job_builtin.c — finding a shipped job by name (the table is generated; job_builtin.h). */
#include "run/job_builtin.h"

#include <string.h>

const struct job_builtin *job_builtin_find(const char *name)
{
    size_t len = strlen(name);
    if (len > 4 && !strcmp(name + len - 4, ".ini"))
        len -= 4;
    for (const struct job_builtin *j = job_builtin_table; j->name; j++)
        if (strlen(j->name) == len && !strncmp(j->name, name, len))
            return j;
    return NULL;
}
