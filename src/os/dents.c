/* dents.c — the rest of a directory in memory, by os_getdents (see dents.h); the same on
 * every system, since os_getdents gives one record layout everywhere. */
#include "os/dents.h"

#include "os/dirent.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int os_dents_drain(int fd, const char *rest, size_t have, size_t chunk, char **out, size_t *len)
{
    size_t cap = have + chunk;
    char *nb = malloc(cap);
    if (!nb)
        return -ENOMEM;
    if (have)
        memcpy(nb, rest, have);
    for (;;) {
        if (cap - have < chunk) {
            char *g = realloc(nb, cap * 2);
            if (!g) {
                free(nb);
                return -ENOMEM;
            }
            nb = g;
            cap *= 2;
        }
        long got = os_getdents(fd, nb + have, chunk);
        if (got < 0) {
            int e = errno;
            free(nb);
            return -e;
        }
        if (got == 0)
            break;
        have += (size_t)got;
    }
    *out = nb;
    *len = have;
    return 0;
}
