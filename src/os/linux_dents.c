/* linux_dents.c — the rest of a directory in memory, by getdents64 (see dents.h). */
#include "os/dents.h"

#include <dirent.h>
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
        ssize_t got = getdents64(fd, nb + have, chunk);
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
