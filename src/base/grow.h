/* grow.h — arrays and byte arenas that grow by doubling (a listing's entries, the names
 * they point into, a queue of paths): one place for the doubling and its overflow check.
 */
#ifndef FSBENCH_GROW_H
#define FSBENCH_GROW_H

#include <stdbool.h>
#include <stddef.h>

/* Makes *p (an array of *cap elements of size elem) hold at least need elements: its
 * capacity doubles from `first` until it does. 0, or -1 when there is no memory or the
 * size overflows (*p and *cap unchanged). */
int grow_to(void **p, size_t *cap, size_t need, size_t first, size_t elem);

/* Appends n bytes of s (and a NUL when nul) to the arena *buf of *cap bytes holding *len,
 * growing it from `first` by doubling; *len moves past them. 0, or -1 (no memory: nothing
 * changed). */
int grow_append(char **buf, size_t *cap, size_t *len, const char *s, size_t n, bool nul,
                size_t first);

#endif
