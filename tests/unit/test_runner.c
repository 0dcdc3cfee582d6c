/* test_runner.c — unit tests of the order of configurations within a round
 * (runner_round_order in runner.c): every round is a permutation, the order is a function
 * of (seed, round) only, rounds differ, every configuration gets to go first, and the
 * seed changes the orders.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "run/runner.h"

#define MAXN 10
#define ROUNDS 50

static void assert_permutation(const size_t *order, size_t n)
{
    int seen[MAXN] = {0};
    for (size_t i = 0; i < n; i++) {
        if (order[i] >= n)
            fail_msg("order[%zu] = %zu out of range for n = %zu", i, order[i], n);
        if (seen[order[i]]++)
            fail_msg("order has %zu twice (n = %zu)", order[i], n);
    }
}

static void test_every_order_is_a_permutation(void **state)
{
    (void)state;
    static const uint64_t seeds[] = {0, 1, 42, 0xffffffffffffffffull};
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++)
        for (size_t n = 1; n <= MAXN; n++)
            for (unsigned r = 0; r <= ROUNDS; r++) {
                size_t order[MAXN + 1];
                order[n] = 0xdeadbeef; /* must not be written past n */
                runner_round_order(seeds[s], r, n, order);
                assert_permutation(order, n);
                assert_int_equal(order[n], 0xdeadbeef);
            }
}

static void test_same_seed_same_order(void **state)
{
    (void)state;
    for (size_t n = 1; n <= MAXN; n++)
        for (unsigned r = 0; r <= ROUNDS; r++) {
            size_t a[MAXN], b[MAXN];
            memset(b, 0xff, sizeof b);
            runner_round_order(7, r, n, a);
            runner_round_order(7, r, n, b);
            assert_memory_equal(a, b, n * sizeof *a);
        }
}

/* Order of n = 3 as a number 0..5 (lexicographic rank of the permutation). */
static int rank3(const size_t *o)
{
    return (int)(o[0] * 2 + (o[1] > o[2]));
}

static void test_rounds_vary(void **state)
{
    (void)state;
    static const uint64_t seeds[] = {0, 1, 12345};
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
        int orders[6] = {0}, first[3] = {0};
        for (unsigned r = 0; r < ROUNDS; r++) {
            size_t o[3];
            runner_round_order(seeds[s], r, 3, o);
            orders[rank3(o)]++;
            first[o[0]]++;
        }
        int distinct = 0;
        for (int i = 0; i < 6; i++)
            distinct += orders[i] > 0;
        assert_true(distinct > 1);
        for (int c = 0; c < 3; c++)
            if (first[c] == 0)
                fail_msg("seed %llu: configuration %d never first in %d rounds",
                         (unsigned long long)seeds[s], c, ROUNDS);
    }
}

static void test_seeds_differ(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed < 20; seed++) {
        int differ = 0;
        for (unsigned r = 0; r < ROUNDS && !differ; r++) {
            size_t a[5], b[5];
            runner_round_order(seed, r, 5, a);
            runner_round_order(seed + 1, r, 5, b);
            differ = memcmp(a, b, sizeof a) != 0;
        }
        if (!differ)
            fail_msg("seeds %llu and %llu give the same orders", (unsigned long long)seed,
                     (unsigned long long)seed + 1);
    }
}

/* n = 1 is always {0}; n = 0 writes nothing. */
static void test_trivial_sizes(void **state)
{
    (void)state;
    size_t o[2] = {77, 77};
    runner_round_order(3, 5, 0, o);
    assert_int_equal(o[0], 77);
    runner_round_order(3, 5, 1, o);
    assert_int_equal(o[0], 0);
    assert_int_equal(o[1], 77);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_order_is_a_permutation),
        cmocka_unit_test(test_same_seed_same_order),
        cmocka_unit_test(test_rounds_vary),
        cmocka_unit_test(test_seeds_differ),
        cmocka_unit_test(test_trivial_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
