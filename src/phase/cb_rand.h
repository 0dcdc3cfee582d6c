/* cb_rand.h — the random numbers compilebench draws: Python's generator (MT19937, seeded
 * from an integer as Python seeds it) and its _randbelow (the fewest bits that hold n-1,
 * redrawn while the value is not below n), so that fsbench seeded as compilebench is (555)
 * picks the same operations on the same trees in the same order as compilebench does.
 * Written from the published MT19937 algorithm and Python's documented behaviour.
 */
#ifndef FSBENCH_CB_RAND_H
#define FSBENCH_CB_RAND_H

#include <stdint.h>

struct cb_rand {
    uint32_t mt[624];
    unsigned i;
};

/* Seeds as Python's random.Random(seed) does for a non-negative integer. */
void cb_rand_seed(struct cb_rand *r, uint64_t seed);
/* The next 32 bits (Python's getrandbits(32)). */
uint32_t cb_rand_u32(struct cb_rand *r);
/* Uniform in [0, n), 0 < n < 2^32, drawing as Python's choice, randrange and shuffle do. */
uint32_t cb_rand_below(struct cb_rand *r, uint32_t n);

#endif
