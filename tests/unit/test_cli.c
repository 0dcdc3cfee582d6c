/* test_cli.c — unit tests of the number parser shared by every numeric option (cli.c):
 * what each range accepts (a closed bound such as the 0 of --age-fullness included), what
 * the strict syntax rejects, that a rejected input leaves the output untouched, and the
 * text a refusal shows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "base/err.h"
#include "cli/cli.h"
#include "run/run_consent.h"
#include "cli/cmd_run.h"
#include "run/run_request.h"

static void ok_positive(const char *s, double want)
{
    double v = -42;
    if (num_parse_positive(s, &v) != 0)
        fail_msg("num_parse_positive(\"%s\") rejected", s);
    assert_true(v == want);
}

static void bad_positive(const char *s)
{
    double v = -42;
    if (num_parse_positive(s, &v) != -1)
        fail_msg("num_parse_positive(\"%s\") accepted (%g)", s ? s : "(null)", v);
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
    if (num_parse_count(s, &v) != 0)
        fail_msg("num_parse_count(\"%s\") rejected", s);
    assert_int_equal(v, want);
}

static void bad_count(const char *s)
{
    unsigned long v = 4242;
    if (num_parse_count(s, &v) != -1)
        fail_msg("num_parse_count(\"%s\") accepted (%lu)", s ? s : "(null)", v);
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
    if (num_parse_u64(s, &v) != 0)
        fail_msg("num_parse_u64(\"%s\") rejected", s);
    assert_true(v == want);
}

static void bad_u64(const char *s)
{
    unsigned long long v = 4242;
    if (num_parse_u64(s, &v) != -1)
        fail_msg("num_parse_u64(\"%s\") accepted (%llu)", s ? s : "(null)", v);
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

static const struct num_range closed01 = {0, 1, NUM_HI_OPEN, NULL, NULL};  /* --age-fullness */
static const struct num_range closed050 = {0, 50, 0, NULL, NULL};           /* --age-written */
static const struct num_range whole0 = {0, 1000, NUM_WHOLE, NULL, NULL};    /* --warmup */
static const struct num_range whole1 = {1, 64, NUM_WHOLE, NULL, NULL};      /* --threads */
static const struct num_range open_pos = {0, INFINITY, NUM_LO_OPEN, NULL, NULL};
static const struct num_range secs = {0.001, 86400, 0, "seconds", NULL};
static const struct num_range pct = {0, 100, NUM_HI_OPEN | NUM_PERCENT, NULL, NULL};

static void ok_num(const char *s, const struct num_range *r, double want)
{
    double v = -42;
    if (num_parse(s, r, &v) != 0)
        fail_msg("num_parse(\"%s\") rejected", s);
    if (v != want)
        fail_msg("num_parse(\"%s\") = %.17g, want %.17g", s, v, want);
}

static void bad_num(const char *s, const struct num_range *r)
{
    double v = -42;
    if (num_parse(s, r, &v) != -1)
        fail_msg("num_parse(\"%s\") accepted (%g)", s ? s : "(null)", v);
    assert_true(v == -42);
}

/* The bug this parser replaced: "0" skipped the parse and then read the unset value, so
 * --age-fullness 0 was refused. A closed bound is a value like any other. */
static void test_number_closed_bounds(void **state)
{
    (void)state;
    ok_num("0", &closed01, 0);
    ok_num("0.0", &closed01, 0);
    ok_num("00", &closed01, 0);
    ok_num("0.8", &closed01, 0.8);
    ok_num("0.999", &closed01, 0.999);
    bad_num("1", &closed01);
    bad_num("1.0", &closed01);
    ok_num("0", &closed050, 0);
    ok_num("10", &closed050, 10);
    ok_num("50", &closed050, 50);
    bad_num("50.0001", &closed050);
    ok_num("0", &whole0, 0);
    ok_num("1000", &whole0, 1000);
    bad_num("1001", &whole0);
    bad_num("0", &whole1);
    ok_num("1", &whole1, 1);
    ok_num("64", &whole1, 64);
    bad_num("65", &whole1);
    bad_num("0", &open_pos);
    bad_num("0.0", &open_pos);
    ok_num("1e-300", &open_pos, 1e-300);
    ok_num("0.001", &secs, 0.001);
    ok_num("86400", &secs, 86400);
    bad_num("0.0009", &secs);
    bad_num("86400.5", &secs);
}

static void test_number_syntax(void **state)
{
    (void)state;
    ok_num("3", &open_pos, 3);
    ok_num("2.5", &open_pos, 2.5);
    ok_num(".5", &open_pos, 0.5);
    ok_num("5.", &open_pos, 5);
    ok_num("1e3", &open_pos, 1000);
    ok_num("1E+3", &open_pos, 1000);
    ok_num("2e-3", &open_pos, 0.002);
    const char *bad[] = {"",     " 1",   "1 ",    "+1",   "-1",   "-0",  "0x10", "0X1p3",
                         "inf",  "INF",  "nan",   "infinity", "1e",  "1e+", "e3",  ".",
                         "1.2.3", "1,5", "1x",    "5%",   "1e999", "1e-999", "١", "\t1",
                         NULL};
    for (size_t i = 0; bad[i]; i++)
        bad_num(bad[i], &open_pos);
    bad_num(NULL, &open_pos);
    double v = -42;
    assert_int_equal(num_parse("1", NULL, &v), -1);
    /* whole numbers: digits only */
    ok_num("007", &whole1, 7);
    bad_num("1.0", &whole1);
    bad_num("1e1", &whole1);
    bad_num("2.", &whole1);
    /* a value too long for any number */
    bad_num("00000000000000000000000000000000000000000000000000000000000000000001", &whole1);
}

