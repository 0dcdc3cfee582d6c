/* grow.c — arrays and byte arenas that grow by doubling (see grow.h). */
#include "base/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int grow_to(void **p, size_t *cap, size_t need, size_t first, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : first;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return -1;
        ncap *= 2;
    }
    if (elem && ncap > SIZE_MAX / elem)
        return -1;
    void *q = realloc(*p, ncap * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = ncap;
    return 0;
}

int grow_append(char **buf, size_t *cap, size_t *len, const char *s, size_t n, bool nul,
                size_t first)
{
    size_t need = *len + n + (nul ? 1 : 0);
    if (need < *len)
        return -1;
    void *b = *buf;
    if (grow_to(&b, cap, need, first, 1) < 0)
        return -1;
    *buf = b;
    memcpy(*buf + *len, s, n);
    if (nul)
        (*buf)[*len + n] = '\0';
    *len = need;
    return 0;
}
