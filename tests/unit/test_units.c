/* test_units.c — unit tests of src/base/units.c: each size in the unit that fits, one
 * decimal, never "1024.0" of a unit, whole bytes below 1 KiB. */
#include "testutil.h"

#include <math.h>

#include "base/units.h"

static void is_bytes(double b, const char *want)
{
    char buf[32];
    assert_string_equal(units_bytes(buf, sizeof buf, b), want);
}

static void test_bytes(void **state)
{
    (void)state;
    is_bytes(0, "0 B");
    is_bytes(1023, "1023 B");
    is_bytes(1024, "1.0 KiB");
    is_bytes(1536, "1.5 KiB");
    is_bytes(2.0 * 1048576, "2.0 MiB");
    is_bytes(1048576.0 * 1023.9, "1023.9 MiB");
    is_bytes(1048576.0 * 1023.97, "1.0 GiB"); /* not "1024.0 MiB" */
    is_bytes(2048000.0 * 1048576, "2.0 TiB"); /* the sparse image of 2048000.0 MiB */
    is_bytes(501953696.9 * 1048576, "478.7 TiB"); /* the issue's --size 100T figure */
    is_bytes(1e30, "888178419700125.2 PiB");
    is_bytes(-1, "?");
    is_bytes(NAN, "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
