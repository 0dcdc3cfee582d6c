/* test_csv.c — unit tests of src/base/csv.c: a field as it is when it can be, RFC 4180
 * quoting when it holds a comma, quote or line break, and a formula-like cell (CSV
 * injection) quoted behind a single quote unless it is a plain number. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "base/csv.h"

/* What csv_put_field writes for s. */
static void is_field(const char *s, const char *want)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    csv_put_field(f, s);
    assert_int_equal(fclose(f), 0);
    assert_string_equal(buf, want);
    free(buf);
}

static void test_plain(void **state)
{
    (void)state;
    is_field("", "");
    is_field("nightly-6.8", "nightly-6.8");
    is_field("ext4:noatime", "ext4:noatime");
}

static void test_quoted(void **state)
{
    (void)state;
    is_field("a,b", "\"a,b\"");
    is_field("say \"hi\"", "\"say \"\"hi\"\"\"");
    is_field("two\nlines", "\"two\nlines\"");
    is_field("cr\r", "\"cr\r\"");
}

static void test_formula(void **state)
{
    (void)state;
    is_field("=1+1", "\"'=1+1\"");
    is_field("@SUM(A1)", "\"'@SUM(A1)\"");
    is_field("+cmd", "\"'+cmd\"");
    is_field("-x", "\"'-x\"");
    is_field("\tx", "\"'\tx\"");
    is_field("=a,\"b\"", "\"'=a,\"\"b\"\"\"");
    /* numbers are numbers, whatever their sign */
    is_field("-1.5", "-1.5");
    is_field("+2e3", "+2e3");
    is_field("-", "\"'-\"");
    assert_true(csv_plain_number("-0.25"));
    assert_false(csv_plain_number("-0.25x"));
    assert_false(csv_plain_number("-"));
    assert_false(csv_plain_number(".5"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_quoted),
        cmocka_unit_test(test_formula),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
