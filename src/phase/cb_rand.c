/* cb_rand.c — MT19937 with Python's integer seeding and _randbelow (see cb_rand.h). */
#include "phase/cb_rand.h"

#define N 624
#define M 397

static void init_genrand(struct cb_rand *r, uint32_t s)
{
    r->mt[0] = s;
    for (unsigned i = 1; i < N; i++)
        r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + i;
    r->i = N;
}

void cb_rand_seed(struct cb_rand *r, uint64_t seed)
{
    /* the key: the seed's 32-bit words, least significant first, at least one */
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    unsigned klen = key[1] ? 2 : 1;
    init_genrand(r, 19650218u);
    unsigned i = 1, j = 0;
    for (unsigned k = N > klen ? N : klen; k; k--) {
        r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525u)) + key[j] + j;
        i++, j++;
        if (i >= N) {
            r->mt[0] = r->mt[N - 1];
            i = 1;
        }
        if (j >= klen)
            j = 0;
    }
    for (unsigned k = N - 1; k; k--) {
        r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941u)) - i;
        i++;
        if (i >= N) {
            r->mt[0] = r->mt[N - 1];
            i = 1;
        }
    }
    r->mt[0] = 0x80000000u;
    r->i = N;
}

uint32_t cb_rand_u32(struct cb_rand *r)
{
    static const uint32_t mag01[2] = {0, 0x9908b0dfu};
    if (r->i >= N) {
        unsigned k;
        uint32_t y;
        for (k = 0; k < N - M; k++) {
            y = (r->mt[k] & 0x80000000u) | (r->mt[k + 1] & 0x7fffffffu);
            r->mt[k] = r->mt[k + M] ^ (y >> 1) ^ mag01[y & 1];
        }
        for (; k < N - 1; k++) {
            y = (r->mt[k] & 0x80000000u) | (r->mt[k + 1] & 0x7fffffffu);
            r->mt[k] = r->mt[k + (M - N)] ^ (y >> 1) ^ mag01[y & 1];
        }
        y = (r->mt[N - 1] & 0x80000000u) | (r->mt[0] & 0x7fffffffu);
        r->mt[N - 1] = r->mt[M - 1] ^ (y >> 1) ^ mag01[y & 1];
        r->i = 0;
    }
    uint32_t y = r->mt[r->i++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint32_t cb_rand_below(struct cb_rand *r, uint32_t n)
{
    unsigned k = 0;
    for (uint32_t v = n; v; v >>= 1)
        k++;
    for (;;) {
        uint32_t x = cb_rand_u32(r) >> (32 - k);
        if (x < n)
            return x;
    }
}
