/* test_run_session.c — unit tests of what run/run_session.c decides alone: the --label check
 * (none given is fine; an empty one, one too long or one with a control character is
 * refused with EXIT_USAGE; the longest label that fits is taken).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/err.h"
#include "run/run_session.h"

static void test_check_label(void **state)
{
    (void)state;
    char longest[RES_NAME_MAX], too_long[RES_NAME_MAX + 1];
    memset(longest, 'a', sizeof longest - 1);
    longest[sizeof longest - 1] = '\0';
    memset(too_long, 'a', sizeof too_long - 1);
    too_long[sizeof too_long - 1] = '\0';

    assert_int_equal(run_session_check_label(NULL), 0);
    assert_int_equal(run_session_check_label("ext4-6.8"), 0);
    assert_int_equal(run_session_check_label(longest), 0);
    assert_int_equal(run_session_check_label(""), EXIT_USAGE);
    assert_int_equal(run_session_check_label(too_long), EXIT_USAGE);
    assert_int_equal(run_session_check_label("a\nb"), EXIT_USAGE);
    assert_int_equal(run_session_check_label("a\x1b[2Jb"), EXIT_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_label),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
