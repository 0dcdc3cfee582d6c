/* test_duration.c — unit tests of src/run/duration.c: a duration in the units that fit
 * ("about 4 min 10 s"), never "60 s" or "60 min", and the model's figure growing with the
 * tree. */
#include "testutil.h"

#include <math.h>

#include "run/duration.h"

static void is_text(double s, const char *want)
{
    char buf[64];
    assert_string_equal(duration_text(buf, sizeof buf, s), want);
}

static void test_text(void **state)
{
    (void)state;
    is_text(0, "about 1 s");
    is_text(0.2, "about 1 s");
    is_text(12.4, "about 12 s");
    is_text(59.4, "about 59 s");
    is_text(59.6, "about 1 min"); /* not "about 60 s" */
    is_text(250, "about 4 min 10 s");
    is_text(3599.4, "about 59 min 59 s");
    is_text(3599.7, "about 1 h"); /* not "about 60 min" */
    is_text(3600, "about 1 h");
    is_text(7500, "about 2 h 5 min");
    is_text(-3, "about 1 s");
    is_text(NAN, "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