static void test_number_percent(void **state)
{
    (void)state;
    ok_num("5", &pct, 0.05);
    ok_num("5%", &pct, 0.05);
    ok_num("2.5%", &pct, 0.025);
    ok_num("0", &pct, 0);
    ok_num("0%", &pct, 0);
    bad_num("100", &pct);
    bad_num("100%", &pct);
    bad_num("%", &pct);
    bad_num("5%%", &pct);
    bad_num("5 %", &pct);
    bad_num("%5", &pct);
    /* '%' only where a percentage is meant */
    bad_num("5%", &closed050);
}

static void text_is(const struct num_range *r, const char *want)
{
    char buf[160];
    const char *got = num_range_text(r, buf, sizeof buf);
    if (strcmp(got, want))
        fail_msg("range text '%s', want '%s'", got, want);
}

static void test_number_text(void **state)
{
    (void)state;
    text_is(&closed01, "a number from 0 to below 1");
    text_is(&closed050, "a number from 0 to 50");
    text_is(&whole1, "a whole number from 1 to 64");
    text_is(&open_pos, "a positive number");
    text_is(&secs, "a number of seconds from 0.001 to 86400");
    text_is(&pct, "a percentage from 0 to below 100 (like 5 or 2.5%)");
    const struct num_range runs = {1, 100000, NUM_WHOLE, NULL, "auto"};
    text_is(&runs, "a whole number from 1 to 100000 or auto");
    const struct num_range stonewall = {0, 86400, NUM_LO_OPEN, "seconds", NULL};
    text_is(&stonewall, "a number of seconds above 0 and at most 86400");
    const struct num_range open2 = {0, 100, NUM_LO_OPEN | NUM_HI_OPEN | NUM_PERCENT, NULL, NULL};
    text_is(&open2, "a percentage above 0 and below 100 (like 5 or 2.5%)");
    const struct num_range atleast = {2, INFINITY, NUM_WHOLE, NULL, NULL};
    text_is(&atleast, "a whole number of at least 2");
}

/* num_option: the value on success, one line naming the option and value else. */
static void test_option_number(void **state)
{
    (void)state;
    char msg[256] = "";
    double v = -42;
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(num_option("--age-fullness", "0", &closed01, &v), 0);
    assert_true(v == 0);
    assert_string_equal(msg, "");
    assert_int_equal(num_option("--age-fullness", "1", &closed01, &v), -1);
    err_capture_end();
    assert_true(v == 0);
    assert_string_equal(msg, "--age-fullness: '1' is not a number from 0 to below 1");
}

/* Consent is read from the argv given, by getopt's rules: a value that looks like an
 * option is a value, --destroy-data=DEV names the device, and the argv keeps its order. */
static void test_consent_scan(void **state)
{
    (void)state;
    char *a1[] = {"run", "j.ini", "--label", "--force", "--destroy-data", "--device", "/dev/x", NULL};
    assert_int_equal(run_consent_scan(7, a1, run_options_short(), run_options_getopt()), 0);
    const struct run_consent *c = run_consent();
    assert_true(c->destroy_data);
    assert_false(c->force); /* "--force" there is --label's value */
    assert_string_equal(c->device, "/dev/x");
    assert_null(c->destroy_dev);
    assert_string_equal(run_consent_device(), "/dev/x");
    assert_string_equal(a1[1], "j.ini"); /* not permuted */

    char *a2[] = {"run", "--destroy-data=/dev/y", "--age-host-fs", NULL};
    assert_int_equal(run_consent_scan(3, a2, run_options_short(), run_options_getopt()), 0);
    assert_true(c->destroy_data && c->age_host_fs && !c->force);
    assert_null(c->device);
    assert_string_equal(run_consent_device(), "/dev/y");

    char *a3[] = {"run", "--phases", "extract", NULL};
    assert_int_equal(run_consent_scan(3, a3, run_options_short(), run_options_getopt()), 0);
    assert_false(c->destroy_data || c->force || c->age_host_fs);
    assert_null(run_consent_device());

    char msg[256];
    char *a4[] = {"run", "--device", "/dev/x", "--destroy-data=/dev/y", NULL};
    err_capture_begin(msg, sizeof msg);
    assert_int_equal(run_consent_scan(4, a4, run_options_short(), run_options_getopt()), -1);
    err_capture_end();
    assert_string_equal(msg, "--device /dev/x and --destroy-data=/dev/y name two devices: name "
                             "the one whose data mkfs may destroy");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_positive),
        cmocka_unit_test(test_parse_count),
        cmocka_unit_test(test_parse_u64),
        cmocka_unit_test(test_number_closed_bounds),
        cmocka_unit_test(test_number_syntax),
        cmocka_unit_test(test_number_percent),
        cmocka_unit_test(test_number_text),
        cmocka_unit_test(test_option_number),
        cmocka_unit_test(test_consent_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
