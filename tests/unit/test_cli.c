/* test_cli.c — unit tests of the number parsers shared by the sub-commands (cli.c): what
 * each accepts, what it rejects, and that a rejected input leaves the output untouched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/cli.h"

static void ok_positive(const char *s, double want)
{
    double v = -42;
    if (cli_parse_positive(s, &v) != 0)
        fail_msg("cli_parse_positive(\"%s\") rejected", s);
    assert_true(v == want);
}

static void bad_positive(const char *s)
{
    double v = -42;
    if (cli_parse_positive(s, &v) != -1)
        fail_msg("cli_parse_positive(\"%s\") accepted (%g)", s ? s : "(null)", v);
    assert_true(v == -42);
}

static void test_parse_positive(void **state)
{
    (void)state;
    ok_positive("1", 1);
    ok_positive("0.5", 0.5);
    ok_positive("1e3", 1000);
    ok_positive("2.25", 2.25);
    ok_positive("1e-3", 1e-3);
    bad_positive("0");
    bad_positive("0.0");
    bad_positive("-1");
    bad_positive("-0.5");
    bad_positive("abc");
    bad_positive("");
    bad_positive("1x");
    bad_positive("1 ");
    bad_positive("inf");
    bad_positive("infinity");
    bad_positive("nan");
    bad_positive("1e999");
    bad_positive(NULL);
}

static void ok_count(const char *s, unsigned long want)
{
    unsigned long v = 4242;
    if (cli_parse_count(s, &v) != 0)
        fail_msg("cli_parse_count(\"%s\") rejected", s);
    assert_int_equal(v, want);
}

static void bad_count(const char *s)
{
    unsigned long v = 4242;
    if (cli_parse_count(s, &v) != -1)
        fail_msg("cli_parse_count(\"%s\") accepted (%lu)", s ? s : "(null)", v);
    assert_int_equal(v, 4242);
}

static void test_parse_count(void **state)
{
    (void)state;
    ok_count("3", 3);
    ok_count("1", 1);
    ok_count("007", 7);
    ok_count("18446744073709551615", 18446744073709551615ul);
    bad_count("0");
    bad_count("-3");
    bad_count("+3");
    bad_count(" 3");
    bad_count("3.5");
    bad_count("3x");
    bad_count("x");
    bad_count("");
    bad_count("18446744073709551616");
    bad_count("99999999999999999999999999999");
    bad_count(NULL);
}

static void ok_u64(const char *s, unsigned long long want)
{
    unsigned long long v = 4242;
    if (cli_parse_u64(s, &v) != 0)
        fail_msg("cli_parse_u64(\"%s\") rejected", s);
    assert_true(v == want);
}

static void bad_u64(const char *s)
{
    unsigned long long v = 4242;
    if (cli_parse_u64(s, &v) != -1)
        fail_msg("cli_parse_u64(\"%s\") accepted (%llu)", s ? s : "(null)", v);
    assert_true(v == 4242);
}

static void test_parse_u64(void **state)
{
    (void)state;
    ok_u64("0", 0);
    ok_u64("42", 42);
    ok_u64("18446744073709551615", 18446744073709551615ull);
    bad_u64("18446744073709551616");
    bad_u64("99999999999999999999999999999");
    bad_u64("-1");
    bad_u64("-0");
    bad_u64("+1");
    bad_u64(" 1");
    bad_u64("1x");
    bad_u64("1.0");
    bad_u64("");
    bad_u64("x");
    bad_u64(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_positive),
        cmocka_unit_test(test_parse_count),
        cmocka_unit_test(test_parse_u64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
