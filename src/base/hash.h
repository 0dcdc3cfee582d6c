/* hash.h — FNV-1a over bytes: the one hash of names and paths that fsbench's in-memory
 * tables (and the MPI split of a tree's top entries) start from; callers that need better
 * spread over a power-of-two table mix the result further. */
#ifndef FSBENCH_BASE_HASH_H
#define FSBENCH_BASE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV1A_INIT 0xcbf29ce484222325ull

/* Folds n bytes at p into h (start from HASH_FNV1A_INIT). */
static inline uint64_t hash_fnv1a_more(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ull;
    return h;
}

/* FNV-1a of n bytes at p. */
static inline uint64_t hash_fnv1a(const void *p, size_t n)
{
    return hash_fnv1a_more(HASH_FNV1A_INIT, p, n);
}

#endif
