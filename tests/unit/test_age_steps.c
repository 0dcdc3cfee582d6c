/* test_age_steps.c — unit tests of --age-steps' parsing (age_steps.c): N equal steps up
 * to the written limit, a list of rising multiples, and every refusal in one line. */
#include "testutil.h"

#include "base/err.h"
#include "run/age_steps.h"

static void test_equal_steps(void **state)
{
    (void)state;
    double x[AGE_STEPS_MAX];
    size_t n;
    assert_int_equal(age_steps_parse("4", 2, x, &n), 0);
    assert_int_equal(n, 4);
    assert_true(x[0] == 0.5 && x[1] == 1 && x[2] == 1.5 && x[3] == 2);
    assert_int_equal(age_steps_parse("1", 4, x, &n), 0);
    assert_int_equal(n, 1);
    assert_true(x[0] == 4);
}

static void test_list(void **state)
{
    (void)state;
    double x[AGE_STEPS_MAX];
    size_t n;
    assert_int_equal(age_steps_parse("0,0.5,1,2,4", 4, x, &n), 0);
    assert_int_equal(n, 5);
    assert_true(x[0] == 0 && x[1] == 0.5 && x[4] == 4);
    assert_int_equal(age_steps_parse("0.25", 0, x, &n), 0); /* one multiple: no limit needed */
    assert_int_equal(n, 1);
    char name[64];
    age_steps_name(0.5, name, sizeof name);
    assert_string_equal(name, "aged-0.5x");
    age_steps_name(2, name, sizeof name);
    assert_string_equal(name, "aged-2x");
}

static void refused(const char *arg, double written, const char *want)
{
    double x[AGE_STEPS_MAX];
    size_t n;
    char msg[512];
    err_capture_begin(msg, sizeof msg);
    int rc = age_steps_parse(arg, written, x, &n);
    err_capture_end();
    assert_int_equal(rc, -1);
    if (!strstr(msg, want))
        fail_msg("'%s': '%s' lacks '%s'", arg, msg, want);
}

static void test_refused(void **state)
{
    (void)state;
    refused("0", 4, "give 1 to 32 steps");
    refused("33", 4, "give 1 to 32 steps");
    refused("3", 0, "equal steps need a written limit");
    refused("1,0.5", 4, "must rise (0.5 after 1)");
    refused("1,1", 4, "must rise");
    refused("-1,2", 4, "not a written multiple from 0 to 50");
    refused("0.5,51", 4, "not a written multiple from 0 to 50");
    refused("0.5,", 4, "ends with a comma");
    refused("0.5,x", 4, "is not N or a list");
    refused("abc", 4, "is not N or a list");
    refused("", 4, "empty");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equal_steps),
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
